"""Rotate manipulation: a grabbed object turns about its axis by the source's sideways displacement
(in the source's frame at the grab) times the sensitivity, measured from the grab.

The app (held out, in the task's workspace/) has a 'turntable' under a raised stand turned 25 degrees
about Y and tipped 15 degrees about X, with `rotate: true` (world Y, sensitivity 10); a 'dial' under a
panel leaning back 30 degrees with `rotate: {axis: 'z', space: 'local', sensitivity: 5}`; a 'crate'
with `translate: true`; and a 'lamp' that only switches. The three manipulable ones count the
manipulation phases of their own action (active, starts, updates).

What the driver proposes is also checked on a fresh instance of the candidate's RotateDriver (the
class of the live manipulation manager's driver), fed scripted sessions: an object of the test's own
under a moved, turned and scaled parent, spatial and mouse sources with orientations of the test's.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from xrbench.xrtest.assertions import assert_no_errors, assert_state

pytestmark = pytest.mark.xr_scenes("empty")


def ready(xr):
    # Scripts finish their (async) initialisation between steps.
    xr.step(1)
    xr.step(1)
    xr.wait(200)


# --- quaternions [x, y, z, w], as three.js ---------------------------------------------------------


def q_axis(axis, radians):
    a = np.asarray(axis, float)
    a = a / np.linalg.norm(a)
    s = math.sin(radians / 2)
    return [a[0] * s, a[1] * s, a[2] * s, math.cos(radians / 2)]


def q_deg(axis, degrees):
    return q_axis(axis, math.radians(degrees))


def q_mul(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return [
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    ]


def q_inv(q):
    return [-q[0], -q[1], -q[2], q[3]]


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
    na, nb = math.sqrt(sum(c * c for c in a)), math.sqrt(sum(c * c for c in b))
    d = abs(sum(a[i] * b[i] for i in range(4))) / (na * nb)
    return math.degrees(2 * math.acos(min(1.0, d)))


def yaw_yxz(q):
    """three.js Euler.setFromQuaternion(q, 'YXZ').y."""
    x, y, z, w = q
    m13 = 2 * (x * z + y * w)
    m33 = 1 - 2 * (x * x + y * y)
    m23 = 2 * (y * z - x * w)
    m31 = 2 * (x * z - y * w)
    m11 = 1 - 2 * (y * y + z * z)
    if abs(m23) < 0.9999999:
        return math.atan2(m13, m33)
    return math.atan2(-m31, m11)


def _fmt(v):
    return "(" + ", ".join(f"{c:.4f}" if c is not None else "nan" for c in v) + ")"


def _sub(a, b):
    return [a[i] - b[i] for i in range(3)]


def sideways(grab_q, grab_pos, pos):
    """The source's displacement since the grab along its own X axis at the grab, metres."""
    return q_rot(q_inv(grab_q), _sub(pos, grab_pos))[0]


# --- app ---------------------------------------------------------------------------------------------


def start_rotation(xr, hand, tag, limit=40):
    """Pinch one frame at a time; returns (node, hand position, hand rotation) in the frame it starts."""
    for _ in range(limit):
        hand.start_select(frames=1)
        node = xr.find_by_tag(tag)
        if node.state["active"]:
            st = hand.state
            return node, st.position, st.quaternion
    raise AssertionError(f"no rotation of '{tag}' started within {limit} frames of pinching")


def move_one_frame(xr, hand, goal):
    """Move the hand's controller to `goal` (within 1 cm: one frame) without turning it."""
    hand.move_hand(goal, speed=0.6)


def check_world_turn(node, expected, p0, s0, what):
    err = q_angle(node.quaternion, expected)
    assert err < 0.5, (
        f"{what}: expected the world rotation {_fmt(expected)}; observed {_fmt(node.quaternion)} ({err:.2f} deg off)"
    )
    assert math.dist(node.position, p0) < 1e-4, (
        f"{what}: the object must turn about its own origin; it moved from {_fmt(p0)} to {_fmt(node.position)}"
    )
    assert node.scale == pytest.approx(s0, abs=1e-4), f"{what}: the scale changed from {s0} to {node.scale}"


