"""XR Blocks' Script lifecycle: Scripts leaving the scene are disposed and go quiet, and come back anew.

Two kinds of checks:
- The app (the task's own `workspace/`, held out: candidates change only `sdk/src`). Its bubbles
  are `xb.MeshScript`s tagged `bubble` (state: slot, age, inits) under the game's `bubbles`
  group; `bubble-board` (state: alive, popped, slots) carries one `bubble-marker` (state: slot,
  age) per bubble, put there by the bubble's `init()` and taken off by its `dispose()`; the
  bubble's `update()` adds `xb.getDeltaTime()` to its age, bobs it and spins it. Pinching the
  green `spawn-button` blows a bubble (a popped one from the pool first), pinching a bubble pops
  it (the app removes it from the scene).
- Probe Scripts: plain `xb.Script` subclasses the tests add to and remove from `xb.core.scene`
  (through the harness's probe, on the candidate's own XR Blocks), which log every `init`,
  `update`, `dispose` and global `onSelectStart` / `onSelect` / `onSelectEnd` with the frame it
  came in and the hand of the event. Only the public scene graph is used: `add`, `remove`.

Frames are stepped one at a time where timing matters. A Script added between frames A and A+1
must have its `init()` by frame A+2 ("within two frames") and before its first `update()`, then one
`update()` per frame; one removed between frames R and R+1 must have its `dispose()` (once) by
frame R+1 ("no later than the next frame") and nothing at all after frame R (no update, no
input), whatever it was removed with (a parent Script, a group, a group in a group); added back,
it starts again (`init()` again, updates again, input again); a Script moved within the scene, or
removed and put back between two frames, never stops; one removed while its asynchronous `init()`
is still running never gets `update()` or input and is disposed once, after its `init()` has
finished.

Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

DT = 1 / 60  # seconds per stepped frame
SLOT_SPACING = 0.18
BUBBLE_HEIGHT = 1.5
BUBBLE_DEPTH = -1.0
BOB = 0.03
BOB_PERIOD = 2.0
SPIN = 1.0
INPUT_HOOKS = ("onSelectStart", "onSelect", "onSelectEnd")

# --- probe Scripts ------------------------------------------------------------------------------

PROBE = r"""(h, arg) => {
  const scene = h.core.scene;
  const gateway = globalThis.__xrtest;
  let store = scene.userData.lifecycleProbes;
  if (!store) {
    const log = [];
    const record = (who, hook, event) => {
      const entry = {who: who.name, hook, frame: gateway.frames};
      if (event && event.source) entry.hand = event.source.handedness;
      log.push(entry);
    };
    class LifecycleProbe extends h.xb.Script {
      constructor(name, asyncInitMs) {
        super();
        this.name = name;
        this.asyncInitMs = asyncInitMs || 0;
      }
      init() {
        record(this, 'init');
        if (!this.asyncInitMs) return undefined;
        return new Promise((resolve) => setTimeout(() => {
          record(this, 'init-done');
          resolve();
        }, this.asyncInitMs));
      }
      update() { record(this, 'update'); }
      onSelectStart(event) { record(this, 'onSelectStart', event); }
      onSelect(event) { record(this, 'onSelect', event); }
      onSelectEnd(event) { record(this, 'onSelectEnd', event); }
      dispose() { record(this, 'dispose'); }
    }
    store = {log, objects: {}, LifecycleProbe};
    scene.userData.lifecycleProbes = store;
  }
  const find = (name) => {
    if (name === 'scene') return scene;
    const object = store.objects[name];
    if (!object) throw new Error('no probe object ' + name);
    return object;
  };
  for (const op of arg.ops || []) {
    if (op.op === 'script') store.objects[op.name] = new store.LifecycleProbe(op.name, op.asyncInitMs);
    else if (op.op === 'group') {
      const group = new h.THREE.Group();
      group.name = op.name;
      store.objects[op.name] = group;
    } else if (op.op === 'add') find(op.parent).add(find(op.name));
    else if (op.op === 'remove') find(op.name).removeFromParent();
    else throw new Error('unknown probe op ' + op.op);
  }
  return {frame: gateway.frames, log: arg.read ? store.log : []};
}"""


@dataclass(frozen=True)
class Call:
    who: str
    hook: str
    frame: int
    hand: str | None = None

    def __str__(self) -> str:
        return f"{self.who}.{self.hook}@{self.frame}" + (f"({self.hand})" if self.hand else "")


class Probes:
    """Probe Scripts and groups in the app's scene, and what the Scripts received."""

    def __init__(self, xr):
        self.xr = xr

    def run(self, *ops: dict, read: bool = False):
        return self.xr.probe(PROBE, {"ops": list(ops), "read": read})

    def script(self, name: str, parent: str = "scene", *, async_init_ms: int = 0) -> int:
        """A new probe Script `name` in `parent` ('scene' or a probe object); the frame counter."""
        return self.run(
            {"op": "script", "name": name, "asyncInitMs": async_init_ms}, {"op": "add", "name": name, "parent": parent}
        )["frame"]

    def group(self, name: str, parent: str = "scene") -> int:
        return self.run({"op": "group", "name": name}, {"op": "add", "name": name, "parent": parent})["frame"]

    def add(self, name: str, parent: str = "scene") -> int:
        """Add `name` to `parent` (moving it there if it has a parent); the frame counter."""
        return self.run({"op": "add", "name": name, "parent": parent})["frame"]

    def remove(self, *names: str) -> int:
        return self.run(*({"op": "remove", "name": n} for n in names))["frame"]

    def calls(self, who: str | None = None, hook: str | None = None, after: int = -1) -> list[Call]:
        """The calls recorded (of `who`, of `hook`, in frames after `after`), in order."""
        log = self.run(read=True)["log"]
        out = [Call(e["who"], e["hook"], int(e["frame"]), e.get("hand")) for e in log]
        return [
            c for c in out if (who is None or c.who == who) and (hook is None or c.hook == hook) and c.frame > after
        ]


