"""Runtime tests of the fist-gesture menu.

One probe reads, in a frame, whether the menu panel and each button are shown (the object and all
its ancestors visible, in the scene), the menu's `state`, and the shapes: the panel's own geometry
(its centre in the world, its local axes, its size along them) and each button's box in the
panel's frame. Fists are XR Blocks' simulator pose, recognised by XR Blocks' own recogniser; every
fist is checked to be one `gesturestart` of it. The tests check that
- the cylinder is gone; the menu starts closed (panel and buttons hidden, `open` false, `choice`
  null) and stays closed for a second of hands moving and resting; once opened, the panel is
  0.3 x 0.2 m (within 5 cm / 4 cm), at most 3 cm thick, with "A" left of "B" on its front, side by
  side, each 6-8 cm across (within 1 cm), inside the panel's outline;
- every fist toggles the menu within three frames of the recogniser's `gesturestart` for it,
  while the hand is still closed (read frame by frame until it toggles), and nothing changes
  again while the fist is held nor when the hand opens (read every third frame, so a flicker at
  the recogniser's rate shows); held for over two seconds, a fist toggles once; a fist of the other
  hand closes the menu, and either hand opens and closes it again; `state.open` equals the menu
  being shown at every reading, buttons included (the other tests read each fist frame by frame
  until it toggles, then once at the end of the hold and once after the hand opened);
- open, pinching, pointing and thumbs-up hands and fingers curled 45 or 75 degrees (which the
  recogniser does not call a fist) leave a closed menu closed and an open menu open;
- the menu opens 0.45 m (within 0.09 m) ahead of the eyes along the horizontal heading, within
  8 cm of that line sideways and 0.2 m (within 5 cm) below eye height, upright (local +Y within
  10 degrees of up) and facing the head (front within 15 degrees horizontally), at the start, while
  looking down 30 degrees, after walking to another spot and turning while looking up, and
  crouched and turned while looking down (the hands are held level, as XR Blocks' recogniser
  misses a fist whose thumb points up or down);
- an open menu stays in the room (within 5 mm and 2 degrees) while the user turns and looks down,
  walks 1.5 m, turns round and crouches;
- pokes (the fingertip pushed in along the panel's normal) and ray selections (the hand's ray
  aimed at the button, a pinch) by both hands set `choice` to the button pressed (within 4 frames
  of the fingertip reaching the button's centre; at the end of the pinch): pokes A, B, A, B with
  the hands crossed, so a choice that follows the hand or alternates fails, then rays; a ray
  selection of "B" works while the other hand's fingertip stays in "A"; the menu stays open and in
  place throughout;
- once the menu is closed, a poke and a ray selection where "B" was leave `choice` 'A' and the
  menu closed; reopened, it still says 'A', and "B" then works.

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

MENU, BUTTON_A, BUTTON_B = "gesture-menu", "menu-button-a", "menu-button-b"
TAGS = (MENU, BUTTON_A, BUTTON_B)
LABEL = {BUTTON_A: "A", BUTTON_B: "B"}

AHEAD, AHEAD_TOL = 0.45, 0.09  # metres in front of the eyes along the heading
SIDEWAYS_TOL = 0.08  # metres off that line to either side
BELOW, BELOW_TOL = 0.2, 0.05  # metres under eye height
UPRIGHT_TOL = 10.0  # degrees between the panel's local +Y and up
FACING_TOL = 15.0  # degrees between the panel's front and the direction to the head, horizontally
PANEL_SIZE, PANEL_TOL = (0.3, 0.2), (0.05, 0.04)
PANEL_THICK = 0.03
BUTTON_MIN, BUTTON_MAX = 0.05, 0.09  # "6-8 cm", within 1 cm
STILL_POS, STILL_DEG = 0.005, 2.0
TOGGLE_LATE = 3  # frames a toggle may come after the recogniser's gesturestart
PRESS_LATE = 4  # frames a choice may come after the fingertip reached the button
SAMPLE = 3  # frames between readings once the menu toggled
RELEASE = 24  # frames watched after the hand opens

Vec = tuple[float, float, float]

# Whether each tagged object is shown, the menu's state, and the shapes in the panel's frame.
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
  const worldPoints = (o, skip) => {
    const pts = [];
    const add = (m) => {
      const g = m.geometry;
      const pos = g && g.attributes && g.attributes.position;
      if (!pos || m.isInstancedMesh) return;
      const v = new THREE.Vector3();
      for (let i = 0; i < pos.count; i++) pts.push(v.fromBufferAttribute(pos, i).applyMatrix4(m.matrixWorld).clone());
    };
    add(o);
    if (!pts.length) o.traverse((m) => { if (m !== o && !skip.includes(m)) add(m); });
    return pts;
  };
  const out = {found: Object.keys(found), shown: {}, state: null, shape: null};
  for (const tag of tags) out.shown[tag] = found[tag] ? shown(found[tag]) : false;
  const menu = found[tags[0]];
  if (!menu) return out;
  const d = menu.userData.xrblocksDevtools;
  const s = d.state && typeof d.state === 'object' ? d.state : {};
  const field = (k) => (s[k] === undefined ? '<missing>' : s[k]);
  out.state = {open: field('open'), choice: field('choice')};
  const pos = new THREE.Vector3(), quat = new THREE.Quaternion(), scl = new THREE.Vector3();
  menu.matrixWorld.decompose(pos, quat, scl);
  const inv = new THREE.Matrix4().compose(pos, quat, new THREE.Vector3(1, 1, 1)).invert();
  const boxIn = (pts) => {
    if (!pts.length) return null;
    const b = new THREE.Box3();
    for (const p of pts) b.expandByPoint(p.clone().applyMatrix4(inv));
    return {min: b.min.toArray(), max: b.max.toArray()};
  };
  const buttons = tags.slice(1).map((t) => found[t]).filter(Boolean);
  const panelPts = worldPoints(menu, buttons);
  const panel = boxIn(panelPts);
  let centre = null;
  if (panel) {
    const c = new THREE.Vector3(...panel.min).add(new THREE.Vector3(...panel.max)).multiplyScalar(0.5);
    centre = c.applyMatrix4(new THREE.Matrix4().compose(pos, quat, new THREE.Vector3(1, 1, 1))).toArray();
  }
  const axis = (x, y, z) => new THREE.Vector3(x, y, z).applyQuaternion(quat).toArray();
  out.shape = {panel, centre, x: axis(1, 0, 0), y: axis(0, 1, 0), z: axis(0, 0, 1), buttons: {}};
  for (const tag of tags.slice(1)) {
    if (!found[tag]) continue;
    const bp = boxIn(worldPoints(found[tag], []));
    if (!bp) { out.shape.buttons[tag] = null; continue; }
    const c = new THREE.Vector3(...bp.min).add(new THREE.Vector3(...bp.max)).multiplyScalar(0.5);
    bp.world = c.applyMatrix4(new THREE.Matrix4().compose(pos, quat, new THREE.Vector3(1, 1, 1))).toArray();
    out.shape.buttons[tag] = bp;
  }
  return out;
}
"""


