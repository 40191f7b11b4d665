"""Placed objects stand upright on the surface, rest on it and face the user (held-out tests).

The app (the task's own `workspace/`) calls `xb.world.placeOnHorizontalSurface(vase)` on every
pinch. The vase (tag `vase`, state: placed, attempts, busy) has its origin at the bottom, +Y up and
a label on its front (+Z); it waits at (0.35, 1.0, -0.5). Tests add objects of their own with
`xr.probe` (a box with its origin at its centre, an obstacle, a sloping desk plane) on the
three.js and XR Blocks the harness captured.

The living room's detected planes: the floor (y = 0, x in [-3, 3], z in [-4, 2]), a 1.2 x 0.8 m
table top at y = 0.75 centred on (0, 0.75, -1.5), a couch seat (y = 0.44, z = -3.45) and four
walls; all level planes have the identity orientation (local +Y up). The user's eyes start at
(0, 1.5, 0), looking down -Z at the table. The kitchen (one test) has two 'table' planes at
y = 0.94: an island (1.7 x 0.9 m, centred on (0, 0.94, -1.4)) and a counter along the back wall
(4.2 x 0.62 m, centred on (-0.4, 0.94, -3.19)).
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_distance, assert_no_errors, assert_resting_on, assert_state

UP_TOL = 2.0  # degrees between the object's +Y and the surface normal
FRONT_TOL = 5.0  # degrees between the object's +Z and the direction to the head, along the surface
TURN = 720.0  # head turn speed for look_at (degrees/s)

# The room's level planes as the simulator reports them (position; identity orientation).
pytestmark = pytest.mark.xr_scenes("living_room")  # the tests' coordinates are the living room's

ROOM_PLANES = {
    "floor": (0.0, 0.0, -1.0),
    "table": (0.0, 0.75, -1.5),
    "couch": (0.0, 0.44, -3.45),
}


def rotate(q, v):
    """Rotate `v` by the unit quaternion `q` = (x, y, z, w)."""
    x, y, z, w = q
    tx, ty, tz = 2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])
    return (
        v[0] + w * tx + (y * tz - z * ty),
        v[1] + w * ty + (z * tx - x * tz),
        v[2] + w * tz + (x * ty - y * tx),
    )


def _dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _angle(a, b):
    na, nb = math.sqrt(_dot(a, a)), math.sqrt(_dot(b, b))
    if na < 1e-9 or nb < 1e-9:
        return 180.0
    return math.degrees(math.acos(max(-1.0, min(1.0, _dot(a, b) / (na * nb)))))


def _r(v):
    return tuple(round(c, 3) for c in v)


@pytest.fixture
def app(xr):
    xr.step(1)
    xr.wait(500)  # plane detection
    return xr


def place(app, attempt: int) -> None:
    app.hand("dominant").click()
    app.wait(300)
    assert_state(app, "vase", placed=True, attempts=attempt, busy=False)


def stand(app, eyes, look_at) -> None:
    app.head.teleport_to(eyes)
    app.head.look_at(look_at, speed=TURN)


def assert_upright_facing_the_user(app, tag: str, where: str, normal=(0.0, 1.0, 0.0)) -> None:
    """+Y along the surface `normal`; +Z towards the head, along the surface."""
    __tracebackhide__ = True
    node = app.find_by_tag(tag)
    up = rotate(node.quaternion, (0.0, 1.0, 0.0))
    a = _angle(up, normal)
    assert a <= UP_TOL, (
        f"expected the {tag} {where} upright: its local +Y along the surface normal {_r(normal)} (within {UP_TOL} "
        f"deg); observed its +Y along {_r(up)}, {a:.1f} deg off"
    )
    head = app.head.position
    to_head = tuple(h - p for h, p in zip(head, node.position, strict=True))
    k = _dot(to_head, normal) / _dot(normal, normal)
    along = tuple(t - k * n for t, n in zip(to_head, normal, strict=True))
    front = rotate(node.quaternion, (0.0, 0.0, 1.0))
    a = _angle(front, along)
    assert a <= FRONT_TOL, (
        f"expected the {tag} {where} to turn its front (local +Z) towards the user (head at {_r(head)}), along the "
        f"surface: {_r(along)} (within {FRONT_TOL} deg); observed its front along {_r(front)}, {a:.1f} deg off"
    )


# --- probes --------------------------------------------------------------------------------------

# A box of the test's own, its origin at its centre, turned and parked beside the user; the probe
# starts `xb.world.placeOnHorizontalSurface` on it and records the result in the box's tag state.
_BOX_JS = """
(h, a) => {
  const T = h.THREE;
  let box = null;
  h.core.scene.traverse((o) => { if (o.userData?.xrblocksDevtools?.tag === 'test-box') box = o; });
  if (!box) {
    box = new T.Mesh(new T.BoxGeometry(a.size[0], a.size[1], a.size[2]),
                     new T.MeshStandardMaterial({color: 0xcc5533}));
    box.userData.xrblocksDevtools = {tag: 'test-box', state: {calls: 0, placed: null}};
    h.core.scene.add(box);
  }
  const state = box.userData.xrblocksDevtools.state;
  box.position.fromArray(a.at);
  box.rotation.set(a.euler[0], a.euler[1], a.euler[2]);
  box.updateMatrixWorld(true);
  state.calls += 1;
  state.placed = null;
  const call = state.calls;
  h.xb.world.placeOnHorizontalSurface(box, {milliseconds: 1000}).then(
    (r) => { if (state.calls === call) state.placed = r === true ? true : String(r); },
    (e) => { if (state.calls === call) state.placed = 'error: ' + String(e); });
  return call;
}
"""

# A visible obstacle: a box mesh inside a group (not a direct child of the scene), standing at `at`.
_OBSTACLE_JS = """
(h, a) => {
  const T = h.THREE;
  const group = new T.Group();
  const mesh = new T.Mesh(new T.BoxGeometry(a.size, a.size, a.size),
                          new T.MeshStandardMaterial({color: 0x888888}));
  mesh.position.fromArray(a.at);
  mesh.userData.xrblocksDevtools = {tag: 'obstacle', state: {}};
  group.add(mesh);
  h.core.scene.add(group);
  group.updateMatrixWorld(true);
  return true;
}
"""

# A sloping desk top found by plane detection (reported as horizontal), as the simulator reports planes.
_DESK_JS = """
(h, a) => {
  const T = h.THREE;
  const detector = h.core.world.planes;
  const hw = a.half[0], hd = a.half[1];
  detector._addSimulatorPlaneMesh({
    type: 'horizontal', label: 'desk', area: 4 * hw * hd,
    position: new T.Vector3().fromArray(a.at),
    quaternion: new T.Quaternion().setFromEuler(new T.Euler(a.euler[0], a.euler[1], a.euler[2])),
    polygon: [new T.Vector2(-hw, -hd), new T.Vector2(hw, -hd), new T.Vector2(hw, hd), new T.Vector2(-hw, hd)],
  });
  return detector.get().length;
}
"""


# The plane objects `xb.world.planes` reports (the SDK's own, which the candidate's sources build),
# not the harness's record of what detection handed over: their world pose and their mesh's world box.
_PLANE_OBJECTS_JS = """
(h) => h.core.world.planes.get().map((p) => {
  const T = h.THREE;
  p.updateMatrixWorld(true);
  const position = new T.Vector3(), quaternion = new T.Quaternion(), scale = new T.Vector3();
  p.matrixWorld.decompose(position, quaternion, scale);
  const box = new T.Box3().setFromObject(p);
  return {label: p.label, orientation: p.orientation, position: position.toArray(),
          quaternion: quaternion.toArray(), bbox: [box.min.toArray(), box.max.toArray()]};
})
"""


def place_box(app, at, euler, size=(0.16, 0.10, 0.12)) -> None:
    app.probe(_BOX_JS, {"at": list(at), "euler": list(euler), "size": list(size)})
    app.wait(300)
    state = app.find_by_tag("test-box").state
    assert state.get("placed") is True, (
        f"expected placeOnHorizontalSurface(box) to place the box and return true; observed {state.get('placed')!r}"
    )


# --- tests ---------------------------------------------------------------------------------------


@pytest.mark.fail_to_pass
def test_the_vase_stands_upright_on_the_table_facing_the_user_from_every_side(app):
    place(app, 1)
    assert_resting_on(app, "vase", "table")
    assert_upright_facing_the_user(app, "vase", "placed from the start")
    assert_distance(app, app.head, "vase", at_most=3.0)
    # Walk around the table and place it again from each side (the front turns to the user anew).
    sides = [
        ("from the table's right end", (1.1, 1.5, -1.0)),
        ("from beyond the table, looking back", (0.3, 1.5, -2.6)),
        ("from the table's left end", (-1.3, 1.5, -1.7)),
    ]
    for n, (where, eyes) in enumerate(sides, start=2):
        stand(app, eyes, (0.0, 0.75, -1.5))
        place(app, n)
        assert_resting_on(app, "vase", "table")
        assert_upright_facing_the_user(app, "vase", f"placed {where}")
    assert_no_errors(app)


@pytest.mark.fail_to_pass
def test_looking_at_the_floor_beside_the_table_or_crouching_the_vase_still_faces_the_user(app):
    # The user looks down at the floor to the left of the table: the table (in front, within reach)
    # still wins, at a spot about 40 degrees right of where the user looks.
    stand(app, (0.0, 1.5, 0.0), (-1.5, 0.0, -0.6))
    place(app, 1)
    assert_resting_on(app, "vase", "table")
    assert_upright_facing_the_user(app, "vase", "placed while the user looks at the floor beside the table")
    # The user crouches beside the table (eyes 0.95 m high) and looks down at it.
    stand(app, (0.8, 0.95, -0.9), (0.2, 0.75, -1.4))
    place(app, 2)
    assert_resting_on(app, "vase", "table")
    assert_upright_facing_the_user(app, "vase", "placed while the user crouches beside the table")
    assert_no_errors(app)


@pytest.mark.fail_to_pass
def test_an_object_turned_before_with_its_origin_at_its_centre_rests_upright_facing_the_user(app):
    # A 16 x 10 x 12 cm box, its origin at its centre, tumbled before the call.
    place_box(app, (-0.4, 1.2, -0.6), (0.5, 0.9, 0.3))
    box = app.find_by_tag("test-box")
    assert_resting_on(app, box, "table", tol=0.01)
    assert_upright_facing_the_user(app, "test-box", "placed from the start")
    # Tumbled again, placed again by a crouching user at the table's right end.
    stand(app, (1.0, 1.0, -1.3), (0.0, 0.75, -1.5))
    place_box(app, (0.6, 1.1, -0.4), (-0.7, 2.0, 1.1))
    box = app.find_by_tag("test-box")
    assert_resting_on(app, box, "table", tol=0.01)
    assert_upright_facing_the_user(app, "test-box", "placed again from the table's right end")
    assert_no_errors(app)


@pytest.mark.fail_to_pass
def test_on_a_sloping_desk_the_vase_stands_perpendicular_to_it(app):
    # A desk top sloping 10 degrees towards the user (reported as horizontal) to the user's right;
    # the table is behind the user.
    desk_at, euler = (2.0, 0.8, 0.3), (0.0, 0.0, math.radians(10.0))
    app.probe(_DESK_JS, {"at": list(desk_at), "euler": list(euler), "half": [0.4, 0.3]})
    app.step(1)
    desks = app.planes("desk")
    assert len(desks) == 1, "expected the sloping desk among the detected planes"
    normal = rotate(desks[0].quaternion, (0.0, 1.0, 0.0))
    assert _angle(normal, (0.0, 1.0, 0.0)) == pytest.approx(10.0, abs=0.5), f"desk normal {_r(normal)}"
    stand(app, (1.0, 1.5, 0.3), desk_at)
    place(app, 1)
    vase = app.find_by_tag("vase")
    offset = tuple(p - d for p, d in zip(vase.position, desks[0].position, strict=True))
    height = _dot(offset, normal)
    assert abs(height) <= 0.03, (
        f"expected the vase resting on the sloping desk (its bottom within 3 cm of the desk's surface); observed "
        f"its origin {height:.3f} m from the desk's plane"
    )
    along = tuple(o - height * n for o, n in zip(offset, normal, strict=True))
    assert abs(along[0]) <= 0.45 and abs(along[2]) <= 0.35, f"expected the vase on the desk; observed {_r(offset)}"
    assert_upright_facing_the_user(app, "vase", "placed on the sloping desk", normal=normal)
    assert_no_errors(app)


@pytest.mark.xr_scenes("kitchen")
@pytest.mark.fail_to_pass
def test_in_the_kitchen_the_vase_stands_on_the_island_or_the_counter_in_front_facing_the_user(app):
    def on(where: str) -> None:
        assert_resting_on(app, "vase", "table")
        z = app.find_by_tag("vase").position[2]
        ok = z > -1.9 if where == "island" else z < -2.85
        assert ok, f"expected the vase on the kitchen's {where}; observed it at z = {z:.2f}"

    place(app, 1)  # the island is 1.4 m in front of the user
    on("island")
    assert_upright_facing_the_user(app, "vase", "placed on the kitchen island")
    stand(app, (-1.4, 1.5, -1.1), (0.0, 0.94, -1.4))
    place(app, 2)
    on("island")
    assert_upright_facing_the_user(app, "vase", "placed from the island's left end")
    # Between the island and the counter, facing the counter: the island is behind the user.
    stand(app, (0.3, 1.5, -2.3), (0.3, 0.94, -3.19))
    place(app, 3)
    on("counter")
    assert_upright_facing_the_user(app, "vase", "placed on the counter, the island behind the user")
    assert_no_errors(app)


@pytest.mark.pass_to_pass
def test_spots_behind_the_user_or_out_of_reach_are_not_used(app):
    # The user stands between the table and the room's back, looking away from the table.
    stand(app, (0.0, 1.5, -0.3), (0.0, 0.0, 1.2))
    place(app, 1)
    assert_resting_on(app, "vase", "floor")
    head, vase = app.head.position, app.find_by_tag("vase").position
    forward = app.camera_pose().forward
    assert (vase[0] - head[0]) * forward[0] + (vase[2] - head[2]) * forward[2] > 0.3, (
        f"expected the vase placed in front of the user (who looks along {_r(forward)} from {_r(head)}), not on the "
        f"table behind; observed it at {_r(vase)}"
    )
    # From the room's far corner the nearest table spot is 3.5 m from the eyes: out of reach.
    stand(app, (-2.8, 1.5, 1.5), (0.0, 0.75, -1.5))
    place(app, 2)
    assert_resting_on(app, "vase", "floor")
    assert_distance(app, app.head, "vase", at_most=3.0)
    assert_no_errors(app)


@pytest.mark.pass_to_pass
def test_the_placed_vase_does_not_overlap_other_objects(app):
    place(app, 1)
    assert_resting_on(app, "vase", "table")
    first = app.find_by_tag("vase").position
    # A 26 cm block (inside a group) now stands on the table where the vase was.
    app.probe(_OBSTACLE_JS, {"at": [first[0], 0.75 + 0.13, first[2]], "size": 0.26})
    place(app, 2)
    assert_resting_on(app, "vase", "table")
    (vlo, vhi), (olo, ohi) = app.find_by_tag("vase").bbox, app.find_by_tag("obstacle").bbox
    overlap = [min(vhi[i], ohi[i]) - max(vlo[i], olo[i]) for i in range(3)]
    assert min(overlap) <= 0.0, (
        f"expected the vase placed clear of the block on the table (bbox {_r(olo)}..{_r(ohi)}); observed its bbox "
        f"{_r(vlo)}..{_r(vhi)} overlapping it by {_r(overlap)} m"
    )
    assert_no_errors(app)


@pytest.mark.pass_to_pass
def test_plane_detection_reports_the_room_unchanged(app):
    place(app, 1)
    room = {p.label: p for p in app.planes()}  # what detection reported, recorded by the harness
    planes = app.probe(_PLANE_OBJECTS_JS)
    labels = [p["label"] for p in planes]
    for label, position in ROOM_PLANES.items():
        found = [p for p in planes if p["label"] == label]
        assert len(found) == 1, f"expected xb.world.planes to report one '{label}' plane; observed labels {labels}"
        p = found[0]
        assert p["orientation"] == "horizontal", (
            f"expected the {label} plane reported as horizontal; observed {p['orientation']!r}"
        )
        assert p["position"] == pytest.approx(position, abs=1e-3), (
            f"expected the {label} plane at {position}; observed {_r(p['position'])}"
        )
        dot = abs(sum(a * b for a, b in zip(p["quaternion"], (0.0, 0.0, 0.0, 1.0), strict=True)))
        assert dot >= 1 - 1e-6, (
            f"expected the level {label} plane reported with its local +Y straight up (identity orientation); "
            f"observed quaternion {_r(p['quaternion'])}"
        )
        lo, hi = room[label].bbox
        assert p["bbox"][0] == pytest.approx(lo, abs=1e-3) and p["bbox"][1] == pytest.approx(hi, abs=1e-3), (
            f"expected the {label} plane's surface to cover {_r(lo)}..{_r(hi)} as detected; observed "
            f"{_r(p['bbox'][0])}..{_r(p['bbox'][1])}"
        )
    walls = [p for p in planes if p["label"] == "wall"]
    assert len(walls) == 4, f"expected four walls; observed labels {labels}"
    for wall in walls:
        normal = rotate(wall["quaternion"], (0.0, 1.0, 0.0))
        assert abs(normal[1]) <= 1e-3, f"expected a wall's normal horizontal; observed {_r(normal)}"
    assert_no_errors(app)
