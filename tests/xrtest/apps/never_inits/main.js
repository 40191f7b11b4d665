// Imports XR Blocks but never calls xb.init: xbReady never settles.
import * as xb from 'xrblocks';

window.__loaded = typeof xb.init === 'function';
