// Parse many JavaScript sources as ECMAScript modules in one Node process, without running them.
//
// Input (stdin): one JSON object per line, {"name": "main.js", "source": "..."}.
// Output (stdout): one JSON object per input line, in order, flushed line by line:
//   {"ok": true}                       the source parses as a module
//   {"ok": false, "stack": "<text>"}   a parse error, with V8's location header
//                                      ("main.js:12", the source line, the caret) as
//                                      `node --input-type=module --check` prints it
//   {"ok": false, "stack": null}       a parse error whose location could not be read;
//                                      the caller checks that file on its own instead
//
// `vm.SourceTextModule` compiles a module (V8's module goal: strict mode, import/export,
// top-level await) and never links or evaluates it. The location header is attached by Node's
// own `decorateErrorStack` (an internal, hence --expose-internals), the function that produces
// the header in `node --check`'s output; when it is unavailable the location is left to the
// per-file check, so results never depend on which path ran.
'use strict';

const vm = require('node:vm');
const readline = require('node:readline');

let decorate = null;
try {
  decorate = require('internal/util').decorateErrorStack;
} catch {
  decorate = null;
}

if (typeof vm.SourceTextModule !== 'function') {
  // Needs --experimental-vm-modules; the caller falls back to one `node --check` per file.
  process.stderr.write('vm.SourceTextModule is not available\n');
  process.exit(3);
}

function check(name, source) {
  try {
    new vm.SourceTextModule(source, {identifier: name});
    return {ok: true};
  } catch (err) {
    if (!(err instanceof Error)) return {ok: false, stack: null};
    if (typeof decorate === 'function') {
      try {
        decorate(err);
      } catch {
        return {ok: false, stack: null};
      }
    }
    const stack = String(err.stack || '');
    // Only a stack that starts with "<name>:<line>" carries the location --check would print.
    const located = stack.startsWith(name + ':') && /^[^\n]*:\d+\n/.test(stack);
    return {ok: false, stack: located ? stack : null};
  }
}

const rl = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
rl.on('line', (line) => {
  if (!line.trim()) return;
  let result;
  try {
    const item = JSON.parse(line);
    result = check(String(item.name || 'main.js'), String(item.source ?? ''));
  } catch (err) {
    result = {ok: false, stack: null, internal: String(err && err.message)};
  }
  process.stdout.write(JSON.stringify(result) + '\n');
});
