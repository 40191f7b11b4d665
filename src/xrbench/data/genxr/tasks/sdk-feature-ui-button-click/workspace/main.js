// Tally Counter: a card with a count and three buttons. "Add" counts up, "Undo" counts down, and
// "Reset" (enabled only while the count is 3 or more) clears the count. A slider below the buttons
// sets the size of a plain sphere next to the card, which flashes when it is selected. Objects carry semantic tags (`userData.xrblocksDevtools`).
import * as THREE from 'three';
import * as xb from 'xrblocks';

function tag(object, name, state = {}) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

class TallyCounter extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.tally = {count: 0, adds: 0, undos: 0, resets: 0};

    this.countText = new xb.UIText({text: 'Count: 0', style: {fontSize: 48}});
    const row = (...children) => new xb.UIPanel({
      style: {flexDirection: 'row', gap: 24, justifyContent: 'center'}, children});

    this.addButton = new xb.UIButton({
      label: 'Add', style: {width: 180, height: 110},
      onClick: () => this.change('adds', this.tally.count + 1)});
    this.undoButton = new xb.UIButton({label: 'Undo', style: {width: 180, height: 110}});
    // A callback can also be attached after construction.
    this.undoButton.onClick = () => this.change('undos', Math.max(0, this.tally.count - 1));
    this.resetButton = new xb.UIButton({
      label: 'Reset', disabled: true, style: {width: 180, height: 110},
      onClick: () => this.change('resets', 0)});

    this.sizeSlider = new xb.UISlider({
      ariaLabel: 'Sphere size', min: 0.5, max: 2, step: 0.1, value: 1, style: {width: 560, height: 70},
      onInput: (value) => this.resize(value, false),
      onChange: (value) => this.resize(value, true)});

    this.card = new xb.UICard({
      size: {width: 0.7, height: 0.5},
      style: {padding: 24, gap: 24, flexDirection: 'column', alignItems: 'center'},
      children: [this.countText, row(this.addButton, this.undoButton, this.resetButton), this.sizeSlider],
    });
    this.card.position.set(0, 1.35, -0.9);
    this.add(this.card);

    this.state = tag(this.card, 'tally-card', this.tally);
    this.buttonStates = {
      add: tag(this.addButton, 'add-button', {clicks: 0}),
      undo: tag(this.undoButton, 'undo-button', {clicks: 0}),
      reset: tag(this.resetButton, 'reset-button', {clicks: 0, disabled: true}),
    };
    this.sliderState = tag(this.sizeSlider, 'size-slider', {value: 1, inputs: 0, changes: 0, changed: null});

    // A plain (non-UI) object with ordinary select handlers.
    this.ping = new THREE.Mesh(
      new THREE.SphereGeometry(0.06, 24, 16),
      new THREE.MeshStandardMaterial({color: 0x4477ff}));
    this.ping.position.set(0.5, 1.35, -0.9);
    this.pingState = tag(this.ping, 'ping', {selects: 0, ends: 0, completed: 0});
    this.add(this.ping);
  }

  update() {
    // UI elements are laid out by the UI renderer: report where each button really is (its
    // rendered centre in world coordinates) so that tools can aim at it.
    const v = new THREE.Vector3();
    for (const [name, button] of [['add', this.addButton], ['undo', this.undoButton], ['reset', this.resetButton]]) {
      this.buttonStates[name].center = button.getWorldPosition(v).toArray().map((x) => +x.toFixed(4));
    }
    this.sliderState.center = this.sizeSlider.getWorldPosition(v).toArray().map((x) => +x.toFixed(4));
  }

  resize(value, committed) {
    this.ping.scale.setScalar(value);
    this.sliderState.value = value;
    if (committed) {
      this.sliderState.changes += 1;
      this.sliderState.changed = value;
    } else {
      this.sliderState.inputs += 1;
    }
  }

  change(kind, count) {
    const which = {adds: 'add', undos: 'undo', resets: 'reset'}[kind];
    this.buttonStates[which].clicks += 1;
    this.tally[kind] += 1;
    this.tally.count = count;
    this.countText.text = `Count: ${count}`;
    this.resetButton.disabled = count < 3;
    this.buttonStates.reset.disabled = this.resetButton.disabled;
  }

  onObjectSelectStart(event) {
    if (event.target === this.ping || event.surface === this.ping) {
      this.pingState.selects += 1;
      this.ping.material.color.setHex(this.pingState.selects % 2 ? 0xffaa22 : 0x4477ff);
    }
  }

  onObjectSelectEnd(event) {
    if (event.target === this.ping || event.surface === this.ping) {
      this.pingState.ends += 1;
      if (event.completed) this.pingState.completed += 1;
    }
  }
}

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new TallyCounter());
  xb.init(new xb.Options());
});
