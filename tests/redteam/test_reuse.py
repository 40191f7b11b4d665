"""Red team: a reused browser context must not let one session's app reach the next (issue 15).

The plugin opens every test variant of a candidate as a new page in a context it reuses
(`xrtest/contexts.py`). A candidate could try to carry state from one variant to the next: here
an app writes to every place a page can keep something (cookies, local and session storage,
IndexedDB, Cache Storage, the origin-private file system, `window.name`, history, a popup) and
reports what it found from an earlier session. The second session, in the reused context, must
find nothing; the app's own read-back of what it wrote proves its probes work. A session in a
reused context also reads the same scene, frame for frame, as one in a fresh context.
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.contexts import ContextPool
from xrbench.xrtest.session import XRSession

pytestmark = pytest.mark.xr

INDEX = """<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <script type="importmap">
      {"imports": {"three": "https://cdn.jsdelivr.net/npm/three@0.184.0/build/three.module.js",
                   "xrblocks": "https://cdn.jsdelivr.net/gh/google/xrblocks@build/xrblocks.js"}}
    </script>
  </head>
  <body><script type="module" src="main.js"></script></body>
</html>
"""

# Every channel: find what an earlier session left, then leave something, then read it back.
MAIN = """import * as THREE from 'three';
import * as xb from 'xrblocks';

async function idb(write) {
  const db = await new Promise((ok, bad) => {
    const r = indexedDB.open('carry', 1);
    r.onupgradeneeded = () => r.result.createObjectStore('s');
    r.onsuccess = () => ok(r.result); r.onerror = () => bad(r.error);
  });
  const tx = db.transaction('s', write ? 'readwrite' : 'readonly');
  const store = tx.objectStore('s');
  const value = await new Promise((ok) => {
    if (write) { store.put('x', 'k'); tx.oncomplete = () => ok('x'); }
    else { const g = store.get('k'); g.onsuccess = () => ok(g.result ?? null); }
  });
  db.close();
  return value;
}

async function opfs(write) {
  const root = await navigator.storage.getDirectory();
  if (write) {
    const f = await root.getFileHandle('carry.txt', {create: true});
    const w = await f.createWritable(); await w.write('x'); await w.close();
  }
  for await (const name of root.keys()) if (name === 'carry.txt') return 'x';
  return null;
}

async function probe(write) {
  const found = {};
  const check = async (name, fn) => { try { found[name] = await fn(); } catch (e) { found[name] = 'error: ' + e; } };
  if (write) {
    localStorage.setItem('carry', 'x');
    sessionStorage.setItem('carry', 'x');
    document.cookie = 'carry=x; max-age=3600; path=/';
    window.name = 'carry';
    const cache = await caches.open('carry');
    await cache.put('/carry', new Response('x'));
    history.pushState({carry: 1}, '', location.href);
    window.open('/popup.html', 'carry-popup');
    await idb(true);
    await opfs(true);
  }
  await check('localStorage', () => localStorage.getItem('carry'));
  await check('sessionStorage', () => sessionStorage.getItem('carry'));
  await check('cookie', () => (document.cookie.includes('carry=x') ? 'x' : null));
  await check('windowName', () => (window.name === 'carry' ? 'x' : null));
  await check('indexedDB', async () =>
    ((await indexedDB.databases()).some((d) => d.name === 'carry') ? await idb(false) : null));
  await check('cacheStorage', async () => ((await caches.keys()).includes('carry') ? 'x' : null));
  await check('opfs', () => opfs(false));
  await check('history', () => history.length);
  return found;
}

class Carrier extends xb.Script {
  init() {
    const mesh = new THREE.Mesh(new THREE.BoxGeometry(0.1, 0.1, 0.1), new THREE.MeshBasicMaterial());
    mesh.position.set(0, 1.5, -1);
    this.state = {earlier: null, own: null};
    mesh.userData.xrblocksDevtools = {tag: 'carrier', state: this.state};
    this.add(mesh);
    probe(false).then((earlier) => {
      this.state.earlier = earlier;
      return probe(true);
    }).then((own) => { this.state.own = own; });
  }
}

const options = new xb.Options();
options.enableHands();
xb.add(new Carrier());
xb.init(options);
"""

STORES = ("localStorage", "sessionStorage", "cookie", "windowName", "indexedDB", "cacheStorage", "opfs")


def _app(tmp_path):
    app = tmp_path / "carrier"
    app.mkdir()
    (app / "index.html").write_text(INDEX)
    (app / "main.js").write_text(MAIN)
    (app / "popup.html").write_text("<!doctype html><title>popup</title><p>still here?</p>")
    return app


def _report(session: XRSession) -> dict:
    for _ in range(200):
        state = session.find_by_tag("carrier").state
        if state.get("own") is not None:
            return state
        session.step(1)
    raise AssertionError(f"the app never finished its probes: {state}")


def test_a_reused_context_carries_nothing_from_one_session_to_the_next(tmp_path, xr_browser):
    app = _app(tmp_path)
    pool = ContextPool()
    try:
        with XRSession(app, browser=xr_browser, contexts=pool) as first:
            report = _report(first)
            start = report["earlier"]
            assert {c: v for c, v in start.items() if c != "history"} == {c: None for c in STORES}, report
            # The probes see what the app wrote: a channel that carried over would show.
            wrote = report["own"]
            assert {c: wrote[c] for c in STORES} == {c: "x" for c in STORES}
            assert wrote["history"] == start["history"] + 1, wrote
            popups = [p for p in first.context.pages if p.url.endswith("/popup.html")]
            assert len(popups) == 1, "the app's popup should be open"
        with XRSession(app, browser=xr_browser, contexts=pool) as second:
            assert (pool.created, pool.reused) == (1, 1), "the second session should reuse the context"
            assert popups[0].is_closed(), "the first session's popup must be gone"
            assert _report(second)["earlier"] == start
    finally:
        pool.close()


def test_a_context_whose_page_hung_is_not_reused(tmp_path, xr_browser):
    app = _app(tmp_path)
    pool = ContextPool()
    try:
        first = XRSession(app, browser=xr_browser, contexts=pool).open()
        first.reusable = False  # what the pytest plugin sets after a test timed out in the page
        context = first.context
        first.close()
        with XRSession(app, browser=xr_browser, contexts=pool) as second:
            assert second.context is not context
            assert (pool.created, pool.reused) == (2, 0)
    finally:
        pool.close()


def _readings(session: XRSession) -> list:
    hand = session.hand("dominant")
    out = []
    for _ in range(3):
        hand.pinch()
        session.step(20)
        hand.release()
        session.step(10)
        out.append([(n.tag, n.position, n.state) for n in session.tagged()])
    out.append(session.events())
    return out


def test_a_reused_context_reads_the_same_as_a_fresh_one(tmp_path, xr_browser):
    from xrbench.genxr.task import load_tasks
    from xrbench.genxr.workspace import materialize_solution

    task = next(t for t in load_tasks() if t.id == "example-cube-color")
    app = materialize_solution(task, task.valid_solutions[0], tmp_path / "cube")
    pool = ContextPool()
    try:
        with XRSession(app, browser=xr_browser) as fresh:
            expected = _readings(fresh)
        for _ in range(2):  # the first use creates the context, the second reuses it
            with XRSession(app, browser=xr_browser, contexts=pool) as reused:
                assert _readings(reused) == expected
        assert pool.reused == 1
    finally:
        pool.close()
