// The harness's page module. The workspace inserts it right after the import map, so it runs
// before the app's own modules, and the session's server hands it out exactly once, with the
// session's token written in: a page that fetched it first (to learn the token) makes the real one
// fail, which the kernel reports as tampering. It gives the kernel (kernel.js) the app's three.js
// and XR Blocks, once through the import map and once by the pinned paths, so a page that
// redirected either specifier is caught.
import * as THREE from 'three';
import * as xb from 'xrblocks';
import * as pinnedThree from '__XRTEST_THREE_URL__';
import * as pinnedXb from '__XRTEST_XRBLOCKS_URL__';

window.__xrtest.register('__XRTEST_TOKEN__', {THREE, xb, pinnedThree, pinnedXb});
