"""Red team: candidate apps that try to forge what the harness observes (issue 13).

Every candidate here is the same wrong app (an orb that never reacts to selection) plus one trick
to make the harness report the colour change `app-orb-color-cycle` asks for. Each must end as a
`TamperingError` (the verdict's failure category `tampering`) or, for a lie the harness need not
detect, with the harness still seeing the truth. One of them also goes through `genxr verify`.
"""

from __future__ import annotations

import pytest

from xrbench.genxr.grading import verify
from xrbench.genxr.task import load_tasks
from xrbench.genxr.workspace import prepare_workspace
from xrbench.xrtest.errors import TamperingError
from xrbench.xrtest.session import XRSession

pytestmark = pytest.mark.xr

INDEX = """<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Orb</title>
    HEAD
    <script type="importmap">
      {"imports": {"three": "https://cdn.jsdelivr.net/npm/three@0.184.0/build/three.module.js",
                   "three/addons/": "https://cdn.jsdelivr.net/npm/three@0.184.0/examples/jsm/",
                   "xrblocks": "https://cdn.jsdelivr.net/gh/google/xrblocks@build/xrblocks.js",
                   "xrblocks/addons/": "https://cdn.jsdelivr.net/gh/google/xrblocks@build/addons/"}}
    </script>
  </head>
  <body><script type="module" src="main.js"></script></body>
</html>
"""

# The wrong app: its orb keeps its first colour whatever the user does.
MAIN = """import * as THREE from 'three';
import * as xb from 'xrblocks';

const PALETTE = [0xe53935, 0x1e88e5, 0x43a047];
const hex = (c) => '#' + c.toString(16).padStart(6, '0');
let clicks = 0;

class WrongOrb extends xb.Script {
  init() {
    this.add(new THREE.HemisphereLight(0xffffff, 0x666666, 3));
    this.orb = new THREE.Mesh(new THREE.SphereGeometry(0.15, 32, 16),
                              new THREE.MeshStandardMaterial({color: PALETTE[0]}));
    this.orb.position.set(0, xb.user.height, -1.0);
    this.state = {color: hex(PALETTE[0]), index: 0};
    this.orb.userData.xrblocksDevtools = {tag: 'color-orb', state: this.state};
    this.add(this.orb);
    window.__orb = this.orb;
    FORGE_INIT
  }

  onObjectSelectStart() {
    clicks++;
  }
}

FORGE_MODULE

document.addEventListener('DOMContentLoaded', () => {
  xb.add(new WrongOrb());
  xb.init(new xb.Options());
});
"""

# name -> (module-level code, code at the end of init(), code in <head> before the import map)
FORGERS: dict[str, tuple[str, str, str]] = {
    # Wrap the reader the issue saw wrapped.
    "wraps-readers": (
        """try {
  const read = window.__xrtest.read;
  const node = read.node;
  read.node = (...a) => Object.assign(node(...a), {color: hex(PALETTE[clicks % 3])});
} catch (e) {}""",
        "",
        "",
    ),
    # Put a gateway of its own in place of the harness's.
    "replaces-gateway": (
        """const real = window.__xrtest;
const fake = {run: (name, args) => real.run(name, args), register: () => {}};
try { Object.defineProperty(window, '__xrtest', {value: fake}); } catch (e) {}
try { window.__xrtest = fake; } catch (e) {}""",
        "",
        "",
    ),
    # three.js's colour method, lying about the orb only.
    "patches-three": (
        """const getHexString = THREE.Color.prototype.getHexString;
THREE.Color.prototype.getHexString = function () {
  const orb = window.__orb;
  return orb && this === orb.material.color ? hex(PALETTE[clicks % 3]).slice(1) : getHexString.call(this);
};""",
        "",
        "",
    ),
    # XR Blocks' frame stepping, wrapped on the class.
    "patches-stepping": (
        """const stepFrame = xb.Core.prototype.stepFrame;
xb.Core.prototype.stepFrame = function (dt) { return stepFrame.call(this, dt); };""",
        "",
        "",
    ),
    # ... and shadowed on the instance.
    "shadows-stepping": (
        """const coreStep = xb.core.stepFrame;
xb.core.stepFrame = function (dt) { return coreStep.call(this, dt); };""",
        "",
        "",
    ),
    # The event log the harness records interactions in.
    "fakes-events": (
        """try { window.__xrtest.eventLog.push({type: 'object_select_start', tags: ['color-orb']}); } catch (e) {}""",
        "",
        "",
    ),
    # A getter on the colour's components (the renderer would read it too, but a getter could
    # tell who is asking).
    "accessor-colour": (
        "",
        """const c = this.orb.material.color;
    const r = c.r;
    Object.defineProperty(c, 'r', {get: () => (clicks ? 0.1 : r), set: () => {}, configurable: true});""",
        "",
    ),
    # Steal the harness module (and its secret) before the page loads it.
    "steals-harness-module": (
        "",
        "",
        """<script>
      new MutationObserver((records, observer) => {
        for (const r of records) for (const n of r.addedNodes) {
          if (n.tagName === 'SCRIPT' && n.type === 'module' && n.src.includes('/__xrtest__/')) {
            const x = new XMLHttpRequest();
            x.open('GET', n.src, false);
            x.send();
            observer.disconnect();
          }
        }
      }).observe(document, {childList: true, subtree: true});
    </script>""",
    ),
    # Wrap Web Audio's start(), where the harness logs every sound the page starts.
    "wraps-audio": (
        """const start = AudioScheduledSourceNode.prototype.start;
AudioScheduledSourceNode.prototype.start = function (...a) { return start.apply(this, a); };""",
        "",
        "",
    ),
    # Give the orb a traverse() of its own, hiding what a probe or reader walks.
    "shadows-traverse": (
        "",
        """this.orb.traverse = function (visit) { visit(this); };""",
        "",
    ),
    # Register with a made-up token, as if it were the harness module.
    "impersonates-harness": (
        """const guess = '0123456789abcdef0123456789abcdef';
try { window.__xrtest.register(guess, {THREE, xb, pinnedThree: THREE, pinnedXb: xb}); } catch (e) {}""",
        "",
        "",
    ),
}