def listing(calls, limit: int = 12) -> str:
    calls = list(calls)
    text = ", ".join(map(str, calls[:limit]))
    return (text + f", ... ({len(calls)} in all)") if len(calls) > limit else (text or "none")


def step_frames(xr, n: int) -> int:
    """Step `n` frames one at a time (so work queued by one frame is done before the next)."""
    for _ in range(n):
        xr.step(1)
    return xr.frame


def assert_inits(probes, who: str, n: int, *, by: int | None = None, when: str) -> list[Call]:
    __tracebackhide__ = True
    inits = probes.calls(who, "init")
    assert len(inits) == n, f"{when}: expected {n} init() call(s) of {who!r}; observed {listing(inits)}"
    if by is not None:
        assert inits[-1].frame <= by, (
            f"{when}: expected init() of {who!r} by frame {by} (within 2 frames of being added); observed "
            f"{listing(inits)}"
        )
    return inits


def assert_updates_every_frame(probes, who: str, first: int, last: int, when: str) -> None:
    """`who` got exactly one update() in each frame from `first` to `last`."""
    __tracebackhide__ = True
    frames = Counter(c.frame for c in probes.calls(who, "update") if first <= c.frame <= last)
    missing = [f for f in range(first, last + 1) if frames[f] == 0]
    doubled = {f: k for f, k in frames.items() if k > 1}
    assert not missing and not doubled, (
        f"{when}: expected exactly one update() of {who!r} in every frame from {first} to {last}; observed none in "
        f"frames {missing[:10]}{'...' if len(missing) > 10 else ''} and more than one in {doubled or 'none'}"
    )


def assert_started(probes, who: str, added: int, until: int, *, n_inits: int, when: str) -> None:
    """`who`, added after frame `added`, got its n-th init() by added+2, no update before it, then one per frame."""
    __tracebackhide__ = True
    init = assert_inits(probes, who, n_inits, by=added + 2, when=when)[-1]
    early = probes.calls(who, "update", after=added)
    early = [c for c in early if c.frame < init.frame]
    assert not early, (
        f"{when}: expected no update() of {who!r} before its init() at frame {init.frame}; observed {listing(early)}"
    )
    assert_updates_every_frame(probes, who, max(init.frame + 1, added + 3), until, when)


