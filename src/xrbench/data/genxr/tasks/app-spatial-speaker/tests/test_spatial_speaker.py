"""Runtime tests of the speaker placed on the nearest detected table, which plays positional sound.

They check that
- in the living room (one table, 0.75 m high) the speaker appears within half a second of the
  start, already resting on the table (its bottom on the table top within 1 cm, its centre within
  5 cm of the table surface's centre horizontally); it is an upright box 0.15 x 0.2 x 0.15 m
  (each within 2 cm), the tagged object holds all of it and nothing else of the app is shown; it
  stays exactly where it is while the user crouches, looks down and walks round the table;
- in the kitchen (a 0.94 m island near the start, reported first, and a long counter along the
  far wall), the speaker rests on the island and stays there when the user walks over to the
  counter, which is then the nearest table;
- when plane detection reports its planes late (the harness withholds them at start-up and
  delivers them later), the speaker stays hidden until a table is known, and is then placed
  within half a second on the table nearest to the user's head at that moment, also when that
  table is not the first reported and the user crouches and looks at another table, and when
  the room's tables are delivered one after the other (it stays where it was placed when a nearer
  table is detected later); in a room without any table it is never shown;
- its sound is a THREE.PositionalAudio among the speaker's descendants, inside the speaker's
  box, whose listener rides on the user's camera, with a sound buffer made in code (no request
  for an audio file); it starts silent (no sound started, `isPlaying` and `state.playing` false);
- selecting the speaker with either hand's ray toggles the playback every time (`isPlaying`,
  `state.playing` and a sound started through Web Audio at each start), one toggle per pinch
  however long it is held, also after the user walked round to its side, while pinches aimed
  beside the speaker, at the table and at the floor change nothing.

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pytest

from xrbench.xrtest.assertions import assert_no_errors
from xrbench.xrtest.scenes import get_scene

SPEAKER = "speaker"
SIZE = (0.15, 0.2, 0.15)  # width, height, depth
SIZE_TOL = 0.02  # metres (13 % of the smallest side)
REST_TOL = 0.01  # the bottom on the table top, within 1 cm
CENTRE_TOL = 0.05  # the centre over the table surface's centre, within 5 cm
STILL_TOL = 0.003  # metres a placed speaker may move ("stays exactly where it is")
SOON = 30  # frames: half a second at 60 Hz

Vec = tuple[float, float, float]

pytestmark = pytest.mark.xr_scenes("living_room", "kitchen")


@dataclass(frozen=True)
class Table:
    """A table top of a scene's planes file: the centre of its surface."""

    name: str
    centre: Vec


def table_of(plane: dict[str, Any], name: str) -> Table:
    p = plane["position"]
    return Table(name, (p["x"], p["y"], p["z"]))


def living_room_table() -> Table:
    return table_of(
        next(p for p in get_scene("living_room").planes() if p["label"] == "table"), "the living-room table"
    )


def kitchen() -> tuple[list[dict[str, Any]], Table, Table]:
    """The kitchen's planes in their reported order, its island (reported first) and its counter."""
    planes = get_scene("kitchen").planes()
    tables = [p for p in planes if p["label"] == "table"]
    assert len(tables) == 2 and tables[0]["position"]["z"] > tables[1]["position"]["z"]
    return planes, table_of(tables[0], "the kitchen island"), table_of(tables[1], "the counter along the far wall")


def plane_of(planes: list[dict[str, Any]], table: Table) -> dict[str, Any]:
    return next(p for p in planes if (p["position"]["x"], p["position"]["y"], p["position"]["z"]) == table.centre)


def _fmt(p) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")"