def _fmt(p: Sequence[float]) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


def _dot(a: Sequence[float], b: Sequence[float]) -> float:
    return sum(a[i] * b[i] for i in range(3))


def read(xr) -> dict[str, Any]:
    r = xr.probe(_READ_JS, list(TAGS))
    missing = [t for t in TAGS if t not in r["found"]]
    if missing:
        raise AssertionError(f"no object tagged {', '.join(repr(t) for t in missing)} in the scene")
    r["frame"] = xr.frame
    return r


def assert_consistent(r: dict[str, Any], when: str) -> None:
    """`state.open` says whether the menu is shown, and the buttons are shown exactly with it."""
    __tracebackhide__ = True
    shown = r["shown"]
    assert r["state"]["open"] is shown[MENU], (
        f"{when} (frame {r['frame']}): the menu is {'shown' if shown[MENU] else 'hidden'} but its state.open is "
        f"{r['state']['open']!r}"
    )
    for tag in (BUTTON_A, BUTTON_B):
        assert shown[tag] is shown[MENU], (
            f"{when} (frame {r['frame']}): the menu is {'shown' if shown[MENU] else 'hidden'} but {tag!r} is "
            f"{'shown' if shown[tag] else 'hidden'}"
        )


def assert_menu(xr, *, open: bool, choice: Any = ..., when: str, r: dict | None = None) -> dict[str, Any]:
    __tracebackhide__ = True
    r = r or read(xr)
    assert r["shown"][MENU] is open and r["state"]["open"] is open, (
        f"{when}: expected the menu {'open (shown)' if open else 'closed (hidden)'}; observed it "
        f"{'shown' if r['shown'][MENU] else 'hidden'} with state.open {r['state']['open']!r}"
    )
    assert_consistent(r, when)
    if choice is not ...:
        assert r["state"]["choice"] == choice, (
            f"{when}: expected the menu's state.choice {choice!r}; observed {r['state']['choice']!r}"
        )
    return r