def assert_gone(probes, who: str, removed: int, *, n_disposes: int, when: str) -> None:
    """`who`, removed after frame `removed`, was disposed (n-th time) by removed+1 and got nothing after `removed`."""
    __tracebackhide__ = True
    disposes = probes.calls(who, "dispose")
    assert len(disposes) == n_disposes, (
        f"{when}: expected {n_disposes} dispose() call(s) of {who!r} in all (one per removal); observed "
        f"{listing(disposes)}"
    )
    assert removed <= disposes[-1].frame <= removed + 1, (
        f"{when}: expected dispose() of {who!r} by frame {removed + 1} (it left the scene after frame {removed}); "
        f"observed {listing(disposes)}"
    )
    after = [c for c in probes.calls(who, after=removed) if c.hook != "dispose"]
    assert not after, (
        f"{when}: expected no more update() or input callbacks of {who!r} after it left the scene after frame "
        f"{removed}; observed {listing(after)}"
    )


def pinch_with(xr, role: str) -> tuple[int, int]:
    """A pinch (select) and its release with `role`'s hand; the frames before and after."""
    before = xr.frame
    hand = xr.hand(role)
    hand.start_select(6)
    hand.end_select(6)
    return before, xr.frame


def assert_input(probes, who: str, hand: str, after: int, until: int, when: str) -> None:
    """`who` got one onSelectStart and one onSelectEnd from `hand` in (after, until], nothing from the other."""
    __tracebackhide__ = True
    calls = [c for c in probes.calls(who, after=after) if c.hook in INPUT_HOOKS and c.frame <= until]
    starts = [c for c in calls if c.hook == "onSelectStart"]
    ends = [c for c in calls if c.hook == "onSelectEnd"]
    assert len(starts) == 1 and len(ends) == 1, (
        f"{when}: expected one onSelectStart and one onSelectEnd of {who!r} for one pinch of the {hand} hand; "
        f"observed {listing(calls)}"
    )
    wrong = [c for c in calls if c.hand != hand]
    assert not wrong, (
        f"{when}: expected every input callback of {who!r} to come from the {hand} hand; observed {listing(wrong)}"
    )


# --- the app --------------------------------------------------------------------------------------


def slot_x(slot: int) -> float:
    return (slot - 2) * SLOT_SPACING


def bubbles(xr) -> dict[int, object]:
    """The bubbles in the scene, by slot (a slot held twice fails)."""
    __tracebackhide__ = True
    nodes = xr.tagged("bubble")
    slots = [n.state["slot"] for n in nodes]
    assert len(set(slots)) == len(slots), f"expected one bubble per slot; observed slots {sorted(slots)}"
    return {n.state["slot"]: n for n in nodes}


def board(xr):
    return xr.find_by_tag("bubble-board").state


def marker_slots(xr) -> list[int]:
    return sorted(n.state["slot"] for n in xr.tagged("bubble-marker"))


def assert_board(xr, slots: list[int], popped: int, when: str, seen: tuple[list[int], dict] | None = None) -> None:
    """The board shows one marker per slot in `slots` (and its counts agree), and `popped` pops so far
    (as it is now, or as `seen`: marker slots and board state read earlier)."""
    __tracebackhide__ = True
    markers, b = seen if seen is not None else (marker_slots(xr), board(xr))
    assert markers == slots and b["slots"] == slots and b["alive"] == len(slots), (
        f"{when}: expected markers on the board for the bubbles in slots {slots} (alive {len(slots)}); observed "
        f"markers for slots {markers}, board state {b}"
    )
    assert b["popped"] == popped, (
        f"{when}: expected {popped} bubble(s) taken off the board (each popped bubble's dispose()); observed "
        f"{b['popped']}, board state {b}"
    )


def blow(xr, role: str) -> int:
    """Pinch the spawn button with `role`'s hand; the frame of the select's start."""
    f = xr.frame
    xr.hand(role).click("spawn-button")
    starts = [e for e in xr.events() if e.type == "object_select_start" and e.frame > f and e.target == "spawn-button"]
    assert starts, f"expected the {role} hand's pinch to select the spawn button; observed events {xr.events()[-6:]}"
    xr.step(2)
    return starts[0].frame


