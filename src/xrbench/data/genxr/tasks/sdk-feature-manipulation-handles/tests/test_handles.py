"""Manipulation handles: which action a ray grab performs is decided by the nearest handle part
(`manipulationHandle`) between the grabbed part and its owner, else by the owner's own
`manipulation.handle`, and must be enabled on the owner.

The app (held out, in the task's workspace/) has:
- 'cabinet' (translate + rotate, owner handle translate) with a 'knob' part (handle rotate) that
  carries a plain 'pin' part, and a 'plaque' part (handle 'none');
- 'safe' (translate only, owner handle 'none') with a 'grip' part (handle translate) that carries a
  'lock' part (handle 'none');
- 'lamp' (translate only, no handle option) with a 'shade' part (handle rotate: not allowed);
- 'frame' (translate + scale 0.5..2, no handle option) with a 'corner' part (handle scale);
- 'globe' (translate + rotate, no handle option).
Each owner counts the manipulation phases it receives (active, action, <action>Starts, ends).

Every grab is a hand ray aimed at the part's own origin; the hands stay far from the objects
(no direct touch). What is checked are the owners' world poses and scales read from the scene.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

OWNERS = ("cabinet", "safe", "lamp", "frame", "globe")


def ready(xr):
    xr.step(1)
    xr.step(1)
    xr.wait(200)


# --- small vector and quaternion helpers ([x, y, z, w], as three.js) -------------------------------


def add(a, b):
    return [a[i] + b[i] for i in range(3)]


def sub(a, b):
    return [a[i] - b[i] for i in range(3)]


def mul(a, k):
    return [c * k for c in a]


def fmt(v):
    return "(" + ", ".join(f"{c:.4f}" for c in v) + ")"


def q_axis(axis, radians):
    s = math.sin(radians / 2)
    return [axis[0] * s, axis[1] * s, axis[2] * s, math.cos(radians / 2)]


def q_mul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]


def q_rot(q, v):
    x, y, z, w = q
    tx, ty, tz = 2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])
    return [
        v[0] + w * tx + (y * tz - z * ty),
        v[1] + w * ty + (z * tx - x * tz),
        v[2] + w * tz + (x * ty - y * tx),
    ]


def q_angle(a, b):
    """Degrees between two rotations."""
    d = abs(sum(a[i] * b[i] for i in range(4)))
    return math.degrees(2 * math.acos(min(1.0, d)))


# --- scene and hand helpers --------------------------------------------------------------------------


def pose(xr, tag):
    node = xr.find_by_tag(tag)
    return {"position": list(node.position), "quaternion": list(node.quaternion), "scale": list(node.scale)}


def poses(xr):
    return {tag: pose(xr, tag) for tag in OWNERS}


def starts(xr, tag):
    s = xr.find_by_tag(tag).state
    return s["translateStarts"] + s["rotateStarts"] + s["scaleStarts"]


def aim(xr, hand, tag):
    """Bring the hand to its rest place and aim its ray at the origin of the tagged part."""
    hand.rest()
    hand.point_to(list(xr.find_by_tag(tag).position))
    xr.step(1)


def clear_of_objects(xr, hand):
    """The hand and its fingertip stay away from every object (no direct touch)."""
    tip = hand.fingertip
    for tag in OWNERS:
        c = xr.find_by_tag(tag).position
        assert math.dist(tip, c) > 0.3, f"test setup: the fingertip came within 30 cm of '{tag}'"


def start_grab(xr, hand, owner, limit=40):
    """Pinch one frame at a time until the owner's manipulation starts; returns the hand's pose then."""
    for _ in range(limit):
        hand.start_select(frames=1)
        if xr.find_by_tag(owner).state["active"]:
            st = hand.state
            return list(st.position), list(st.quaternion)
    raise AssertionError(f"pinching with the ray on it started no manipulation of '{owner}' within {limit} frames")


def assert_pose_kept(xr, tag, before, what, pos_tol=0.001, deg_tol=0.2):
    now = pose(xr, tag)
    moved = math.dist(now["position"], before["position"])
    assert moved < pos_tol, (
        f"{what}: '{tag}' must stay at {fmt(before['position'])}; it is at {fmt(now['position'])} "
        f"({moved * 1000:.1f} mm away)"
    )
    turned = q_angle(now["quaternion"], before["quaternion"])
    assert turned < deg_tol, f"{what}: '{tag}' must not turn; it turned {turned:.2f} deg"
    assert now["scale"] == pytest.approx(before["scale"], abs=1e-4), (
        f"{what}: the scale of '{tag}' changed from {fmt(before['scale'])} to {fmt(now['scale'])}"
    )


def assert_moved_with(xr, tag, before, delta, what, tol=0.005):
    now = pose(xr, tag)
    expected = add(before["position"], delta)
    err = math.dist(now["position"], expected)
    assert err < tol, (
        f"{what}: '{tag}' must move with the hand to {fmt(expected)}; it is at {fmt(now['position'])} "
        f"({err * 1000:.1f} mm off)"
    )
    turned = q_angle(now["quaternion"], before["quaternion"])
    assert turned < 0.5, f"{what}: '{tag}' must not turn while it is carried; it turned {turned:.2f} deg"
    assert now["scale"] == pytest.approx(before["scale"], abs=1e-4), f"{what}: the scale of '{tag}' changed"


def assert_part_on_owner(xr, part, owner, local, what):
    """The part keeps its place on the owner: owner pose applied to its local offset."""
    o = pose(xr, owner)
    expected = add(o["position"], q_rot(o["quaternion"], local))
    got = xr.find_by_tag(part).position
    err = math.dist(got, expected)
    assert err < 0.002, f"{what}: '{part}' must stay in place on '{owner}' at {fmt(expected)}; it is at {fmt(got)}"


def try_grab_nothing(xr, hand, part, owner, what):
    """Aim at a part, pinch and move the hand: the owner must stay as it is and no manipulation start."""
    before = poses(xr)
    n0 = starts(xr, owner)
    aim(xr, hand, part)
    clear_of_objects(xr, hand)
    hand.pinch()
    p = hand.position
    hand.move_hand(add(p, [0.05, 0.04, 0.0]), speed=0.5)
    for tag in OWNERS:
        assert_pose_kept(xr, tag, before[tag], f"{what} (pinching and moving the hand)")
    assert starts(xr, owner) == n0, f"{what}: a manipulation of '{owner}' started"
    assert not xr.find_by_tag(owner).state["active"], f"{what}: '{owner}' is being manipulated"
    hand.release()
    xr.step(2)
    for tag in OWNERS:
        assert_pose_kept(xr, tag, before[tag], f"{what} (after the release)")


def release_and_check_kept(xr, hand, owner, what):
    kept = pose(xr, owner)
    hand.end_select(frames=4)
    assert not xr.find_by_tag(owner).state["active"], f"{what}: the manipulation of '{owner}' did not end"
    assert_pose_kept(xr, owner, kept, f"{what}, releasing", pos_tol=0.002, deg_tol=0.3)
    hand.move_hand(add(hand.position, [-0.05, -0.04, 0.02]), speed=0.5)
    xr.step(3)
    assert_pose_kept(xr, owner, kept, f"{what}, moving the hand after the release", pos_tol=0.002, deg_tol=0.3)


# --- tests -------------------------------------------------------------------------------------------


@pytest.mark.fail_to_pass
def test_the_owner_handle_option_decides_what_the_body_does(xr):
    ready(xr)
    hand = xr.hand("dominant")
    # The cabinet may be moved and turned; its handle option says that its body moves it.
    before = poses(xr)
    aim(xr, hand, "cabinet")
    clear_of_objects(xr, hand)
    grab_pos, _ = start_grab(xr, hand, "cabinet")
    state = xr.find_by_tag("cabinet").state
    assert state["action"] == "translate", f"grabbing the cabinet's body must move it; it started a {state['action']}"
    assert_pose_kept(xr, "cabinet", before["cabinet"], "in the frame the grab started")
    hand.start_select(frames=2)
    for k, step in enumerate([(0.01, 0.0, 0.0)] * 4 + [(0.0, 0.01, 0.0)] * 3 + [(0.0, 0.0, 0.01)] * 2, start=1):
        hand.move_hand(add(hand.position, step), speed=0.6)
        delta = sub(hand.state.position, grab_pos)
        assert_moved_with(xr, "cabinet", before["cabinet"], delta, f"step {k} of carrying the cabinet by its body")
        assert_part_on_owner(xr, "knob", "cabinet", [0.07, 0.06, 0.11], "carrying the cabinet")
    for tag in ("safe", "lamp", "frame", "globe"):
        assert_pose_kept(xr, tag, before[tag], "while the cabinet is carried")
    release_and_check_kept(xr, hand, "cabinet", "the cabinet")
    assert xr.find_by_tag("cabinet").state["rotateStarts"] == 0, "the cabinet's body started a rotation"
    # The safe's handle option is 'none': its body grabs nothing.
    try_grab_nothing(xr, hand, "safe", "safe", "pinching on the safe's body")
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_the_knob_and_its_pin_turn_the_whole_cabinet(xr):
    ready(xr)
    hand = xr.hand("dominant")
    before = poses(xr)
    q0, p0 = before["cabinet"]["quaternion"], before["cabinet"]["position"]
    # The pin is a plain part of the knob (no handle option of its own): the knob decides.
    aim(xr, hand, "pin")
    clear_of_objects(xr, hand)
    grab_pos, grab_q = start_grab(xr, hand, "cabinet")
    state = xr.find_by_tag("cabinet").state
    assert state["action"] == "rotate", (
        f"grabbing the pin on the knob must turn the cabinet; it started a {state['action']}"
    )
    assert_pose_kept(xr, "cabinet", before["cabinet"], "in the frame the pin on the knob was grabbed")
    right = q_rot(grab_q, [1, 0, 0])
    inv = [-grab_q[0], -grab_q[1], -grab_q[2], grab_q[3]]
    biggest = 0.0
    for k, step in enumerate([right] * 4 + [mul(right, -1)] * 7 + [[0, 1, 0]] * 2, start=1):
        hand.move_hand(add(hand.position, mul(step, 0.01)), speed=0.6)
        along = q_rot(inv, sub(hand.state.position, grab_pos))[0]
        expected = q_mul(q_axis([0, 1, 0], 10 * along), q0)
        now = pose(xr, "cabinet")
        err = q_angle(now["quaternion"], expected)
        biggest = max(biggest, q_angle(now["quaternion"], q0))
        assert err < 1.0, (
            f"step {k}, the hand {along * 100:+.1f} cm to its right of the grab: the cabinet must be turned "
            f"{math.degrees(10 * along):+.1f} deg about the vertical; it is {err:.2f} deg off that"
        )
        assert math.dist(now["position"], p0) < 0.001, f"step {k}: the cabinet must turn in place; it moved"
        assert now["scale"] == pytest.approx(before["cabinet"]["scale"], abs=1e-4), f"step {k}: the scale changed"
        assert_part_on_owner(xr, "knob", "cabinet", [0.07, 0.06, 0.11], f"step {k}")
        assert_part_on_owner(xr, "pin", "cabinet", [0.07, 0.06, 0.15], f"step {k}")
        assert_part_on_owner(xr, "plaque", "cabinet", [-0.05, -0.07, 0.0875], f"step {k}")
    assert biggest > 15, (
        f"expected the pin on the knob to turn the cabinet by more than 15 deg; at most {biggest:.1f} deg"
    )
    assert xr.find_by_tag("cabinet").state["translateStarts"] == 0, "grabbing the pin on the knob started a translation"
    for tag in ("safe", "lamp", "frame", "globe"):
        assert_pose_kept(xr, tag, before[tag], "while the cabinet is turned")
    release_and_check_kept(xr, hand, "cabinet", "the cabinet turned by its knob")
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_parts_that_must_grab_nothing(xr):
    ready(xr)
    hand = xr.hand("dominant")
    # A rotate handle on a lamp that may only be moved: neither turns nor moves it.
    try_grab_nothing(xr, hand, "shade", "lamp", "pinching on the lamp's shade (rotate handle, lamp not rotatable)")
    # A 'none' part inside the safe's translate grip: the nearest handle decides.
    try_grab_nothing(xr, hand, "lock", "safe", "pinching on the lock on the safe's grip ('none' inside a grip)")
    # A 'none' part of the cabinet, whose own handle option would move it.
    try_grab_nothing(xr, hand, "plaque", "cabinet", "pinching on the cabinet's plaque ('none')")
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_both_hands_turn_and_carry_by_handles_at_once(xr):
    ready(xr)
    one, other = xr.hand("dominant"), xr.hand("non_dominant")
    before = poses(xr)
    aim(xr, one, "knob")
    aim(xr, other, "grip")
    clear_of_objects(xr, one)
    clear_of_objects(xr, other)
    g1, q1 = start_grab(xr, one, "cabinet")
    g2, _ = start_grab(xr, other, "safe")
    assert xr.find_by_tag("cabinet").state["action"] == "rotate", "the knob must turn the cabinet"
    assert xr.find_by_tag("safe").state["action"] == "translate", "the grip must move the safe"
    assert_pose_kept(xr, "safe", before["safe"], "in the frame the grip was grabbed")
    assert_pose_kept(xr, "cabinet", before["cabinet"], "grabbing the grip with the other hand")
    right = q_rot(q1, [1, 0, 0])
    inv = [-q1[0], -q1[1], -q1[2], q1[3]]
    q0 = before["cabinet"]["quaternion"]
    for k in range(1, 7):
        one.move_hand(add(one.position, mul(right, -0.01)), speed=0.6)
        other.move_hand(add(other.position, [0.0, 0.008, 0.006]), speed=0.6)
        along = q_rot(inv, sub(one.state.position, g1))[0]
        expected = q_mul(q_axis([0, 1, 0], 10 * along), q0)
        err = q_angle(pose(xr, "cabinet")["quaternion"], expected)
        assert err < 1.0, f"step {k}: the cabinet, turned by its knob, is {err:.2f} deg off its expected turn"
        assert math.dist(pose(xr, "cabinet")["position"], before["cabinet"]["position"]) < 0.001, (
            f"step {k}: the cabinet moved while the other hand carried the safe"
        )
        delta = sub(other.state.position, g2)
        assert_moved_with(xr, "safe", before["safe"], delta, f"step {k} of carrying the safe by its grip")
        assert_part_on_owner(xr, "grip", "safe", [0.0, 0.05, 0.12], f"step {k}")
    assert q_angle(pose(xr, "cabinet")["quaternion"], q0) > 15, "expected the cabinet to turn by more than 15 deg"
    release_and_check_kept(xr, other, "safe", "the safe")
    # The cabinet keeps following its own hand after the other one let go.
    one.move_hand(add(one.position, mul(right, 0.02)), speed=0.6)
    along = q_rot(inv, sub(one.state.position, g1))[0]
    err = q_angle(pose(xr, "cabinet")["quaternion"], q_mul(q_axis([0, 1, 0], 10 * along), q0))
    assert err < 1.0, f"after the other hand let go, the cabinet is {err:.2f} deg off its expected turn"
    release_and_check_kept(xr, one, "cabinet", "the cabinet")
    assert xr.find_by_tag("safe").state["translateStarts"] == 1
    assert xr.find_by_tag("cabinet").state["rotateStarts"] == 1
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_the_corner_grip_only_resizes_with_the_other_hand(xr):
    ready(xr)
    one, other = xr.hand("dominant"), xr.hand("non_dominant")
    before = poses(xr)
    f0 = before["frame"]
    aim(xr, one, "corner")
    clear_of_objects(xr, one)
    one.pinch()
    one.move_hand(add(one.position, [0.04, -0.03, 0.02]), speed=0.5)
    assert_pose_kept(xr, "frame", f0, "holding the frame by its corner grip with one hand")
    assert starts(xr, "frame") == 0, "one hand on the corner grip must start no manipulation"
    # The other hand pinches away from every object.
    other.rest()
    other.point_to(add(other.position, [0.0, -1.0, -0.4]))
    xr.step(1)
    for _ in range(40):
        other.start_select(frames=1)
        if xr.find_by_tag("frame").state["scaleStarts"]:
            break
    else:
        raise AssertionError("pinching with the other hand started no two-hand scale of the frame")
    d0 = math.dist(one.state.position, other.state.position)
    assert_pose_kept(xr, "frame", f0, "in the frame the two-hand scale started")
    out = sub(other.position, one.position)
    out = mul(out, 1 / math.dist(other.position, one.position))
    for k in range(1, 9):
        other.move_hand(add(other.position, mul(out, 0.012)), speed=0.8)
        d = math.dist(one.state.position, other.state.position)
        now = pose(xr, "frame")
        expected = mul(f0["scale"], d / d0)
        assert now["scale"] == pytest.approx(expected, rel=0.005), (
            f"step {k}: with the hands {d:.3f} m apart ({d0:.3f} m at the second pinch) the frame's scale must be "
            f"{fmt(expected)}; it is {fmt(now['scale'])}"
        )
        assert math.dist(now["position"], f0["position"]) < 0.001, f"step {k}: the frame moved while it was resized"
    grown = pose(xr, "frame")
    assert grown["scale"][0] > f0["scale"][0] * 1.1, "expected the frame to grow"
    other.end_select(frames=4)
    assert not xr.find_by_tag("frame").state["active"], "releasing the other hand must end the scale"
    assert_pose_kept(xr, "frame", grown, "releasing the other hand", pos_tol=0.002)
    # The first hand still pinches the corner grip: moving it moves nothing.
    one.move_hand(add(one.position, [-0.05, 0.04, 0.0]), speed=0.5)
    assert_pose_kept(xr, "frame", grown, "moving the hand still holding the corner grip")
    assert xr.find_by_tag("frame").state["translateStarts"] == 0, "the corner grip started a translation"
    one.end_select(frames=4)
    assert_pose_kept(xr, "frame", grown, "releasing the corner grip")
    assert_no_errors(xr)


@pytest.mark.pass_to_pass
def test_plain_grabs_still_move_objects(xr):
    ready(xr)
    hand = xr.hand("dominant")
    for owner in ("lamp", "frame"):
        before = poses(xr)
        aim(xr, hand, owner)
        clear_of_objects(xr, hand)
        grab_pos, _ = start_grab(xr, hand, owner)
        assert xr.find_by_tag(owner).state["action"] == "translate", f"grabbing the {owner}'s body must move it"
        for k in range(1, 5):
            hand.move_hand(add(hand.position, [0.01, 0.005, 0.0]), speed=0.6)
            delta = sub(hand.state.position, grab_pos)
            assert_moved_with(xr, owner, before[owner], delta, f"step {k} of carrying the {owner} by its body")
        release_and_check_kept(xr, hand, owner, f"the {owner}")
    # Both translate and rotate, no handle option: a grab on the body does nothing.
    try_grab_nothing(xr, hand, "globe", "globe", "pinching on the globe (translate and rotate, no handle option)")
    assert_no_errors(xr)
