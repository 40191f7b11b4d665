// IWER Cube: a plain three.js WebXR app (no framework) with a cube that changes colour when
// selected, by a controller trigger or a hand pinch pointed at it.
//
// Written like any WebXR app: a CDN import map, its own "Enter VR" / "Enter AR" buttons and
// `navigator.xr.requestSession`. For tests it
//   - tags objects with `userData.xrblocksDevtools = {tag, state}` (the XR Blocks DevTools
//     convention, which xrbench's readers understand for any three.js scene);
//   - exposes the scene as `window.scene` and records input events in `window.__events`;
//   - counts XR frames in `window.__frames` and the hand joints it saw in `window.__handJoints`.
import * as THREE from 'three';

const CUBE_COLORS = {off: 0x3388ff, on: 0xff5533};
const JOINT_COUNT = 25;

window.__frames = 0;
window.__events = [];
window.__handJoints = {left: 0, right: 0};
window.__planes = 0;

function tag(object, name, state) {
  object.userData.xrblocksDevtools = {tag: name, state};
  return state;
}

const scene = new THREE.Scene();
scene.name = 'IWER Cube';
window.scene = scene;
const background = new THREE.Color(0x202530);
scene.background = background;

const camera = new THREE.PerspectiveCamera(70, innerWidth / innerHeight, 0.01, 50);
camera.position.set(0, 1.6, 0);

const renderer = new THREE.WebGLRenderer({antialias: false, alpha: true});
renderer.setPixelRatio(1);
renderer.setSize(innerWidth, innerHeight);
renderer.xr.enabled = true;
renderer.xr.setReferenceSpaceType('local-floor');
document.body.appendChild(renderer.domElement);

scene.add(new THREE.HemisphereLight(0xffffff, 0x444455, 2.0));
const sun = new THREE.DirectionalLight(0xffffff, 1.5);
sun.position.set(1, 3, 2);
scene.add(sun);

const floor = new THREE.Mesh(new THREE.PlaneGeometry(6, 6), new THREE.MeshStandardMaterial({color: 0x3a3f4a}));
floor.rotation.x = -Math.PI / 2;
floor.name = 'floor';
scene.add(floor);

// The cube the user selects: toggles between blue and orange on every select that hits it.
const cube = new THREE.Mesh(
  new THREE.BoxGeometry(0.25, 0.25, 0.25),
  new THREE.MeshStandardMaterial({color: CUBE_COLORS.off, roughness: 0.4}));
cube.name = 'cube';
cube.position.set(0, 1.4, -1.0);
const cubeState = tag(cube, 'cube', {on: false, selects: 0, lastHandedness: null, lastInput: null});
scene.add(cube);

// One small sphere per hand joint, placed from the XRFrame's joint poses every frame.
const jointGeometry = new THREE.SphereGeometry(0.008, 8, 6);
const jointSpheres = {};
for (const hand of ['left', 'right']) {
  const group = new THREE.Group();
  group.name = `hand-joints-${hand}`;
  tag(group, `hand-joints-${hand}`, {});
  const material = new THREE.MeshStandardMaterial({color: hand === 'left' ? 0x66dd88 : 0xdd66cc});
  jointSpheres[hand] = [];
  for (let i = 0; i < JOINT_COUNT; i++) {
    const sphere = new THREE.Mesh(jointGeometry, material);
    sphere.visible = false;
    group.add(sphere);
    jointSpheres[hand].push(sphere);
  }
  scene.add(group);
}

// Input: three.js target-ray spaces for both input sources. Select events are queued and
// resolved in the frame loop, after three.js has updated the ray poses for that frame.
const raycaster = new THREE.Raycaster();
const pendingSelects = [];
for (let i = 0; i < 2; i++) {
  const controller = renderer.xr.getController(i);
  controller.addEventListener('selectstart', (event) => pendingSelects.push({controller, source: event.data}));
  controller.addEventListener('squeezestart', (event) => {
    window.__events.push({type: 'squeezestart', handedness: event.data.handedness, frame: window.__frames});
  });
  scene.add(controller);
}

function handleSelect({controller, source}) {
  raycaster.setFromXRController(controller);
  const hit = raycaster.intersectObject(cube, false).length > 0;
  const input = source.hand ? 'hand' : 'controller';
  window.__events.push({type: 'selectstart', handedness: source.handedness, input, hit, frame: window.__frames});
  if (!hit) return;
  cubeState.on = !cubeState.on;
  cubeState.selects += 1;
  cubeState.lastHandedness = source.handedness;
  cubeState.lastInput = input;
  cube.material.color.setHex(cubeState.on ? CUBE_COLORS.on : CUBE_COLORS.off);
}

function updateHands(frame) {
  const space = renderer.xr.getReferenceSpace();
  const seen = {left: 0, right: 0};
  for (const source of frame.session.inputSources) {
    if (!source.hand || !jointSpheres[source.handedness]) continue;
    let i = 0;
    for (const jointSpace of source.hand.values()) {
      const pose = frame.getJointPose(jointSpace, space);
      const sphere = jointSpheres[source.handedness][i++];
      if (!pose || !sphere) continue;
      sphere.position.copy(pose.transform.position);
      sphere.visible = true;
      seen[source.handedness] += 1;
    }
  }
  for (const hand of ['left', 'right']) {
    if (!seen[hand]) jointSpheres[hand].forEach((s) => { s.visible = false; });
  }
  window.__handJoints = seen;
}

renderer.setAnimationLoop((time, frame) => {
  if (frame) {
    window.__frames += 1;
    updateHands(frame);
    if (frame.detectedPlanes) window.__planes = frame.detectedPlanes.size;
    while (pendingSelects.length) handleSelect(pendingSelects.shift());
  }
  renderer.render(scene, camera);
});

// Session buttons: the app's own UI, clicked by the user (or by the test with a real click).
async function enter(mode) {
  const session = await navigator.xr.requestSession(mode, {
    requiredFeatures: ['local-floor'],
    optionalFeatures: ['hand-tracking', 'plane-detection', 'mesh-detection', 'hit-test'],
  });
  // In AR the room shows through: no background.
  scene.background = mode === 'immersive-ar' ? null : background;
  floor.visible = mode !== 'immersive-ar';
  session.addEventListener('end', () => {
    scene.background = background;
    floor.visible = true;
    window.__events.push({type: 'sessionend', frame: window.__frames});
  });
  await renderer.xr.setSession(session);
  window.__events.push({type: 'sessionstart', mode, frame: window.__frames});
}

for (const [id, mode] of [['enter-vr', 'immersive-vr'], ['enter-ar', 'immersive-ar']]) {
  const button = document.getElementById(id);
  navigator.xr?.isSessionSupported(mode).then((supported) => {
    button.disabled = !supported;
    if (!supported) button.textContent = `${mode} not supported`;
  });
  button.addEventListener('click', () => enter(mode).catch((error) => {
    window.__events.push({type: 'sessionerror', mode, message: String(error)});
    console.error(error);
  }));
}

addEventListener('resize', () => {
  camera.aspect = innerWidth / innerHeight;
  camera.updateProjectionMatrix();
  renderer.setSize(innerWidth, innerHeight);
});
