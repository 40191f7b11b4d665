"""Runtime tests of the palm menu.

Hands are turned with the harness so that each palm's normal (the instruction's cross product of
the wrist-to-knuckle vectors, read from the harness's own record of the joints) has a chosen tilt
from straight up, leaning towards a chosen horizontal direction, with the fingers roughly ahead;
tilts change in steps of at most 5 degrees, so a turn never passes beyond its end. Every reading
takes the tagged objects from the live scene graph: whether each is shown (it and all its
ancestors visible, in the scene), the centre and world box of each button's vertices, its size
along its own axes, and the materials' colours (`getHex`). The tests check that
- the cylinder is gone, the cube is 0.2 m (within 1 cm) at (0, 1.0, -1.0) (within 1 cm) and
  white; the menu is hidden at start and while the hands rest and move with their palms not up;
- a palm turned up (tilt 0 to 25 degrees, leaning several ways, either hand) shows the menu
  within three frames: green 10 cm above the palm centre (within 1.5 cm), red and blue 6 cm
  (within 1 cm) to the user's left and right, level (within 1 cm), the row along the user's
  left-right (within 15 degrees), each button 4 cm (within 8 mm) and its stated colour; tilts of
  62 degrees and more hide it within three frames;
- tilts between 35 and 55 degrees (40, 45, 50) keep the state: shown stays shown (and placed),
  hidden stays hidden;
- the shown menu follows the palm frame by frame as the hand moves 1 cm a frame (within 2.5 cm)
  and as it tilts within the band, and turns with the user's heading (also when looking down);
- with both palms up the first one keeps the menu (also while both tilt to 45 degrees); when it
  turns down the menu moves to the other palm (still up at 45 degrees) within three frames, and
  back again; both down hides it;
- fingertip pokes of the hand not holding the menu (palm down, or palm up too) set the cube to
  the button's colour within three frames of entering, not before the fingertip is within 8 mm
  of the button; poking the cube's colour again turns it white; a fingertip held in a button
  for a second while moving about inside changes the colour once, also as it leaves;
- while the menu is hidden, a fingertip entering where each button was last shown, and where the
  hidden button now is, leaves the cube as it is, and pokes work again once the palm is back up.

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

CUBE, MENU = "color-cube", "palm-menu"
RED, GREEN, BLUE = "menu-button-red", "menu-button-green", "menu-button-blue"
BUTTONS = (RED, GREEN, BLUE)
TAGS = (CUBE, MENU, *BUTTONS)
HEX = {RED: "#ff0000", GREEN: "#00ff00", BLUE: "#0000ff"}
NAME = {RED: "red", GREEN: "green", BLUE: "blue"}
WHITE = "#ffffff"

CUBE_CENTRE, CUBE_SIDE, CUBE_TOL = (0.0, 1.0, -1.0), 0.2, 0.01
LIFT, LIFT_TOL, FOLLOW_TOL = 0.10, 0.015, 0.025  # green button above the palm centre
SPACING, SPACING_TOL, LEVEL_TOL = 0.06, 0.01, 0.01
ROW_DEG = 15.0  # the row's direction from the user's left-right, horizontally
SIDE, SIDE_TOL = 0.04, 0.008
LATE = 3  # frames (1/20 s) a show, hide, move or colour change may take
STEP_DEG = 5.0  # a palm turns in steps of at most this many degrees of tilt

Vec = tuple[float, float, float]

_READ_JS = """
(h, tags) => {
  const THREE = h.THREE;
  const scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const found = {};
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const d = o.userData && o.userData.xrblocksDevtools;
    const tag = d && String(d.tag);
    if (tag && tags.includes(tag) && !(tag in found)) found[tag] = o;
  });
  const shown = (o) => {
    for (let p = o; p; p = p.parent) {
      if (!p.visible) return false;
      if (p === scene) return true;
    }
    return false;
  };
  const meshes = (o) => {
    const out = [];
    const g = o.geometry;
    if (g && g.attributes && g.attributes.position && !o.isInstancedMesh) return [o];
    o.traverse((m) => {
      const mg = m.geometry;
      if (m !== o && mg && mg.attributes && mg.attributes.position && !m.isInstancedMesh) out.push(m);
    });
    return out;
  };
  const out = {found: Object.keys(found), shown: {}, centre: {}, min: {}, max: {}, size: {}, color: {}};
  for (const tag of tags) {
    const o = found[tag];
    out.shown[tag] = o ? shown(o) : false;
    if (!o) continue;
    const ms = meshes(o);
    if (!ms.length) continue;
    // world box, and the extent along the tagged object's own axes
    const box = new THREE.Box3();
    const own = new THREE.Box3();
    const inv = new THREE.Matrix4().copy(o.matrixWorld);
    const pos = new THREE.Vector3(), quat = new THREE.Quaternion(), scl = new THREE.Vector3();
    inv.decompose(pos, quat, scl);
    const frame = new THREE.Matrix4().compose(pos, quat, new THREE.Vector3(1, 1, 1)).invert();
    const v = new THREE.Vector3();
    for (const m of ms) {
      const a = m.geometry.attributes.position;
      for (let i = 0; i < a.count; i++) {
        v.fromBufferAttribute(a, i).applyMatrix4(m.matrixWorld);
        box.expandByPoint(v);
        own.expandByPoint(v.clone().applyMatrix4(frame));
      }
    }
    out.centre[tag] = box.getCenter(new THREE.Vector3()).toArray();
    out.min[tag] = box.min.toArray();
    out.max[tag] = box.max.toArray();
    out.size[tag] = own.getSize(new THREE.Vector3()).toArray();
    const mat = Array.isArray(ms[0].material) ? ms[0].material[0] : ms[0].material;
    if (mat && mat.color && mat.color.isColor) {
      h.guard(mat, tag + ' material');
      out.color[tag] = '#' + h.guard(mat.color, tag + ' colour').getHex().toString(16).padStart(6, '0');
    }
  }
  return out;
}
"""


# --- vectors and rotations --------------------------------------------------------------------


def _sub(a: Sequence[float], b: Sequence[float]) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _add(a: Sequence[float], b: Sequence[float]) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _mul(a: Sequence[float], k: float) -> Vec:
    return (a[0] * k, a[1] * k, a[2] * k)


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _cross(u: Sequence[float], v: Sequence[float]) -> Vec:
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def _norm(a: Sequence[float]) -> Vec:
    n = math.sqrt(_dot(a, a))
    return (a[0] / n, a[1] / n, a[2] / n)


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def _qmul(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float, float]:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    )


def _qrot_inv(q: Sequence[float], v: Sequence[float]) -> Vec:
    """`v` turned by the inverse of unit quaternion `q`."""
    qi = (-q[0], -q[1], -q[2], q[3])
    r = _qmul(_qmul(qi, (v[0], v[1], v[2], 0.0)), q)
    return (r[0], r[1], r[2])


def _cols(c0: Vec, c1: Vec, c2: Vec) -> list[list[float]]:
    return [[c0[0], c1[0], c2[0]], [c0[1], c1[1], c2[1]], [c0[2], c1[2], c2[2]]]


def _mm(a: list[list[float]], b: list[list[float]]) -> list[list[float]]:
    return [[sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)] for i in range(3)]


def _tr(a: list[list[float]]) -> list[list[float]]:
    return [[a[j][i] for j in range(3)] for i in range(3)]


def _from_quat(q: Sequence[float]) -> list[list[float]]:
    x, y, z, w = q
    return [
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ]


def _euler_yxz(m: list[list[float]]) -> Vec:
    m23 = max(-1.0, min(1.0, m[1][2]))
    x = math.asin(-m23)
    if abs(m23) < 0.9999999:
        return (x, math.atan2(m[0][2], m[2][2]), math.atan2(m[1][0], m[1][1]))
    return (x, math.atan2(-m[2][0], m[0][0]), 0.0)


# --- palms --------------------------------------------------------------------------------------


def palm(xr, role: str) -> tuple[Vec, Vec, Vec]:
    """(centre, normal, fingers) of `role`'s palm as the instruction defines them, world frame."""
    handedness = xr.handedness(role)
    j = xr.hand_joints(handedness)
    w = j["wrist"].position
    i = j["index-finger-phalanx-proximal"].position
    k = j["pinky-finger-phalanx-proximal"].position
    m = j["middle-finger-phalanx-proximal"].position
    n = _cross(_sub(i, w), _sub(k, w))
    if handedness == "left":
        n = _mul(n, -1.0)
    return _mul(_add(w, m), 0.5), _norm(n), _norm(_sub(m, w))


