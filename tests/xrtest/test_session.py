"""End-to-end: real XR Blocks apps in headless Chromium, offline, stepped in virtual time."""

from __future__ import annotations

import io
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest
from PIL import Image

from xrbench.xrtest import AppInitError, SessionClosedError, TagNotFoundError, XRSession, get_scene
from xrbench.xrtest.session import distance

pytestmark = pytest.mark.xr

HAND_MODELS = "https://cdn.jsdelivr.net/npm/@webxr-input-profiles/assets@1.0/dist/profiles/generic-hand/"


def test_example_initialises_offline(open_session):
    s = open_session()
    status = s.status()
    assert status["lifecycle"] == "running" and status["simulatorRunning"] and status["paused"]
    assert s.webgl_alive()
    assert "WebGL 2.0" in s.webgl_info()["version"]
    # Every remote URL was either served from a local file or refused; none reached a network.
    assert {r.action for r in s.remote_requests} <= {"fulfilled", "aborted"}
    served = {r.url: r.local for r in s.remote_requests if r.action == "fulfilled"}
    assert served[HAND_MODELS + "left.glb"].endswith(
        "node_modules/@webxr-input-profiles/assets/dist/profiles/generic-hand/left.glb"
    )
    assert served[HAND_MODELS + "right.glb"].endswith("generic-hand/right.glb")
    scene_urls = [u for u in served if u.endswith("XREmulatorsceneV5_livingRoom.glb")]
    assert scene_urls and served[scene_urls[0]].startswith("scene:")
    assert s.failed_requests == [] and s.page_errors == [] and s.console_errors == []
    assert s.script_errors == []
    assert status["appliedOptions"]["antialias"] is False
    assert status["appliedOptions"]["renderToRenderTexture"] is False


def test_snapshot_finds_tagged_objects_in_world_coordinates(open_session):
    s = open_session(scene="living_room")
    lamp = s.find_by_tag("lamp")
    button = s.find_by_tag("lamp-button")
    bulb = s.find_by_tag("lamp-bulb")
    cube = s.find_by_tag("cube")
    assert lamp.position == pytest.approx((-0.3, 1.2, -1.0), abs=1e-6)
    assert button.position == pytest.approx((-0.3, 1.2, -1.0), abs=1e-6)
    assert bulb.position == pytest.approx((-0.3, 1.4, -1.0), abs=1e-6)  # child offset applied
    assert cube.position == pytest.approx((0.3, 1.2, -1.0), abs=1e-6)
    assert cube.size == pytest.approx((0.2, 0.2, 0.2), abs=1e-4)
    assert cube.color == "#3388ff" and button.color == "#666a70"
    assert lamp.state == {"on": False, "toggles": 0} and cube.state["grabbed"] is False
    assert lamp.visible and cube.visible and cube.is_mesh and lamp.is_script
    assert "lamp" in button.path[-1:] or button.parents[-1] == lamp.uuid
    with pytest.raises(TagNotFoundError, match=r"'teapot'.*tags present: cube, lamp, lamp-bulb, lamp-button"):
        s.find_by_tag("teapot")


def test_camera_and_hands(open_session):
    s = open_session(scene="empty")
    pose = s.camera_pose()
    assert pose.position == pytest.approx((0, 1.5, 0), abs=1e-6)
    assert pose.forward == pytest.approx((0, 0, -1), abs=1e-6)
    s.step(1)  # the simulator places the hand skeletons on the controllers during a frame
    for hand, sign in (("left", -1), ("right", 1)):
        joints = s.hand_joints(hand)
        assert len(joints) == 25
        wrist, tip = joints["wrist"].position, joints["index-finger-tip"].position
        assert sign * wrist[0] > 0.1  # each hand on its own side
        assert 0.05 < distance(wrist, tip) < 0.25
    with pytest.raises(ValueError):
        s.hand_joints("middle")


def test_n_steps_run_n_updates_in_virtual_time(open_session):
    s = open_session(scene="empty")
    assert s.frame == 0  # paused before the first frame
    u0 = s.evaluate("() => window.__updates")
    assert s.step(7) == 7
    assert s.evaluate("() => window.__updates") - u0 == 7
    assert s.advance(500) == 7 + 30  # 500 ms at 60 Hz
    assert s.status()["elapsedTime"] == pytest.approx(37 / 60, abs=1e-3)
    # The cube spins 0.5 rad per virtual second, whatever the machine's frame rate.
    assert s.find_by_tag("cube").state["angle"] == pytest.approx(0.5 * 37 / 60, abs=1e-6)
    with pytest.raises(ValueError):
        s.step(-1)


class _Watching:
    """A session hook that does nothing: a page with a hook counts as watched (as when recorded)."""

    def context_options(self, session):
        return {}

    def context_created(self, session):
        pass

    def closing(self, session):
        pass


