"""XR tests of Tap to Light, written the way an app's own tests are: plain pytest and the `xr` fixture.

    pytest examples/tap_to_light/tests           # or: xrbench xr test examples/tap_to_light examples/tap_to_light/tests

Every test runs for a right-dominant and a left-dominant user (see the test ids) and speaks of
hands by role (`hand("dominant")`), so the same body checks both. Everything moves in virtual
time: actors step frames, nothing sleeps, and five runs in a row give the same outcomes.

Between them the tests use every actor family (head, hands, controllers, gestures, physical
objects, scenes, time) and every assertion family of `xrbench.xrtest.assertions`, in each of the
four bundled rooms, and once on the IWER WebXR emulator instead of XR Blocks' simulator.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest import TagNotFoundError
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
    assert_follows_hand,
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
)

# The living room unless a test lists its scenes.
pytestmark = pytest.mark.xr_scenes("living_room")

OFF, ON = "#666a70", "#ffcc33"
CUBE_HOME = (0.3, 1.2, -1.0)


def cursor(app) -> str:
    """Tag of the fingertip cursor on the dominant hand."""
    return f"tip-cursor-{app.handedness('dominant')}"


def test_touching_the_button_toggles_the_lamp(app):
    hand = app.hand("dominant")
    with assert_changes(app, "lamp-button", "color", from_=OFF, to=ON):
        hand.reach_to("lamp-button")
    assert_event(app, "touch", hand="dominant", target="lamp-button", count=1)
    assert_event(app, "object_select_start", hand="dominant", target="lamp")  # a touch also selects
    assert_state(app, "lamp", on=True, toggles=1)  # toggled once, not twice
    assert_state(app, "lamp-button", pressed=True)
    assert_color(app, "lamp-bulb", "#ffdd66", emissive=True)
    assert_inside(app, cursor(app), "lamp-button")  # the fingertip is in the button
    hand.rest()
    assert_event(app, "object_touch_end", hand="dominant", target="lamp-button")
    assert_state(app, "lamp-button", pressed=False)
    assert_state(app, "lamp", on=True)
    assert_no_event(app, "touch", hand="non_dominant")
    assert_no_errors(app)


def test_a_ray_click_toggles_the_lamp_and_a_second_click_turns_it_off(app):
    hand = app.hand("dominant")
    hand.click("lamp-button")
    assert_event(app, "hover_enter", hand="dominant", target="lamp")
    assert_event(app, "object_select_start", hand="dominant", target="lamp-button", count=1)
    assert_event(app, "select", hand="dominant", target="lamp", count=1)  # pressed and released on it
    assert_state(app, "lamp", on=True, toggles=1)
    frame = app.frame
    hand.click()  # still aiming at the button
    assert_event(app, "select", hand="dominant", since_frame=frame, count=1)
    assert_state(app, "lamp", on=False, toggles=2)
    assert_color(app, "lamp-button", OFF)
    assert_no_event(app, "touch")  # a ray, never a touch
    assert_no_errors(app)


def test_the_grabbed_cube_follows_the_hand_and_stays_where_it_is_released(app):
    hand = app.hand("dominant")
    hand.reach_to("cube", depth=0.05)
    hand.pinch()
    assert_event(app, "grab", hand="dominant", target="cube", count=1)
    assert_state(app, "cube", grabbed=True, selected=True, grabs=1)
    assert_color(app, "cube", "#ff5533")
    x, y, z = hand.position
    path = [(x, y + 0.15, z), (x - 0.2, y + 0.2, z + 0.1), (x - 0.1, y + 0.25, z + 0.05)]
    deviation = assert_follows_hand(app, "cube", hand, path, max_deviation=0.01)
    assert deviation < 0.01
    assert_near(app, "cube", hand, within=0.15)
    hand.release()
    assert_event(app, "object_grab_end", hand="dominant", target="cube")
    assert_state(app, "cube", grabbed=False)
    where = app.find("cube").point
    hand.rest()
    assert_position(app, "cube", where, tol=1e-6)  # released: it stays
    assert_distance(app, "cube", CUBE_HOME, at_least=0.2)
    assert_above(app, "cube", "lamp-button")
    assert_no_errors(app)


def test_a_thumbs_up_adds_a_star_above_the_lamp(app):
    with assert_appears(app, "star"):
        app.gesture("dominant", "thumbs-up")
    assert_event(app, "gesture", hand="dominant", name="thumbs-up", count=1)
    assert_event(app, "gesture_end", hand="dominant", name="thumbs-up")
    assert_count(app, "star", 1)
    assert_state(app, "star", hand=app.handedness("dominant"))
    assert_above(app, "star", "lamp-bulb", directly=True)
    app.hand("non_dominant").set_pose("thumbs up")
    assert_count(app, "star", 2)
    assert_event(app, "gesture", hand="non_dominant", name="thumbs-up", count=1)
    assert_no_event(app, "gesture", name="fist")
    assert_no_errors(app)


def test_poses_and_joint_rotations_shape_the_hand(app):
    hand = app.hand("dominant")
    hand.set_pose("fist")
    assert app.hand_state("dominant").pose == "fist"
    assert_event(app, "gesture", hand="dominant", name="fist")
    hand.set_pose("relaxed")
    assert_event(app, "gesture_end", hand="dominant", name="fist")

    def tip_to_wrist() -> float:
        joints = hand.joints
        return math.dist(joints["index-finger-tip"].position, joints["wrist"].position)

    open_reach = tip_to_wrist()
    hand.set_joint_rotations(
        {
            "index-finger-phalanx-proximal": (80, 0, 0),
            "index-finger-phalanx-intermediate": (100, 0, 0),
            "index-finger-phalanx-distal": (70, 0, 0),
        }
    )
    assert app.hand_state("dominant").pose is None  # custom rotations, no named pose
    curled = tip_to_wrist()
    assert curled < open_reach - 0.03, (open_reach, curled)
    assert_near(app, cursor(app), hand.fingertip, within=0.002)  # the cursor stays on the fingertip
    assert_no_errors(app)


def test_a_squeeze_opens_the_menu_in_reach_and_a_second_squeeze_closes_it(app):
    # In XR Blocks a squeeze also selects what the controller's ray points at (the left ray
    # rests on the lamp at the start): aim both at the floor first.
    for role in ("dominant", "non_dominant"):
        app.controller(role).point_to("floor")
    controller = app.controller("dominant")
    with assert_appears(app, "menu"):
        controller.squeeze()
    assert_event(app, "squeeze", hand="dominant", count=1)
    assert_state(app, "menu", open=True)
    assert_facing_user(app, "menu", max_angle=5)
    assert_within_reach(app, "menu")
    assert_visible(app, "menu-reset")
    with assert_disappears(app, "menu"):
        app.controller("non_dominant").squeeze()
    assert_event(app, "squeeze", hand="non_dominant", count=1)
    assert_not_visible(app, "menu-reset")
    assert_event(app, "select_start", hand="dominant")  # the squeeze's select, on nothing
    assert_no_event(app, "object_select_start")
    assert_state(app, "lamp", on=False)
    # Aimed at the lamp, the same squeeze selects it too (and opens the menu again).
    other = app.controller("non_dominant")
    other.move_to((0.0, 1.3, -0.4))
    assert_position(app, other, (0.0, 1.3, -0.4), tol=1e-3)
    other.point_to("lamp-bulb")
    other.squeeze()
    assert_event(app, "object_select_start", hand="non_dominant", target="lamp", count=1)
    assert_state(app, "lamp", on=True)
    assert_state(app, "menu", open=True)
    assert_no_errors(app)


def test_the_menus_reset_button_puts_everything_back(app):
    hand = app.hand("dominant")
    hand.reach_to("lamp-button")
    hand.rest()
    app.gesture("non_dominant", "thumbs-up")
    assert_state(app, "lamp", on=True)
    assert_count(app, "star", 1)
    controller = app.controller("dominant")
    controller.point_to("floor")  # a squeeze also selects what the ray points at
    controller.squeeze()
    assert_state(app, "lamp", on=True)
    with assert_changes(app, "menu", "state.resets", from_=0, to=1):
        controller.select("menu-reset")
    assert_event(app, "object_select_start", hand="dominant", target="menu-reset")
    assert_state(app, "lamp", on=False)
    assert_color(app, "lamp-button", OFF)
    assert_count(app, "star", 0)
    assert_position(app, "cube", CUBE_HOME, tol=1e-6)
    assert_no_errors(app)


def test_a_hidden_hand_is_not_tracked_until_shown_again(app):
    hand = app.hand("dominant")
    assert_visible(app, cursor(app))
    hand.hide()
    state = app.hand_state("dominant")
    assert not state.visible and not state.connected
    assert_not_visible(app, cursor(app), within_frames=1)
    assert_visible(app, f"tip-cursor-{app.handedness('non_dominant')}")
    hand.click("lamp-button")  # a ray from an untracked hand selects nothing
    assert_no_event(app, "select_start", hand="dominant")
    assert_state(app, "lamp", on=False)
    hand.show()
    assert app.hand_state("dominant").connected
    assert_visible(app, cursor(app), within_frames=1)
    hand.start_select(frames=6)  # the same click, in two halves
    assert app.hand_state("dominant").selected
    hand.end_select(frames=6)
    assert_event(app, "select", hand="dominant", target="lamp")
    assert_state(app, "lamp", on=True)
    # The cursor rides on the fingertip wherever the hand goes. The app copies the fingertip in
    # update(), which runs before the simulator moves the hand: the cursor is one frame behind,
    # so at 12 cm/s (2 mm a frame) it stays within 3 mm.
    app.wait(500)  # let the fingers finish opening after the click (they lerp 10% a frame)
    x, y, z = hand.position
    path = [(x, y - 0.1, z - 0.1), (x + 0.1, y, z)]
    assert_follows_hand(app, cursor(app), hand, path, speed=0.12, max_deviation=0.003)
    assert_no_errors(app)


def test_the_panel_follows_the_head_and_faces_the_user(app):
    assert_facing_user(app, "panel", max_angle=1)
    assert_within_reach(app, "panel")
    assert_within_reach(app, "panel", hand="non_dominant")
    app.head.walk([(0.0, 1.5, -0.6), (0.8, 1.5, -0.6)], speed=1.0)  # turns to walk towards +x
    assert app.head.pose.forward == pytest.approx((1.0, 0.0, 0.0), abs=1e-6)
    app.head.rotate(yaw=90)  # a quarter turn to the left: facing -z again
    assert app.head.pose.forward == pytest.approx((0.0, 0.0, -1.0), abs=1e-6)
    app.head.move((0.0, 0.0, 0.3))
    assert app.head.position == pytest.approx((0.8, 1.5, -0.3), abs=1e-6)
    app.wait(1000)  # the panel eases after the head (at 6/s: after 1 s, 1 m of lag is down to 2.5 mm)
    assert_facing_user(app, "panel", max_angle=1)
    assert_within_reach(app, "panel")
    assert_position(app, "panel", (0.8, 1.3, -0.3 - 0.55), tol=0.01)
    app.head.rotate(pitch=-30)  # looking down does not tilt or move the panel
    app.wait(250)
    assert_position(app, "panel", (0.8, 1.3, -0.3 - 0.55), tol=0.01)
    app.head.look_at("lamp")
    app.wait(1000)
    assert_facing_user(app, "panel", max_angle=1)
    assert_near(app, "panel", app.head, within=0.6)
    assert_no_errors(app)


def test_teleporting_next_to_the_table_puts_the_plant_in_reach(app):
    assert_resting_on(app, "plant", "table")
    assert_far(app, "plant", app.head, beyond=1.0)
    with pytest.raises(AssertionError, match="comfortable reach"):
        assert_within_reach(app, "plant")  # 1.5 m away from the start
    app.head.teleport_to("plant", distance=0.3)
    assert_distance(app, app.head, "plant", at_most=0.9)
    assert_within_reach(app, "plant")
    app.head.look_at("plant")
    forward = app.head.pose.forward
    assert forward is not None and forward[1] < -0.5  # looking down at it
    hand = app.hand("dominant")
    hand.reach_to("plant", depth=0.0)  # to the surface of its box
    assert_touching(app, cursor(app), "plant", tol=0.01)
    assert_no_event(app, "touch")  # the plant has no touch handler: XR Blocks sends nothing
    assert_no_errors(app)


def test_physical_objects_on_the_table(app):
    box = app.objects.add("box", on="table", size=(0.1, 0.1, 0.1), offset=(0.12, 0.0, 0.0))
    assert_resting_on(app, box, "table")
    assert_resting_on(app, "box", "table")  # physical objects are tagged with their label
    assert_not_colliding(app, "box", "plant")
    mug = app.objects.add("mug", on="plant", size=(0.06, 0.08, 0.06))
    assert_resting_on(app, mug, "plant")
    assert_above(app, "mug", "plant", directly=True)
    assert_below(app, "plant", "mug")
    assert_count(app, "box", 1)
    # Side by side with the plant's pot: bounding boxes in contact, not interpenetrating.
    plant = app.find("plant")
    box.move_to(on="table")
    box.move_to(at=(plant.bbox[1][0] + 0.05, 0.75 + 0.05, plant.point[2]))
    assert_touching(app, "box", "plant")
    box.move_to(at=(plant.point[0], 0.8, plant.point[2]))
    assert_colliding(app, "box", "plant")
    with assert_disappears(app, "box"):
        box.remove()
    assert_count(app, "box", 0)
    assert [o.id for o in app.objects.list()] == ["mug-2"]
    assert_no_errors(app)


def test_readers_and_a_missing_tag(app):
    planes = app.planes("table")
    assert len(planes) == 1 and planes[0].top == pytest.approx(0.75, abs=1e-6)
    assert app.depth().enabled is False
    assert app.locations()["table"] == pytest.approx((0.0, 0.75, -1.5))
    assert app.hand_state("dominant").handedness == app.dominant_hand
    assert app.find("table").point == pytest.approx((0.0, 0.75, -1.5))
    with pytest.raises(AssertionError, match=r"no object tagged 'teapot'.*tags present: .*lamp"):
        assert_near(app, "teapot", "lamp")
    with pytest.raises(TagNotFoundError, match="'teapot'"):
        app.hand("dominant").reach_to("teapot")
    assert_event(app, "hover_enter", hand="left", target="lamp")  # the left ray rests on the lamp at start
    assert_no_errors(app)


@pytest.mark.xr_scenes("empty", "living_room", "kitchen", "office")
def test_the_plant_and_a_box_rest_on_each_rooms_table(app):
    scene = app.scene.name
    surface = "floor" if scene == "empty" else "table"
    assert_state(app, "plant", surface=surface)
    assert_resting_on(app, "plant", surface)
    spot = "floor-far" if scene == "empty" else "table"
    app.objects.add("box", on=spot, size=(0.12, 0.1, 0.12), offset=(0.1, 0.0, 0.0))
    assert_resting_on(app, "box", surface)
    assert_not_colliding(app, "box", "plant")
    app.head.teleport_to("box", distance=0.4)
    assert_within_reach(app, "box", max_distance=1.5 if scene == "empty" else 0.75)  # the empty room has no table
    app.wait(100)  # the panel turns to the user every frame
    assert_facing_user(app, "panel", max_angle=1)
    assert_no_errors(app)


@pytest.mark.xr_backend("iwer", input_mode="hand")
def test_on_a_webxr_runtime_a_pinch_on_the_button_toggles_the_lamp(xr):
    """The unchanged app on IWER (an emulated Quest 3 with tracked hands) instead of the simulator."""
    xr.step(2)
    assert len(xr.hand_joints(xr.handedness("dominant"))) == 25
    with assert_changes(xr, "lamp", "state.on", from_=False, to=True):
        xr.hand("dominant").click("lamp-button")
    assert_state(xr, "lamp", toggles=1)
    assert_color(xr, "lamp-button", ON)
    assert_visible(xr, cursor(xr))
    # Readers (three.js world) and actors (the app's WebXR reference space) share one frame: a
    # fingertip sent into the tagged button lands on it and touches it.
    hand = xr.hand("dominant")
    with assert_changes(xr, "lamp", "state.on", from_=True, to=False):
        hand.reach_to("lamp-button")
    tip = xr.hand_joints(xr.handedness("dominant"))["index-finger-tip"].position
    assert_distance(xr, tip, "lamp-button", at_most=0.05)
    assert_no_errors(xr)
