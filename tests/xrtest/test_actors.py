"""Actors: the simulated user's head, hands, controllers and the room's physical objects.

The pure helpers are tested directly; the rest drives the example app in headless Chromium.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest import XRSession, poses
from xrbench.xrtest.actors import GESTURE_POSES, POSES, entry_point, normalize_pose
from xrbench.xrtest.errors import TamperingError
from xrbench.xrtest.session import distance, rotate


def test_entry_point_is_just_inside_the_box_on_the_way_to_its_centre():
    box = ((-0.1, 1.1, -1.1), (0.1, 1.3, -0.9))
    p = entry_point((0.0, 1.2, 0.0), box, 0.02)
    assert p == pytest.approx((0.0, 1.2, -0.92))
    # From the side and above: the segment to the centre meets the x = 0.1 face first (at 80 %
    # of the way, y = 1.28), and goes 2 cm further.
    start, d = (0.5, 1.6, -1.0), (-0.5, -0.4, 0.0)
    t = 0.8 + 0.02 / math.hypot(0.5, 0.4)
    assert entry_point(start, box, 0.02) == pytest.approx(tuple(start[i] + d[i] * t for i in range(3)))
    assert entry_point((0.0, 1.2, -1.0), box, 0.02) == pytest.approx((0.0, 1.2, -1.0))  # already at the centre
    assert entry_point((0.0, 1.2, -0.5), box, 1.0) == pytest.approx((0.0, 1.2, -1.0))  # capped at the centre


def test_pose_names():
    assert normalize_pose("Thumbs Up") == "thumbs_up"
    assert normalize_pose("thumbs-down") == "thumbs_down"
    assert normalize_pose("pinch") == "pinching"
    assert normalize_pose("open palm") == "neutral"
    with pytest.raises(ValueError, match=r"unknown hand pose 'wave'; the simulator's poses: neutral, relaxed"):
        normalize_pose("wave")
    assert set(GESTURE_POSES.values()) <= set(POSES)


def test_hand_roles_follow_the_dominant_hand(example_app):
    right = XRSession(example_app)
    left = XRSession(example_app, dominant_hand="left")
    assert right.handedness("dominant") == "right" and right.handedness("non_dominant") == "left"
    assert left.handedness("dominant") == "left" and left.handedness("non_dominant") == "right"
    assert left.hand("dominant").handedness == "left" and left.hand("right").role == "right"
    assert left.controller("non_dominant").index == 1
    with pytest.raises(ValueError, match="dominant_hand must be 'left' or 'right'"):
        XRSession(example_app, dominant_hand="both")
    with pytest.raises(ValueError, match="hand role must be"):
        right.hand("third")


@pytest.mark.xr
def test_hands_move_gradually_and_exactly(open_session):
    s = open_session(scene="empty")
    hand = s.hand("right")
    assert s.frame == 0
    s.step(1)  # the first frame places the hand joints
    start = hand.fingertip
    goal = (0.1, 1.3, -0.6)
    r = hand.move_hand(goal, track=["cube"])
    assert distance(hand.position, goal) < 1e-6
    steps = [distance(a, b) for a, b in zip(r["anchor"], r["anchor"][1:], strict=False)]
    assert max(steps) <= 0.01 + 1e-9  # never more than 1 cm a frame (grabs survive)
    assert r["frames"] == len(r["anchor"]) == len(r["samples"][0])
    assert r["samples"][0][0] == pytest.approx((0.3, 1.2, -1.0))  # the cube, sampled every frame
    hand.reach_to((0.0, 1.4, -0.5))
    assert distance(hand.fingertip, (0.0, 1.4, -0.5)) < 1e-3
    assert distance(hand.fingertip, start) > 0.1
    hand.point_to((0.0, 1.4, -3.0))
    ray = hand.state.ray_direction
    to_target = [b - a for a, b in zip(hand.position, (0.0, 1.4, -3.0), strict=True)]
    norm = math.sqrt(sum(v * v for v in to_target))
    assert ray == pytest.approx([v / norm for v in to_target], abs=1e-6)
    hand.point_forward()
    assert hand.state.ray_direction == pytest.approx((0.0, 0.0, -1.0), abs=1e-6)
    assert hand.rotate_hand(yaw=90) == 30  # 3 degrees a frame
    assert hand.state.ray_direction == pytest.approx((-1.0, 0.0, 0.0), abs=1e-6)  # turned left
    hand.rest()
    assert hand.position == pytest.approx((0.3, 1.4, -0.3), abs=1e-6)
    hand.set_pose("victory", frames=5)
    assert hand.state.pose == "victory"


@pytest.mark.xr
def test_head_teleports_turns_and_walks(open_session):
    s = open_session(scene="living_room")
    head = s.head
    head.teleport_to("doorway")
    assert head.position == pytest.approx((1.0, 0.0, 2.0))  # a location is a point: the eyes go there
    head.teleport_to((0.0, 1.6, 0.0))
    head.teleport_to("table", distance=1.0)  # stand 1 m from it at eye height, facing it
    assert head.position == pytest.approx((0.0, 1.6, -0.5), abs=1e-6)
    fwd = head.pose.forward
    assert fwd[2] < -0.6 and fwd[1] < 0  # towards the table top, below the eyes
    frames = head.rotate(yaw=90)
    assert frames in (30, 31)  # 3 degrees a frame (float rounding may add one)
    head.look_at((5.0, 1.6, -0.5))
    assert head.pose.forward == pytest.approx((1.0, 0.0, 0.0), abs=1e-6)
    frames = head.walk([(1.0, 1.6, -0.5)], speed=1.2)  # 1 m at 2 cm a frame
    assert frames == 50 and head.position == pytest.approx((1.0, 1.6, -0.5))
    head.move((0.0, 0.0, 0.5))
    assert head.position == pytest.approx((1.0, 1.6, 0.0))
    assert head.pose.forward == pytest.approx((1.0, 0.0, 0.0), abs=1e-6)  # move() keeps the view
    # The hands come along: they live in the head's frame.
    assert s.hand("left").position == pytest.approx((1.3, 1.5, -0.3), abs=1e-6)


@pytest.mark.xr
def test_physical_objects_in_a_room_placed_with_an_offset(open_session):
    """XR Blocks' default living room is placed by its manifest at (-1.6, 0.3, 0): world positions still hold."""
    s = open_session()  # the app's own (default) environment
    box = s.objects.add("box", at=(0.0, 1.0, -1.0), size=(0.2, 0.1, 0.2))
    n = box.node
    assert n.root == "simulator" and n.tag == "box" and n.state == {"id": "box-1", "physical": True}
    assert n.position == pytest.approx((0.0, 1.0, -1.0), abs=1e-6)
    assert n.size == pytest.approx((0.2, 0.1, 0.2), abs=1e-6)
    box.move_to(on="table")  # the living room's table location
    assert box.node.bbox[0][1] == pytest.approx(0.75, abs=1e-6)
    box.set_visible(False)
    assert not box.node.visible
    assert [o.id for o in s.objects.list()] == ["box-1"]
    assert s.evaluate("() => xb.core.simulator.objects.get().map((r) => r.definition.label)") == ["box"]
    s.objects.clear()
    assert s.objects.list() == [] and s.tagged("box") == []
    with pytest.raises(ValueError, match=r"exactly one of at= .* or on="):
        s.objects.add("box")