@pytest.mark.fail_to_pass
def test_the_turntable_turns_as_the_hand_moves_sideways(xr):
    ready(xr)
    hand = xr.hand("dominant")
    first = xr.find_by_tag("turntable")
    q0, p0, s0 = first.quaternion, first.position, first.scale
    hand.point_to("turntable")
    xr.step(1)
    at_start, grab_pos, grab_q = start_rotation(xr, hand, "turntable")
    err = q_angle(at_start.quaternion, q0)
    assert err < 0.05, (
        f"grabbing must not turn the turntable: in the frame its rotation started it was {err:.2f} deg off"
    )
    hand.start_select(frames=3)
    err = q_angle(xr.find_by_tag("turntable").quaternion, q0)
    assert err < 0.05, f"the turntable turned {err:.2f} deg while the hand held still"

    def expected_at(pos):
        return q_mul(q_axis([0, 1, 0], 10 * sideways(grab_q, grab_pos, pos)), q0)

    right = q_rot(grab_q, [1, 0, 0])
    up = q_rot(grab_q, [0, 1, 0])
    back = q_rot(grab_q, [0, 0, 1])
    # To the hand's right 4 cm, back to its left 6 cm, 1 cm a frame; then up and towards the user.
    offsets = [right] * 4 + [[-c for c in right]] * 10 + [up] * 4 + [back] * 4
    biggest = 0.0
    pos = list(grab_pos)
    for k, step in enumerate(offsets, start=1):
        pos = [pos[i] + 0.01 * step[i] for i in range(3)]
        move_one_frame(xr, hand, pos)
        node = xr.find_by_tag("turntable")
        observed = hand.state.position
        biggest = max(biggest, q_angle(node.quaternion, q0))
        along = sideways(grab_q, grab_pos, observed)
        check_world_turn(
            node,
            expected_at(observed),
            p0,
            s0,
            f"step {k}, the hand {along * 100:+.1f} cm to its right of the grab ({10 * along:+.3f} rad about world Y)",
        )
    assert biggest > 30, f"expected the sweep to turn the turntable by more than 30 deg; at most {biggest:.1f} deg"
    # Held still: the angle is measured from the grab, nothing drifts.
    held = xr.find_by_tag("turntable").quaternion
    xr.step(90)
    err = q_angle(xr.find_by_tag("turntable").quaternion, held)
    assert err < 0.05, f"the turntable drifted {err:.2f} deg while the hand held still"
    # Back to the grab: back to the orientation at the grab.
    hand.move_hand(grab_pos, speed=0.6)
    xr.step(1)
    check_world_turn(xr.find_by_tag("turntable"), q0, p0, s0, "the hand back where it grabbed")
    # 5 cm to the right, then release: the turntable keeps that turn.
    hand.move_hand([grab_pos[i] + 0.05 * right[i] for i in range(3)], speed=0.6)
    last = hand.state.position
    turned = expected_at(last)
    check_world_turn(xr.find_by_tag("turntable"), turned, p0, s0, "5 cm to the right")
    assert_state(xr, "turntable", active=True, starts=1)
    hand.end_select(frames=1)
    check_world_turn(xr.find_by_tag("turntable"), turned, p0, s0, "in the frame the select ended")
    hand.end_select(frames=3)
    assert_state(xr, "turntable", active=False, starts=1)
    hand.move_hand([last[0] - 0.15, last[1], last[2]], speed=0.6)
    hand.point_forward()
    xr.step(20)
    check_world_turn(xr.find_by_tag("turntable"), turned, p0, s0, "after the release, the hand moved away")
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_both_hands_turn_two_objects_at_once(xr):
    ready(xr)
    one, other = xr.hand("dominant"), xr.hand("non_dominant")
    t0, d0 = xr.find_by_tag("turntable"), xr.find_by_tag("dial")
    one.point_to("turntable")
    other.point_to("dial")
    xr.step(1)
    _, g1, q1 = start_rotation(xr, one, "turntable")
    at_start, g2, q2 = start_rotation(xr, other, "dial")
    err = q_angle(at_start.quaternion, d0.quaternion)
    assert err < 0.05, f"grabbing must not turn the dial: in the frame its rotation started it was {err:.2f} deg off"
    err = q_angle(xr.find_by_tag("turntable").quaternion, t0.quaternion)
    assert err < 0.05, f"grabbing the dial turned the turntable, held still by the other hand, by {err:.2f} deg"

    def expect_turntable(pos):
        return q_mul(q_axis([0, 1, 0], 10 * sideways(q1, g1, pos)), t0.quaternion)

    def expect_dial(pos):
        # Local Z: the dial's world rotation at the grab followed by the turn about its own Z.
        return q_mul(d0.quaternion, q_axis([0, 0, 1], 5 * sideways(q2, g2, pos)))

    r1, r2 = q_rot(q1, [1, 0, 0]), q_rot(q2, [1, 0, 0])
    u2 = q_rot(q2, [0, 1, 0])
    p1, p2 = list(g1), list(g2)
    for k in range(1, 9):
        # One hand to its left, the other to its right and a little up, each 1 cm a frame.
        p1 = [p1[i] - 0.01 * r1[i] for i in range(3)]
        p2 = [p2[i] + 0.01 * r2[i] + 0.004 * u2[i] for i in range(3)]
        one.move_hand(p1, speed=0.6)
        other.move_hand(p2, speed=0.6)
        for tag, hand, expect, first in (
            ("turntable", one, expect_turntable, t0),
            ("dial", other, expect_dial, d0),
        ):
            check_world_turn(
                xr.find_by_tag(tag),
                expect(hand.state.position),
                first.position,
                first.scale,
                f"'{tag}', step {k} of both hands moving",
            )
    assert q_angle(xr.find_by_tag("turntable").quaternion, t0.quaternion) > 25
    assert q_angle(xr.find_by_tag("dial").quaternion, d0.quaternion) > 12
    assert_state(xr, "turntable", active=True, starts=1)
    assert_state(xr, "dial", active=True, starts=1)
    one.end_select(frames=4)
    kept = xr.find_by_tag("turntable").quaternion
    # The other hand keeps turning the dial; the released turntable keeps its turn.
    for _ in range(3):
        p2 = [p2[i] - 0.01 * r2[i] for i in range(3)]
        other.move_hand(p2, speed=0.6)
        one.move_hand([one.position[0] + 0.01, one.position[1], one.position[2]], speed=0.6)
        node = xr.find_by_tag("dial")
        check_world_turn(node, expect_dial(other.state.position), d0.position, d0.scale, "the dial after the release")
        err = q_angle(xr.find_by_tag("turntable").quaternion, kept)
        assert err < 0.05, f"the released turntable turned {err:.2f} deg with the hand that let it go"
    assert_state(xr, "turntable", active=False, starts=1)
    other.end_select(frames=4)
    assert_state(xr, "dial", active=False, starts=1)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_a_turned_crouching_user_turns_the_dial(xr):
    ready(xr)
    d0 = xr.find_by_tag("dial")
    # The user steps to the left, turns 30 degrees to the right and crouches 35 cm.
    xr.head.move((-0.25, 0.0, 0.1))
    xr.head.rotate(yaw=-30)
    xr.head.move((0.0, -0.35, 0.0))
    hand = xr.hand("dominant")
    hand.rest()
    hand.point_to("dial")
    xr.step(1)
    at_start, grab_pos, grab_q = start_rotation(xr, hand, "dial")
    assert q_angle(at_start.quaternion, d0.quaternion) < 0.05, "grabbing must not turn the dial"

    def expect(pos):
        return q_mul(d0.quaternion, q_axis([0, 0, 1], 5 * sideways(grab_q, grab_pos, pos)))

    # A diagonal movement in the world: only its part along the hand's right counts.
    pos = list(grab_pos)
    for k, step in enumerate([(0.006, 0.004, 0.006)] * 6 + [(-0.008, -0.003, 0.0)] * 10, start=1):
        pos = [pos[i] + step[i] for i in range(3)]
        hand.move_hand(pos, speed=0.6)
        observed = hand.state.position
        check_world_turn(
            xr.find_by_tag("dial"),
            expect(observed),
            d0.position,
            d0.scale,
            f"step {k}, the hand {100 * sideways(grab_q, grab_pos, observed):+.1f} cm to its right of the grab",
        )
    held = xr.find_by_tag("dial").quaternion
    assert q_angle(held, d0.quaternion) > 8, "expected the movement to turn the dial"
    # Turning the hand in place does not turn the dial.
    hand.rotate_hand(yaw=20, pitch=10)
    xr.step(2)
    err = q_angle(xr.find_by_tag("dial").quaternion, held)
    assert err < 0.1, f"turning the hand in place turned the dial by {err:.2f} deg"
    hand.end_select(frames=4)
    assert_state(xr, "dial", active=False, starts=1)
    assert q_angle(xr.find_by_tag("dial").quaternion, held) < 0.1, "releasing turned the dial"
    assert_no_errors(xr)


