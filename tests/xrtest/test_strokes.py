"""The stroke checks of `xrbench.xrtest.strokes` on strokes built by hand (no browser)."""

import pytest

from xrbench.xrtest.strokes import Trail, assert_follows, assert_points, path_length

PATH = [(0.01 * i, 1.4, -0.4) for i in range(21)]  # 20 cm along x


def stroke(points, kind="line", state=None):
    return {
        "uuid": "s",
        "state": state or {"hand": "right", "points": len(points)},
        "points": points,
        "parts": [{"kind": kind, "count": len(points)}],
    }


def trail(path=PATH):
    return Trail("dominant", "right", list(path), list(path))


def test_a_stroke_along_the_path_passes_and_one_beside_it_fails():
    on = [(x, y + 0.005, z) for x, y, z in PATH]
    assert_follows(stroke(on), trail())
    beside = [(x, y + 0.02, z) for x, y, z in PATH]
    with pytest.raises(AssertionError, match=r"pass within 0\.0125 m"):
        assert_follows(stroke(beside), trail())
    stray = [*on, (0.1, 1.44, -0.4)]
    with pytest.raises(AssertionError, match=r"observed a point at \(0.100, 1.440, -0.400\), 0.040 m from it"):
        assert_follows(stroke(stray), trail())
    half = on[:10]
    with pytest.raises(AssertionError, match="observed nothing drawn"):
        assert_follows(stroke(half), trail())
    assert_follows(stroke(half), trail(), path=PATH[:10])  # a part of the path


def test_state_points_must_count_the_points_held():
    assert path_length(PATH) == pytest.approx(0.2)
    assert assert_points(stroke(PATH), PATH) == 21
    with pytest.raises(AssertionError, match=r"state\.points 30 for a line of 21 points"):
        assert_points(stroke(PATH, state={"points": 30}), PATH)
    with pytest.raises(AssertionError, match="at least 16"):
        assert_points(stroke(PATH[:5], state={"points": 5}), PATH)
    with pytest.raises(AssertionError, match="the number of points of the stroke"):
        assert_points(stroke(PATH, state={"points": True}), PATH)