# Every THREE.Audio in the scene and on the camera: positional or not, under the speaker or not,
# playing or not, with a buffer or not, and how far its listener is from the camera.
_AUDIO_JS = """
(h, tag) => {
  const THREE = h.THREE;
  const core = h.core;
  const camera = core.camera;
  camera.updateMatrixWorld(true);
  const head = camera.getWorldPosition(new THREE.Vector3());
  const found = new Map();
  const visit = (root) => root && h.guard(root, root.name || root.type).traverse((o) => {
    h.guard(o, o.name || o.type);
    if (o.type === 'PositionalAudio' || o.type === 'Audio') found.set(o.uuid, o);
  });
  visit(core.scene);
  visit(camera);
  const underTag = (o) => {
    for (let p = o; p; p = p.parent) {
      const d = p.userData && p.userData.xrblocksDevtools;
      if (d && String(d.tag) === tag) return true;
    }
    return false;
  };
  return [...found.values()].map((a) => {
    let listenerGap = null;
    if (a.listener) {
      a.listener.updateWorldMatrix(true, false);
      listenerGap = a.listener.getWorldPosition(new THREE.Vector3()).distanceTo(head);
    }
    return {
      type: a.type,
      positional: a.type === 'PositionalAudio' || !!a.panner,
      underSpeaker: underTag(a),
      playing: !!a.isPlaying,
      buffer: !!(a.buffer && a.buffer.duration > 0),
      listenerGap,
      position: a.getWorldPosition(new THREE.Vector3()).toArray(),
    };
  });
}
"""


def speaker_node(xr, *, required: bool = True):
    """The object tagged 'speaker' (None when there is none yet and `required` is false)."""
    __tracebackhide__ = True
    nodes = [n for n in xr.tagged(SPEAKER) if n.root == "scene"]
    if not nodes and not required:
        return None
    assert len(nodes) == 1, f"expected exactly one object tagged {SPEAKER!r} in the scene; observed {len(nodes)}"
    return nodes[0]


def off_table(node, table: Table) -> str | None:
    """Why the speaker does not rest on `table` (None when it does)."""
    if node.bbox is None:
        return "it has no geometry"
    lo, hi = node.bbox
    bottom = lo[1]
    if abs(bottom - table.centre[1]) > REST_TOL:
        what = "floats above" if bottom > table.centre[1] else "is sunk into"
        return (
            f"its bottom is at y = {bottom:.3f}, {abs(bottom - table.centre[1]):.3f} m off {table.name}'s top at "
            f"y = {table.centre[1]:.2f} (it {what} it; within {REST_TOL} m expected)"
        )
    x, z = (lo[0] + hi[0]) / 2, (lo[2] + hi[2]) / 2
    off = math.hypot(x - table.centre[0], z - table.centre[2])
    if off > CENTRE_TOL:
        return (
            f"its centre is at x = {x:.3f}, z = {z:.3f}, {off:.3f} m from the centre of {table.name} at "
            f"x = {table.centre[0]:.2f}, z = {table.centre[2]:.2f} (within {CENTRE_TOL} m expected)"
        )
    return None


def assert_on_table(node, table: Table, when: str) -> None:
    __tracebackhide__ = True
    assert node.visible, f"expected the speaker shown on {table.name} ({when}); it is hidden"
    why = off_table(node, table)
    assert why is None, f"expected the speaker resting on {table.name} ({when}); observed that {why}"


def assert_not_shown(xr, when: str) -> None:
    """No speaker shown (a speaker not made yet is not shown either)."""
    __tracebackhide__ = True
    node = speaker_node(xr, required=False)
    if node is None:
        return
    assert not node.visible, f"expected no speaker shown {when}; observed it shown at {_fmt(node.position)}"


def assert_stays(xr, where: Vec, table: Table, when: str) -> None:
    __tracebackhide__ = True
    node = speaker_node(xr)
    moved = math.dist(node.position, where)
    assert moved <= STILL_TOL, (
        f"expected the speaker to stay where it was placed, {_fmt(where)} on {table.name} ({when}); observed it "
        f"at {_fmt(node.position)}, {moved:.3f} m away"
    )
    assert_on_table(node, table, when)