@pytest.mark.pass_to_pass
def test_moving_and_selecting_still_work(xr):
    ready(xr)
    before = {t: xr.find_by_tag(t) for t in ("turntable", "dial", "crate", "lamp")}
    hand = xr.hand("dominant")
    # The crate moves with the hand (translate only) and does not turn. The hand comes down in front
    # of it first, so that its ray passes below the turntable.
    c = before["crate"].position
    hand.move_hand((c[0], c[1] - 0.05, c[2] + 0.4), speed=1.2)
    hand.point_to("crate")
    xr.step(1)
    for _ in range(40):
        hand.start_select(frames=1)
        if xr.find_by_tag("crate").state["active"]:
            break
    else:
        raise AssertionError("no translation of the crate started")
    start_hand = hand.position
    crate_start = xr.find_by_tag("crate").position
    hand.move_hand((start_hand[0] - 0.08, start_hand[1] + 0.05, start_hand[2]), speed=0.4)
    moved = _sub(hand.position, start_hand)
    crate = xr.find_by_tag("crate")
    expected = [crate_start[i] + moved[i] for i in range(3)]
    assert math.dist(crate.position, expected) < 0.01, (
        f"expected the crate to move with the hand to {_fmt(expected)}; it is at {_fmt(crate.position)}"
    )
    assert q_angle(crate.quaternion, before["crate"].quaternion) < 0.05, "the crate must not turn"
    hand.end_select(frames=4)
    assert_state(xr, "crate", active=False, starts=1)
    # The lamp is selected (it switches) but never moved or turned, even when pinched and swept.
    hand.rest(speed=1.2)
    hand.point_to("lamp")
    hand.start_select(frames=4)
    hand.move_hand((hand.position[0] + 0.08, hand.position[1], hand.position[2]), speed=0.4)
    hand.end_select(frames=4)
    assert_state(xr, "lamp", on=True, switches=1)
    lamp = xr.find_by_tag("lamp")
    assert math.dist(lamp.position, before["lamp"].position) < 1e-4, "the lamp moved"
    assert q_angle(lamp.quaternion, before["lamp"].quaternion) < 0.05, "the lamp turned"
    # Pointing at the rotatable objects and moving without selecting turns nothing.
    for tag in ("turntable", "dial"):
        hand.point_to(tag)
        hand.move_hand((hand.position[0] + 0.05, hand.position[1], hand.position[2]), speed=0.4)
    xr.wait(300)
    for tag in ("turntable", "dial"):
        node = xr.find_by_tag(tag)
        err = q_angle(node.quaternion, before[tag].quaternion)
        assert err < 0.05, f"'{tag}' turned {err:.2f} deg without being grabbed"
        assert math.dist(node.position, before[tag].position) < 1e-4, f"'{tag}' moved without being grabbed"
        assert_state(xr, tag, starts=0)
    assert_no_errors(xr)