def fist(xr, role: str, *, hold: int = 36, when: str = "", watch: bool = False) -> dict[str, Any]:
    """Make a fist with `role`'s hand, hold it `hold` frames, open the hand; check one toggle, on time.

    Reads the menu every frame until it toggles: it must toggle within TOGGLE_LATE frames of the
    recogniser's `gesturestart` ('fist') for that hand, while the hand is closed; then it must not
    change again while the fist is held nor when the hand opens (with `watch`, read every SAMPLE
    frames, odd so that a flicker at the recogniser's rate shows; else at the end of each). Returns
    the reading of the frame it toggled.
    """
    __tracebackhide__ = True
    what = when or f"a fist of the {role} ({xr.handedness(role)}) hand"
    hand = xr.hand(role)
    before = read(xr)
    was = before["shown"][MENU]
    assert_consistent(before, f"before {what}")
    start = xr.frame
    hand.set_pose("fist", frames=1)
    first = read(xr)
    while first["shown"][MENU] is was and xr.frame - start < hold:
        assert_consistent(first, what)
        xr.step(1)
        first = read(xr)
    assert_consistent(first, what)
    starts = xr.events("gesture_start", hand=role, name="fist", since_frame=start)
    assert starts, f"{what}: harness: the recogniser reported no fist ({[str(e) for e in xr.events()][-6:]})"
    recognised = starts[0].frame
    assert first["shown"][MENU] is not was, (
        f"{what}: expected the menu to {'close' if was else 'open'} when the fist was made (the recogniser saw "
        f"it at frame {recognised}); it stayed {'shown' if was else 'hidden'} for the {hold} frames the fist was held"
    )
    assert first["frame"] - recognised <= TOGGLE_LATE, (
        f"{what}: expected the menu to {'close' if was else 'open'} when the fist was made (frame {recognised}); "
        f"it did {first['frame'] - recognised} frames later"
    )

    def unchanged(phase: str) -> None:
        __tracebackhide__ = True
        s = read(xr)
        assert_consistent(s, f"{what}, {phase}")
        assert s["shown"][MENU] is not was, (
            f"{what}: expected one toggle; the menu turned back {'shown' if was else 'hidden'} {phase}, at frame "
            f"{s['frame']}, {s['frame'] - first['frame']} frames after it toggled"
        )

    every = SAMPLE if watch else hold
    while xr.frame - start < hold:
        xr.step(min(every, hold - (xr.frame - start)))
        unchanged("while the fist was held")
    hand.set_pose("relaxed", frames=1)
    every = SAMPLE if watch else RELEASE
    for _ in range(RELEASE // every):
        xr.step(every)
        unchanged("when the hand opened again")
    seen = xr.events("gesture_start", hand=role, name="fist", since_frame=start)
    assert len(seen) == 1, f"harness: expected the recogniser to see one fist in {what}; it saw {len(seen)}"
    return first


def level_hands(xr) -> None:
    """Aim both hands level along the heading: XR Blocks' recogniser misses a fist whose thumb points
    up or down, as it does when the hands turn with a head that looks down or up."""
    fx, _, fz = xr.head.pose.forward
    n = math.hypot(fx, fz)
    for role in ("dominant", "non_dominant"):
        hand = xr.hand(role)
        p = hand.position
        hand.point_to((p[0] + 2 * fx / n, p[1], p[2] + 2 * fz / n))


def check_placement(xr, r: dict[str, Any], head, when: str) -> None:
    """The menu in `r` is where the instruction puts it for a head at `head` (a Pose)."""
    __tracebackhide__ = True
    shape = r["shape"]
    assert shape and shape["centre"], f"{when}: the tagged menu panel has no geometry"
    eye = head.position
    fx, _, fz = head.forward
    n = math.hypot(fx, fz)
    heading = (fx / n, 0.0, fz / n)
    right = (-heading[2], 0.0, heading[0])
    d = tuple(shape["centre"][i] - eye[i] for i in range(3))
    ahead, side, dy = _dot(d, heading), _dot(d, right), d[1]
    where = f"menu centre {_fmt(shape['centre'])}, eyes {_fmt(eye)}, heading {_fmt(heading)}"
    assert abs(ahead - AHEAD) <= AHEAD_TOL, (
        f"{when}: expected the menu {AHEAD} m ahead of the eyes along the heading (within {AHEAD_TOL}); observed "
        f"{ahead:.3f} m ({where})"
    )
    assert abs(side) <= SIDEWAYS_TOL, (
        f"{when}: expected the menu straight ahead along the heading (within {SIDEWAYS_TOL} m to either side); "
        f"observed {side:+.3f} m to the right ({where})"
    )
    assert abs(dy + BELOW) <= BELOW_TOL, (
        f"{when}: expected the menu's centre {BELOW} m below eye height (within {BELOW_TOL}); observed "
        f"{-dy:+.3f} m below ({where})"
    )
    up = math.degrees(math.acos(max(-1.0, min(1.0, shape["y"][1]))))
    assert up <= UPRIGHT_TOL, (
        f"{when}: expected the menu upright (its local +Y within {UPRIGHT_TOL} deg of up); observed "
        f"{up:.1f} deg (local +Y {_fmt(shape['y'])})"
    )
    front = shape["z"]
    to_head = (eye[0] - shape["centre"][0], eye[2] - shape["centre"][2])
    yaw = math.degrees(
        abs(math.atan2(front[0] * to_head[1] - front[2] * to_head[0], front[0] * to_head[0] + front[2] * to_head[1]))
    )
    assert math.hypot(front[0], front[2]) > 0.5 and yaw <= FACING_TOL, (
        f"{when}: expected the menu's front (local +Z) turned towards the head (within {FACING_TOL} deg "
        f"horizontally); observed front {_fmt(front)}, {yaw:.0f} deg off the direction to the head"
    )


def check_shape(r: dict[str, Any], when: str) -> None:
    __tracebackhide__ = True
    shape = r["shape"]
    panel = shape["panel"] if shape else None
    assert panel, f"{when}: the tagged menu panel has no geometry of its own"
    size = [panel["max"][i] - panel["min"][i] for i in range(3)]
    for i in (0, 1):
        assert abs(size[i] - PANEL_SIZE[i]) <= PANEL_TOL[i], (
            f"{when}: expected the panel {PANEL_SIZE[0]} m wide and {PANEL_SIZE[1]} m high along its local x and y "
            f"(within {PANEL_TOL} m); observed {size[0]:.3f} x {size[1]:.3f} m"
        )
    assert size[2] <= PANEL_THICK, (
        f"{when}: expected a flat panel at most {PANEL_THICK} m thick; observed {size[2]:.3f}"
    )
    centres = {}
    for tag in (BUTTON_A, BUTTON_B):
        b = shape["buttons"].get(tag)
        assert b, f"{when}: the button tagged {tag!r} has no geometry"
        bs = [b["max"][i] - b["min"][i] for i in range(3)]
        bc = [(b["max"][i] + b["min"][i]) / 2 for i in range(3)]
        centres[tag] = bc
        assert all(BUTTON_MIN <= bs[i] <= BUTTON_MAX for i in (0, 1)), (
            f"{when}: expected button {LABEL[tag]} 6-8 cm wide and high; observed {bs[0]:.3f} x {bs[1]:.3f} m"
        )
        pc = [(panel["max"][i] + panel["min"][i]) / 2 for i in range(3)]
        assert bc[2] > pc[2] and b["max"][2] >= panel["max"][2] - 0.001, (
            f"{when}: expected button {LABEL[tag]} on the panel's front (its local +Z side); observed the button "
            f"{bc[2] - pc[2]:+.3f} m from the panel's middle along its normal, its front at {b['max'][2]:.3f} and the "
            f"panel's at {panel['max'][2]:.3f}"
        )
        for i, axis in enumerate("xy"):
            assert b["min"][i] >= panel["min"][i] - 0.005 and b["max"][i] <= panel["max"][i] + 0.005, (
                f"{when}: expected button {LABEL[tag]} on the panel, inside its outline; along the panel's {axis} it "
                f"spans {b['min'][i]:.3f}..{b['max'][i]:.3f}, the panel {panel['min'][i]:.3f}..{panel['max'][i]:.3f}"
            )
    a, b = shape["buttons"][BUTTON_A], shape["buttons"][BUTTON_B]
    assert a["max"][0] <= b["min"][0] + 0.002 and abs(centres[BUTTON_A][1] - centres[BUTTON_B][1]) <= 0.02, (
        f'{when}: expected "A" left of "B" as the user sees them, side by side (along the panel\'s x, level); '
        f"observed A at {_fmt(centres[BUTTON_A])} and B at {_fmt(centres[BUTTON_B])} in the panel's frame"
    )


def poke(xr, role: str, tag: str, *, expect: Any, when: str = "", stay: bool = False) -> dict[str, Any]:
    """Push `role`'s index fingertip into the button `tag` along the panel's normal; check the choice."""
    __tracebackhide__ = True
    what = when or f"a poke of {LABEL[tag]} with the {role} ({xr.handedness(role)}) fingertip"
    r = read(xr)
    centre, normal = r["shape"]["buttons"][tag]["world"], r["shape"]["z"]
    hand = xr.hand(role)
    hand.move_hand(tuple(centre[i] + 0.12 * normal[i] for i in range(3)), anchor="fingertip")
    hand.move_hand(tuple(centre[i] + 0.03 * normal[i] for i in range(3)), anchor="fingertip")
    hand.move_hand(centre, anchor="fingertip", speed=0.24)
    xr.step(PRESS_LATE)
    r = assert_menu(xr, open=True, choice=expect, when=what)
    if not stay:
        hand.move_hand(tuple(centre[i] + 0.12 * normal[i] for i in range(3)), anchor="fingertip")
        hand.rest()
    return r


def ray_select(xr, role: str, tag: str, *, expect: Any, when: str = "") -> dict[str, Any]:
    """Aim `role`'s hand ray at the button `tag` from 0.25 m in front of it and pinch; check the choice."""
    __tracebackhide__ = True
    what = when or f"a ray selection of {LABEL[tag]} by the {role} ({xr.handedness(role)}) hand"
    r = read(xr)
    centre, normal, x = r["shape"]["buttons"][tag]["world"], r["shape"]["z"], r["shape"]["x"]
    side = 0.12 if xr.handedness(role) == "right" else -0.12
    hand = xr.hand(role)
    hand.move_hand(tuple(centre[i] + 0.25 * normal[i] + side * x[i] - 0.05 * (i == 1) for i in range(3)))
    hand.point_to(tuple(centre))
    hand.click()
    r = assert_menu(xr, open=True, choice=expect, when=what)
    hand.rest()
    return r


def test_the_menu_is_built_as_stated_and_starts_closed(xr):
    xr.step(1)
    cylinders = [m for m in xr.drawn(("mesh",)) if "Cylinder" in m.geometry]
    assert not cylinders, f"expected the starting app's cylinder removed; observed visible cylinders {cylinders}"
    assert_menu(xr, open=False, choice=None, when="at start-up")
    for role in ("dominant", "non_dominant"):
        xr.hand(role).move_by((0.0, 0.05, -0.05))
        xr.hand(role).rest()
    xr.step(60)
    assert_menu(xr, open=False, choice=None, when="after a second with the hands at rest")
    opened = fist(xr, "dominant")
    check_shape(opened, "when the menu opened")
    xr.head.rotate(yaw=-40, pitch=-20)
    check_shape(read(xr), "after the user turned away from the open menu")
    assert_no_errors(xr)


def test_a_fist_of_either_hand_toggles_the_menu_once(xr):
    xr.step(1)
    fist(xr, "dominant", hold=130, watch=True)
    assert_menu(xr, open=True, choice=None, when="after a fist of the dominant hand")
    xr.step(30)
    assert_menu(xr, open=True, when="half a second after the fist")
    fist(xr, "non_dominant", hold=130, watch=True)
    assert_menu(xr, open=False, choice=None, when="after a fist of the non-dominant hand")
    xr.step(30)
    assert_menu(xr, open=False, when="half a second after the second fist")
    fist(xr, "non_dominant", hold=36, when="a second fist of the non-dominant hand")
    assert_menu(xr, open=True, when="after a second fist of the non-dominant hand")
    fist(xr, "dominant", hold=36, when="a second fist of the dominant hand")
    assert_menu(xr, open=False, when="after a second fist of the dominant hand")
    assert_no_errors(xr)


def _curl(degrees: float) -> dict[str, tuple[float, float, float]]:
    return {
        f"{finger}-finger-{bone}": (degrees, 0.0, 0.0)
        for finger in ("index", "middle", "ring", "pinky")
        for bone in ("phalanx-proximal", "phalanx-intermediate", "phalanx-distal")
    }


def _not_a_fist(xr, role: str, shape: str, *, open: bool) -> None:
    __tracebackhide__ = True
    hand = xr.hand(role)
    start = xr.frame
    if shape.startswith("curl "):
        hand.set_joint_rotations(_curl(float(shape.split()[1])), frames=30)
    else:
        hand.set_pose(shape, frames=30)
    what = f"a {shape!r} hand ({role}, {xr.handedness(role)})"
    assert_menu(xr, open=open, when=f"while holding {what}")
    hand.set_pose("relaxed", frames=24)
    assert_menu(xr, open=open, when=f"after {what}")
    seen = xr.events("gesture_start", name="fist", since_frame=start)
    assert not seen, f"harness: the recogniser saw a fist in {what}: {[str(e) for e in seen]}"


def test_other_hand_shapes_do_not_toggle_the_menu(xr):
    xr.step(1)
    for shape in ("neutral", "pinching", "pointing", "thumbs up", "curl 45", "curl 75"):
        _not_a_fist(xr, "dominant", shape, open=False)
    for shape in ("pinching", "thumbs up", "curl 75"):
        _not_a_fist(xr, "non_dominant", shape, open=False)
    fist(xr, "non_dominant")
    for role, shape in (("dominant", "thumbs up"), ("non_dominant", "pointing"), ("dominant", "curl 45")):
        _not_a_fist(xr, role, shape, open=True)
    assert_no_errors(xr)


def test_the_menu_opens_in_front_of_the_user_wherever_they_face(xr):
    xr.step(1)
    poses = [
        ("dominant", "at the start", lambda: None),
        ("non_dominant", "looking down 30 deg", lambda: xr.head.rotate(pitch=-30)),
        (
            "dominant",
            "after walking to (0.8, 1.5, 0.5), turning left 90 deg and looking up 25 deg",
            lambda: (xr.head.rotate(pitch=30), xr.head.walk([(0.8, 1.5, 0.5)]), xr.head.rotate(yaw=90, pitch=25)),
        ),
        (
            "non_dominant",
            "crouched 0.3 m, turned right 150 deg and looking down 15 deg",
            lambda: (
                xr.head.rotate(pitch=-25),
                xr.head.move((0.0, -0.3, 0.0), speed=0.5),
                xr.head.rotate(yaw=-150, pitch=-15),
            ),
        ),
    ]
    for role, when, move in poses:
        move()
        level_hands(xr)
        head = xr.head.pose
        opened = fist(xr, role, hold=36, when=f"a fist ({role} hand) {when}")
        check_placement(xr, opened, head, f"the menu opened {when}")
        check_placement(xr, read(xr), head, f"the menu opened {when}, after the hand opened")
        fist(xr, role, hold=36, when=f"a fist closing the menu {when}")
    assert_no_errors(xr)


def test_the_open_menu_stays_where_it_opened(xr):
    xr.step(1)
    head = xr.head.pose
    fist(xr, "dominant", hold=36)
    first = read(xr)
    check_placement(xr, first, head, "the menu opened at the start")
    moves = [
        ("turned left 60 deg and looked down 20 deg", lambda: xr.head.rotate(yaw=60, pitch=-20)),
        ("walked 1.5 m away", lambda: (xr.head.rotate(pitch=20), xr.head.walk([(1.0, 1.5, 0.6), (1.2, 1.5, 1.0)]))),
        ("turned round", lambda: xr.head.rotate(yaw=180)),
        ("crouched and looked down", lambda: (xr.head.move((0.0, -0.3, 0.0), speed=0.5), xr.head.rotate(pitch=-30))),
    ]
    for when, move in moves:
        move()
        xr.step(10)
        now = assert_menu(xr, open=True, when=f"after the user {when}")
        moved = math.dist(first["shape"]["centre"], now["shape"]["centre"])
        turned = max(
            math.degrees(math.acos(max(-1.0, min(1.0, _dot(first["shape"][k], now["shape"][k]))))) for k in "xyz"
        )
        assert moved <= STILL_POS and turned <= STILL_DEG, (
            f"expected the open menu to stay where it opened, in the room, after the user {when}; observed it "
            f"{moved:.3f} m away and turned {turned:.1f} deg (now at {_fmt(now['shape']['centre'])})"
        )
    assert_no_errors(xr)


def test_pokes_and_ray_selections_of_either_hand_set_the_choice(xr):
    xr.step(1)
    fist(xr, "dominant", hold=36)
    start = read(xr)
    assert_menu(xr, open=True, choice=None, when="after the menu opened", r=start)
    poke(xr, "dominant", BUTTON_A, expect="A")
    poke(xr, "non_dominant", BUTTON_B, expect="B")
    poke(xr, "non_dominant", BUTTON_A, expect="A")
    poke(xr, "dominant", BUTTON_B, expect="B")
    ray_select(xr, "non_dominant", BUTTON_A, expect="A")
    ray_select(xr, "dominant", BUTTON_B, expect="B")
    poke(xr, "dominant", BUTTON_A, expect="A", stay=True, when="a poke of A that stays in the button")
    ray_select(xr, "non_dominant", BUTTON_B, expect="B", when="a ray selection of B while the other hand is in A")
    xr.hand("dominant").rest()
    xr.step(30)
    end = assert_menu(xr, open=True, choice="B", when="half a second after the last press")
    moved = math.dist(start["shape"]["centre"], end["shape"]["centre"])
    assert moved <= STILL_POS, f"expected the menu to stay where it opened while pressed; it moved {moved:.3f} m"
    assert_no_errors(xr)


def test_a_closed_menus_buttons_do_nothing(xr):
    xr.step(1)
    fist(xr, "dominant", hold=36)
    poke(xr, "dominant", BUTTON_A, expect="A")
    last = read(xr)
    fist(xr, "non_dominant", hold=36)
    assert_menu(xr, open=False, choice="A", when="after the menu closed")
    centre, normal = last["shape"]["buttons"][BUTTON_B]["world"], last["shape"]["z"]
    hand = xr.hand("dominant")
    hand.move_hand(tuple(centre[i] + 0.12 * normal[i] for i in range(3)), anchor="fingertip")
    hand.move_hand(tuple(centre), anchor="fingertip", speed=0.24)
    xr.step(30)
    assert_menu(xr, open=False, choice="A", when="after a fingertip touched where B was on the closed menu")
    hand.move_hand(tuple(centre[i] + 0.25 * normal[i] + 0.1 * last["shape"]["x"][i] for i in range(3)))
    hand.point_to(tuple(centre))
    hand.click()
    xr.step(30)
    assert_menu(xr, open=False, choice="A", when="after a ray selection where B was on the closed menu")
    hand.rest()
    fist(xr, "non_dominant", hold=36)
    assert_menu(xr, open=True, choice="A", when="after the menu opened again")
    poke(xr, "non_dominant", BUTTON_B, expect="B", when="a poke of B once the menu opened again")
    assert_no_errors(xr)