def wait_for_placement(xr, table: Table, since: int, what: str):
    """Step frame by frame until the speaker is shown (at most half a second after `since`); the
    frame it is shown it must already rest on `table`. Returns the node."""
    __tracebackhide__ = True
    while True:
        node = speaker_node(xr, required=False)
        if node is not None and node.visible:
            assert_on_table(node, table, f"the frame the speaker is first shown, {what}")
            return node
        assert xr.frame - since < SOON, (
            f"expected the speaker on {table.name} within half a second ({SOON} frames) of the table being "
            f"detected, {what}; no speaker shown {xr.frame - since} frames later"
        )
        xr.step(1)


def assert_nearest(xr, tables: list[Table], expected: Table) -> None:
    """A check of the test itself: `expected` is the table whose centre is closest to the head."""
    head = xr.head.position
    nearest = min(tables, key=lambda t: math.dist(t.centre, head))
    assert nearest is expected, f"test set-up: {expected.name} is not the nearest table from {_fmt(head)}"


def audios(xr) -> list[dict]:
    return xr.probe(_AUDIO_JS, SPEAKER)


def speaker_audio(xr) -> dict:
    """The positional audio under the speaker (fails if there is none)."""
    __tracebackhide__ = True
    found = audios(xr)
    mine = [a for a in found if a["positional"] and a["underSpeaker"]]
    seen = ", ".join(f"{a['type']} ({'under' if a['underSpeaker'] else 'not under'} the speaker)" for a in found)
    assert mine, f"expected a THREE.PositionalAudio among the speaker's descendants; observed {seen or 'no audio'}"
    return mine[0]


def buffer_starts(xr) -> int:
    """How many sounds the page has started so far (Web Audio sources and audio elements)."""
    return len(xr.audio())


def assert_playing(xr, playing: bool, what: str) -> None:
    __tracebackhide__ = True
    audio = speaker_audio(xr)
    word = "playing" if playing else "silent"
    assert audio["playing"] is playing, (
        f"expected the speaker {word} {what}; observed its positional audio's isPlaying {audio['playing']}"
    )
    node = speaker_node(xr)
    state = node.state if isinstance(node.state, dict) else {}
    assert state.get("playing") is playing, f"expected state.playing {playing} {what}; observed state {node.state!r}"


def select(xr, role: str, target: Any, *, hold: int = 12) -> int:
    """Point `role`'s hand's ray at `target`, pinch for `hold` frames, release; returns how many
    sounds were started during the pinch and after it."""
    hand = xr.hand(role)
    hand.point_to(target)
    before = buffer_starts(xr)
    hand.start_select(hold)
    hand.end_select(12)
    return buffer_starts(xr) - before


def beside(xr, centre: Vec, metres: float) -> Vec:
    """A point `metres` to the side of `centre`, across the line of sight from the head."""
    head = xr.head.position
    dx, dz = centre[0] - head[0], centre[2] - head[2]
    n = math.hypot(dx, dz) or 1.0
    return (centre[0] - dz / n * metres, centre[1], centre[2] + dx / n * metres)


@pytest.mark.xr_scenes("living_room")
def test_a_speaker_of_the_stated_size_rests_on_the_table_and_stays_there(xr):
    table = living_room_table()
    node = wait_for_placement(xr, table, 0, "after the app started in the living room")
    size = node.size
    assert size is not None
    for axis, got, want in zip("xyz", size, SIZE, strict=True):
        assert abs(got - want) <= SIZE_TOL, (
            f"expected an upright box speaker {SIZE[0]} m wide, {SIZE[1]} m tall and {SIZE[2]} m deep (each within "
            f"{SIZE_TOL} m); observed {got:.3f} m along {axis} (size {_fmt(size)}; the tagged object must hold all "
            "of the speaker)"
        )
    others = [d for d in xr.drawn() if SPEAKER not in d.tags]
    assert not others, f"expected the app to show nothing but the speaker (the cylinder removed); observed {others}"
    where = node.position
    xr.wait(1000)
    assert_stays(xr, where, table, "a second after it was placed")
    xr.head.move((0.0, -0.35, 0.0), speed=0.5)  # the user crouches ...
    xr.head.rotate(pitch=-30)  # ... looks down at the speaker ...
    assert_stays(xr, where, table, "while the user crouches and looks at it")
    xr.head.rotate(pitch=30)
    xr.head.move((0.0, 0.35, 0.0), speed=0.5)
    xr.head.walk([(1.1, 1.5, -0.9), (1.1, 1.5, -2.1)], speed=1.0)  # ... and walks round the table
    xr.wait(500)
    assert_stays(xr, where, table, "after the user walked to the far side of the table")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("kitchen")
