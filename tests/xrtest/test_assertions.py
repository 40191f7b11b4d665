"""Assertions: each failure says what was expected and what was observed, with numbers.

These run against a stand-in session that answers the readers' page calls from plain data, so
they need no browser; the end-to-end use is in test_example_app.py.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from xrbench.xrtest import readers
from xrbench.xrtest.assertions import (
    assert_above,
    assert_appears,
    assert_below,
    assert_changes,
    assert_colliding,
    assert_color,
    assert_count,
    assert_disappears,
    assert_distance,
    assert_event,
    assert_facing_user,
    assert_far,
    assert_inside,
    assert_near,
    assert_no_errors,
    assert_no_event,
    assert_not_colliding,
    assert_not_visible,
    assert_position,
    assert_resting_on,
    assert_state,
    assert_touching,
    assert_visible,
    assert_within_reach,
    box_gap,
    box_penetration,
)
from xrbench.xrtest.readers import Target, filter_events, read_events, resolve
from xrbench.xrtest.session import Pose


def node(
    tag: str, lo, hi, *, state=None, color=None, emissive=None, visible=True, quaternion=(0, 0, 0, 1), root="scene"
):
    """A tagged node as the page's reader returns it; position = bbox centre."""
    centre = [(a + b) / 2 for a, b in zip(lo, hi, strict=True)]
    return {
        "name": tag,
        "type": "Mesh",
        "uuid": f"uuid-{tag}",
        "parents": [],
        "path": [],
        "tag": tag,
        "state": state,
        "position": centre,
        "quaternion": list(quaternion),
        "scale": [1, 1, 1],
        "bbox": [list(lo), list(hi)],
        "visible": visible,
        "ownVisible": visible,
        "color": color,
        "emissive": emissive,
        "isMesh": True,
        "isScript": False,
        "root": root,
    }


class FakeSession:
    """Answers the readers' harness calls (tagged nodes, events, world) from plain data."""

    def __init__(self, nodes=(), events=(), planes=(), locations=None, dominant_hand="right"):
        self.nodes = list(nodes)
        self.event_log = list(events)
        self.plane_list = list(planes)
        self.location_map = locations or {"table": [0.0, 0.75, -1.5]}
        self.dominant_hand = dominant_hand
        self.head = Pose((0.0, 1.5, 0.0), (0.0, 0.0, 0.0, 1.0), (0.0, 0.0, -1.0))
        self.scene = None
        self.page_errors_: list[str] = []
        self.steps = 0
        self.on_step = None

    def call(self, expression: str, arg: Any = None) -> Any:
        if "read.tagged" in expression:
            tag = (arg or {}).get("tag")
            return [n for n in self.nodes if tag is None or n["tag"] == tag]
        if "read.events" in expression:
            return self.event_log[(arg or {}).get("since", 0) :]
        if "read.world" in expression:
            return {
                "planes": self.plane_list,
                "planesEnabled": True,
                "depth": {"enabled": False, "available": False, "width": None, "height": None},
                "locations": {k: {"position": v} for k, v in self.location_map.items()},
            }
        raise AssertionError(f"unexpected harness call: {expression}")

    # The reading methods of XRSession, on the same readers.
    def find(self, target: Any) -> Any:
        return readers.resolve(self, target)

    def tagged(self, tag: str | None = None) -> Any:
        return readers.read_tagged(self, tag)

    def events(self) -> Any:
        return readers.read_events(self)

    def camera_pose(self) -> Pose:
        return self.head

    def handedness(self, role: str) -> str:
        if role in ("left", "right"):
            return role
        if role == "dominant":
            return self.dominant_hand
        return "left" if self.dominant_hand == "right" else "right"

    def errors(self) -> dict[str, list[str]]:
        return {"page_errors": self.page_errors_, "console_errors": [], "failed_requests": [], "script_errors": []}

    def step(self, frames: int = 1) -> int:
        self.steps += frames
        if self.on_step:
            self.on_step(self)
        return self.steps