@pytest.mark.xr
def test_the_same_actions_give_the_same_session(open_session):
    def run() -> tuple:
        s = open_session(scene="kitchen", dominant_hand="left")
        s.step(1)
        hand = s.hand("dominant")
        hand.reach_to("cube", depth=0.05)
        hand.pinch()
        hand.move_by((0.0, 0.1, 0.1))
        hand.release()
        s.controller("non_dominant").squeeze()
        s.gesture("non_dominant", "thumbs-up")
        s.head.walk([(0.3, 1.5, -0.3)])
        out = (s.events(), s.tagged(), s.hand_joints("left"), s.camera_pose(), s.frame)
        s.close()
        return out

    first, second = run(), run()
    assert first == second
    events = first[0]
    left = [e.type for e in events if e.hand == "left"]
    assert left.index("object_touch_start") < left.index("object_grab_start") < left.index("object_grab_end")
    assert any(e.type == "squeeze_start" and e.hand == "right" for e in events)
    assert any(e.type == "gesture_start" and e.name == "thumbs-up" and e.hand == "right" for e in events)
    # Held gestures report updates between their start and end (XR Blocks' `gestureupdate`).
    thumbs = [e for e in events if e.name == "thumbs-up" and e.hand == "right"]
    kinds = [e.type for e in thumbs]
    assert kinds[0] == "gesture_start" and "gesture_update" in kinds