def test_thin_frames_run_every_render_and_show_the_last(open_session):
    """Stepped frames make every render call (hooks included), but the canvas is drawn only where
    it can be seen: a watched page (recorded) gets each call's last frame, an unwatched one a frame
    drawn for the screenshot. What is seen is what drawing every frame in full shows (render
    targets, such as simulated depth, are drawn every frame: test_readbacks.py reads them)."""
    sessions = {
        "full": open_session(scene="empty", full_frames=True),
        "watched": open_session(scene="empty", hooks=[_Watching()]),
        "unwatched": open_session(scene="empty"),
    }
    renders = "(h) => [h.core.renderer.info.render.frame, h.drawing.thin, h.drawing.full]"
    counts, shots, angles, hooks = {}, {}, {}, {}
    for name, s in sessions.items():
        s.evaluate("() => { window.__hooks = 0; window.xb.core.scene.onBeforeRender = () => { window.__hooks++; }; }")
        s.step(1)
        r0 = s.probe(renders)
        s.step(30)
        r1 = s.probe(renders)
        shots[name] = np.asarray(Image.open(io.BytesIO(s.screenshot())).convert("RGB"), dtype=float)
        angles[name] = s.find_by_tag("cube").state["angle"]
        r2 = s.probe(renders)
        s.hand("right").move_hand([0.1, 1.3, -0.4])
        r3 = s.probe(renders)
        hooks[name] = s.evaluate("() => window.__hooks")
        counts[name] = [b - a for a, b in zip(r0, r1, strict=True)], [b - a for a, b in zip(r2, r3, strict=True)]
    (renders_30, thin, full), (renders_move, _, moved) = counts["full"]
    assert renders_30 > 0 and (thin, full) == (0, 30) and moved > 10
    # Every variant renders as often; a screenshot of an unwatched page renders once more.
    for name in ("watched", "unwatched"):
        assert (counts[name][0][0], counts[name][1][0]) == (renders_30, renders_move)
    assert hooks["full"] == hooks["watched"] == 31 + moved and hooks["unwatched"] == hooks["full"] + 1
    # Watched: a call's frames are thin but its last (a hand move: the last of each of its passes).
    assert counts["watched"][0][1:] == [29, 1]
    assert sum(counts["watched"][1][1:]) == moved and 1 <= counts["watched"][1][2] <= 2
    # Unwatched: every stepped frame is thin.
    assert counts["unwatched"][0][1:] == [30, 0] and counts["unwatched"][1][1:] == [moved, 0]
    # The example's cube spins every frame: after the 30-frame call all show it at frame 31's angle.
    assert angles["watched"] == angles["unwatched"] == angles["full"] > 0
    for name in ("watched", "unwatched"):
        a, b = shots[name], shots["full"]
        assert a.shape == b.shape and np.abs(a - b).mean() < 0.5, name


CLOCK_PROBE = """() => {
  window.__clock = [];
  const t0 = performance.now(), d0 = Date.now();
  const log = (what) => window.__clock.push([what, Math.round(performance.now() - t0)]);
  setTimeout(() => log('timeout-100'), 100);
  let n = 0;
  const every = setInterval(() => { log('interval-50'); if (++n === 3) clearInterval(every); }, 50);
  const cancelled = setTimeout(() => log('cancelled'), 20);
  clearTimeout(cancelled);
  requestAnimationFrame((ts) => log('frame'));
  window.__dateStep = () => Date.now() - d0;
}"""


def test_page_clocks_and_timers_follow_virtual_time(open_session):
    s = open_session(scene="empty")
    s.evaluate(CLOCK_PROBE)
    s.page.wait_for_timeout(300)  # wall-clock time passes: nothing may happen without a step
    assert s.evaluate("() => window.__clock") == []
    s.step(12, 1000 / 60)  # 200 virtual ms
    assert s.evaluate("() => window.__clock") == [
        ["frame", 17],
        ["interval-50", 50],
        ["timeout-100", 100],
        ["interval-50", 100],
        ["interval-50", 150],
    ]
    assert s.evaluate("() => window.__dateStep()") in (199, 200)
    # XR Blocks' user height is the simulated eye height, as on a headset.
    assert s.probe("(h) => h.xb.user.height") == pytest.approx(s.camera_pose().position[1])


def test_two_sessions_give_identical_snapshots(open_session):
    results = []
    for _ in range(2):
        s = open_session(scene="living_room")
        s.step(20)
        results.append((s.snapshot(), s.snapshot(root="simulator"), s.hand_joints("right"), s.camera_pose()))
        s.close()
    a, b = results
    assert len(a[0]) > 10 and len(a[1]) > 10
    assert a == b


