"""Runtime tests of `select-cube-color`: the generated app, driven through the xrtest `xr` fixture.

Each test runs for a right- and a left-dominant user. The cube is found by its semantic tag.
"""

from xrbench.xrtest.assertions import assert_changes, assert_color, assert_no_errors, assert_position


def test_cube_in_front_of_the_user(xr):
    xr.step(1)
    cube = xr.find_by_tag("color-cube")
    size = cube.size
    assert size is not None and all(0.2 <= s <= 0.4 for s in size), f"cube size {size}, expected about 0.3 m"
    head = xr.camera_pose().position
    assert_position(xr, "color-cube", (head[0], head[1], head[2] - 1.2), tol=0.35)
    assert_no_errors(xr)


def test_each_selection_changes_the_colour(xr):
    xr.step(1)
    hand = xr.hand("dominant")
    seen = {xr.find_by_tag("color-cube").color}
    after = None
    for _ in range(3):
        before = xr.find_by_tag("color-cube").color
        with assert_changes(xr, "color-cube", "color"):
            hand.click("color-cube")
        after = xr.find_by_tag("color-cube")
        assert after.color != before
        assert_color(xr, "color-cube", after.state["color"])  # state.color tracks the real colour
        seen.add(after.color)
    assert len(seen) >= 2
    xr.wait(2000)  # nothing changes without a selection
    assert after is not None and xr.find_by_tag("color-cube").color == after.color
    assert_no_errors(xr)
