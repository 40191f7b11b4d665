// The simulator environment's manifest does not exist: simulator start fails, so xb.init rejects.
import * as xb from 'xrblocks';

const options = new xb.Options();
options.simulator.environments = [{name: 'Missing', manifestPath: './missing/manifest.json'}];
xb.init(options);
