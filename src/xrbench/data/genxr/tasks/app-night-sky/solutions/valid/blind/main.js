import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Stars when you look up: a night sky of stars around the user's eyes that
 * shows while the user looks up and hides when they look back down.
 */

const STAR_COUNT = 600;
const SKY_RADIUS = 8; // metres from the eyes.
const MIN_ELEVATION = THREE.MathUtils.degToRad(12); // above eye level.
const MAX_ELEVATION = THREE.MathUtils.degToRad(89);
const SHOW_ABOVE = THREE.MathUtils.degToRad(40); // look up more than this...
const HIDE_BELOW = THREE.MathUtils.degToRad(30); // ...until less than this.

const _eyes = new THREE.Vector3();
const _forward = new THREE.Vector3();

class NightSky extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));

    this.stars = this.createStars();
    this.stars.visible = false; // Hidden at first: the user looks ahead.
    this.add(this.stars);
  }

  createStars() {
    const positions = new Float32Array(STAR_COUNT * 3);
    const colors = new Float32Array(STAR_COUNT * 3);
    const color = new THREE.Color();
    // Scattered at random over the band of the upper sky between the two
    // elevations (uniform in area, stratified in height), each quarter of
    // the compass getting every fourth star.
    const sinMin = Math.sin(MIN_ELEVATION);
    const sinMax = Math.sin(MAX_ELEVATION);
    for (let i = 0; i < STAR_COUNT; i++) {
      const f = (i + Math.random()) / STAR_COUNT;
      const elevation = Math.asin(sinMin + f * (sinMax - sinMin));
      const azimuth = ((i % 4) + Math.random()) * (Math.PI / 2);
      const horizontal = Math.cos(elevation) * SKY_RADIUS;
      positions[i * 3] = Math.sin(azimuth) * horizontal;
      positions[i * 3 + 1] = Math.sin(elevation) * SKY_RADIUS;
      positions[i * 3 + 2] = -Math.cos(azimuth) * horizontal;

      // White, pale blue and warm stars of varying brightness.
      const hue = Math.random() < 0.5 ? 0.6 : 0.1;
      const saturation = Math.random() * 0.3;
      const lightness = 0.65 + Math.random() * 0.35;
      color.setHSL(hue, saturation, lightness);
      colors[i * 3] = color.r;
      colors[i * 3 + 1] = color.g;
      colors[i * 3 + 2] = color.b;
    }
    const geometry = new THREE.BufferGeometry();
    geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
    geometry.setAttribute('color', new THREE.BufferAttribute(colors, 3));
    geometry.computeBoundingSphere();

    const material = new THREE.PointsMaterial({
      size: 3,
      sizeAttenuation: false,
      vertexColors: true,
      depthWrite: false,
      fog: false,
    });

    const stars = new THREE.Points(geometry, material);
    stars.name = 'night-sky';
    stars.frustumCulled = false;
    stars.renderOrder = -1;
    // The sky is decoration: keep it out of the pointer rays.
    stars.raycast = () => {};
    stars.userData.xrblocksDevtools = {tag: 'night-sky', state: {}};
    // Never turns: the star field keeps the world's axes.
    stars.quaternion.identity();
    return stars;
  }

  /** Centres the sky on the eyes of the given camera (world position). */
  followEyes(camera) {
    camera.updateMatrixWorld();
    camera.getWorldPosition(_eyes);
    const parent = this.stars.parent;
    if (parent) {
      parent.updateWorldMatrix(true, false);
      parent.worldToLocal(_eyes);
    }
    this.stars.position.copy(_eyes);
  }

  update() {
    const camera = xb.core.camera;
    if (!camera || !this.stars) return;
    camera.updateMatrixWorld();
    camera.getWorldDirection(_forward);
    const pitch = Math.asin(THREE.MathUtils.clamp(_forward.y, -1, 1));
    if (this.stars.visible) {
      if (pitch < HIDE_BELOW) this.stars.visible = false;
    } else if (pitch > SHOW_ABOVE) {
      this.stars.visible = true;
    }
    this.followEyes(camera);
    this.stars.updateMatrixWorld(true);
  }
}

document.addEventListener('DOMContentLoaded', function () {
  xb.add(new NightSky());
  xb.init(new xb.Options());
});