def test_in_the_kitchen_the_speaker_stays_on_the_island_when_the_user_walks_to_the_counter(xr):
    _, island, counter = kitchen()
    assert_nearest(xr, [island, counter], island)
    node = wait_for_placement(xr, island, 0, "after the app started in the kitchen, nearest the island")
    where = node.position
    xr.head.walk([(1.3, 1.5, -0.6), (1.3, 1.5, -2.45), (-0.4, 1.5, -2.45)], speed=1.0)
    assert_nearest(xr, [island, counter], counter)
    assert_stays(xr, where, island, "after the user walked over to the counter, now the nearest table")
    xr.wait(1000)
    assert_stays(xr, where, island, "a second after the user reached the counter")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("kitchen")
def test_the_speaker_goes_on_the_nearest_table_not_the_first_reported_nor_the_one_looked_at(xr):
    planes, island, counter = kitchen()
    xr.plane_detection.withhold()
    # The user stands between the island and the counter, nearer the counter, crouching, and turns
    # to look down at the island (reported first, and the table in view).
    xr.head.teleport_to((-0.4, 1.5, -2.5))
    xr.head.move((0.0, -0.4, 0.0), speed=0.5)
    xr.head.look_at(island.centre)
    for _ in range(20):
        assert_not_shown(xr, "before plane detection has found any plane")
        xr.step(1)
    assert_nearest(xr, [island, counter], counter)
    xr.plane_detection.add(*planes)
    since = xr.frame
    xr.step(1)
    node = wait_for_placement(xr, counter, since, "once the kitchen's planes were detected, nearest the counter")
    where = node.position
    xr.head.walk([(-0.4, 1.1, -2.2)], speed=0.5)  # a step towards the island, still crouching
    xr.wait(500)
    assert_stays(xr, where, counter, "half a second after it was placed")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("kitchen")
def test_planes_that_arrive_late_one_table_after_the_other(xr):
    planes, island, counter = kitchen()
    floor = [p for p in planes if p["label"] == "floor"]
    walls = [p for p in planes if p["label"] == "wall"]
    xr.plane_detection.withhold()
    for _ in range(90):  # a second and a half without any plane
        assert_not_shown(xr, "before plane detection has found any plane")
        xr.step(1)
    xr.plane_detection.add(*floor, *walls)  # the floor and the walls, but no table yet
    for _ in range(60):
        assert_not_shown(xr, "while the only detected planes are the floor and the walls")
        xr.step(1)
    xr.plane_detection.add(plane_of(planes, counter))  # the far counter: the only table known
    since = xr.frame
    xr.step(1)
    node = wait_for_placement(xr, counter, since, "once the counter, the only table known, was detected")
    where = node.position
    xr.wait(500)
    assert_stays(xr, where, counter, "half a second after it was placed")
    assert_nearest(xr, [island, counter], island)
    xr.plane_detection.add(plane_of(planes, island))  # the island, nearer the user, is detected later
    for i in range(60):
        xr.step(1)
        assert_stays(xr, where, counter, f"{i + 1} frames after the nearer island was detected")
    xr.head.walk([(0.0, 1.5, -0.6)], speed=1.0)
    xr.wait(500)
    assert_stays(xr, where, counter, "after the user stepped up to the island")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("empty")
def test_no_speaker_is_shown_without_a_table(xr):
    for _ in range(60):
        assert_not_shown(xr, "in a room without any table")
        xr.step(1)
    xr.head.walk([(0.0, 1.5, -1.5), (1.0, 1.5, -2.5)], speed=1.0)
    xr.head.rotate(yaw=90, pitch=-30)
    xr.wait(1000)
    assert_not_shown(xr, "in a room without any table, two seconds on")
    assert_no_errors(xr)


