import * as THREE from 'three';
import * as xb from 'xrblocks';

// Wrong on purpose: a pinch anywhere picks up the block nearest the hand (within 30 cm), which
// jumps onto the fingertip; released, it drops at once onto the table, whatever is below it.
class Blocks extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x555555, 3));
    this.tableY = null;
    this.held = [null, null];
    this.meshes = ['A', 'B', 'C'].map((id) => {
      const m = new THREE.Mesh(new THREE.BoxGeometry(0.08, 0.08, 0.08), new THREE.MeshLambertMaterial({color: 0xcc8844}));
      m.visible = false;
      m.userData.xrblocksDevtools = {tag: 'block', state: {id, restingOn: null, held: false}};
      this.add(m);
      return m;
    });
  }

  tip(i) {
    return xb.core.input.hands[i]?.joints?.['index-finger-tip']?.getWorldPosition(new THREE.Vector3());
  }

  onSelectStart(event) {
    const i = xb.core.input.controllers.indexOf(event.target);
    const tip = this.tip(i);
    if (i < 0 || !tip || this.tableY === null) return;
    const near = this.meshes.filter((m) => m.position.distanceTo(tip) < 0.3 && !this.held.includes(m))
        .sort((a, b) => a.position.distanceTo(tip) - b.position.distanceTo(tip))[0];
    if (!near) return;
    this.held[i] = near;
    Object.assign(near.userData.xrblocksDevtools.state, {held: true, restingOn: null});
  }

  onSelectEnd(event) {
    const i = xb.core.input.controllers.indexOf(event.target);
    const m = this.held[i];
    if (!m) return;
    this.held[i] = null;
    m.position.y = this.tableY + 0.04;
    Object.assign(m.userData.xrblocksDevtools.state, {held: false, restingOn: 'table'});
  }

  update() {
    if (this.tableY === null) {
      const table = (xb.world?.planes?.get() ?? []).find((p) => p.label === 'table');
      if (!table) return;
      const c = table.getWorldPosition(new THREE.Vector3());
      this.tableY = c.y;
      this.meshes.forEach((m, k) => {
        m.position.set(c.x + (k - 1) * 0.15, c.y + 0.04, c.z);
        m.visible = true;
        m.userData.xrblocksDevtools.state.restingOn = 'table';
      });
    }
    this.held.forEach((m, i) => {
      const tip = m && this.tip(i);
      if (tip) m.position.copy(tip);
    });
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Blocks());
  const options = new xb.Options();
  options.enablePlaneDetection();
  options.enableHands();
  xb.init(options);
});
