"""XR Blocks' StrokeRecognizer (sdk/src/input/strokes/StrokeRecognition.ts) names the shape a pinching
hand draws with its index fingertip, through the demo app.

The app lists every stroke the recogniser reports on its board ('shape-board': state.strokes, one entry
per unistrokestart, with the unistrokeupdate count, whether unistrokeend came and the shape and
confidence of its result). The fingertip is moved by the harness along a shape's outline, a point per
frame or two, in a plane chosen by the test:
- facing the user (circle, rectangle, triangle), with either hand;
- seen edge-on (the plane holds the view direction, so the user sees the stroke as a line), looking
  ahead and with the user turned 90 degrees;
- too short a stroke (a pinch of a third of a second that moves) names nothing, and a stroke whose last
  tenth of a second wanders off still names its shape; a straight line (no plane of its own) still gets a
  result.

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import itertools
import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = [pytest.mark.xr_scenes("empty"), pytest.mark.xr_timeout(300), pytest.mark.fail_to_pass]

BOARD = "shape-board"
SPEED = 1.2  # m/s: 2 cm a frame at most


def outline(shape: str, size: float) -> list[tuple[float, float]]:
    """The shape's outline in its plane's (u, v) coordinates (v up), as a fingertip draws it from the top,
    going on past the start for a fifth of a second (12 points) as a hand does when it closes a shape."""
    if shape == "Circle":
        return [(size * math.sin(2 * math.pi * i / 48), size * math.cos(2 * math.pi * i / 48)) for i in range(61)]
    if shape == "Rectangle":
        w, h = size, size * 0.7
        corners = [(-w, h), (w, h), (w, -h), (-w, -h), (-w, h)]
    elif shape == "Triangle":
        corners = [(0.0, size), (size, -size * 0.8), (-size, -size * 0.8), (0.0, size)]
    else:
        raise ValueError(shape)
    n = 16
    pts = [corners[0]]
    for a, b in itertools.pairwise(corners):
        pts += [(a[0] + (b[0] - a[0]) * k / n, a[1] + (b[1] - a[1]) * k / n) for k in range(1, n + 1)]
    return pts + pts[1:13]


def strokes(xr) -> list[dict]:
    return list(xr.find_by_tag(BOARD).state["strokes"])


def draw(xr, hand, shape: str, centre, u, v, size: float = 0.12, tail=None) -> dict:
    """Pinch with the fingertip on the outline's first point, draw it, (go along `tail`,) release."""
    pts = outline(shape, size)
    world = [tuple(centre[i] + p[0] * u[i] + p[1] * v[i] for i in range(3)) for p in pts]
    hand.move_hand(world[0], anchor="fingertip", speed=SPEED)
    before = len(strokes(xr))
    hand.pinch()
    for p in world:
        hand.move_hand(p, anchor="fingertip", speed=SPEED)
    for p in tail or []:
        hand.move_hand(p, anchor="fingertip", speed=SPEED * 3)
    hand.release()
    xr.step(2)
    after = strokes(xr)
    assert len(after) == before + 1, f"expected one new stroke reported for the {shape}; observed {after[before:]}"
    s = after[-1]
    assert s["ended"], f"expected the {shape} stroke to end when the pinch was released; observed {s}"
    return s


def assert_named(s: dict, shape: str, what: str) -> None:
    __tracebackhide__ = True
    assert s["shape"] == shape, f"expected the stroke ({what}) to be named {shape!r}; observed {s}"
    c = s["confidence"]
    assert isinstance(c, (int, float)) and 0.0 <= c <= 1.0, (
        f"expected a confidence between 0 and 1 ({what}); observed {s}"
    )


def park(xr, hand) -> None:
    """The other hand, relaxed, out of the way."""
    hand.move_hand((0.0, 0.9, 0.3), speed=SPEED)


def test_shapes_drawn_facing_the_user_are_named_for_either_hand(xr):
    dominant, other = xr.hand("dominant"), xr.hand("non_dominant")
    xr.step(2)
    park(xr, other)
    right, up = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)
    for shape in ("Circle", "Rectangle", "Triangle"):
        s = draw(xr, dominant, shape, (0.05, 1.35, -0.5), right, up)
        assert_named(s, shape, f"drawn by the {dominant.handedness} hand facing the user")
    park(xr, dominant)
    for shape in ("Triangle", "Circle"):
        s = draw(xr, other, shape, (-0.05, 1.35, -0.5), right, up)
        assert_named(s, shape, f"drawn by the {other.handedness} hand facing the user")
    assert len(strokes(xr)) == 5
    assert_no_errors(xr)


