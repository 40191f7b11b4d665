// Turns on XR Blocks' head-gesture recogniser and nothing else: the harness records what it
// reports (a nod, a shake) without the app listening.
import * as xb from 'xrblocks';

document.addEventListener('DOMContentLoaded', () => {
  const options = new xb.Options();
  options.enableHeadGestures();
  xb.init(options);
});