@pytest.mark.xr
def test_plane_detection_withholds_the_rooms_planes_and_delivers_them_when_told(open_session):
    s = open_session(scene="kitchen")
    withheld = s.plane_detection.withhold()
    labels = [p["label"] for p in withheld]
    assert labels.count("table") == 2 and "floor" in labels
    s.step(10)
    # The example's plant waits for planes: the table nearest the user if one is detected, else the floor.
    assert s.planes() == [] and s.find_by_tag("plant").state["surface"] is None
    floor = s.plane_detection.deliver("floor")
    assert [p["label"] for p in floor] == ["floor"]
    s.step(1)
    assert [p.label for p in s.planes()] == ["floor"]
    assert s.find_by_tag("plant").state["surface"] == "floor"
    rest = s.plane_detection.deliver()
    assert sorted(p["label"] for p in floor + rest) == sorted(labels)
    assert s.plane_detection.deliver() == []
    s.step(1)
    assert sorted(p.label for p in s.planes()) == sorted(labels)
    seen = sorted(p.position for p in s.planes())
    for got, want in zip(seen, sorted(tuple(p["position"]) for p in withheld), strict=True):
        assert got == pytest.approx(want, abs=1e-6)


@pytest.mark.xr
def test_plane_detection_adds_planes_the_test_describes_and_reports_their_boundary(open_session):
    s = open_session(scene="kitchen")
    s.plane_detection.withhold()
    # A wall turned 30 degrees about y (its normal, local +Y, horizontal) and a raised floor.
    turn = (0.0, math.sin(math.radians(15)), 0.0, math.cos(math.radians(15)))
    upright = (math.sin(math.radians(45)), 0.0, 0.0, math.cos(math.radians(45)))
    x, y, z, w = turn
    a, b, c, d = upright
    wall_q = (
        w * a + x * d + y * c - z * b,
        w * b - x * c + y * d + z * a,
        w * c + x * b - y * a + z * d,
        w * d - x * a - y * b - z * c,
    )  # turn * upright
    wall = {
        "label": "wall",
        "type": "vertical",
        "position": [1.0, 1.2, -2.0],
        "quaternion": wall_q,
        "polygon": [[-1.5, -1.2], [1.5, -1.2], [1.5, 1.2], [-1.5, 1.2]],
    }
    floor = {
        "label": "floor",
        "type": "horizontal",
        "position": {"x": 0.0, "y": 0.08, "z": -1.0},
        "quaternion": [0, 0, 0, 1],
        "polygon": [{"x": -2, "y": -2}, {"x": 2, "y": -2}, {"x": 0, "y": 2}],
    }
    added = s.plane_detection.add(wall, floor)
    assert [p["label"] for p in added] == ["wall", "floor"]
    s.step(1)
    planes = {p.label: p for p in s.planes()}
    assert sorted(planes) == ["floor", "wall"]
    got = planes["wall"]
    assert got.position == pytest.approx((1.0, 1.2, -2.0)) and got.orientation == "vertical"
    want = [
        tuple(wall["position"][k] + rotate(wall_q, (px, 0.0, pz))[k] for k in range(3)) for px, pz in wall["polygon"]
    ]
    assert len(got.polygon) == 4
    for g, e in zip(got.polygon, want, strict=True):
        assert g == pytest.approx(e, abs=1e-6)
    # The wall's normal is horizontal and turned 30 degrees from +z; its corners keep its height.
    assert rotate(wall_q, (0.0, 1.0, 0.0)) == pytest.approx(
        (math.sin(math.radians(30)), 0.0, math.cos(math.radians(30))), abs=1e-6
    )
    assert sorted(round(p[1], 6) for p in got.polygon) == [0.0, 0.0, 2.4, 2.4]
    floor_corners = [c for p in planes["floor"].polygon for c in p]
    assert floor_corners == pytest.approx([-2.0, 0.08, -3.0, 2.0, 0.08, -3.0, 0.0, 0.08, 1.0])
    with pytest.raises(ValueError, match=r"plane 1: polygon must have at least 3 points"):
        s.plane_detection.add(floor, {**floor, "polygon": [[0, 0], [1, 0]]})
    with pytest.raises(ValueError, match=r"plane 0: quaternion must be a unit quaternion"):
        s.plane_detection.add({**wall, "quaternion": [0, 0, 0, 2]})
    with pytest.raises(ValueError, match=r"plane 0: position must have 3 finite numbers"):
        s.plane_detection.add({**wall, "position": [0, float("nan"), 0]})
    with pytest.raises(ValueError, match=r"plane 0 must be a mapping \(an entry of a planes file\), got generator"):
        s.plane_detection.add(p for p in (wall, floor))
    s.step(1)
    assert len(s.planes()) == 2  # nothing of a refused call was added