def plane(label, y, x0, x1, z0, z1, orientation="horizontal"):
    return {
        "label": label,
        "orientation": orientation,
        "position": [(x0 + x1) / 2, y, (z0 + z1) / 2],
        "quaternion": [0, 0, 0, 1],
        "bbox": [[x0, y, z0], [x1, y, z1]],
    }


CUBE = node("cube", (0.2, 1.1, -1.1), (0.4, 1.3, -0.9), state={"grabbed": False, "grabs": 0}, color="#3388ff")
LAMP = node("lamp", (-0.37, 1.04, -1.07), (-0.23, 1.36, -0.93), state={"on": False}, color="#666a70")
VASE = node("vase", (-0.05, 0.75, -1.55), (0.05, 0.95, -1.45))  # on the table plane
TABLE = plane("table", 0.75, -0.6, 0.6, -1.9, -1.1)
FLOOR = plane("floor", 0.0, -3, 3, -4, 2)


@pytest.fixture
def s() -> FakeSession:
    return FakeSession(nodes=[CUBE, LAMP, VASE], planes=[TABLE, FLOOR])


def test_position_and_distance(s):
    assert_position(s, "cube", (0.3, 1.2, -1.0))
    with pytest.raises(AssertionError) as e:
        assert_position(s, "cube", (0.3, 1.5, -1.0), tol=0.05)
    msg = str(e.value)
    assert "expected 'cube' at (0.300, 1.500, -1.000) within 0.050 m" in msg
    assert "observed (0.300, 1.200, -1.000), 0.300 m away (delta (0.000, -0.300, 0.000))" in msg
    assert assert_distance(s, "cube", "lamp", 0.6) == pytest.approx(0.6, abs=1e-9)
    with pytest.raises(AssertionError, match=r"expected 'cube' 1\.000 \+- 0\.010 m from 'lamp'; observed 0\.600 m"):
        assert_distance(s, "cube", "lamp", 1.0)
    with pytest.raises(AssertionError, match=r"at most 0\.500 m from 'lamp'; observed 0\.600 m"):
        assert_distance(s, "cube", "lamp", at_most=0.5)
    with pytest.raises(AssertionError, match=r"at least 0\.700 m"):
        assert_distance(s, "cube", "lamp", at_least=0.7)


def test_near_and_far_use_the_gap_between_boxes(s):
    gap = assert_near(s, "cube", "lamp", within=0.5)
    assert gap == pytest.approx(0.43, abs=1e-9)
    with pytest.raises(AssertionError) as e:
        assert_near(s, "cube", "lamp", within=0.1)
    assert "expected 'cube' within 0.100 m of 'lamp'; observed a gap of 0.430 m" in str(e.value)
    assert "centres (0.300, 1.200, -1.000) and (-0.300, 1.200, -1.000), 0.600 m apart" in str(e.value)
    assert_far(s, "cube", "lamp", beyond=0.4)
    with pytest.raises(AssertionError, match=r"more than 0\.500 m from 'lamp'; observed a gap of 0\.430 m"):
        assert_far(s, "cube", "lamp", beyond=0.5)


def test_a_missing_tag_fails_naming_it(s):
    with pytest.raises(AssertionError) as e:
        assert_near(s, "teapot", "cube")
    msg = str(e.value)
    assert "no object tagged 'teapot'" in msg
    assert "tags present: cube, lamp, vase" in msg and "locations: table" in msg
    with pytest.raises(AssertionError, match="'teapot'"):
        assert_state(s, "teapot", on=True)
    with pytest.raises(AssertionError, match=r"expected 'teapot' visible; observed no object tagged 'teapot' \(tags"):
        assert_visible(s, "teapot")