def pop(xr, role: str, slot: int) -> tuple[int, list[int], dict]:
    """Point `role`'s hand at the bubble in `slot` and pinch it, a frame at a time until it has left the
    scene; read the board on the next frame, then release. Returns the frame it left the scene in, and
    the board's marker slots and state on the frame after."""
    __tracebackhide__ = True
    node = bubbles(xr)[slot]
    hand = xr.hand(role)
    hand.point_to(node)
    for _ in range(20):
        hand.start_select(1)
        if slot not in bubbles(xr):
            gone = xr.frame
            break
    else:
        raise AssertionError(f"expected the bubble in slot {slot} to pop when the {role} hand pinched it; it stayed")
    xr.step(1)
    after = (marker_slots(xr), dict(board(xr)))
    hand.end_select(6)
    return gone, *after


def assert_bubble_fresh(xr, slot: int, since: int, inits: int, when: str) -> None:
    """The bubble in `slot` was (re)initialised after frame `since`: its age counts from then."""
    __tracebackhide__ = True
    b = bubbles(xr).get(slot)
    assert b is not None, f"{when}: expected a bubble in slot {slot}; observed slots {sorted(bubbles(xr))}"
    limit = (xr.frame - since) * DT + 1e-6
    assert 0 < b.state["age"] <= limit, (
        f"{when}: expected the bubble in slot {slot} to start afresh when blown (age counted from 0, at most "
        f"{limit:.3f} s {xr.frame - since} frames after the pinch); observed age {b.state['age']:.3f} s"
    )
    assert b.state["inits"] == inits, (
        f"{when}: expected the bubble in slot {slot} to be on its blow number {inits} (init() once per blow); "
        f"observed {b.state['inits']}"
    )


def assert_bubble_motion(xr, slot: int, when: str) -> None:
    """The bubble in `slot` is where its age says: slot x, bobbing 3 cm over 2 s, turned `age` radians."""
    __tracebackhide__ = True
    b = bubbles(xr)[slot]
    age = b.state["age"]
    expected = (slot_x(slot), BUBBLE_HEIGHT + BOB * math.sin(2 * math.pi * age / BOB_PERIOD), BUBBLE_DEPTH)
    assert math.dist(b.position, expected) < 1e-3, (
        f"{when}: expected the bubble in slot {slot} (age {age:.3f} s) at "
        f"({expected[0]:.3f}, {expected[1]:.3f}, {expected[2]:.3f}); observed {tuple(round(c, 3) for c in b.position)}"
    )
    q = b.quaternion
    yaw = 2 * math.atan2(q[1], q[3])
    assert abs(math.remainder(yaw - SPIN * age, 2 * math.pi)) < 1e-3, (
        f"{when}: expected the bubble in slot {slot} turned {SPIN * age:.3f} rad (1 rad/s of age); observed {yaw:.3f}"
    )


@pytest.fixture
def app(xr):
    xr.step(1)
    return xr


# --- tests ----------------------------------------------------------------------------------------