# --- scripted driver -----------------------------------------------------------------------------------

# A fresh RotateDriver of the candidate's SDK (the class of the live manager's driver). Per scenario:
# an object under a parent (position, rotation, scale), rotate options, a source type, a grab (source
# position and orientation) and frames; each frame sets the source (updated in place, as the manager
# does), optionally moves the parent, asks for a proposal and applies it (frame 0, the start, is not
# applied, as the manager does). Numbers given as null are NaN, "inf" Infinity, "-inf" -Infinity.
DRIVE = r"""(h, scenarios) => {
  const T = h.THREE;
  const driver0 = h.core.interaction.manipulation.rotateDriver;
  const Driver = driver0.constructor;
  const num = (v) => (v === null ? NaN : v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v);
  const V = (a) => new T.Vector3(num(a[0]), num(a[1]), num(a[2]));
  const Q = (a) => new T.Quaternion(num(a[0]), num(a[1]), num(a[2]), num(a[3]));
  const arr = (v) => v && typeof v.toArray === 'function'
    ? v.toArray().map((c) => (Number.isFinite(c) ? c : null)) : null;
  const out = [];
  for (const sc of scenarios) {
    const driver = new Driver();
    const root = new T.Group();
    const parent = new T.Group();
    root.add(parent);
    const setParent = (p) => {
      parent.position.fromArray(p.position || [0, 0, 0]);
      parent.quaternion.fromArray(p.quaternion || [0, 0, 0, 1]);
      parent.scale.fromArray(p.scale || [1, 1, 1]);
      root.updateMatrixWorld(true);
    };
    setParent(sc.parent || {});
    const owner = new T.Object3D();
    owner.position.fromArray(sc.local || [0, 0, 0]);
    owner.quaternion.fromArray(sc.quaternion || [0, 0, 0, 1]);
    owner.scale.fromArray(sc.scale || [1, 1, 1]);
    parent.add(owner);
    root.updateMatrixWorld(true);
    const snapshot = {
      sourceType: sc.sourceType || 'hand-ray', position: new T.Vector3(), orientation: new T.Quaternion(),
      ray: undefined, selected: true, selectionProgress: undefined, controller: undefined, source: undefined,
    };
    const setSource = (s) => {
      snapshot.position.copy(V(s.position));
      snapshot.orientation.copy(Q(s.orientation));
      snapshot.selected = s.selected === undefined ? true : s.selected;
    };
    setSource(sc.grab);
    const capture = {
      source: undefined, publicSource: undefined, target: owner, surface: owner, owner,
      point: owner.getWorldPosition(new T.Vector3()), scriptPath: [], manipulation: {owner, action: 'rotate'},
    };
    const options = {};
    for (const [k, v] of Object.entries(sc.options || {})) {
      if (k === 'axis' && Array.isArray(v)) options.axis = {x: num(v[0]), y: num(v[1]), z: num(v[2])};
      else options[k] = k === 'sensitivity' ? num(v) : v;
    }
    const session = {owner, config: {rotate: options}, primary: {capture, snapshot}};
    const rec = {frames: [], error: null};
    let baseline;
    try {
      owner.updateWorldMatrix(true, false);
      baseline = driver.capture(session);
    } catch (e) {
      rec.error = 'capture threw: ' + String(e);
    }
    rec.captured = baseline !== undefined && baseline !== null;
    if (rec.captured) {
      sc.frames.forEach((f, index) => {
        if (f.parent) setParent(f.parent);
        setSource(f);
        const fr = {proposal: null};
        try {
          const p = driver.propose(session, baseline);
          if (p) {
            fr.proposal = {action: p.action, angle: Number.isFinite(p.angle) ? p.angle : null,
              quaternion: arr(p.quaternion)};
            if (index > 0) p.apply();
          }
        } catch (e) {
          fr.error = String(e);
        }
        root.updateMatrixWorld(true);
        fr.local = arr(owner.position);
        fr.quaternion = arr(owner.quaternion);
        fr.world_quaternion = arr(owner.getWorldQuaternion(new T.Quaternion()));
        fr.scale = arr(owner.scale);
        rec.frames.push(fr);
      });
    }
    out.push(rec);
  }
  return out;
}"""