def tilt_of(normal: Sequence[float]) -> float:
    return math.degrees(math.acos(max(-1.0, min(1.0, normal[1]))))


def _orient(xr, role: str, tilt: float, azimuth: float, fingers: Vec) -> None:
    """Turn the hand so its palm normal is `tilt` deg from up, leaning towards compass `azimuth`."""
    hand = xr.hand(role)
    q = hand.state.quaternion
    _, n, f = palm(xr, role)
    nl, fl = _qrot_inv(q, n), _qrot_inv(q, f)
    fl = _norm(_sub(fl, _mul(nl, _dot(fl, nl))))
    t, a = math.radians(tilt), math.radians(azimuth)
    d = (math.sin(t) * math.sin(a), math.cos(t), -math.sin(t) * math.cos(a))
    fw = _norm(_sub(fingers, _mul(d, _dot(fingers, d))))
    goal = _mm(_cols(d, fw, _cross(d, fw)), _tr(_cols(nl, fl, _cross(nl, fl))))
    x, y, z = _euler_yxz(_mm(_tr(_from_quat(q)), goal))
    hand.rotate_hand(pitch=math.degrees(x), yaw=math.degrees(y), roll=math.degrees(z))


def turn_palm(xr, role: str, tilt: float, azimuth: float = 0.0, at: Vec | None = None) -> float:
    """Turn `role`'s palm to `tilt` degrees (at most 5 degrees of tilt a step), then step LATE frames.

    With `at`, the palm centre is moved there afterwards. Returns the tilt reached."""
    fx, _, fz = xr.head.pose.forward
    fingers = _norm((fx, 0.0, fz))
    now = tilt_of(palm(xr, role)[1])
    steps = max(1, math.ceil(abs(tilt - now) / STEP_DEG))
    for s in range(1, steps + 1):
        _orient(xr, role, now + (tilt - now) * s / steps, azimuth, fingers)
    if at is not None:
        place_palm(xr, role, at)
    xr.step(LATE)
    reached = tilt_of(palm(xr, role)[1])
    assert abs(reached - tilt) < 1.0, f"harness: turned the {role} palm to {tilt} deg, reached {reached:.1f}"
    return reached


