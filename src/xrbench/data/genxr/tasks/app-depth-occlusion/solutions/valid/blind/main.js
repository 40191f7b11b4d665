import * as THREE from 'three';
import * as xb from 'xrblocks';

const AVAILABLE_COLOR = '#00c853';
const UNAVAILABLE_COLOR = '#d50000';

const cameraPosition = new THREE.Vector3();
const viewDirection = new THREE.Vector3();

/**
 * Depth sensing demo: a world-fixed status indicator that shows whether live
 * depth data is available (green) or not (red), and a marker placed where the
 * user's line of sight meets the real world according to the depth data.
 */
class DepthScene extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    // Depth-status indicator, fixed in the room.
    this.indicator = new THREE.Mesh(
      new THREE.SphereGeometry(0.03, 24, 16),
      new THREE.MeshBasicMaterial({color: UNAVAILABLE_COLOR})
    );
    this.indicator.name = 'depth-status-indicator';
    this.indicator.position.set(-0.2, 1.25, -0.6);
    this.indicator.userData.xrblocksDevtools = {
      tag: 'depth-status',
      state: {depthAvailable: false, centerDepth: null},
    };
    this.add(this.indicator);

    // Gaze hit marker: hidden until depth data is available.
    this.marker = new THREE.Mesh(
      new THREE.SphereGeometry(0.025, 24, 16),
      new THREE.MeshBasicMaterial({color: '#ffeb3b'})
    );
    this.marker.name = 'depth-hit-marker';
    this.marker.visible = false;
    this.marker.userData.xrblocksDevtools = {tag: 'depth-hit', state: {}};
    this.add(this.marker);

    this.refresh();
  }

  update() {
    this.refresh();
  }

  /** Reads the live depth data and updates the indicator and the marker. */
  refresh() {
    const depth = xb.core.depth;
    const available = !!(depth && depth.depthArray && depth.depthArray[0]);
    let centerDepth = null;
    if (available) {
      centerDepth = depth.getDepth(0.5, 0.5);
    }

    this.indicator.material.color.set(
      available ? AVAILABLE_COLOR : UNAVAILABLE_COLOR
    );
    this.indicator.userData.xrblocksDevtools.state = {
      depthAvailable: available,
      centerDepth,
    };

    if (available && Number.isFinite(centerDepth)) {
      const camera = xb.core.camera;
      camera.updateMatrixWorld(true);
      camera.getWorldPosition(cameraPosition);
      camera.getWorldDirection(viewDirection);
      const worldPoint = cameraPosition.addScaledVector(
        viewDirection,
        centerDepth
      );
      // The marker's parent is this script; convert to its local frame.
      this.updateMatrixWorld(true);
      this.marker.position.copy(this.worldToLocal(worldPoint.clone()));
      this.marker.visible = true;
      this.marker.userData.xrblocksDevtools.state = {
        position: [worldPoint.x, worldPoint.y, worldPoint.z],
        centerDepth,
      };
    } else {
      this.marker.visible = false;
      this.marker.userData.xrblocksDevtools.state = {};
    }
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enableDepth();
  options.depth.occlusion.enabled = true;
  xb.add(new DepthScene());
  xb.init(options);
});