def drive(xr, scenarios):
    return xr.probe(DRIVE, scenarios)


PARENT = {"position": [0.2, 0.1, -0.3], "quaternion": q_deg([1, 0.3, 0], 40), "scale": [1.5, 1.5, 1.5]}
PARENT_LATER = {"position": [0.3, 0.05, -0.35], "quaternion": q_deg([0.2, 1, 0.4], 130), "scale": [1.5, 1.5, 1.5]}
OWNER_Q = q_deg([0, 0, 1], 30)
LOCAL = [0.05, 0.6, 0.1]
SCALE = [0.5, 0.7, 0.9]
S0 = [0.25, 1.25, -0.45]
Q_SOURCE = q_deg([0.3, 1, 0.2], 50)
AXES = {"x": [1, 0, 0], "y": [0, 1, 0], "z": [0, 0, 1]}


def _spatial_frames(moves, turns=None):
    frames = []
    for k, m in enumerate(moves):
        q = Q_SOURCE if not turns or turns[k] is None else q_mul(turns[k], Q_SOURCE)
        frames.append({"position": [S0[i] + m[i] for i in range(3)], "orientation": q})
    return frames


SPATIAL_MOVES = [
    (0.0, 0.0, 0.0),
    (0.02, 0.01, -0.03),
    (-0.05, 0.04, 0.02),
    (-0.05, 0.04, 0.02),  # the source turned in place (below)
    (0.0, 0.0, 0.0),
    (0.03, -0.02, 0.01),
]
SPATIAL_TURNS = [None, None, None, q_deg([1, 0, 0], 35), None, q_deg([0, 1, 0], -20)]