# Planes are only read when plane detection is on, the navmesh only when it is used or drawn.
PLANES_AND_NAVMESH = {
    "world": {"enabled": True, "planes": {"enabled": True}},
    "simulator": {"navMesh": {"showDebugVisualizations": True}},
}


def navmesh_bounds(s: XRSession) -> list[float]:
    """x0, y0, z0, x1, y1, z1 of the simulator's navmesh wireframe, in world coordinates."""
    return s.evaluate(
        """() => {
          let box = null;
          xb.core.simulator.simulatorScene.traverse((o) => {
            if (o.isLineSegments) { o.geometry.computeBoundingBox(); box = o.geometry.boundingBox; }
          });
          return box ? [...box.min.toArray(), ...box.max.toArray()] : null;
        }"""
    )


def walkable_bounds(name: str) -> list[float]:
    from xrbench.xrtest.scenes.build_scenes import SCENE_BUILDERS

    (spec,) = [b() for b in SCENE_BUILDERS if b().name == name]
    x0, z0, x1, z1 = spec.walkable
    return [x0, 0.0, z0, x1, 0.0, z1]


def test_default_environment_is_the_local_living_room_at_the_origin(open_session):
    """XR Blocks' own 'Living Room' (offset by its manifest) is served so the room sits at the origin."""
    s = open_session(options=PLANES_AND_NAVMESH)
    assert s.status()["environment"] == "Living Room"
    fetched = {r.url.rsplit("/", 1)[-1] for r in s.remote_requests if r.action == "fulfilled"}
    assert {
        "XREmulatorsceneV5_livingRoom.glb",
        "XREmulatorsceneV5_livingRoom_planes.json",
        "XREmulatorsceneV5_livingRoom_navmesh.glb",
    } <= fetched
    room = {n.name: n for n in s.snapshot(root="simulator")}
    assert room["table_top"].position == pytest.approx((0.0, 0.73, -1.5), abs=1e-6)
    assert navmesh_bounds(s) == pytest.approx(walkable_bounds("living_room"), abs=1e-6)
    planes = s.evaluate("() => xb.world.planes.get('table').map(p => p.position.toArray())")
    assert planes == [pytest.approx([0.0, 0.75, -1.5], abs=1e-6)]


@pytest.mark.parametrize("name", ["empty", "living_room", "kitchen", "office"])
def test_each_scene_loads(open_session, name):
    scene = get_scene(name)
    s = open_session(scene=name, options=PLANES_AND_NAVMESH)
    s.step(1)
    status = s.status()
    assert status["environment"] == scene.title
    locations = s.evaluate("() => xb.core.simulator.getLocations()")
    assert set(locations) == set(scene.locations)
    room = {n.name: n for n in s.snapshot(root="simulator")}
    assert name in room  # the GLB's root node
    floor = room["floor"]
    assert floor.bbox[1][1] == pytest.approx(0.0, abs=1e-4)  # floor top at y = 0
    # Planes come from the scene's _planes.json, in world coordinates.
    planes = s.evaluate("() => xb.world.planes.get().map(p => ({label: p.label, y: p.position.y}))")
    assert any(p["label"] == "floor" and abs(p["y"]) < 1e-6 for p in planes)
    if "table" in scene.locations:
        table_y = scene.location("table")[1]
        assert any(p["label"] == "table" and abs(p["y"] - table_y) < 1e-6 for p in planes)
    assert navmesh_bounds(s) == pytest.approx(walkable_bounds(name), abs=1e-6)
    served = [r.url for r in s.remote_requests if r.action == "fulfilled"]
    assert all("xrblocks/assets" not in u for u in served)  # the chosen scene came from the workspace
    assert s.failed_requests == [] and s.page_errors == []


def test_pinch_toggles_the_lamp(open_session):
    """The example works: the left hand's ray rests on the lamp; a pinch selects it."""
    s = open_session(scene="living_room")
    s.step(2)
    s.evaluate("() => xb.core.simulator.hands.setLeftHandPinching(true)")
    s.step(5)
    assert s.find_by_tag("lamp").state == {"on": True, "toggles": 1}
    assert s.find_by_tag("lamp-button").color == "#ffcc33"
    events = [(e["type"], e["handedness"], e["target"]) for e in s.evaluate("() => window.__events")]
    assert ("select", "left", "lamp") in events and ("lightOn", "left", "lamp") in events
    s.evaluate("() => xb.core.simulator.hands.setLeftHandPinching(false)")
    s.step(5)
    assert s.find_by_tag("lamp-button").state == {"pressed": False}


