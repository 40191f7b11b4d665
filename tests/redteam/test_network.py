"""Red team: a candidate app that tries every way out of the browser to a service on host loopback.

A developer's machine often runs services on 127.0.0.1 (a model server, a Ray dashboard, a
database). The app below tries to reach a TCP and a UDP listener there from the page, a dedicated
Worker (from its own file and from a blob), a SharedWorker, a ServiceWorker, WebRTC (STUN and
TURN), beacons, prefetch, images and EventSource. The browser runs in a network namespace of its
own (xrtest/sandbox.py), so neither listener may see a single packet. A control run of the same
app in a browser on the host's network proves the probes are live: there, WebRTC's STUN packets
arrive (request routing cannot see UDP).
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from xrbench.xrtest.browser import find_chromium, launch_browser, running_as_root
from xrbench.xrtest.sandbox import plan_sandbox
from xrbench.xrtest.session import XRSession

pytestmark = pytest.mark.xr

INDEX = """<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>probe</title>
    <script type="importmap">
      {"imports": {"three": "https://cdn.jsdelivr.net/npm/three@0.184.0/build/three.module.js",
                   "xrblocks": "https://cdn.jsdelivr.net/gh/google/xrblocks@build/xrblocks.js"}}
    </script>
  </head>
  <body><script type="module" src="main.js"></script></body>
</html>
"""

# What every kind of worker tries; the TCP port comes in the worker's URL.
WORKER = """
const tcp = new URL(self.location.href).searchParams.get('tcp');
const tries = [
  fetch(`http://127.0.0.1:${tcp}/worker-fetch`).then(() => 'fetched'),
  new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${tcp}/worker-ws`);
    ws.onopen = () => resolve('ws open');
    ws.onerror = () => reject(new Error('ws error'));
  }),
];
const report = (port) => Promise.allSettled(tries).then((r) =>
  port.postMessage(r.map((x) => x.status === 'fulfilled' ? x.value : String(x.reason))));
if (typeof onconnect === 'undefined') report(self);
else onconnect = (e) => report(e.ports[0]);
"""

MAIN = """import * as xb from 'xrblocks';

const params = new URLSearchParams(location.search);
const tcp = params.get('tcp');
const udp = params.get('udp');
const loop = `http://127.0.0.1:${tcp}`;
const within = (ms, p) => Promise.race([p, new Promise((r) => setTimeout(() => r('timeout'), ms))]);
const settle = (p) => within(2500, Promise.resolve().then(p)).then(String, (e) => 'error: ' + e);
const fromWorker = (w) => new Promise((resolve) => { (w.port || w).onmessage = (e) => resolve(e.data); });

async function webrtc() {
  const pc = new RTCPeerConnection({iceServers: [
    {urls: `stun:127.0.0.1:${udp}`},
    {urls: `turn:127.0.0.1:${tcp}?transport=tcp`, username: 'u', credential: 'p'},
  ]});
  pc.createDataChannel('x');
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((r) => { pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && r(); });
  return 'gathered';
}

window.__settled = false;
Promise.all([
  settle(() => fetch(`${loop}/page-fetch`)),
  settle(() => fetch(`http://localhost:${tcp}/page-localhost`)),
  settle(() => new Promise((ok, ko) => {
    const ws = new WebSocket(`ws://127.0.0.1:${tcp}/page-ws`); ws.onopen = ok; ws.onerror = ko;
  })),
  settle(() => fromWorker(new Worker(`probe-worker.js?tcp=${tcp}`))),
  settle(() => fromWorker(new Worker(URL.createObjectURL(new Blob(
    [BLOB_SOURCE.replace('TCP_PORT', JSON.stringify(tcp))], {type: 'text/javascript'}))))),
  settle(() => fromWorker(new SharedWorker(`probe-worker.js?tcp=${tcp}`))),
  settle(() => navigator.serviceWorker.register('probe-worker.js')),
  settle(webrtc),
  settle(() => navigator.sendBeacon(`${loop}/beacon`, 'secret')),
  settle(() => new Promise((ok, ko) => {
    const link = Object.assign(document.createElement('link'), {rel: 'prefetch', href: `${loop}/prefetch`});
    link.onload = ok; link.onerror = ko; document.head.append(link);
  })),
  settle(() => new Promise((ok, ko) => Object.assign(new Image(), {onload: ok, onerror: ko, src: `${loop}/img`}))),
  settle(() => new Promise((ok, ko) => {
    const es = new EventSource(`${loop}/events`); es.onopen = ok; es.onerror = ko;
  })),
]).then((results) => { window.__attempts = results; window.__settled = true; });

xb.init(new xb.Options());
"""


@pytest.fixture
def probe_app(tmp_path: Path) -> Path:
    app = tmp_path / "probe"
    app.mkdir()
    (app / "index.html").write_text(INDEX)
    (app / "probe-worker.js").write_text(WORKER)
    # The blob worker has no URL to read the port from: it is written into its source instead.
    blob = WORKER.replace("new URL(self.location.href).searchParams.get('tcp')", "TCP_PORT")
    (app / "main.js").write_text(MAIN.replace("BLOB_SOURCE", json.dumps(blob)))
    return app


class Listeners:
    """A TCP and a UDP socket on host loopback that record whatever reaches them."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.tcp = socket.create_server(("127.0.0.1", 0))
        self.udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.udp.bind(("127.0.0.1", 0))
        self.tcp.settimeout(0.2)
        self.udp.settimeout(0.2)
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=f, daemon=True) for f in (self._accept, self._receive)]
        for t in self._threads:
            t.start()

    @property
    def ports(self) -> dict[str, str]:
        return {"tcp": str(self.tcp.getsockname()[1]), "udp": str(self.udp.getsockname()[1])}

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.tcp.accept()
            except OSError:
                continue
            conn.settimeout(0.5)
            try:
                first = conn.recv(200).split(b"\r\n", 1)[0].decode(errors="replace")
            except OSError:
                first = ""
            self.seen.append(f"tcp: {first}")
            conn.close()

    def _receive(self) -> None:
        while not self._stop.is_set():
            try:
                data, _ = self.udp.recvfrom(4096)
            except OSError:
                continue
            self.seen.append(f"udp: {len(data)} bytes")

    def close(self) -> None:
        self._stop.set()
        for t in self._threads:
            t.join(timeout=2)
        self.tcp.close()
        self.udp.close()


