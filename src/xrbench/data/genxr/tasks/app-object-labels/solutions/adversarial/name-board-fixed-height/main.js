import * as THREE from 'three';
import * as xb from 'xrblocks';

// One label per kind of object, at a fixed height above the floor, refreshed once a second.
const LABEL_HEIGHT = 1.2;

function texture(text) {
  const canvas = document.createElement('canvas');
  canvas.width = 256;
  canvas.height = 80;
  const g = canvas.getContext('2d');
  g.fillStyle = '#263238';
  g.fillRect(0, 0, 256, 80);
  g.fillStyle = '#ffffff';
  g.font = '40px sans-serif';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(text, 128, 40);
  return new THREE.CanvasTexture(canvas);
}

class NameBoard extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.byName = new Map();
    setInterval(() => this.refresh(), 1000);
  }

  async refresh() {
    const found = (await xb.world?.objects?.runDetection()) ?? [];
    const names = new Set();
    for (const d of found) {
      names.add(d.label);
      let mesh = this.byName.get(d.label);
      if (!mesh) {
        mesh = new THREE.Mesh(new THREE.PlaneGeometry(0.16, 0.05), new THREE.MeshBasicMaterial({map: texture(d.label)}));
        mesh.userData.xrblocksDevtools = {tag: 'object-label', state: {label: d.label}};
        this.byName.set(d.label, mesh);
        this.add(mesh);
      }
      const p = d.getWorldPosition(new THREE.Vector3());
      mesh.position.set(p.x, LABEL_HEIGHT, p.z);
    }
    for (const [name, mesh] of this.byName) mesh.visible = names.has(name);
  }

  update() {
    const eye = xb.core.camera.getWorldPosition(new THREE.Vector3());
    for (const mesh of this.byName.values()) mesh.lookAt(eye.x, mesh.position.y, eye.z);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options();
  options.enableObjectDetection();
  options.world.objects.simulatorOverride = true;
  options.enableAI();
  xb.add(new NameBoard());
  xb.init(options);
});