@pytest.mark.parametrize(
    ("app", "status", "message"),
    [
        ("bad_environment", "rejected", "Failed to load simulator manifest"),
        ("init_throws", "script-init-failed", "Broken.init threw: Error: boom in Broken.init"),
        ("main_throws", "app-error", "boom before init"),
    ],
)
def test_broken_apps_are_init_errors(open_session, test_apps, app, status, message):
    with pytest.raises(AppInitError) as info:
        open_session(test_apps / app)
    err = info.value
    assert err.details["status"]["status"] == status
    assert message in str(err)
    if app == "bad_environment":  # the message carries what the page reported
        assert "failed requests (1)" in str(err) and "missing/manifest.json (HTTP 404)" in str(err)


def test_an_app_that_never_inits_times_out(open_session, test_apps):
    with pytest.raises(AppInitError, match=r"timed out after 2 s .*xb.init was never called"):
        open_session(test_apps / "never_inits", init_timeout_s=2)


def test_an_app_without_an_import_map_runs(open_session, test_apps):
    s = open_session(test_apps / "no_importmap", scene="empty")
    assert s.find_by_tag("marker").state == {"three": "184"}


@pytest.fixture
def local_secret_server():
    """Another loopback HTTP service the app must not reach."""

    hits: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            hits.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"LOCAL-SECRET")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], hits
    server.shutdown()
    server.server_close()


def test_hostile_app_network_is_blocked_and_recorded(open_session, test_apps, local_secret_server):
    port, hits = local_secret_server
    s = open_session(test_apps / "hostile", scene="empty", url_params={"otherPort": str(port)})
    attempts = s.evaluate("async () => { await window.__attemptsDone; return window.__attempts; }")
    for name in ("example", "post", "loopback", "websocket"):
        assert attempts[name]["ok"] is False, (name, attempts[name])
    assert attempts["traversal"] == {"ok": True, "value": "404"}
    aborted = set(s.log.aborted)
    assert "https://example.com/" in aborted
    assert "https://example.com/upload" in aborted
    assert f"http://127.0.0.1:{port}/secret.txt" in aborted
    assert "wss://example.com/socket" in aborted
    failed = {f.url: f.reason for f in s.failed_requests}
    assert "ERR_BLOCKED_BY_CLIENT" in failed["https://example.com/"]
    assert all(r.action == "aborted" or r.local for r in s.remote_requests)
    assert hits == []  # the other local service never saw a request


def test_cleanup_on_close_and_on_keyboard_interrupt(xr_browser):
    s = XRSession("examples/tap_to_light", browser=xr_browser, scene="empty")
    with pytest.raises(KeyboardInterrupt), s:
        workspace = s.workspace.path
        assert workspace.is_dir()
        raise KeyboardInterrupt
    assert not workspace.exists()
    with pytest.raises(SessionClosedError):
        s.snapshot()
    assert len(xr_browser.contexts) == 0


def test_cleanup_when_interrupted_while_opening(xr_browser, monkeypatch):
    original = XRSession.call

    def interrupted(self, name, args=None):
        if name == "wait_ready":
            raise KeyboardInterrupt
        return original(self, name, args)

    monkeypatch.setattr(XRSession, "call", interrupted)
    s = XRSession("examples/tap_to_light", browser=xr_browser)
    with pytest.raises(KeyboardInterrupt):
        s.open()
    assert s.workspace is None and s.server is None and s.context is None
    assert len(xr_browser.contexts) == 0


def test_room_ray_reads_the_simulated_room_not_the_app(open_session):
    """`room_ray`: the living room's table top (0.75 m high around (0, -1.5)) and what the view shows there."""
    s = open_session(scene="living_room")
    s.step(2)
    down = s.room_ray((0.1, 1.5, -1.5), (0, -1, 0))
    assert down.hit is not None
    assert down.hit.point == pytest.approx((0.1, 0.75, -1.5), abs=0.01)
    assert down.hit.distance == pytest.approx(0.75, abs=0.01)
    assert down.hit.normal == pytest.approx((0, 1, 0), abs=1e-3)
    eye = s.camera_pose().position
    assert down.eye == pytest.approx(eye, abs=1e-6)
    # A point on the table top is where the view shows the room; one 30 cm above it is not.
    on = s.room_ray(eye, (0.1 - eye[0], 0.75 - eye[1], -1.5 - eye[2]), view_point=(0.1, 0.75, -1.5))
    assert on.view is not None and on.view.room_min - 0.02 <= on.view.depth <= on.view.room_max + 0.02
    above = s.room_ray(eye, (0, -1, 0), view_point=(0.1, 1.05, -1.5))
    assert above.view is not None and above.view.depth < above.view.room_min - 0.1
    assert 0 < above.view.u < 1 and 0 < above.view.v < 1
    # The app's own objects are not the room: the lamp's button is not in it.
    lamp = s.find_by_tag("lamp-button").position
    through = s.room_ray((lamp[0], lamp[1], lamp[2] + 0.5), (0, 0, -1))
    assert through.hit is None or through.hit.distance > 0.55