def place_palm(xr, role: str, centre: Vec, *, speed: float = 0.6) -> None:
    c = palm(xr, role)[0]
    hand = xr.hand(role)
    hand.move_hand(_add(hand.position, _sub(centre, c)), speed=speed)


def spot(xr, role: str, dx: float = 0.0, dy: float = 0.0, dz: float = 0.0) -> Vec:
    """A palm centre on `role`'s side of the user, in front of the chest."""
    side = 1.0 if xr.handedness(role) == "right" else -1.0
    return (side * 0.16 + dx, 1.12 + dy, -0.38 + dz)


# --- the scene ----------------------------------------------------------------------------------


def read(xr) -> dict[str, Any]:
    r = xr.probe(_READ_JS, list(TAGS))
    missing = [t for t in TAGS if t not in r["found"]]
    assert not missing, f"no object tagged {missing} in the scene"
    return r


def user_right(xr) -> Vec:
    fx, _, fz = xr.head.pose.forward
    f = _norm((fx, 0.0, fz))
    return (-f[2], 0.0, f[0])


def assert_hidden(xr, when: str, r: dict[str, Any] | None = None) -> dict[str, Any]:
    __tracebackhide__ = True
    r = r or read(xr)
    shown = [NAME[t] for t in BUTTONS if r["shown"][t]]
    assert not shown, f"{when}: expected the menu hidden; observed the {', '.join(shown)} button(s) shown"
    return r


