import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * A minimal XR Blocks app: a light and a cylinder in front of the user. The host page maps
 * `@google/genai`, which XR Blocks loads when AI is enabled (`options.enableAI()`).
 */
class BasicScene extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    const geometry = new THREE.CylinderGeometry(0.2, 0.2, 0.4, 32);
    const material = new THREE.MeshPhongMaterial({color: 0xffffff});
    this.cylinder = new THREE.Mesh(geometry, material);
    this.cylinder.position.set(0, xb.user.height - 0.5, -xb.user.objectDistance);
    this.add(this.cylinder);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new BasicScene());
  xb.init(new xb.Options());
});
