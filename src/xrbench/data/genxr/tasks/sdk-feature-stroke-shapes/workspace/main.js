// Shape Sketch: pinch, draw a shape in the air with the index fingertip, release; XR Blocks'
// StrokeRecognizer says which shape it was. The board lists every stroke: when it started, how many
// fingertip points came, and what the recogniser made of it. Objects carry semantic tags
// (`userData.xrblocksDevtools = {tag, state}`).
import * as THREE from 'three';
import * as xb from 'xrblocks';

class ShapeSketch extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.board = new THREE.Mesh(
      new THREE.BoxGeometry(0.4, 0.25, 0.02),
      new THREE.MeshStandardMaterial({color: 0x333344}));
    this.board.position.set(0, 2.4, -2.5);
    this.log = {strokes: []};
    this.board.userData.xrblocksDevtools = {tag: 'shape-board', state: this.log};
    this.add(this.board);
  }
}

document.addEventListener('DOMContentLoaded', () => {
  const app = new ShapeSketch();
  const strokes = new xb.StrokeRecognizer();
  strokes.addEventListener('unistrokestart', () => {
    app.log.strokes.push({points: 0, ended: false, shape: null, confidence: null});
  });
  strokes.addEventListener('unistrokeupdate', () => {
    const s = app.log.strokes[app.log.strokes.length - 1];
    if (s) s.points += 1;
  });
  strokes.addEventListener('unistrokeend', (event) => {
    const s = app.log.strokes[app.log.strokes.length - 1];
    if (!s) return;
    s.ended = true;
    const result = event.detail?.result;
    if (result) {
      s.shape = result.recognizedShape;
      s.confidence = result.confidence;
    }
  });
  xb.add(app);
  xb.add(strokes);
  strokes.activate();
  const options = new xb.Options();
  options.enableHands();
  options.enableStrokes();
  xb.init(options);
});