def test_above_below_and_resting_on(s):
    assert_above(s, "lamp", "vase")
    assert_below(s, "vase", "lamp")
    with pytest.raises(AssertionError) as e:
        assert_above(s, "vase", "lamp")
    assert "expected 'vase' above 'lamp': its bottom at or over y = 1.360" in str(e.value)
    assert "observed bottom at y = 0.750, 0.610 m too low" in str(e.value)
    with pytest.raises(AssertionError, match=r"directly above 'vase' .*observed its centre at x = 0\.300"):
        assert_above(s, "cube", "vase", directly=True)
    with pytest.raises(AssertionError, match=r"expected 'lamp' below 'cube'.*0\.260 m too high"):
        assert_below(s, "lamp", "cube")
    assert assert_resting_on(s, "vase", "table") == pytest.approx(0.0)
    with pytest.raises(AssertionError) as e:
        assert_resting_on(s, "cube", "table")
    msg = str(e.value)
    assert "expected 'cube' resting on plane 'table' (bottom at y = 0.750 +- 0.010 m)" in msg
    assert "observed bottom at y = 1.100, 0.350 m above the surface (floating)" in msg
    # On a tagged object: the top of its box.
    s.nodes.append(node("book", (-0.05, 0.95, -1.55), (0.05, 0.98, -1.45)))
    assert_resting_on(s, "book", "vase")


def test_resting_on_checks_the_surface_extent(s):
    s.nodes.append(node("mug", (0.9, 0.75, -1.55), (1.0, 0.85, -1.45)))  # at table height, beside it
    with pytest.raises(AssertionError) as e:
        assert_resting_on(s, "mug", "table")
    assert "(x in [-0.600, 0.600], z in [-1.900, -1.100]); observed its centre at x = 0.950" in str(e.value)
    assert "off the surface" in str(e.value)


def test_inside(s):
    s.nodes.append(node("bulb", (-0.33, 1.24, -1.03), (-0.27, 1.30, -0.97)))
    assert_inside(s, "bulb", "lamp")
    with pytest.raises(AssertionError) as e:
        assert_inside(s, "cube", "lamp")
    msg = str(e.value)
    assert "expected 'cube' (0.200, 1.100, -1.100)..(0.400, 1.300, -0.900) inside 'lamp'" in msg
    assert "x-max 0.400 > -0.230" in msg and "z-max -0.900 > -0.930" in msg


def test_facing_the_user(s):
    # A panel 1 m ahead whose +Z points back at the head.
    s.nodes.append(node("panel", (-0.1, 1.4, -1.01), (0.1, 1.6, -0.99)))
    assert assert_facing_user(s, "panel") == pytest.approx(0.0, abs=1e-6)
    half = math.sqrt(0.5)
    s.nodes.append(node("sign", (0.9, 1.4, -1.0), (1.1, 1.6, -1.0), quaternion=(0, half, 0, half)))  # +Z -> +X
    with pytest.raises(AssertionError) as e:
        assert_facing_user(s, "sign", max_angle=30)
    msg = str(e.value)
    assert "expected 'sign' facing the user within 30.0 deg; observed" in msg
    angle = float(msg.split("observed ")[1].split(" deg")[0])
    assert angle == pytest.approx(135.0, abs=0.1)


def test_within_reach(s):
    s.nodes.append(node("button", (0.15, 1.25, -0.45), (0.25, 1.35, -0.35)))
    d = assert_within_reach(s, "button")
    assert 0.3 <= d <= 0.75
    with pytest.raises(AssertionError) as e:
        assert_within_reach(s, "cube", max_distance=0.5)  # right shoulder at (0.2, 1.3, 0)
    assert "expected 'cube' within comfortable reach, 0.30-0.50 m from the shoulder; observed 1.010 m" in str(e.value)
    assert "right shoulder at (0.200, 1.300, 0.000)" in str(e.value)
    s.nodes.append(node("behind", (0.1, 1.2, 0.2), (0.2, 1.3, 0.3)))
    with pytest.raises(AssertionError, match=r"in front of the user; observed it 0\.250 m behind"):
        assert_within_reach(s, "behind")
    s.dominant_hand = "left"
    with pytest.raises(AssertionError, match=r"left shoulder at \(-0\.200, 1\.300, 0\.000\)"):
        assert_within_reach(s, "cube")


