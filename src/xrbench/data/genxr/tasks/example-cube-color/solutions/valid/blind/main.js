import * as THREE from 'three';
import * as xb from 'xrblocks';

// The colours the cube cycles through, one step per select.
const COLORS = ['#ff0000', '#00c853', '#2962ff', '#ffd600'];
const CUBE_SIZE = 0.3;      // metres
const CUBE_DISTANCE = 1.2;  // metres in front of the user

/**
 * A cube about 0.3 m wide, 1.2 m in front of the user at eye height, that changes to the next
 * colour each time the user selects it (a pinch with either hand, or a click in the simulator).
 */
class ColorCubeScene extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.colorIndex = 0;
    const geometry = new THREE.BoxGeometry(CUBE_SIZE, CUBE_SIZE, CUBE_SIZE);
    const material = new THREE.MeshPhongMaterial({color: COLORS[0]});
    this.cube = new THREE.Mesh(geometry, material);
    this.cube.name = 'color-cube';
    // Until the head pose is known (first frame): the default eye height, straight ahead.
    this.cube.position.set(0, xb.user.height, -CUBE_DISTANCE);
    this.cube.userData.xrblocksDevtools = {tag: 'color-cube', state: {color: COLORS[0]}};
    this.add(this.cube);
    this.placed = false;
  }

  update() {
    if (this.placed) return;
    // Place the cube once, in front of the head (level), as soon as the head pose is set.
    const camera = xb.core.camera;
    camera.updateMatrixWorld(true);
    const head = new THREE.Vector3().setFromMatrixPosition(camera.matrixWorld);
    if (head.y < 0.5) return;  // head height not set yet
    const forward = new THREE.Vector3(0, 0, -1).transformDirection(camera.matrixWorld);
    forward.y = 0;
    if (forward.lengthSq() < 1e-8) forward.set(0, 0, -1);
    forward.normalize();
    this.cube.position.copy(head).addScaledVector(forward, CUBE_DISTANCE);
    this.placed = true;
  }

  onObjectSelectStart() {
    // The cube is the only selectable object of this script: every select of it steps the colour.
    this.nextColor();
  }

  nextColor() {
    this.colorIndex = (this.colorIndex + 1) % COLORS.length;
    this.cube.material.color.set(COLORS[this.colorIndex]);
    this.cube.userData.xrblocksDevtools.state.color = '#' + this.cube.material.color.getHexString();
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new ColorCubeScene());
  xb.init(new xb.Options());
});