def _scenario(options, source_type="hand-ray", parent=None, parents=None, frames=None, grab=None):
    frames = frames or _spatial_frames(SPATIAL_MOVES, SPATIAL_TURNS)
    if parents:
        frames = [dict(f, parent=p) if p else f for f, p in zip(frames, parents, strict=True)]
    # Release: the manager's last update comes from the source's final state, no longer selecting.
    frames = [*frames, dict(frames[-1], selected=False)]
    frames[-1].pop("parent", None)
    return {
        "parent": parent if parent is not None else PARENT,
        "local": LOCAL,
        "quaternion": OWNER_Q,
        "scale": SCALE,
        "options": options,
        "sourceType": source_type,
        "grab": grab or {"position": S0, "orientation": Q_SOURCE},
        "frames": frames,
    }


def _expected(sc):
    """Per frame: (angle, local quaternion) the instruction asks for."""
    opts = sc["options"]
    axis = opts.get("axis", "y")
    axis = AXES[axis] if isinstance(axis, str) else axis
    sens = opts.get("sensitivity", 10)
    space = opts.get("space", "world")
    g = sc["grab"]
    parent = sc["parent"]
    parent_q0 = parent.get("quaternion", [0, 0, 0, 1])
    world0 = q_mul(parent_q0, sc["quaternion"])
    out = []
    for f in sc["frames"]:
        parent = f.get("parent", parent)
        if sc["sourceType"] == "mouse":
            angle = -yaw_yxz(q_mul(f["orientation"], q_inv(g["orientation"]))) * sens
        else:
            angle = sideways(g["orientation"], g["position"], f["position"]) * sens
        turn = q_axis(axis, angle)
        if space == "local":
            local = q_mul(sc["quaternion"], turn)
        else:
            local = q_mul(q_inv(parent.get("quaternion", [0, 0, 0, 1])), q_mul(turn, world0))
        out.append((angle, local))
    return out


