"""End-to-end: a plain three.js WebXR app on the IWER emulator, offline, stepped in virtual time."""

from __future__ import annotations

import math
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from xrbench.xrtest import AppInitError
from xrbench.xrtest.iwer import IWERSession

pytestmark = pytest.mark.xr

IWER_APP = Path(__file__).resolve().parents[2] / "examples" / "iwer_cube"
DT_MS = 1000.0 / 60.0
TIME_ORIGIN_MS = 10_000.0


@pytest.fixture
def open_iwer(xr_browser) -> Iterator[Callable[..., IWERSession]]:
    """`open_iwer(**kwargs)` opens the example on IWER in the shared browser; closed after the test."""
    sessions: list[IWERSession] = []

    def factory(app_dir: str | Path = IWER_APP, **kwargs) -> IWERSession:
        kwargs.setdefault("browser", xr_browser)
        session = IWERSession(app_dir, **kwargs)
        sessions.append(session)
        return session.open()

    yield factory
    for session in sessions:
        session.close()


def assert_offline_and_clean(s: IWERSession) -> None:
    # three.js comes from the CDN in the app's import map: the workspace maps it to node_modules,
    # so not a single request leaves the session server.
    assert s.remote_requests == []
    assert s.failed_requests == [] and s.page_errors == [] and s.console_errors == []
    assert s.frame_errors == []


def test_enters_vr_with_a_real_click_and_steps_in_virtual_time(open_iwer):
    s = open_iwer()
    status = s.status()
    assert status["session"] and status["mode"] == "immersive-vr" and status["device"] == "Meta Quest 3"
    assert not status["running"] and s.frame == 0  # paused before the first XR frame
    assert s.evaluate("() => window.__events")[0] == {"type": "sessionstart", "mode": "immersive-vr", "frame": 0}
    assert s.step(7) == 7
    # Exactly one app frame per step, with frame times that are the same in every run.
    assert s.evaluate("() => window.__frames") == 7
    assert s.frame_info()["time"] == pytest.approx(TIME_ORIGIN_MS + 7 * DT_MS)
    assert s.evaluate("() => performance.now()") == pytest.approx(TIME_ORIGIN_MS + 7 * DT_MS)
    assert s.advance(100) == 13
    pose = s.camera_pose()
    assert pose.position == pytest.approx((0, 1.6, 0), abs=1e-6)
    assert pose.forward == pytest.approx((0, 0, -1), abs=1e-6)
    cube = s.find_by_tag("cube")
    assert cube.position == pytest.approx((0, 1.4, -1.0), abs=1e-6)
    assert cube.size == pytest.approx((0.25, 0.25, 0.25), abs=1e-4)
    assert cube.state == {"on": False, "selects": 0, "lastHandedness": None, "lastInput": None}
    assert cube.color == "#3388ff" and cube.is_mesh and cube.visible
    assert s.webgl_alive()
    # Without window.scene the scene is found through the renderer that draws the XR frames.
    s.evaluate("() => { delete window.scene; }")
    assert s.find_by_tag("cube").position == cube.position
    assert_offline_and_clean(s)


def test_hand_joints_from_the_xr_frame(open_iwer):
    s = open_iwer(input_mode="hand")
    s.step(1)
    assert s.evaluate("() => window.__handJoints") == {"left": 25, "right": 25}  # what the app saw
    for hand, sign in (("left", -1), ("right", 1)):
        joints = s.hand_joints(hand)
        assert len(joints) == 25
        assert sign * joints["wrist"].position[0] > 0.1  # each hand on its own side
        assert 0.05 < math.dist(joints["wrist"].position, joints["index-finger-tip"].position) < 0.25
    assert {i.handedness for i in s.input_sources() if i.is_hand} == {"left", "right"}

    def gap() -> float:
        j = s.hand_joints("right")
        return math.dist(j["thumb-tip"].position, j["index-finger-tip"].position)

    open_gap = gap()
    s.pinch(hand="right")
    assert gap() < 0.01 < open_gap
    s.release(hand="right")
    assert gap() == pytest.approx(open_gap, abs=1e-6)
    # Moving the hand moves the skeleton with it, in the app's reference space.
    tip = s.reach_to((0.1, 1.2, -0.5), hand="right")
    assert tip.position == pytest.approx((0.1, 1.2, -0.5), abs=1e-5)
    assert_offline_and_clean(s)


@pytest.mark.parametrize("hand", ["right", "left"])
def test_pinch_select_on_the_cube_with_the_dominant_hand(open_iwer, hand):
    s = open_iwer(input_mode="hand", dominant_hand=hand)
    dominant = s.hand("dominant")  # the same actor API as XRSession's simulator
    assert dominant.handedness == hand
    # A pinch aimed away from the cube changes nothing.
    dominant.point_to((0, 2.5, -1.0))
    dominant.click()
    assert s.find_by_tag("cube").state["selects"] == 0
    miss = s.evaluate("() => window.__events")[-1]
    assert (miss["type"], miss["handedness"], miss["input"], miss["hit"]) == ("selectstart", hand, "hand", False)
    dominant.click("cube")
    cube = s.find_by_tag("cube")
    assert cube.state == {"on": True, "selects": 1, "lastHandedness": hand, "lastInput": "hand"}
    assert cube.color == "#ff5533"
    # The one-call primitive does the same with the other hand.
    other = "left" if hand == "right" else "right"
    s.select("cube", hand=other)
    assert s.find_by_tag("cube").state == {"on": False, "selects": 2, "lastHandedness": other, "lastInput": "hand"}
    assert_offline_and_clean(s)