def assert_on(xr, role: str, when: str, *, tol: float = LIFT_TOL, r: dict[str, Any] | None = None) -> dict[str, Any]:
    """The menu is shown, laid out as stated, above `role`'s palm."""
    __tracebackhide__ = True
    r = r or read(xr)
    hidden = [NAME[t] for t in BUTTONS if not r["shown"][t]]
    assert not hidden, (
        f"{when}: expected the menu shown above the {role} ({xr.handedness(role)}) palm; observed the "
        f"{', '.join(hidden)} button(s) hidden"
    )
    for t in BUTTONS:
        assert t in r["centre"], f"{when}: the {NAME[t]} button has no geometry"
    centre = palm(xr, role)[0]
    want = _add(centre, (0.0, LIFT, 0.0))
    g = r["centre"][GREEN]
    off = math.dist(g, want)
    other = "non_dominant" if role == "dominant" else "dominant"
    off_other = math.dist(g, _add(palm(xr, other)[0], (0.0, LIFT, 0.0)))
    assert off <= tol, (
        f"{when}: expected the green button's centre {LIFT} m above the {role} ({xr.handedness(role)}) palm centre "
        f"{_fmt(centre)}, at {_fmt(want)} (within {tol} m); observed {_fmt(g)}, {off:.3f} m away "
        f"({off_other:.3f} m from that place above the {other} palm)"
    )
    right = user_right(xr)
    for t, sign in ((RED, -1.0), (BLUE, 1.0)):
        c = r["centre"][t]
        d = _sub(c, g)
        dist = math.dist(c, g)
        horiz = math.hypot(d[0], d[2])
        along = _dot(d, right) * sign
        angle = math.degrees(math.acos(max(-1.0, min(1.0, along / horiz)))) if horiz > 1e-6 else 180.0
        assert abs(dist - SPACING) <= SPACING_TOL and abs(d[1]) <= LEVEL_TOL and angle <= ROW_DEG, (
            f"{when}: expected the {NAME[t]} button's centre {SPACING} m to the user's "
            f"{'left' if sign < 0 else 'right'} of the green one, level, along the user's left-right "
            f"{_fmt(_mul(right, sign))}; observed {_fmt(c)}: {dist:.3f} m away, {d[1]:+.3f} m higher, "
            f"{angle:.0f} deg off that direction"
        )
    for t in BUTTONS:
        size = r["size"][t]
        assert all(abs(s - SIDE) <= SIDE_TOL for s in size), (
            f"{when}: expected the {NAME[t]} button a {SIDE} m cube (within {SIDE_TOL}); observed "
            f"{_fmt(size)} along its own axes"
        )
        assert r["color"].get(t) == HEX[t], (
            f"{when}: expected the {NAME[t]} button coloured {HEX[t]}; observed {r['color'].get(t)}"
        )
    return r


def assert_cube(xr, colour: str, when: str) -> dict[str, Any]:
    __tracebackhide__ = True
    r = read(xr)
    got = r["color"].get(CUBE)
    assert got == colour, f"{when}: expected the cube coloured {colour}; observed {got}"
    return r


# --- pokes --------------------------------------------------------------------------------------