def _check_rotations(rec, sc, label):
    assert rec.get("error") is None, f"{label}: {rec['error']}"
    assert rec["captured"], f"{label}: capture() returned no baseline for valid options"
    applied = sc["quaternion"]
    for k, (fr, (angle, local)) in enumerate(zip(rec["frames"], _expected(sc), strict=True)):
        what = "the start" if k == 0 else ("the release" if k == len(sc["frames"]) - 1 else f"frame {k}")
        assert fr.get("error") is None, f"{label}, {what}: {fr['error']}"
        p = fr["proposal"]
        assert p is not None, f"{label}, {what}: propose() returned nothing"
        assert p["action"] == "rotate", f"{label}, {what}: the proposal's action is {p['action']!r}"
        assert p["angle"] is not None and abs(p["angle"] - angle) < 1e-4, (
            f"{label}, {what}: expected the angle {angle:+.4f} rad; proposed {p['angle']}"
        )
        err = q_angle(p["quaternion"], local)
        assert err < 0.05, (
            f"{label}, {what}: expected the new local rotation {_fmt(local)}; proposed {p['quaternion']} "
            f"({err:.2f} deg off)"
        )
        if k > 0:
            applied = local
            norm = math.sqrt(sum(c * c for c in fr["quaternion"]))
            assert abs(norm - 1) < 1e-6, f"{label}, {what}: apply() must write a normalised rotation; norm {norm}"
        err = q_angle(fr["quaternion"], applied)
        assert err < 0.05, (
            f"{label}, {what}: expected the object's local rotation {_fmt(applied)} after it; observed "
            f"{fr['quaternion']} ({err:.2f} deg off)"
        )
        assert fr["local"] == pytest.approx(LOCAL, abs=1e-9), f"{label}, {what}: the position changed to {fr['local']}"
        assert fr["scale"] == pytest.approx(SCALE, abs=1e-9), f"{label}, {what}: the scale changed to {fr['scale']}"


MOUSE_TURNS = [
    None,
    q_deg([0, 1, 0], 10),
    q_mul(q_deg([0, 1, 0], -20), q_deg([1, 0, 0], 15)),
    q_mul(q_deg([1, 0, 0], -10), q_deg([0, 1, 0], 35)),
    None,
]
MOUSE_MOVES = [(0, 0, 0), (0.1, 0.0, 0.0), (0.1, 0.2, 0.0), (-0.3, 0.0, 0.1), (0.2, 0.0, 0.0)]