@pytest.fixture
def listeners() -> Iterator[Listeners]:
    found = Listeners()
    yield found
    found.close()


def run_probe(app: Path, listeners: Listeners, **kwargs) -> list[str]:
    """Open the probe app, wait for every attempt to settle; what the page says of each."""
    with XRSession(app, scene="empty", url_params=listeners.ports, **kwargs) as s:
        # The attempts give up on the page's clock, which is virtual once the session is paused:
        # move it along, and give the network real time, until every attempt has settled.
        for _ in range(100):
            if s.evaluate("() => window.__settled"):
                break
            s.step(6)
            s.page.wait_for_timeout(50)
        return s.evaluate("() => window.__attempts")


def test_nothing_leaves_the_browser_for_host_loopback(probe_app, listeners):
    plan = plan_sandbox(find_chromium(), root=running_as_root())
    if plan.kind != "bwrap":
        pytest.skip(f"the browser runs without bubblewrap here: {plan.reason}")
    attempts = run_probe(probe_app, listeners)
    assert len(attempts) == 12
    assert listeners.seen == [], (listeners.seen, attempts)


def test_control_without_the_namespace_the_probe_sees_webrtc_leave(probe_app, listeners):
    handle = launch_browser(isolation="off")
    try:
        run_probe(probe_app, listeners, browser=handle.browser)
    finally:
        handle.close()
    assert any(seen.startswith("udp") for seen in listeners.seen), listeners.seen