@pytest.mark.fail_to_pass
def test_popping_a_bubble_takes_its_marker_off_the_board(app):
    me = "dominant"
    for _ in range(3):
        blow(app, me)
    app.wait(300)
    assert sorted(bubbles(app)) == [0, 1, 2], f"expected bubbles in slots 0, 1, 2; observed {sorted(bubbles(app))}"
    assert_board(app, [0, 1, 2], 0, "after blowing three bubbles")

    gone, *seen = pop(app, me, 1)
    assert_board(app, [0, 2], 1, f"the frame after the bubble in slot 1 was popped (frame {gone})", seen)
    app.wait(1000)
    assert sorted(bubbles(app)) == [0, 2], f"expected bubbles in slots 0 and 2; observed {sorted(bubbles(app))}"
    assert_board(app, [0, 2], 1, "a second after the bubble in slot 1 was popped")
    for node in app.tagged("bubble-marker"):
        age = bubbles(app)[node.state["slot"]].state["age"]
        assert abs(node.state["age"] - age) < 1e-6, (
            f"expected the marker of slot {node.state['slot']} to show its bubble's age {age:.3f}; observed "
            f"{node.state['age']:.3f}"
        )

    gone, *seen = pop(app, "non_dominant", 0)
    assert_board(app, [2], 2, f"the frame after the bubble in slot 0 was popped by the other hand (frame {gone})", seen)
    gone, *seen = pop(app, me, 2)
    assert_board(app, [], 3, f"the frame after the bubble in slot 2 was popped (frame {gone})", seen)
    assert not bubbles(app), f"expected no bubble left; observed slots {sorted(bubbles(app))}"
    assert_board(app, [], 3, "after popping all three bubbles, with either hand")
    app.wait(500)
    assert_board(app, [], 3, "half a second after popping all three bubbles")
    assert_no_errors(app)


@pytest.mark.fail_to_pass
def test_a_popped_bubble_blown_again_starts_afresh(app):
    blow(app, "dominant")
    blow(app, "non_dominant")
    app.wait(500)
    pop(app, "dominant", 0)
    app.wait(1000)
    f = blow(app, "dominant")  # the popped bubble, from the pool
    app.step(8)
    assert_bubble_fresh(app, 0, f, 2, "blown again into slot 0, 1.5 s after it was popped")
    assert sorted(bubbles(app)) == [0, 1], f"expected bubbles in slots 0 and 1; observed {sorted(bubbles(app))}"
    assert_board(app, [0, 1], 1, "after the popped bubble was blown again")
    assert_bubble_motion(app, 0, "blown again")

    pop(app, "non_dominant", 1)
    pop(app, "dominant", 0)
    app.wait(700)
    assert_board(app, [], 3, "after popping both bubbles")
    f = blow(app, "non_dominant")  # the pool's first: the bubble popped from slot 1, its second blow ...
    app.step(5)
    assert_bubble_fresh(app, 0, f, 2, "the bubble popped from slot 1, blown into slot 0")
    f2 = blow(app, "dominant")  # ... then the bubble popped twice, its third blow
    app.step(5)
    assert_bubble_fresh(app, 1, f2, 3, "the bubble popped twice, blown into slot 1")
    assert_board(app, [0, 1], 3, "after blowing both popped bubbles again")
    app.wait(500)
    for slot in (0, 1):
        assert_bubble_motion(app, slot, "half a second after blowing both again")
    assert_no_errors(app)


@pytest.mark.pass_to_pass
def test_bubbles_bob_and_spin_by_one_frame_each_frame(app):
    f = blow(app, "dominant")
    app.step(3)
    for _ in range(20):
        before = bubbles(app)[0].state["age"]
        app.step(1)
        after = bubbles(app)[0].state["age"]
        assert abs(after - before - DT) < 1e-6, (
            f"expected the bubble's age to grow by one frame ({DT:.4f} s, one update()) per frame; observed "
            f"{after - before:.4f} s at frame {app.frame}"
        )
        assert_bubble_motion(app, 0, f"frame {app.frame}")
    assert_board(app, [0], 0, "with one bubble out")
    inits = bubbles(app)[0].state["inits"]
    assert inits == 1, f"expected one init() of a bubble blown once (frame {f}); observed {inits}"
    assert_no_errors(app)


