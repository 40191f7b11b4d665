// A Script whose init() throws: xb.init must reject and the harness must report AppInitError.
import * as xb from 'xrblocks';

class Broken extends xb.Script {
  init() {
    throw new Error('boom in Broken.init');
  }
}

xb.add(new Broken());
xb.init(new xb.Options());