@pytest.mark.xr_scenes("living_room")
def test_the_sound_is_positional_comes_from_the_speaker_and_starts_silent(xr):
    table = living_room_table()
    wait_for_placement(xr, table, 0, "after the app started in the living room")
    xr.wait(1000)
    audio = speaker_audio(xr)
    assert audio["listenerGap"] is not None and audio["listenerGap"] < 0.02, (
        f"expected the positional audio's listener on the user's camera; observed it {audio['listenerGap']} m away"
    )
    box = speaker_node(xr).bbox
    inside = all(box[0][i] - 0.005 <= audio["position"][i] <= box[1][i] + 0.005 for i in range(3))
    assert inside, (
        f"expected the sound to come from inside the speaker {_fmt(box[0])}-{_fmt(box[1])}; observed it at "
        f"{_fmt(audio['position'])}"
    )
    assert audio["buffer"], "expected a sound buffer generated in code given to the positional audio (setBuffer)"
    assert_playing(xr, False, "at the start")
    started = xr.audio()
    assert not started, f"expected no sound started before the speaker is selected; observed {started}"
    xr.head.walk([(0.8, 1.5, -0.6)], speed=1.0)  # the listener moves with the user
    audio = speaker_audio(xr)
    assert audio["listenerGap"] is not None and audio["listenerGap"] < 0.02, (
        f"expected the positional audio's listener to stay on the user's camera as the user walks; observed it "
        f"{audio['listenerGap']} m away"
    )
    assert_playing(xr, False, "after the user walked, nothing selected")
    assert_no_errors(xr)


def test_selecting_the_speaker_toggles_its_sound_and_pinches_elsewhere_do_not(xr):
    xr.wait(1000)
    node = speaker_node(xr)
    assert node.visible, "expected the speaker shown a second after the start"
    centre = xr.find(SPEAKER).point
    top = (centre[0], node.bbox[0][1], centre[2])  # the table top under the speaker
    elsewhere = [
        ("beside the speaker", beside(xr, centre, 0.16)),
        ("at the table, beside the speaker", (top[0] - 0.3, top[1], top[2] + 0.05)),
        ("at the floor", "floor"),
    ]
    for what, target in elsewhere:
        started = select(xr, "dominant", target)
        assert_playing(xr, False, f"after a pinch aimed {what}")
        assert started == 0, f"expected no sound started by a pinch aimed {what}; observed {started}"
    started = select(xr, "dominant", SPEAKER)
    assert_playing(xr, True, "after the dominant hand selected the speaker")
    assert started == 1, f"expected one sound started when the speaker was selected; observed {started}"
    for what, target in elsewhere:
        select(xr, "non_dominant", target)
        assert_playing(xr, True, f"after a pinch aimed {what}, while it played")
    started = select(xr, "non_dominant", SPEAKER, hold=150)  # a pinch held for two and a half seconds
    assert_playing(xr, False, "after the other hand selected it again, with a long pinch")
    assert started == 0, f"expected no sound started when the speaker was stopped; observed {started}"
    for k, role in enumerate(("non_dominant", "dominant", "dominant", "non_dominant")):
        playing = k % 2 == 0
        started = select(xr, role, SPEAKER, hold=150 if k == 2 else 12)
        assert_playing(xr, playing, f"after selection {k + 3} of the speaker (by the {role} hand)")
        assert started == (1 if playing else 0), (
            f"expected {1 if playing else 0} sound(s) started by selection {k + 3}; observed {started}"
        )
    xr.head.walk([(0.9, 1.5, -0.6)], speed=1.0)  # round to the side of the table
    xr.head.look_at(SPEAKER)
    select(xr, "dominant", SPEAKER)
    assert_playing(xr, True, "after the user walked round and selected it from the side")
    select(xr, "dominant", beside(xr, centre, 0.16))
    assert_playing(xr, True, "after a pinch aimed beside it from the side")
    select(xr, "non_dominant", SPEAKER)
    assert_playing(xr, False, "after selecting it once more from the side")
    assert_no_errors(xr)
