import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Two-pinch band drawn as a THREE.Line. The pinches are tracked from select events per hand; the
 * band is rebuilt from the fingertips every frame while both are held.
 */
class Band extends xb.Script {
  init() {
    this.pinching = {left: false, right: false};
    this.line = new THREE.Line(
      new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), new THREE.Vector3()]),
      new THREE.LineBasicMaterial({color: '#2e7d32'})
    );
    this.line.userData.xrblocksDevtools = {tag: 'pinch-band', state: {}};
    this.line.frustumCulled = false;
    this.line.visible = false;
    this.add(this.line);
  }

  // each pinch flips that hand's state
  onSelectStart(event) {
    const hand = event.source.handedness;
    this.pinching[hand] = !this.pinching[hand];
    this.refresh();
  }

  refresh() {
    const show = this.pinching.left && this.pinching.right;
    this.line.visible = show;
    if (!show) return;
    const ends = [0, 1].map((i) => {
      const j = xb.core.input.hands[i].joints['index-finger-tip'];
      j.updateWorldMatrix(true, false);
      return new THREE.Vector3().setFromMatrixPosition(j.matrixWorld);
    });
    this.line.geometry.setFromPoints(ends);
    this.line.geometry.attributes.position.needsUpdate = true;
    this.line.material.color.set(ends[0].distanceTo(ends[1]) >= 0.4 ? '#ff1744' : '#00e640');
  }

  update() {
    this.refresh();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableHands();
  xb.add(new Band());
  xb.init(options);
});
