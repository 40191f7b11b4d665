import * as THREE from 'three';
import * as xb from 'xrblocks';

const WALL_COLOR = 0x00ffff;
const FLOOR_COLOR = 0xff8000;

/**
 * Outlines the room's detected walls (cyan) and floor (orange).
 *
 * Every frame the script looks at the planes XR Blocks' plane detection
 * reports (`xb.world.planes`). Each new wall or floor gets one closed line
 * (`THREE.LineLoop`) along the edges of its polygon, built in world
 * coordinates and added to this script (which sits at the world origin), so
 * the outline stays where the plane is in the room whatever the user does.
 * Planes are recognised by what they are (label, pose and polygon), not by
 * the mesh object XR Blocks makes for them, because XR Blocks rebuilds those
 * meshes whenever the set of planes changes; so a plane never gets a second
 * outline.
 */
class WallOutlines extends xb.Script {
  constructor() {
    super();
    /** Outline per plane key. */
    this.outlines = new Map();
    /** Cache: DetectedPlane mesh -> key (null for planes we ignore). */
    this.planeKeys = new WeakMap();
    this.tmpMatrix = new THREE.Matrix4();
  }

  init() {
    this.scanPlanes();
  }

  update() {
    this.scanPlanes();
  }

  /** Looks for planes not yet outlined; called every frame. */
  scanPlanes() {
    const detector = xb.world?.planes;
    if (!detector || typeof detector.get !== 'function') return;
    let planes;
    try {
      planes = detector.get();
    } catch (e) {
      return;
    }
    if (!planes) return;
    for (const plane of planes) {
      this.handlePlane(plane);
    }
  }

  /** Returns 'wall', 'floor' or null for a detected plane. */
  kindOf(plane) {
    const label = String(
      plane.label ??
        plane.xrPlane?.semanticLabel ??
        plane.simulatorPlane?.label ??
        ''
    )
      .trim()
      .toLowerCase();
    if (label === 'wall') return 'wall';
    if (label === 'floor') return 'floor';
    return null;
  }

  handlePlane(plane) {
    if (!plane) return;
    const xrPlane = plane.xrPlane;
    if (xrPlane) {
      this.handleXRPlane(plane, xrPlane);
      return;
    }
    if (this.planeKeys.has(plane)) return; // Already seen this mesh.
    const kind = this.kindOf(plane);
    if (!kind) {
      this.planeKeys.set(plane, null);
      return;
    }
    const points = this.worldPolygon(plane);
    if (!points || points.length < 2) return; // Try again next frame.
    const key =
      kind +
      '|' +
      points
        .map((p) => `${p.x.toFixed(3)},${p.y.toFixed(3)},${p.z.toFixed(3)}`)
        .join(';');
    this.planeKeys.set(plane, key);
    if (!this.outlines.has(key)) {
      this.outlines.set(key, this.makeOutline(kind, points));
    }
  }

  /** Real WebXR planes: one outline per XRPlane, refreshed when it changes. */
  handleXRPlane(plane, xrPlane) {
    const changed = xrPlane.lastChangedTime ?? 0;
    const entry = this.outlines.get(xrPlane);
    if (entry && entry.changed >= changed && entry.mesh === plane) return;
    const kind = this.kindOf(plane);
    if (!kind) return;
    const points = this.worldPolygon(plane);
    if (!points || points.length < 2) return;
    if (entry) {
      entry.line.geometry.dispose();
      entry.line.geometry = new THREE.BufferGeometry().setFromPoints(
        this.densify(points)
      );
      entry.changed = changed;
      entry.mesh = plane;
    } else {
      const line = this.makeOutline(kind, points);
      this.outlines.set(xrPlane, {line, changed, mesh: plane});
    }
  }

  /**
   * The closed polygon with extra points along each edge, at most 10 cm
   * apart: the outline is the same, but a long edge that passes beside or
   * behind the user is drawn as short segments, which renderers that drop a
   * segment crossing the camera plane still draw (all but the few
   * centimetres at the user).
   */
  densify(points) {
    const dense = [];
    for (let i = 0; i < points.length; i++) {
      const a = points[i];
      const b = points[(i + 1) % points.length];
      const n = Math.max(1, Math.ceil(a.distanceTo(b) / 0.1));
      for (let k = 0; k < n; k++) dense.push(a.clone().lerp(b, k / n));
    }
    return dense;
  }

  /** The plane's polygon as world-space points, in order, not closed. */
  worldPolygon(plane) {
    let local = [];
    const polygon = plane.simulatorPlane?.polygon ?? plane.xrPlane?.polygon;
    if (polygon && polygon.length) {
      for (const p of polygon) {
        if (p.z !== undefined && p.z !== null) {
          // WebXR polygon: DOMPointReadOnly in the plane's x-z plane.
          local.push(new THREE.Vector3(p.x, p.y || 0, p.z));
        } else {
          // Simulator polygon: Vector2 (x, y) standing for local (x, z).
          local.push(new THREE.Vector3(p.x, 0, p.y));
        }
      }
    } else {
      // Fallback: the contour vertices of the plane's shape geometry.
      const position = plane.geometry?.attributes?.position;
      if (!position) return null;
      for (let i = 0; i < position.count; i++) {
        local.push(new THREE.Vector3().fromBufferAttribute(position, i));
      }
    }
    // Drop a repeated closing point (LineLoop closes the loop itself).
    if (
      local.length > 2 &&
      local[0].distanceTo(local[local.length - 1]) < 1e-6
    ) {
      local = local.slice(0, -1);
    }
    // The plane's pose in the world (computed now: a plane detected this
    // frame has not been rendered yet, so its matrixWorld may be stale).
    plane.updateWorldMatrix(true, false);
    // This script is meant to sit at the origin; express the points in its
    // frame anyway so the outline lands where the plane is.
    this.updateWorldMatrix(true, false);
    const toLocal = this.tmpMatrix.copy(this.matrixWorld).invert();
    return local.map((p) =>
      p.applyMatrix4(plane.matrixWorld).applyMatrix4(toLocal)
    );
  }

  makeOutline(kind, points) {
    const geometry = new THREE.BufferGeometry().setFromPoints(
      this.densify(points)
    );
    const material = new THREE.LineBasicMaterial({
      color: kind === 'wall' ? WALL_COLOR : FLOOR_COLOR,
    });
    const line = new THREE.LineLoop(geometry, material);
    line.name = kind === 'wall' ? 'wall-outline' : 'floor-outline';
    line.userData.xrblocksDevtools = {
      tag: kind === 'wall' ? 'wall-outline' : 'floor-outline',
    };
    this.add(line);
    return line;
  }
}

document.addEventListener('DOMContentLoaded', function () {
  const options = new xb.Options();
  options.enablePlaneDetection();
  xb.add(new WallOutlines());
  xb.init(options);
});
