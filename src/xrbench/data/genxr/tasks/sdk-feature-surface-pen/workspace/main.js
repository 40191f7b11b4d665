import * as THREE from 'three';
import * as xb from 'xrblocks';

/**
 * Surface pen: draw on the real room with the hands' rays, with xb.SurfacePen.
 *
 * The app makes one pen (orange-red strokes, at most 3 kept) and tags each stroke the pen starts
 * (XR Blocks DevTools convention, `userData.xrblocksDevtools`): tag 'surface-stroke', state
 * {hand: 'left' | 'right', done: false}; `done` turns true when the pen reports the stroke's end.
 * The pen itself is tagged 'surface-pen'.
 */
class SurfacePenDemo extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
  }
}

function handName(handedness) {
  if (handedness === xb.Handedness.LEFT) return 'left';
  if (handedness === xb.Handedness.RIGHT) return 'right';
  return 'none';
}

document.addEventListener('DOMContentLoaded', function () {
  const pen = new xb.SurfacePen({color: 0xff3d00, maxStrokes: 3});
  pen.name = 'Surface pen';
  pen.userData.xrblocksDevtools = {tag: 'surface-pen', state: {}};
  pen.addEventListener('strokestart', (event) => {
    const stroke = event.stroke;
    if (!stroke) return;
    stroke.userData.xrblocksDevtools = {
      tag: 'surface-stroke',
      state: {hand: handName(event.handedness), done: false},
    };
  });
  pen.addEventListener('strokeend', (event) => {
    const tag = event.stroke?.userData?.xrblocksDevtools;
    if (tag && tag.state) tag.state.done = true;
  });
  xb.add(new SurfacePenDemo());
  xb.add(pen);
  const options = new xb.Options();
  options.enableDepth();
  options.enableHands();
  xb.init(options);
});