@pytest.mark.fail_to_pass
def test_removed_scripts_are_disposed_once_and_get_no_more_callbacks(app):
    me, other = app.handedness("dominant"), app.handedness("non_dominant")
    p = Probes(app)
    added = p.script("solo")
    p.script("parent")
    p.script("child", "parent")
    p.group("box")
    p.script("boxed", "box")
    p.group("inner", "box")
    p.script("deep", "inner")
    p.script("keeper")
    until = step_frames(app, 4)
    for who in ("solo", "parent", "child", "boxed", "deep", "keeper"):
        assert_started(p, who, added, until, n_inits=1, when="added to the scene")

    removed = p.remove("solo", "parent", "box")  # the child goes with its parent Script, the rest with the groups
    step_frames(app, 1)
    for who in ("solo", "parent", "child", "boxed", "deep"):
        assert_gone(p, who, removed, n_disposes=1, when="the frame after it left the scene")
    app.wait(1000)
    a0, a1 = pinch_with(app, "dominant")
    b0, b1 = pinch_with(app, "non_dominant")
    app.wait(500)
    until = app.frame
    for who in ("solo", "parent", "child", "boxed", "deep"):
        assert_gone(p, who, removed, n_disposes=1, when="1.5 s and a pinch of each hand after it left the scene")
    assert_updates_every_frame(p, "keeper", added + 3, until, "a Script that stayed in the scene")
    assert_input(p, "keeper", me, a0, a1, f"a Script in the scene, the {me} hand's pinch")
    assert_input(p, "keeper", other, b0, b1, f"a Script in the scene, the {other} hand's pinch")
    assert not p.calls("keeper", "dispose"), "expected no dispose() of a Script that stayed in the scene"
    assert_no_errors(app)


@pytest.mark.fail_to_pass
def test_scripts_added_back_start_again(app):
    me, other = app.handedness("dominant"), app.handedness("non_dominant")
    p = Probes(app)
    added = p.script("again")
    p.group("holder")
    p.script("inside", "holder")
    p.group("elsewhere")
    until = step_frames(app, 3)
    for who in ("again", "inside"):
        assert_started(p, who, added, until, n_inits=1, when="added to the scene")
    removed = p.remove("again", "holder")
    step_frames(app, 10)
    for who in ("again", "inside"):
        assert_gone(p, who, removed, n_disposes=1, when="removed")

    back = p.add("again")
    p.add("holder")
    until = step_frames(app, 5)
    for who in ("again", "inside"):
        assert_started(p, who, back, until, n_inits=2, when="added back after its removal")
    a0, a1 = pinch_with(app, "dominant")
    for who in ("again", "inside"):
        assert_input(p, who, me, a0, a1, f"added back, the {me} hand's pinch")

    removed = p.remove("again", "holder")
    step_frames(app, 3)
    pinch_with(app, "non_dominant")
    for who in ("again", "inside"):
        assert_gone(p, who, removed, n_disposes=2, when="removed a second time")

    back = p.add("again", "elsewhere")  # back in another parent
    p.add("holder", "elsewhere")
    until = step_frames(app, 5)
    for who in ("again", "inside"):
        assert_started(p, who, back, until, n_inits=3, when="added back a second time, under another group")
    b0, b1 = pinch_with(app, "non_dominant")
    for who in ("again", "inside"):
        assert_input(p, who, other, b0, b1, f"added back a second time, the {other} hand's pinch")
    disposes = p.calls("again", "dispose")
    assert len(disposes) == 2, f"expected 2 dispose() calls of 'again' (removed twice); observed {listing(disposes)}"
    assert_no_errors(app)


@pytest.mark.pass_to_pass
def test_scripts_moved_within_the_scene_keep_running(app):
    p = Probes(app)
    p.group("left")
    p.group("right")
    added = p.script("mover", "left")
    p.script("rider", "mover")
    step_frames(app, 3)
    p.add("mover", "right")  # moved to another group
    step_frames(app, 3)
    p.run(
        {"op": "remove", "name": "mover"}, {"op": "add", "name": "mover", "parent": "left"}
    )  # out and back in between two frames
    step_frames(app, 3)
    p.add("right", "left")  # its group moved into another group
    step_frames(app, 3)
    p.add("mover", "scene")
    a0, a1 = pinch_with(app, "dominant")
    until = app.frame
    for who in ("mover", "rider"):
        assert_started(p, who, added, until, n_inits=1, when="moved about within the scene")
        assert not p.calls(who, "dispose"), f"expected no dispose() of {who!r}, which never left the scene at a frame"
        assert_input(p, who, app.handedness("dominant"), a0, a1, "moved about within the scene")
    assert_no_errors(app)