@pytest.mark.xr
def test_a_plane_detector_the_page_rewired_is_tampering(open_session):
    s = open_session(scene="kitchen")
    s.evaluate("() => { xb.world.planes.setSimulatorPlanes = function () {}; }")
    with pytest.raises(TamperingError, match="plane detector has its own setSimulatorPlanes"):
        s.plane_detection.withhold()


@pytest.mark.xr
def test_head_gestures_are_recorded_as_events_without_the_app_listening(open_session, test_apps):
    s = open_session(test_apps / "head_gestures")
    s.wait(1500)
    s.head.rotate(pitch=-20, speed=90)
    s.head.rotate(pitch=20, speed=90)
    s.step(12)
    nods = s.events("head_gesture")
    assert sorted(e.name for e in nods) == ["nod", "nod-down"] and {e.scope for e in nods} == {"head"}
    s.wait(1500)
    s.head.rotate(yaw=20, speed=90)
    s.head.rotate(yaw=-20, speed=90)
    s.step(12)
    assert sorted(e.name for e in s.events("head_gesture")[2:]) == ["shake", "shake-left"]
    # A page that takes the recorder away is caught at the next harness call.
    s.evaluate("() => { xb.core.input.headGestures.dispatchEvent = () => {}; }")
    with pytest.raises(TamperingError, match=r"headGestures\.dispatchEvent was replaced"):
        s.step(1)


@pytest.mark.xr
def test_depth_sensing_withholds_depth_at_once_and_delivers_it_again(open_session, test_apps):
    s = open_session(test_apps / "depth_probe", scene="living_room")
    # A depth image is read back asynchronously: it reaches the app between harness calls.
    for _ in range(3):
        s.step(1)
    before = s.find_by_tag("depth-probe").state
    assert before["centre"] > 0.5 and before["known"] == 160 * 160
    assert s.depth_sensing.withhold() is True
    # Taken back at once, before any frame: the app's own depth object reads 0 everywhere.
    assert s.evaluate("() => [xb.core.depth.getDepth(0.5, 0.5), xb.core.depth.depthArray[0].some((v) => v > 0)]") == [
        0,
        False,
    ]
    s.head.rotate(yaw=40)  # a new view renders new depth: it must arrive blank too
    for _ in range(10):
        s.step(1)
        assert s.find_by_tag("depth-probe").state == {"centre": 0, "known": 0}
    s.head.rotate(yaw=-40)
    s.depth_sensing.deliver()
    for _ in range(3):
        s.step(1)
    after = s.find_by_tag("depth-probe").state
    assert after["known"] == 160 * 160 and after["centre"] == pytest.approx(before["centre"], abs=1e-4)


