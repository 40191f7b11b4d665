// Light-Matched Still Life: a small table with a ball, a box and a cone, lit only by XR Blocks'
// estimated lighting (the main directional light and the ambient light probe that the SDK's
// Lighting module adds to the scene) and casting shadows onto the table and, through the depth
// mesh's shadow material, onto the real world. The app adds no light of its own.
//
// The button to the right turns the lighting option `useDynamicSoftShadow` off and on: while it is
// on, the SDK makes the shadows softer and fainter when the room's ambient light is strong compared
// with the main light. Objects carry semantic tags (`userData.xrblocksDevtools`).
import * as THREE from 'three';
import * as xb from 'xrblocks';

function tag(object, name, state = {}) {
  object.name = name;
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

function standard(color, roughness = 0.6) {
  return new THREE.MeshStandardMaterial({color, roughness, metalness: 0.0});
}

class StillLife extends xb.Script {
  init() {
    tag(this, 'still-life');
    this.position.set(0, 0, -1.3);

    const table = new THREE.Mesh(new THREE.BoxGeometry(0.9, 0.04, 0.6), standard(0xc8b090));
    table.position.y = 0.78;
    table.receiveShadow = true;
    tag(table, 'table-top');
    this.add(table);

    const ball = new THREE.Mesh(new THREE.SphereGeometry(0.09, 32, 16), standard(0xd04040, 0.4));
    ball.position.set(-0.22, 0.89, 0.05);
    tag(ball, 'ball');

    const box = new THREE.Mesh(new THREE.BoxGeometry(0.14, 0.14, 0.14), standard(0x4070d0));
    box.position.set(0.02, 0.87, -0.06);
    box.rotation.y = 0.5;
    tag(box, 'box');

    const cone = new THREE.Mesh(new THREE.ConeGeometry(0.07, 0.2, 32), standard(0x40b060));
    cone.position.set(0.24, 0.9, 0.06);
    tag(cone, 'cone');

    for (const object of [ball, box, cone]) {
      object.castShadow = true;
      object.receiveShadow = true;
      this.add(object);
    }
  }
}

class SoftShadowButton extends xb.MeshScript {
  constructor(lightingOptions) {
    super(new THREE.BoxGeometry(0.16, 0.08, 0.05), new THREE.MeshBasicMaterial({color: 0x3050c0}));
    this.lightingOptions = lightingOptions;
    this.position.set(0.7, 1.25, -1.3);
    this.state = tag(this, 'soft-shadow-button', {
      presses: 0,
      soft: lightingOptions.useDynamicSoftShadow,
    });
  }

  onObjectSelectStart() {
    this.lightingOptions.useDynamicSoftShadow = !this.lightingOptions.useDynamicSoftShadow;
    this.state.presses += 1;
    this.state.soft = this.lightingOptions.useDynamicSoftShadow;
    this.material.color.setHex(this.state.soft ? 0x3050c0 : 0x707070);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options();
  // Estimated lighting: the main directional light and the ambient probe, with soft shadows.
  options.lighting.enabled = true;
  options.lighting.useAmbientSH = true;
  options.lighting.useDirectionalLight = true;
  options.lighting.castDirectionalLightShadow = true;
  options.lighting.useDynamicSoftShadow = true;
  // The depth mesh catches the shadows on the real world (a shadow material, 0.25 opaque at first).
  options.enableDepth();
  options.depth.depthMesh.renderShadow = true;
  options.depth.depthMesh.shadowOpacity = 0.25;
  options.enableHands();
  xb.add(new StillLife());
  xb.add(new SoftShadowButton(options.lighting));
  xb.init(options);
});