# Lies only in its own state: nothing to detect, the harness must still see the orb's real colour.
LIES_IN_STATE = """const state = this.state;
    this.onObjectSelectStart = () => {
      clicks++;
      state.index = clicks % 3;
      state.color = hex(PALETTE[state.index]);
    };"""


def write_app(root, name: str, module: str = "", init: str = "", head: str = "") -> object:
    app = root / name
    app.mkdir()
    (app / "index.html").write_text(INDEX.replace("HEAD", head), encoding="utf-8")
    (app / "main.js").write_text(MAIN.replace("FORGE_MODULE", module).replace("FORGE_INIT", init), encoding="utf-8")
    return app


def select_orb_and_read(session: XRSession):
    session.step(1)
    session.hand("dominant").click("color-orb", hold_frames=6)
    return session.find_by_tag("color-orb")


@pytest.mark.parametrize("name", sorted(FORGERS))
def test_a_forging_candidate_is_caught(tmp_path, name):
    app = write_app(tmp_path, name, *FORGERS[name])
    with pytest.raises(TamperingError), XRSession(app, scene="empty") as session:
        select_orb_and_read(session)


def test_a_lie_in_state_does_not_change_what_the_harness_sees(tmp_path):
    app = write_app(tmp_path, "lies-in-state", init=LIES_IN_STATE)
    with XRSession(app, scene="empty") as session:
        node = select_orb_and_read(session)
    assert node.state["index"] == 1  # the app claims a step ...
    assert node.color == "#e53935"  # ... but its orb kept its first colour, and the harness says so


def test_a_probe_reads_what_the_harness_captured_not_the_pages_globals(tmp_path):
    fake = "window.xb = {core: {scene: {children: [], traverse() {}}}}; window.THREE = {};"
    app = write_app(tmp_path, "fake-globals", init=fake)
    with XRSession(app, scene="empty") as session:
        session.step(1)
        seen = session.probe("(h, tag) => h.core.scene.getObjectByName !== undefined && h.THREE.Color !== undefined")
        orbs = session.probe(
            "(h, tag) => { let n = 0; h.core.scene.traverse((o) => { h.guard(o, 'node');"
            " if (o.userData.xrblocksDevtools?.tag === tag) n++; }); return n; }",
            "color-orb",
        )
    assert seen is True and orbs == 1


def test_the_wrong_app_alone_is_not_taken_for_tampering(tmp_path):
    """The control: without a trick the same app fails on its behaviour, not as tampering."""
    app = write_app(tmp_path, "honest-but-wrong")
    with XRSession(app, scene="empty") as session:
        node = select_orb_and_read(session)
        assert session.status()["tampered"] == []
    assert node.color == "#e53935"


def test_genxr_verify_fails_a_forger_as_tampering_and_flags_its_source(tmp_path):
    task = next(t for t in load_tasks() if t.id == "app-orb-color-cycle")
    workspace = tmp_path / "candidate"
    prepare_workspace(task, workspace)
    (workspace / "main.js").write_text(
        MAIN.replace("FORGE_MODULE", FORGERS["wraps-readers"][0]).replace("FORGE_INIT", ""), encoding="utf-8"
    )
    verdict = verify(task, workspace, tmp_path / "out")
    details = verdict.details()
    assert not verdict.passed and verdict.infra_error is None
    assert details["failure_category"] == "tampering"
    assert any("__xrtest" in flag["text"] and flag["file"] == "main.js" for flag in details["flags"])