def test_contact_and_collision():
    a = ((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
    assert box_gap(a, ((1.5, 0.0, 0.0), (2.0, 1.0, 1.0))) == pytest.approx(0.5)
    assert box_penetration(a, ((0.8, 0.5, 0.5), (2.0, 2.0, 2.0))) == pytest.approx(0.2)
    s = FakeSession(
        nodes=[
            node("a", (0, 0, 0), (0.1, 0.1, 0.1)),
            node("b", (0.1, 0, 0), (0.2, 0.1, 0.1)),  # side by side with a
            node("c", (0.05, 0.05, 0.05), (0.15, 0.15, 0.15)),  # overlaps a by 5 cm
            node("d", (0.3, 0, 0), (0.4, 0.1, 0.1)),
        ]
    )
    assert_touching(s, "a", "b")
    assert_not_colliding(s, "a", "b")
    assert assert_colliding(s, "a", "c") == pytest.approx(0.05)
    with pytest.raises(
        AssertionError, match=r"expected 'a' touching 'd' \(gap <= 0\.005 m\); observed a gap of 0\.200"
    ):
        assert_touching(s, "a", "d")
    with pytest.raises(AssertionError, match=r"observed them interpenetrating by 0\.050 m"):
        assert_touching(s, "a", "c")
    with pytest.raises(
        AssertionError, match=r"expected 'a' not colliding with 'c'; observed them interpenetrating by 0\.050"
    ):
        assert_not_colliding(s, "a", "c")
    with pytest.raises(AssertionError, match=r"expected 'a' colliding with 'd' .*observed a gap of 0\.200 m"):
        assert_colliding(s, "a", "d")


def test_visibility_appearance_and_counts(s):
    s.nodes.append(node("menu", (0, 1, -0.5), (0.3, 1.2, -0.49), visible=False))
    assert_not_visible(s, "menu")
    assert_not_visible(s, "ghost")  # absent counts as not visible
    with pytest.raises(AssertionError, match=r"expected 'menu' visible; observed 'menu' present but hidden"):
        assert_visible(s, "menu")
    with pytest.raises(AssertionError, match=r"expected 'cube' not visible; observed 1 visible"):
        assert_not_visible(s, "cube")

    def show_menu(session):
        session.nodes[-1] = {**session.nodes[-1], "visible": True, "ownVisible": True}

    with assert_appears(s, "menu"):
        show_menu(s)
    with (
        pytest.raises(AssertionError, match="expected 'menu' to appear, but it was already visible"),
        assert_appears(s, "menu"),
    ):
        pass
    with (
        pytest.raises(AssertionError, match="expected 'cube' to disappear; observed it still visible"),
        assert_disappears(s, "cube"),
    ):
        pass
    # `within_frames` steps until the object shows up.
    s.nodes[-1] = {**s.nodes[-1], "visible": False}
    s.on_step = lambda session: show_menu(session) if session.steps >= 3 else None
    with assert_appears(s, "menu", within_frames=5):
        pass
    assert s.steps == 3
    assert_count(s, "cube", 1)
    with pytest.raises(AssertionError, match=r"expected 2 object\(s\) tagged 'cube'; observed 1"):
        assert_count(s, "cube", 2)
    s.nodes.append(node("star", (0, 2, 0), (0.1, 2.1, 0.1), visible=False))
    with pytest.raises(AssertionError, match=r"expected 1 object\(s\) tagged 'star'; observed 0 \(\+1 hidden\)"):
        assert_count(s, "star", 1)
    assert_count(s, "star", 1, visible_only=False)


def test_state_and_colour(s):
    assert_state(s, "cube", grabbed=False)
    with pytest.raises(AssertionError) as e:
        assert_state(s, "cube", grabbed=True, grabs=0)
    assert "grabbed: expected True, observed False" in str(e.value)
    assert "(full state {'grabbed': False, 'grabs': 0})" in str(e.value)
    with pytest.raises(AssertionError, match=r"missing: expected 1, observed '<missing>'"):
        assert_state(s, "cube", missing=1)
    assert_color(s, "cube", "#3388FF")
    with pytest.raises(
        AssertionError, match=r"expected 'cube' colour #ffcc33 \(tol 0\); observed #3388ff \(off by 204\)"
    ):
        assert_color(s, "cube", "#ffcc33")
    assert_color(s, "cube", "#3389fe", tol=1)
    with pytest.raises(AssertionError, match="expected 'cube' emissive colour #ffffff; observed no material emissive"):
        assert_color(s, "cube", "#ffffff", emissive=True)

    def turn_on():
        s.nodes[1] = {**s.nodes[1], "state": {"on": True}, "color": "#ffcc33"}

    with assert_changes(s, "lamp", "state.on", from_=False, to=True), assert_changes(s, "lamp", "color", to="#ffcc33"):
        turn_on()
    with (
        pytest.raises(AssertionError, match=r"expected 'lamp' state\.on to change; observed True before and after"),
        assert_changes(s, "lamp", "state.on"),
    ):
        pass
    with (
        pytest.raises(AssertionError, match=r"to change to '#000000'; observed '#ffcc33' -> '#111111'"),
        assert_changes(s, "lamp", "color", to="#000000"),
    ):
        s.nodes[1] = {**s.nodes[1], "color": "#111111"}


def ev(type_, hand, frame, tags=(), name=None, scope="target"):
    return {"type": type_, "scope": scope, "hand": hand, "frame": frame, "tags": list(tags), "name": name}


def test_events():
    s = FakeSession(
        events=[
            ev("hover_enter", "left", 1, ["lamp-bulb", "lamp"]),
            ev("object_touch_start", "right", 40, ["lamp-button", "lamp"]),
            ev("select_start", "right", 40, ["lamp-button", "lamp"], scope="global"),
            ev("gesture_start", "left", 55, name="thumbs-up", scope="gesture"),
        ]
    )
    assert len(read_events(s)) == 4
    assert [str(e) for e in read_events(s)][:2] == [
        "hover_enter(left) on 'lamp-bulb'@1",
        "object_touch_start(right) on 'lamp-button'@40",
    ]
    assert_event(s, "touch", hand="dominant", target="lamp")  # a part's ancestors match too
    assert_event(s, "touch", hand="right", target="lamp-button", count=1)
    assert_event(s, "gesture", hand="non_dominant", name="thumbs-up")
    assert len(filter_events(read_events(s), since_frame=40)) == 1
    with pytest.raises(AssertionError) as e:
        assert_event(s, "touch", hand="non_dominant")
    msg = str(e.value)
    assert "expected object_touch_start by the left hand (non_dominant); observed 0 matching" in msg
    assert "Events of that type: object_touch_start(right) on 'lamp-button'@40" in msg
    assert "gesture_start[thumbs-up](left)@55" in msg
    with pytest.raises(AssertionError, match=r"expected 2 x object_touch_start on 'lamp'; observed 1 matching"):
        assert_event(s, "touch", target="lamp", count=2)
    assert_no_event(s, "grab")
    with pytest.raises(
        AssertionError, match=r"expected no hover_enter by the left hand; observed 1: hover_enter\(left\)"
    ):
        assert_no_event(s, "hover", hand="left")
    with pytest.raises(ValueError, match="unknown event type 'poke'"):
        assert_event(s, "poke")


def test_no_errors():
    s = FakeSession()
    assert_no_errors(s)
    s.page_errors_ = ["TypeError: x is undefined\n    at update (main.js:3)", "ResizeObserver loop limit exceeded"]
    with pytest.raises(AssertionError) as e:
        assert_no_errors(s)
    assert "expected no errors; observed 2:" in str(e.value)
    assert "page errors (2): TypeError: x is undefined | ResizeObserver" in str(e.value)
    with pytest.raises(AssertionError, match="observed 1:"):
        assert_no_errors(s, allow=[r"ResizeObserver"])


def test_targets_resolve_points_locations_planes_and_tags(s):
    assert resolve(s, (1, 2, 3)) == Target(label="point (1.000, 2.000, 3.000)", point=(1.0, 2.0, 3.0))
    loc = resolve(s, "table")
    assert loc.kind == "location" and loc.point == (0.0, 0.75, -1.5) and loc.label == "location 'table'"
    s.location_map = {}
    pl = resolve(s, "table")
    assert pl.kind == "plane" and pl.bbox == ((-0.6, 0.75, -1.9), (0.6, 0.75, -1.1))
    cube = resolve(s, "cube")
    assert cube.kind == "node" and cube.point == pytest.approx((0.3, 1.2, -1.0)) and cube.node.tag == "cube"
    with pytest.raises(TypeError):
        resolve(s, 42)