@pytest.mark.fail_to_pass
def test_the_driver_proposes_rotations_from_the_start(xr):
    ready(xr)
    cases = [
        ("default options (world Y, sensitivity 10), a hand ray under a turned parent", _scenario({})),
        (
            "world X, sensitivity 4, a controller, the parent turning mid-way",
            _scenario(
                {"axis": "x", "sensitivity": 4, "space": "world"},
                "controller-ray",
                parents=[None, None, PARENT_LATER, None, None, None],
            ),
        ),
        (
            "local Z, sensitivity 5, a direct grab",
            _scenario({"axis": "z", "space": "local", "sensitivity": 5}, "direct-touch"),
        ),
        ("world axis (1, 2, -2), sensitivity -3", _scenario({"axis": [1, 2, -2], "sensitivity": -3})),
        (
            "local axis (0, 0.5, 0.5), no parent",
            _scenario({"axis": [0, 0.5, 0.5], "space": "local"}, parent={}),
        ),
        (
            "the mouse, world Y, sensitivity 2",
            _scenario(
                {"sensitivity": 2}, "mouse", frames=_spatial_frames(MOUSE_MOVES, MOUSE_TURNS), parent=PARENT_LATER
            ),
        ),
        (
            "the mouse, local X, sensitivity 1",
            _scenario(
                {"axis": "x", "space": "local", "sensitivity": 1},
                "mouse",
                frames=_spatial_frames(MOUSE_MOVES, MOUSE_TURNS),
            ),
        ),
    ]
    results = drive(xr, [sc for _l, sc in cases])
    for (label, sc), rec in zip(cases, results, strict=True):
        _check_rotations(rec, sc, label)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_invalid_options_and_non_finite_sources(xr):
    ready(xr)
    invalid = [
        {"axis": [0, 0, 0]},
        {"axis": [None, 1, 0]},
        {"axis": [0, "inf", 0]},
        {"axis": [1, 0, "-inf"], "space": "local"},
        {"sensitivity": None},
        {"sensitivity": "inf"},
        {"sensitivity": "-inf", "axis": "x"},
    ]
    valid = [
        {},
        {"axis": "x"},
        {"axis": "z", "space": "local"},
        {"axis": [0, 0, 2]},
        {"sensitivity": 0},
        {"sensitivity": -5, "space": "world"},
    ]
    grab = {"position": S0, "orientation": Q_SOURCE}
    moved = [S0[0] + 0.03, S0[1], S0[2]]
    bad_frames = [
        {"position": [None, S0[1], S0[2]], "orientation": Q_SOURCE},
        {"position": [moved[0], None, None], "orientation": Q_SOURCE},
        {"position": ["inf", S0[1], S0[2]], "orientation": Q_SOURCE},
    ]
    spatial = {
        "local": LOCAL,
        "quaternion": OWNER_Q,
        "options": {},
        "sourceType": "hand-ray",
        "grab": grab,
        "frames": [grab, {"position": moved, "orientation": Q_SOURCE}, *bad_frames],
    }
    mouse = dict(
        spatial,
        sourceType="mouse",
        frames=[
            grab,
            {"position": S0, "orientation": q_mul(q_deg([0, 1, 0], 10), Q_SOURCE)},
            {"position": S0, "orientation": [None, 0, 0, 1]},
            {"position": S0, "orientation": [0, None, None, None]},
        ],
    )
    local = dict(spatial, options={"axis": "z", "space": "local"})
    option_runs = [dict(spatial, options=o, frames=[grab]) for o in invalid + valid]
    results = drive(xr, [spatial, mouse, local, *option_runs])
    for rec, label in ((results[0], "a hand"), (results[1], "the mouse"), (results[2], "a hand, local space")):
        assert rec.get("error") is None, f"{label}: {rec['error']}"
        assert rec["captured"], f"{label}: capture() returned no baseline"
        frames = rec["frames"]
        assert frames[1]["proposal"] is not None, f"{label}: no proposal for a finite source"
        turned = frames[1]["quaternion"]
        assert q_angle(turned, OWNER_Q) > 1, f"{label}: a finite source's movement did not turn the object"
        for k in range(2, len(frames)):
            assert frames[k].get("error") is None, f"{label}, frame {k}: {frames[k]['error']}"
            assert frames[k]["proposal"] is None, (
                f"{label}: a source whose position or orientation is not finite must give no proposal; got "
                f"{frames[k]['proposal']}"
            )
            assert frames[k]["quaternion"] == pytest.approx(turned, abs=1e-9), (
                f"{label}: a non-finite source must not turn the object; it went from {turned} to "
                f"{frames[k]['quaternion']}"
            )
    for rec, options in zip(results[3 : 3 + len(invalid)], invalid, strict=True):
        assert rec.get("error") is None, f"options {options}: {rec['error']}"
        assert not rec["captured"], f"rotate options {options} (null: NaN) are not valid: no rotation may start"
    for rec, options in zip(results[3 + len(invalid) :], valid, strict=True):
        assert rec.get("error") is None, f"options {options}: {rec['error']}"
        assert rec["captured"], f"rotate options {options} are valid: capture() must return a baseline"
    assert_no_errors(xr)