def poke(xr, role: str, tag: str, *, before: str, after: str, hold: int = 0, owner: str | None = None) -> None:
    """Push `role`'s index fingertip down into button `tag` (4 mm a frame near it), check the colour."""
    __tracebackhide__ = True
    what = f"a poke of the {NAME[tag]} button by the {role} ({xr.handedness(role)}) index fingertip"
    r = read(xr)
    if owner:
        assert_on(xr, owner, f"before {what}", r=r)
    c = r["centre"][tag]
    top = r["max"][tag][1]
    hand = xr.hand(role)
    tip = hand.fingertip
    hand.move_hand((tip[0], c[1] + 0.09, tip[2]), anchor="fingertip")
    hand.move_hand((c[0], c[1] + 0.09, c[2]), anchor="fingertip")
    hand.move_hand((c[0], top + 0.008, c[2]), anchor="fingertip", speed=0.24)
    xr.step(LATE)
    assert_cube(xr, before, f"with the fingertip 8 mm above the {NAME[tag]} button, before {what}")
    hand.move_hand(c, anchor="fingertip", speed=0.24)
    xr.step(LATE)
    assert_cube(xr, after, f"{LATE} frames after {what}, the fingertip still in the button")
    if hold:
        for k in range(hold // 10):
            d = 0.01 if k % 2 else -0.01
            hand.move_hand((c[0] + d, c[1] - d / 2, c[2] + d), anchor="fingertip", speed=0.24)
            xr.step(5)
            assert_cube(xr, after, f"while the fingertip stays in the {NAME[tag]} button after {what}")
    hand.move_hand((c[0], c[1] + 0.09, c[2]), anchor="fingertip", speed=0.24)
    xr.step(LATE)
    assert_cube(xr, after, f"after the fingertip left the {NAME[tag]} button ({what})")


def other(role: str) -> str:
    return "non_dominant" if role == "dominant" else "dominant"


# --- tests --------------------------------------------------------------------------------------


def test_a_palm_turned_up_shows_the_menu_above_it(xr):
    xr.step(1)
    cylinders = [m for m in xr.drawn(("mesh",)) if "Cylinder" in m.geometry]
    assert not cylinders, f"expected the starting app's cylinder removed; observed {cylinders}"
    r = assert_cube(xr, WHITE, "at start-up")
    assert r["shown"][CUBE], "expected the cube shown at start-up"
    size = [r["max"][CUBE][i] - r["min"][CUBE][i] for i in range(3)]
    assert math.dist(r["centre"][CUBE], CUBE_CENTRE) <= CUBE_TOL and all(
        abs(s - CUBE_SIDE) <= CUBE_TOL for s in size
    ), f"expected a {CUBE_SIDE} m cube centred at {CUBE_CENTRE}; observed {_fmt(size)} at {_fmt(r['centre'][CUBE])}"
    assert_hidden(xr, "at start-up")
    for role in ("dominant", "non_dominant"):
        xr.hand(role).move_by((0.0, 0.06, -0.05))
    xr.step(30)
    assert_hidden(xr, "with both hands raised, palms not up")
    for role in ("dominant", "non_dominant"):
        xr.hand(role).rest()
    for role in ("dominant", "non_dominant"):
        turn_palm(xr, role, 0.0, at=spot(xr, role))
        assert_on(xr, role, f"with the {role} palm turned straight up")
        turn_palm(xr, role, 20.0, 90.0, at=spot(xr, role, dy=0.05))
        assert_on(xr, role, f"with the {role} palm tilted 20 deg to the right and raised")
        turn_palm(xr, role, 25.0, 180.0, at=spot(xr, role, dz=0.06))
        assert_on(xr, role, f"with the {role} palm tilted 25 deg towards the user")
        turn_palm(xr, role, 62.0, 180.0)
        assert_hidden(xr, f"with the {role} palm tilted 62 deg")
        turn_palm(xr, role, 25.0, -90.0, at=spot(xr, role, dx=0.05, dy=-0.04))
        assert_on(xr, role, f"with the {role} palm turned up again, tilted 25 deg to the left")
        turn_palm(xr, role, 180.0)
        assert_hidden(xr, f"with the {role} palm turned down")
        xr.hand(role).rest()
        xr.step(10)
        assert_hidden(xr, f"with the {role} hand back at rest")
    assert_no_errors(xr)


def test_between_35_and_55_degrees_a_palm_keeps_its_state(xr):
    xr.step(1)
    role = "dominant"
    turn_palm(xr, role, 0.0, at=spot(xr, role))
    assert_on(xr, role, "with the dominant palm up")
    for tilt in (40.0, 45.0, 50.0):
        turn_palm(xr, role, tilt)
        assert_on(xr, role, f"with the dominant palm up, then tilted to {tilt:.0f} deg")
    turn_palm(xr, role, 62.0)
    assert_hidden(xr, "with the dominant palm tilted on to 62 deg")
    for tilt in (50.0, 45.0, 40.0):
        turn_palm(xr, role, tilt)
        assert_hidden(xr, f"with the dominant palm tilted past 55 deg, then back to {tilt:.0f} deg")
    turn_palm(xr, role, 28.0)
    assert_on(xr, role, "with the dominant palm tilted back to 28 deg")
    turn_palm(xr, role, 180.0)
    xr.hand(role).rest()
    role = "non_dominant"
    turn_palm(xr, role, 120.0, 90.0, at=spot(xr, role))
    turn_palm(xr, role, 45.0, 90.0)
    assert_hidden(xr, "with the non-dominant palm turned from down to 45 deg")
    turn_palm(xr, role, 30.0, 90.0)
    assert_on(xr, role, "with the non-dominant palm turned on to 30 deg")
    turn_palm(xr, role, 48.0, -90.0)
    assert_on(xr, role, "with the non-dominant palm then tilted 48 deg the other way")
    turn_palm(xr, role, 65.0, -90.0)
    assert_hidden(xr, "with the non-dominant palm tilted on to 65 deg")
    assert_no_errors(xr)


def test_the_menu_follows_the_palm_and_the_users_heading(xr):
    xr.step(1)
    role = "dominant"
    turn_palm(xr, role, 0.0, at=spot(xr, role))
    assert_on(xr, role, "with the dominant palm up")
    hand = xr.hand(role)
    for delta in ((0.0, 0.0, -0.01), (-0.01, 0.0, 0.0), (0.0, 0.01, 0.0), (0.007, -0.007, 0.007)):
        for _ in range(10):
            hand.move_hand(_add(hand.position, delta), speed=0.6)
            assert_on(xr, role, f"while the dominant hand moves by {_fmt(delta)} a frame", tol=FOLLOW_TOL)
    xr.step(LATE)
    assert_on(xr, role, "after the dominant hand moved")
    for tilt, az in ((30.0, 90.0), (30.0, -90.0), (45.0, 0.0), (20.0, 180.0)):
        turn_palm(xr, role, tilt, az)
        assert_on(xr, role, f"with the dominant palm tilted {tilt:.0f} deg towards compass {az:.0f} deg")
    turn_palm(xr, role, 180.0)
    assert_hidden(xr, "with the dominant palm turned down")
    xr.hand(role).rest()
    xr.head.rotate(yaw=70.0, pitch=-20.0)
    role = "non_dominant"
    fx, _, fz = xr.head.pose.forward
    ahead = _norm((fx, 0.0, fz))
    right = (-ahead[2], 0.0, ahead[0])
    side = 1.0 if xr.handedness(role) == "right" else -1.0
    eye = xr.head.pose.position
    at = _add(_add(eye, _mul(ahead, 0.38)), _add(_mul(right, side * 0.16), (0.0, -0.38, 0.0)))
    turn_palm(xr, role, 0.0, at=at)
    assert_on(xr, role, "with the non-dominant palm up after the user turned left 70 deg and looked down 20 deg")
    turn_palm(xr, role, 25.0, 70.0 + 90.0)
    assert_on(xr, role, "with that palm tilted 25 deg")
    assert_no_errors(xr)


def test_the_first_palm_up_keeps_the_menu(xr):
    xr.step(1)
    for first in ("dominant", "non_dominant"):
        second = other(first)
        turn_palm(xr, first, 10.0, at=spot(xr, first))
        assert_on(xr, first, f"with the {first} palm up")
        turn_palm(xr, second, 15.0, 90.0, at=spot(xr, second))
        assert_on(xr, first, f"with the {second} palm turned up second")
        place_palm(xr, second, spot(xr, second, dy=0.08, dz=-0.05))
        xr.step(LATE)
        assert_on(xr, first, f"with the {second} palm up and moved")
        turn_palm(xr, first, 45.0)
        assert_on(xr, first, f"with the {first} palm tilted to 45 deg, the {second} palm up")
        turn_palm(xr, second, 45.0, 90.0)
        assert_on(xr, first, f"with both palms up, tilted to 45 deg, the {first} first")
        turn_palm(xr, first, 150.0)
        assert_on(xr, second, f"with the {first} palm turned down, the {second} palm still up (at 45 deg)")
        turn_palm(xr, first, 0.0, at=spot(xr, first))
        assert_on(xr, second, f"with the {first} palm up again, after the {second}")
        turn_palm(xr, second, 70.0, 90.0)
        assert_on(xr, first, f"with the {second} palm turned down again")
        turn_palm(xr, first, 180.0)
        assert_hidden(xr, "with both palms down")
        for role in (first, second):
            xr.hand(role).rest()
    assert_no_errors(xr)


def test_the_other_hands_fingertip_pokes_the_colours(xr):
    xr.step(1)
    turn_palm(xr, "dominant", 0.0, at=spot(xr, "dominant"))
    assert_on(xr, "dominant", "with the dominant palm up")
    p = "non_dominant"
    poke(xr, p, RED, before=WHITE, after=HEX[RED], owner="dominant")
    poke(xr, p, GREEN, before=HEX[RED], after=HEX[GREEN], owner="dominant")
    poke(xr, p, GREEN, before=HEX[GREEN], after=WHITE, owner="dominant")
    poke(xr, p, BLUE, before=WHITE, after=HEX[BLUE], hold=60, owner="dominant")
    poke(xr, p, BLUE, before=HEX[BLUE], after=WHITE, owner="dominant")
    poke(xr, p, RED, before=WHITE, after=HEX[RED], owner="dominant")
    xr.hand(p).rest()
    turn_palm(xr, "dominant", 180.0)
    assert_hidden(xr, "with the dominant palm turned down")
    xr.hand("dominant").rest()
    turn_palm(xr, p, 0.0, at=spot(xr, p))
    assert_on(xr, p, "with the non-dominant palm up")
    poke(xr, "dominant", BLUE, before=HEX[RED], after=HEX[BLUE], owner=p)
    xr.hand("dominant").move_by((0.0, 0.1, 0.0))
    turn_palm(xr, "dominant", 0.0, at=spot(xr, "dominant", dy=0.05))
    assert_on(xr, p, "with both palms up, the non-dominant first")
    poke(xr, "dominant", GREEN, before=HEX[BLUE], after=HEX[GREEN], owner=p)
    poke(xr, "dominant", GREEN, before=HEX[GREEN], after=WHITE, hold=30, owner=p)
    assert_no_errors(xr)


def test_a_hidden_menu_cannot_be_poked(xr):
    xr.step(1)
    turn_palm(xr, "dominant", 0.0, at=spot(xr, "dominant"))
    poke(xr, "non_dominant", GREEN, before=WHITE, after=HEX[GREEN], owner="dominant")
    turn_palm(xr, "dominant", 50.0)
    last = assert_on(xr, "dominant", "with the dominant palm tilted to 50 deg")
    turn_palm(xr, "dominant", 180.0)
    hidden = assert_hidden(xr, "with the dominant palm turned down")
    hand = xr.hand("non_dominant")
    # where each button was last shown, and where the hidden button is now (if it still has geometry)
    places = [(tag, last["centre"][tag], "was last shown") for tag in BUTTONS]
    places += [(tag, hidden["centre"][tag], "is, hidden") for tag in BUTTONS if tag in hidden["centre"]]
    for tag, c, where in places:
        hand.move_hand((c[0], c[1] + 0.09, c[2]), anchor="fingertip")
        hand.move_hand(c, anchor="fingertip", speed=0.24)
        xr.step(20)
        assert_cube(
            xr, HEX[GREEN], f"after the fingertip entered where the {NAME[tag]} button {where}, the menu hidden"
        )
        hand.move_hand((c[0], c[1] + 0.09, c[2]), anchor="fingertip", speed=0.24)
    assert_hidden(xr, "after the pokes at the hidden menu")
    hand.rest()
    turn_palm(xr, "dominant", 0.0, at=spot(xr, "dominant"))
    poke(xr, "non_dominant", RED, before=HEX[GREEN], after=HEX[RED], owner="dominant")
    assert_no_errors(xr)