def test_a_shape_on_a_plane_seen_edge_on_is_named_also_with_the_user_turned(xr):
    hand, other = xr.hand("dominant"), xr.hand("non_dominant")
    xr.step(2)
    park(xr, other)
    # Looking ahead (-z): a plane holding the view direction (x = const), so the stroke is seen edge-on.
    ahead, up = (0.0, 0.0, -1.0), (0.0, 1.0, 0.0)
    s = draw(xr, hand, "Rectangle", (0.15, 1.4, -0.5), ahead, up)
    assert_named(s, "Rectangle", "drawn on a plane seen edge-on")
    s = draw(xr, hand, "Triangle", (0.15, 1.4, -0.5), ahead, up)
    assert_named(s, "Triangle", "drawn on a plane seen edge-on")
    # Turned 90 degrees to the left (now looking along -x): facing, then edge-on (z = const).
    xr.head.rotate(yaw=90.0, speed=100000.0)
    xr.step(2)
    park(xr, other)
    s = draw(xr, hand, "Circle", (-0.5, 1.4, 0.0), (0.0, 0.0, -1.0), up)
    assert_named(s, "Circle", "drawn facing the user turned 90 degrees")
    s = draw(xr, hand, "Rectangle", (-0.5, 1.4, 0.1), (-1.0, 0.0, 0.0), up)
    assert_named(s, "Rectangle", "drawn on a plane seen edge-on by the user turned 90 degrees")
    assert_no_errors(xr)


def test_too_short_a_stroke_names_nothing_the_last_moments_are_left_out_and_a_line_is_recognised(xr):
    hand, other = xr.hand("dominant"), xr.hand("non_dominant")
    xr.step(2)
    park(xr, other)
    hand.move_hand((0.0, 1.35, -0.5), anchor="fingertip", speed=SPEED)
    # A third of a second of pinch, moving all the time: too few points before the last 0.2 s.
    before = len(strokes(xr))
    hand.start_select(1)
    hand.move_hand((0.11, 1.35, -0.5), anchor="fingertip", speed=0.6)  # 11 frames
    hand.move_hand((0.11, 1.24, -0.5), anchor="fingertip", speed=0.6)  # 11 frames
    hand.end_select(24)
    after = strokes(xr)
    assert len(after) == before + 1 and after[-1]["ended"], f"expected one stroke, ended; observed {after[before:]}"
    assert after[-1]["shape"] is None, f"expected a third of a second's stroke to name no shape; observed {after[-1]}"
    # A circle whose last tenth of a second runs off in a straight line is still a circle.
    c = (0.05, 1.35, -0.5)
    tail = [(c[0] + 0.03 * k, c[1] + 0.12 + 0.035 * k, c[2]) for k in range(1, 7)]
    s = draw(xr, hand, "Circle", c, (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), tail=tail)
    assert_named(s, "Circle", "with a short straight tail drawn at the end")
    # A straight line has no plane of its own: it is still recognised (as something), on the view.
    hand.move_hand((-0.12, 1.3, -0.5), anchor="fingertip", speed=SPEED)
    before = len(strokes(xr))
    hand.pinch()
    hand.move_hand((0.12, 1.3, -0.5), anchor="fingertip", speed=0.6)
    hand.move_hand((0.18, 1.3, -0.5), anchor="fingertip", speed=0.6)
    hand.release()
    xr.step(2)
    after = strokes(xr)
    assert len(after) == before + 1 and after[-1]["ended"], f"expected one stroke, ended; observed {after[before:]}"
    s = after[-1]
    c = s["confidence"]
    assert isinstance(s["shape"], str) and isinstance(c, (int, float)) and 0.0 <= c <= 1.0, (
        f"expected a straight stroke to be recognised as some shape, with a confidence between 0 and 1; observed {s}"
    )
    assert_no_errors(xr)
