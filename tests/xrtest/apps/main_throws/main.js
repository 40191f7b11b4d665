// The main module throws before it ever calls xb.init.
import * as xb from 'xrblocks';

const options = new xb.Options();
throw new Error(`boom before init (${options.antialias})`);