def test_controller_trigger_and_squeeze(open_iwer):
    s = open_iwer()  # controllers are IWER's default input
    assert s.status()["inputMode"] == "controller"
    s.move_controller((0.2, 1.3, -0.4), point_at="cube")
    ray = next(i for i in s.input_sources() if i.handedness == "right")
    assert not ray.is_hand and "meta-quest-touch-plus" in ray.profiles
    assert ray.target_ray is not None and ray.target_ray.position == pytest.approx((0.2, 1.3, -0.4), abs=1e-6)
    s.trigger(1.0)
    assert ray.buttons[0] == 0.0 and s.input_sources()[1].buttons[0] == 1.0
    s.trigger(0.0)
    expected = {"on": True, "selects": 1, "lastHandedness": "right", "lastInput": "controller"}
    assert s.find_by_tag("cube").state == expected
    s.select("cube")  # aim and a full trigger press: toggles back
    assert s.find_by_tag("cube").state["on"] is False
    s.squeeze()
    assert [e["type"] for e in s.evaluate("() => window.__events")][-1] == "squeezestart"
    # The actor API: the left controller moves there gradually, aims and pulls its trigger.
    left = s.controller("non_dominant")
    assert left.move_to((-0.2, 1.3, -0.5))["frames"] > 1
    left.select("cube")
    assert s.find_by_tag("cube").state["lastHandedness"] == "left"
    left.squeeze()
    assert s.evaluate("() => window.__events")[-1]["handedness"] == "left"
    assert_offline_and_clean(s)


def test_head_and_hand_actors_move_gradually(open_iwer):
    s = open_iwer(input_mode="hand")
    frames = s.head.look_at("cube")  # 11.3 degrees down at 3 degrees a frame
    assert frames == 4 and s.frame == 4
    assert s.camera_pose().forward == pytest.approx((0, -0.196, -0.981), abs=1e-3)
    s.head.teleport_to("cube", distance=0.8)
    assert s.camera_pose().position == pytest.approx((0, 1.6, -0.2), abs=1e-6)
    hand = s.hand("dominant")
    before = hand.position
    s.head.move((0, 0, 0.5))  # a walk: the hands come along
    assert hand.position == pytest.approx((before[0], before[1], before[2] + 0.5), abs=1e-6)
    # A poke: the fingertip ends just inside the cube's front face (2 cm deep on the reach line).
    result = hand.reach_to("cube")
    assert result["frames"] > 10
    lo, hi = s.find_by_tag("cube").bbox
    tip = hand.fingertip
    assert all(lo[i] < tip[i] < hi[i] for i in range(3)) and tip[2] > hi[2] - 0.03
    assert_offline_and_clean(s)


def test_sem_room_loads_offline_with_detected_planes(open_iwer):
    s = open_iwer(mode="immersive-ar", room="office_small")
    assert s.status()["mode"] == "immersive-ar"
    s.step(2)
    assert s.detected_planes() > 0
    assert s.evaluate("() => window.__planes") == s.detected_planes()  # the app sees the same planes
    assert "floor" in s.plane_labels()
    assert s.detected_meshes() > 0
    assert s.remote_requests == [] and s.failed_requests == [] and s.page_errors == []
    # @iwer/sem bundles its own three.js; that warning is the only console output.
    assert s.console_errors == []


def test_free_running_session_and_frame_errors(open_iwer):
    s = open_iwer(enter="api", pause=False)  # no button click: the session is handed to the renderer
    assert not s.paused
    start = s.frame
    assert s.wait_frames(3) >= start + 3
    s.pause()
    frozen = s.frame
    assert s.step(2) == frozen + 2
    # An exception in the app's frame callback is kept (IWER logs it and goes on, like a browser).
    s.evaluate("() => { window.scene.onBeforeRender = () => { throw new Error('boom in render'); }; }")
    s.step(1)
    assert [e["frame"] for e in s.frame_errors] == [frozen + 3]
    assert "boom in render" in s.frame_errors[0]["message"]
    assert any("boom in render" in e for e in s.console_errors)


def test_exit_and_reenter_xr(open_iwer):
    s = open_iwer()
    s.step(2)
    s.end_xr()
    assert s.status()["ended"] and s.evaluate("() => window.__events")[-1]["type"] == "sessionend"
    s.enter_xr()  # the app's button again: a second session, paused like the first
    status = s.status()
    assert status["sessions"] == 2 and not status["ended"] and not status["running"]
    frames = s.evaluate("() => window.__frames")
    s.step(3)
    assert s.evaluate("() => window.__frames") == frames + 3
    s.select("cube")
    assert s.find_by_tag("cube").state["selects"] == 1
    assert_offline_and_clean(s)


def test_missing_enter_button_is_an_init_error(open_iwer, tmp_path):
    app = tmp_path / "no_button"
    shutil.copytree(IWER_APP, app)
    html = app / "index.html"
    html.write_text(html.read_text().replace("Enter VR", "Go").replace("Enter AR", "Go"))
    with pytest.raises(AppInitError, match="could not click a button labelled like"):
        open_iwer(app, init_timeout_s=8)  # also bounds the page load: leave room for a busy machine