@pytest.mark.fail_to_pass
def test_a_script_removed_while_initialising_never_runs(app):
    me = app.handedness("dominant")
    p = Probes(app)
    added = p.script("slow", async_init_ms=200)
    p.script("slow-keeper", async_init_ms=200)
    step_frames(app, 2)
    assert len(p.calls("slow", "init")) == 1 and not p.calls("slow", "init-done"), (
        f"expected the slow Script's init() (added after frame {added}) started and still running; observed "
        f"{listing(p.calls('slow'))}"
    )
    removed = p.remove("slow")
    step_frames(app, 30)  # half a second, a frame at a time: its init() finishes meanwhile
    a0, a1 = pinch_with(app, "dominant")
    app.wait(300)
    until = app.frame
    calls = p.calls("slow")
    done = [c for c in calls if c.hook == "init-done"]
    disposes = [c for c in calls if c.hook == "dispose"]
    assert len(done) == 1, f"expected the slow Script's init() to finish once; observed {listing(calls)}"
    others = [c for c in calls if c.hook not in ("init", "init-done", "dispose")]
    assert not others, (
        f"expected no update() or input callbacks of a Script removed (after frame {removed}) while its init() was "
        f"running; observed {listing(others)}"
    )
    assert (
        len(disposes) == 1 and disposes[0].frame >= done[0].frame and calls.index(disposes[0]) > calls.index(done[0])
    ), (
        f"expected one dispose() of the Script removed while initialising, after its init() finished; observed "
        f"{listing(calls)}"
    )
    keeper_done = p.calls("slow-keeper", "init-done")
    assert len(keeper_done) == 1, (
        f"expected the kept slow Script's init() to finish once; observed {listing(p.calls('slow-keeper'))}"
    )
    early = [c for c in p.calls("slow-keeper", "update") if c.frame < keeper_done[0].frame]
    assert not early, f"expected no update() before the kept Script's init() finished; observed {listing(early)}"
    assert_updates_every_frame(p, "slow-keeper", keeper_done[0].frame + 2, until, "kept while its init() ran")
    assert_input(p, "slow-keeper", me, a0, a1, "kept while its init() ran")

    back = p.add("slow")  # added back: a new start
    step_frames(app, 30)
    until = app.frame
    inits = p.calls("slow", "init")
    assert len(inits) == 2 and inits[1].frame <= back + 2, (
        f"expected a second init() of the slow Script added back after frame {back}; observed "
        f"{listing(p.calls('slow'))}"
    )
    done = p.calls("slow", "init-done")
    assert len(done) == 2, f"expected its second init() to finish; observed {listing(p.calls('slow'))}"
    assert_updates_every_frame(
        p, "slow", done[1].frame + 2, until, "added back after it was removed while initialising"
    )
    disposes = p.calls("slow", "dispose")
    assert len(disposes) == 1, (
        f"expected still one dispose() of the slow Script (removed once, while initialising; added back after frame "
        f"{back}); observed "
        f"{listing(disposes)}"
    )
    assert_no_errors(app)


@pytest.mark.pass_to_pass
def test_scripts_added_while_running_start_on_the_next_frames(app):
    p = Probes(app)
    app.wait(500)
    added = p.run(
        {"op": "script", "name": "late"},
        {"op": "add", "name": "late", "parent": "scene"},
        {"op": "group", "name": "crate"},
        {"op": "script", "name": "crated"},
        {"op": "add", "name": "crated", "parent": "crate"},
        {"op": "add", "name": "crate", "parent": "scene"},
        {"op": "script", "name": "rider"},
        {"op": "add", "name": "rider", "parent": "late"},
    )["frame"]
    step_frames(app, 4)
    later = p.script("latecomer", "late")  # into a Script that is already running
    until = step_frames(app, 5)
    for who in ("late", "crated", "rider"):
        assert_started(p, who, added, until, n_inits=1, when="added to the running app")
    assert_started(p, "latecomer", later, until, n_inits=1, when="added into a running Script")
    a0, a1 = pinch_with(app, "non_dominant")
    for who in ("late", "crated", "rider", "latecomer"):
        assert_input(p, who, app.handedness("non_dominant"), a0, a1, "added to the running app")
    assert_no_errors(app)