@pytest.mark.xr
def test_depth_the_page_rewired_is_tampering_and_withheld_depth_stays_withheld(open_session, test_apps):
    s = open_session(test_apps / "depth_probe", scene="living_room")
    s.evaluate("() => { xb.core.depth.updateCPUDepthData = function () {}; }")
    with pytest.raises(TamperingError, match="depth object has its own updateCPUDepthData"):
        s.depth_sensing.withhold()
    s = open_session(test_apps / "depth_probe", scene="living_room")
    for _ in range(3):
        s.step(1)
    s.depth_sensing.withhold()
    # The page cannot take the gate away again, nor go round it on the simulator's side.
    s.evaluate(
        """() => {
            const depth = xb.core.depth, own = Object.getPrototypeOf(depth).updateCPUDepthData;
            try { depth.updateCPUDepthData = own; } catch (e) {}
            try { delete depth.updateCPUDepthData; } catch (e) {}
            try { Object.defineProperty(depth, 'updateCPUDepthData', {value: own}); } catch (e) {}
        }"""
    )
    s.head.rotate(yaw=30)
    for _ in range(3):
        s.step(1)
    assert s.find_by_tag("depth-probe").state == {"centre": 0, "known": 0}


@pytest.mark.xr
def test_planes_are_read_as_detection_reported_them_whatever_the_page_does_to_its_plane_objects(open_session):
    s = open_session(scene="kitchen")
    before = {(p.label, p.position): p for p in s.planes()}
    assert len(before) >= 4
    # The page moves the detector and a plane, reshapes and relabels planes, drops one from the
    # detector's map and edits the data of a plane that is withheld and delivered later.
    seen = s.evaluate(
        """() => {
          const d = xb.world.planes;
          d.position.set(3, 0, 0); d.updateMatrixWorld(true);
          const [first, second, third] = d.get();
          window.kept = d.get().map((p) => p.simulatorPlane);
          first.position.y += 0.5;
          second.simulatorPlane.polygon.forEach((v) => v.multiplyScalar(3));
          second.label = 'wall';
          d._detectedPlanes.delete(third.simulatorPlane);
          return d.get().length;
        }"""
    )
    assert seen == len(before) - 1  # the page's own view changed
    after = s.planes()
    assert {(p.label, p.position) for p in after} == set(before)
    for p in after:
        want = before[(p.label, p.position)]
        assert p.polygon == want.polygon and p.bbox == want.bbox and p.quaternion == want.quaternion
    withheld = s.plane_detection.withhold()
    assert sorted(p["label"] for p in withheld) == sorted(label for label, _ in before)
    s.evaluate(
        """() => {
          for (const p of window.kept) {
            p.position.x += 9;
            p.polygon.forEach((v) => { v.x += 1; });
          }
          return true;
        }"""
    )
    s.plane_detection.deliver("floor")
    s.step(1)
    floor = [p for p in s.planes() if p.label == "floor"]
    want = [p for (label, _), p in before.items() if label == "floor"]
    assert [(p.position, p.polygon) for p in floor] == [(p.position, p.polygon) for p in want]


@pytest.mark.xr
def test_the_pose_tables_are_xr_blocks_own(open_session):
    s = open_session()
    sdk = s.evaluate("() => xb.SIMULATOR_HAND_POSE_ROTATIONS")
    for name, table in (("relaxed", poses.RELAXED), ("thumbs_up", poses.THUMBS_UP), ("fist", poses.FIST)):
        assert sorted(table) == sorted(sdk[name])
        for joint, degrees in table.items():
            assert degrees == pytest.approx([math.degrees(r) for r in sdk[name][joint]], abs=0.006), (name, joint)
    half = poses.blend(poses.RELAXED, poses.FIST, 0.5)
    assert half["wrist"] == pytest.approx(
        tuple((a + b) / 2 for a, b in zip(poses.RELAXED["wrist"], poses.FIST["wrist"], strict=True))
    )
