import * as THREE from 'three';
import * as xb from 'xrblocks';

const BALL_CENTRE = new THREE.Vector3(0, 1.5, -1.5);
const COS_LIMIT = Math.cos((10 * Math.PI) / 180);

let audio = null;

function chime() {
  if (!audio) audio = new AudioContext();
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = 'triangle';
  osc.frequency.value = 660;
  gain.gain.value = 0.3;
  osc.connect(gain).connect(audio.destination);
  osc.start();
  osc.stop(audio.currentTime + 0.3);
}

class Ball extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.mesh = new THREE.Mesh(
      new THREE.SphereGeometry(0.05, 20, 12),
      new THREE.MeshStandardMaterial({color: 0x66ccff, emissive: 0x224466})
    );
    this.mesh.position.copy(BALL_CENTRE);
    this.add(this.mesh);
    this.wasOn = null;
  }

  update() {
    const m = xb.core.camera.matrixWorld;
    xb.core.camera.updateMatrixWorld(true);
    const eye = new THREE.Vector3().setFromMatrixPosition(m);
    const q = new THREE.Quaternion();
    m.decompose(new THREE.Vector3(), q, new THREE.Vector3());
    const dir = new THREE.Vector3(0, 0, -1).applyQuaternion(q);
    const to = BALL_CENTRE.clone().sub(eye).normalize();
    const on = dir.dot(to) >= COS_LIMIT;
    if (on && this.wasOn === false) chime();
    this.wasOn = on;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new Ball());
  xb.init(new xb.Options());
});
