"""Runtime tests of the touch piano.

They check
- the five keys tagged 'piano-key': each 0.05 x 0.02 x 0.12 m (within 20 %), 0.055 m apart centre to
  centre, lying flat in a row along x, the middle one centred at (0, 1.2, -0.45) (within 1 cm),
  naming C4, D4, E4, F4, G4 from left to right, and sounding those notes when poked in turn (the
  keys found by where they are, not by their state);
- a fingertip poking a key from above, one frame at a time: nothing happens before it enters the
  key; within 3 frames (50 ms) of entering, that key's note starts (one burst of sound, at its
  frequency and no other key's, in the harness's log of the sounds the page starts) and the key is
  5-10 mm down while its neighbours do not move; holding the finger in it for four seconds plays
  nothing more; lifting the finger one frame at a time brings the key back up within 3 frames of
  the fingertip being 2 cm above it; a second touch plays again;
- a touch anywhere on the key plays it (near its front and back ends and its sides), while a
  fingertip hovering 2 cm above a key, or beside the row (left of it, in front of it), for a
  second plays and presses nothing;
- either hand plays, and both at once: while one hand holds a key down, the other hand plays and
  presses another; lifting one finger releases only its own key and replays nothing;
- the piano stays in the room while the user looks down, crouches, walks sideways and turns, and
  a key poked then (head low, pitched down, turned) plays.
Each test runs for a right- and for a left-dominant user.
"""

from __future__ import annotations

import itertools

import pytest

from xrbench.xrtest.assertions import assert_no_errors

KEY = "piano-key"
NOTES = ["C4", "D4", "E4", "F4", "G4"]
FREQUENCIES = {"C4": 261.63, "D4": 293.66, "E4": 329.63, "F4": 349.23, "G4": 392.0}
PITCH_TOL = 0.02  # relative; neighbouring notes are 6 % or more apart
ROW_CENTRE = (0.0, 1.2, -0.45)
KEY_SIZE = (0.05, 0.02, 0.12)
SIZE_TOL = 0.2  # relative, per axis (a stated size within 25 %)
PITCH = 0.055  # centre to centre
PRESS_MIN, PRESS_MAX = 0.004, 0.011  # 5-10 mm, with 1 mm for the fingertip's drift
MOVED = 0.0015  # a key that moved less than this did not move
PROMPT = 3  # frames: "within 50 ms" at 60 Hz
DEPTH = 0.012  # how far a poke goes below the key's top
LONGEST_NOTE = 1.25  # seconds: "a short tone (at most about one second)", with 25 % slack

pytestmark = pytest.mark.xr_scenes("empty")


# --- reading ------------------------------------------------------------------------------------


def sounds_from(xr) -> int:
    """Where the sounds from now on begin in the harness's sound log (it logs every sound started)."""
    return len(xr.audio())


def sounds(xr, since: int) -> list[dict]:
    """Every sound started since `since`: {'kind', 'frame', 'frequency'} (pitch in Hz, or None)."""
    return xr.audio()[since:]


def sound_bursts(xr, since: int) -> list[int]:
    """Frames in which at least one sound started (a chord of oscillators counts once)."""
    return sorted({e["frame"] for e in sounds(xr, since)})


def sound_length(xr, e: dict) -> float | None:
    """How long a logged sound plays (s): fixed when it started, or up to a later stop(); None
    while nothing has stopped it."""
    if e["duration"] is not None:
        return e["duration"]
    if e["stop_frame"] is None:
        return None
    return (e["stop_frame"] - e["frame"]) * xr.dt_ms / 1000 + e["stop_delay"]


def _sounds_like(hz, note: str) -> bool:
    return bool(hz) and abs(hz - FREQUENCIES[note]) <= PITCH_TOL * FREQUENCIES[note]


def _describe(heard) -> str:
    return ", ".join(f"{hz:.1f} Hz" if hz else "a sound of unknown pitch" for hz in heard) or "nothing"


def assert_burst_plays(xr, since: int, note: str, when: str, frame: int | None = None) -> None:
    """The burst of sound in `frame` (default: the latest since `since`) holds `note`'s frequency
    and no other key's."""
    __tracebackhide__ = True
    started = sounds(xr, since)
    assert started, f"{when}: expected {note} to sound; no sound started"
    at = max(e["frame"] for e in started) if frame is None else frame
    heard = [e["frequency"] for e in started if e["frame"] == at]
    assert any(_sounds_like(hz, note) for hz in heard), (
        f"{when}: expected {note} at {FREQUENCIES[note]} Hz (+-{PITCH_TOL:.0%}); observed {_describe(heard)}"
    )
    others = [n for n in NOTES if n != note and any(_sounds_like(hz, n) for hz in heard)]
    assert not others, f"{when}: expected only {note}; the same burst also played {others} ({_describe(heard)})"


def keys(xr) -> list:
    """The tagged keys from left to right (by x)."""
    found = sorted(
        (n for n in xr.tagged(KEY) if n.root == "scene"),
        key=lambda n: (n.bbox[0][0] + n.bbox[1][0]) / 2 if n.bbox else n.position[0],
    )
    assert len(found) == 5, f"expected 5 objects tagged {KEY!r}; observed {len(found)}"
    assert all(k.bbox for k in found), "expected every key to have a world bounding box (a mesh)"
    return found


def key_of(xr, note: str):
    found = [k for k in keys(xr) if isinstance(k.state, dict) and k.state.get("note") == note]
    assert len(found) == 1, f"expected one key whose state.note is {note!r}; observed {len(found)}"
    return found[0]


def state_of(xr, note: str) -> dict:
    return key_of(xr, note).state


def key_boxes(xr) -> dict:
    """Every key's world box, by note."""
    return {k.state.get("note"): k.bbox for k in keys(xr)}


def key_tops(xr) -> dict:
    """The top of every key's world box, by note."""
    return {n: box[1][1] for n, box in key_boxes(xr).items()}


def sunk(rest: dict, tops: dict) -> dict:
    """How far (m) each key is below its rest top."""
    return {n: rest[n] - tops[n] for n in NOTES}


def _mm(d: dict) -> dict:
    return {n: round(v * 1000, 1) for n, v in d.items()}


def assert_only_pressed(xr, notes, rest: dict, when: str) -> None:
    """The keys `notes` are down by 5-10 mm from their `rest` tops; every other key is still up."""
    __tracebackhide__ = True
    notes = [notes] if isinstance(notes, str) else list(notes)
    down = sunk(rest, key_tops(xr))
    for note in notes:
        assert PRESS_MIN <= down[note] <= PRESS_MAX, (
            f"{when}: expected {note} 5-10 mm down; observed it {down[note] * 1000:.1f} mm down"
        )
    moved = {n: d for n, d in down.items() if n not in notes and abs(d) >= MOVED}
    assert not moved, f"{when}: expected only {notes} to go down; observed others moved down by (mm) {_mm(moved)}"


def assert_all_up(xr, rest: dict, when: str) -> None:
    __tracebackhide__ = True
    moved = {n: d for n, d in sunk(rest, key_tops(xr)).items() if abs(d) >= MOVED}
    assert not moved, f"{when}: expected every key up, where it was; observed keys moved down by (mm) {_mm(moved)}"


def assert_states(xr, expected: dict, when: str) -> None:
    """Each note's state has `pressed` and `plays` as given: {note: (pressed, plays)}."""
    __tracebackhide__ = True
    for note, (pressed, plays) in expected.items():
        st = state_of(xr, note)
        assert bool(st.get("pressed")) is pressed and st.get("plays", 0) == plays, (
            f"{when}: expected {note} with pressed={pressed}, plays={plays}; observed its state {st}"
        )


# --- acting -------------------------------------------------------------------------------------


def over(box, dx: float = 0.0, dz: float = 0.0, up: float = 0.06):
    """A point `up` metres over the key's top, `dx`/`dz` from its centre."""
    (x0, _, z0), (x1, y1, z1) = box
    return ((x0 + x1) / 2 + dx, y1 + up, (z0 + z1) / 2 + dz)


def poke_key(xr, role: str, node, dx: float = 0.0, dz: float = 0.0) -> None:
    """Bring `role`'s index fingertip 6 cm over the key `node` (at dx, dz from its centre), then down
    1.2 cm into it."""
    hand = xr.hand(role)
    x, y, z = over(node.bbox, dx, dz)
    hand.move_hand((x, y, z), anchor="fingertip")
    hand.move_hand((x, node.bbox[1][1] - DEPTH, z), anchor="fingertip")


def poke(xr, role: str, note: str, dx: float = 0.0, dz: float = 0.0) -> None:
    poke_key(xr, role, key_of(xr, note), dx, dz)


def approach(xr, role: str, note: str) -> None:
    """Bring `role`'s fingertip over the key `note` from wherever the hand is (even below the row):
    back towards the user first, then up, then over the key, never through another key."""
    hand = xr.hand(role)
    x, y, z = hand.fingertip
    front = key_of(xr, note).bbox[1][2] + 0.15
    hand.move_hand((x, y, max(z, front)), anchor="fingertip")
    hand.move_hand((x, 1.35, max(z, front)), anchor="fingertip")


def lift(xr, role: str, by: float = 0.07) -> None:
    hand = xr.hand(role)
    x, y, z = hand.fingertip
    hand.move_hand((x, y + by, z), anchor="fingertip")


def frame_by_frame(xr, role: str, goal, rest: dict, since: int, extra: int = PROMPT + 1) -> list[dict]:
    """Move `role`'s fingertip to `goal` 1 cm per frame, then hold it there `extra` frames; after
    every frame, read the fingertip, every key's depth below `rest` and how many sounds started."""
    hand = xr.hand(role)
    x, y, z = hand.fingertip
    n = max(1, round(max(abs(goal[i] - (x, y, z)[i]) for i in range(3)) / 0.01))
    log = []
    for i in range(1, n + extra + 1):
        t = min(1.0, i / n)
        point = (x + (goal[0] - x) * t, y + (goal[1] - y) * t, z + (goal[2] - z) * t)
        if i <= n:
            hand.move_hand(point, anchor="fingertip", speed=3.0)  # one frame
        else:
            xr.step(1)
        log.append(
            {
                "frame": xr.frame,
                "tip": tuple(hand.fingertip),
                "down": sunk(rest, key_tops(xr)),
                "sounds": len(sounds(xr, since)),
            }
        )
    return log


# --- tests --------------------------------------------------------------------------------------


def test_the_keys_are_laid_out_in_a_row_from_c4_to_g4(xr):
    xr.settle()
    found = keys(xr)
    assert [k.state.get("note") if isinstance(k.state, dict) else None for k in found] == NOTES, (
        f"expected the notes {NOTES} from left to right; observed {[k.state for k in found]}"
    )
    for k in found:
        size = k.size
        assert all(abs(size[i] - KEY_SIZE[i]) <= SIZE_TOL * KEY_SIZE[i] for i in range(3)), (
            f"expected {k.state.get('note')} to be {KEY_SIZE[0]} x {KEY_SIZE[1]} x {KEY_SIZE[2]} m (x, y, z, "
            f"within {SIZE_TOL:.0%}); observed {size[0]:.3f} x {size[1]:.3f} x {size[2]:.3f}"
        )
    centres = [tuple((k.bbox[0][i] + k.bbox[1][i]) / 2 for i in range(3)) for k in found]
    gaps = [b[0] - a[0] for a, b in itertools.pairwise(centres)]
    assert all(abs(g - PITCH) < 0.004 for g in gaps), f"expected keys {PITCH} m apart along x; observed {gaps}"
    assert all(abs(c[1] - centres[2][1]) < 0.003 and abs(c[2] - centres[2][2]) < 0.003 for c in centres), (
        f"expected the keys side by side in one row along x; observed centres {centres}"
    )
    mid = centres[2]
    assert all(abs(mid[i] - ROW_CENTRE[i]) <= 0.01 for i in range(3)), (
        f"expected the middle key centred at {ROW_CENTRE}; observed {tuple(round(c, 3) for c in mid)}"
    )
    top = found[2].bbox[1][1]
    assert abs(top - 1.21) <= 0.005, f"expected the middle key's top face at y = 1.21; observed {top:.3f}"
    # Played from left to right (the keys found by where they are, not by their state), they sound
    # C4, D4, E4, F4, G4.
    since = sounds_from(xr)
    for i, note in enumerate(NOTES):
        poke_key(xr, "dominant", keys(xr)[i])
        assert len(sound_bursts(xr, since)) == i + 1, (
            f"expected one note for each key touched ({i + 1}); "
            f"observed sounds starting in frames {sound_bursts(xr, since)}"
        )
        assert_burst_plays(xr, since, note, f"touching key {i + 1} from the left")
        lift(xr, "dominant")
    assert_no_errors(xr)


def test_a_touch_plays_the_key_at_once_and_only_once_and_presses_only_that_key(xr):
    xr.settle()
    rest = key_tops(xr)
    box = key_boxes(xr)["E4"]
    hand = xr.hand("dominant")
    hand.move_hand(over(box, up=0.055), anchor="fingertip")
    since = sounds_from(xr)
    xr.step(1)
    assert not sounds(xr, since), "expected no sound before any key is touched"
    # Down into E4, one frame at a time.
    cx, cz = over(box)[0], over(box)[2]
    log = frame_by_frame(xr, "dominant", (cx, rest["E4"] - 0.015, cz), rest, since)
    entered = next(i for i, e in enumerate(log) if e["tip"][1] < rest["E4"])
    for e in log[:entered]:
        assert e["sounds"] == 0 and all(abs(d) < MOVED for d in e["down"].values()), (
            f"expected nothing to happen before the fingertip reached E4 (fingertip {e['tip'][1] - rest['E4']:+.3f} m "
            f"from its top); observed {e['sounds']} sound(s) and keys down by (mm) {_mm(e['down'])}"
        )
    entry_frame = log[entered]["frame"]
    bursts = sound_bursts(xr, since)
    assert len(bursts) == 1, (
        f"expected one note to start as the fingertip entered E4 (frame {entry_frame}, within {PROMPT} frames: 50 ms); "
        f"observed sounds starting in frames {bursts} by frame {log[-1]['frame']}"
    )
    assert entry_frame - 1 <= bursts[0] <= entry_frame + PROMPT, (
        f"expected E4 to start within {PROMPT} frames (50 ms) of the fingertip entering it (frame {entry_frame}); "
        f"observed it start in frame {bursts[0]}"
    )
    assert_burst_plays(xr, since, "E4", "touching E4")
    pressed_by = entered + PROMPT
    for e in log[pressed_by:]:
        down = e["down"]
        assert PRESS_MIN <= down["E4"] <= PRESS_MAX, (
            f"expected E4 5-10 mm down within {PROMPT} frames (50 ms) of the touch and while the finger is in it; "
            f"{e['frame'] - entry_frame} frame(s) after it observed it {down['E4'] * 1000:.1f} mm down"
        )
    for e in log:
        moved = {n: d for n, d in e["down"].items() if n != "E4" and abs(d) >= MOVED}
        assert not moved, f"expected only E4 to go down; observed others down by (mm) {_mm(moved)}"
    assert_states(
        xr,
        {"E4": (True, 1), "C4": (False, 0), "D4": (False, 0), "F4": (False, 0), "G4": (False, 0)},
        "while the finger is in E4",
    )
    # The finger stays in the key for four seconds: no second note, still down.
    xr.step(240)
    bursts = sound_bursts(xr, since)
    assert len(bursts) == 1, (
        f"expected one note for one touch held four seconds; observed sounds starting in frames {bursts}"
    )
    assert_states(xr, {"E4": (True, 1)}, "after the finger stayed in E4 for four seconds")
    lengths = [sound_length(xr, e) for e in sounds(xr, since)]
    assert all(n is not None and n <= LONGEST_NOTE for n in lengths), (
        f"expected a short note (at most about one second) for the touch; observed sounds lasting "
        f"{['still playing' if n is None else f'{n:.2f} s' for n in lengths]} four seconds after it started"
    )
    assert_only_pressed(xr, "E4", rest, "after the finger stayed in E4 for four seconds")
    # Up and out, one frame at a time: E4 comes back up as the finger leaves it.
    tip = hand.fingertip
    log = frame_by_frame(xr, "dominant", (tip[0], rest["E4"] + 0.05, tip[2]), rest, since)
    clear = next(i for i, e in enumerate(log) if e["tip"][1] >= rest["E4"] + 0.02 - 1e-4)
    for e in log[clear + PROMPT :]:
        assert abs(e["down"]["E4"]) < MOVED, (
            f"expected E4 back up where it was within {PROMPT} frames (50 ms) of the finger leaving it "
            f"(2 cm above it); "
            f"observed it {e['down']['E4'] * 1000:.1f} mm down with the fingertip "
            f"{e['tip'][1] - rest['E4']:.3f} m above its top"
        )
    assert_states(xr, {"E4": (False, 1)}, "after the finger left E4")
    assert len(sound_bursts(xr, since)) == 1, "expected no sound as the finger leaves the key"
    assert_all_up(xr, rest, "after the finger left E4")
    poke(xr, "dominant", "E4")  # a second touch plays again
    bursts = sound_bursts(xr, since)
    assert len(bursts) == 2, f"expected a second note for the second touch; observed sounds starting in frames {bursts}"
    assert_burst_plays(xr, since, "E4", "touching E4 again")
    assert_states(xr, {"E4": (True, 2)}, "touching E4 again")
    assert_only_pressed(xr, "E4", rest, "while the finger is in E4 again")
    assert_no_errors(xr)


def test_a_touch_anywhere_on_a_key_plays_it_and_a_fingertip_that_misses_plays_nothing(xr):
    xr.settle()
    rest = key_tops(xr)
    boxes = key_boxes(xr)
    since = sounds_from(xr)
    hand = xr.hand("dominant")
    # Near misses, held a second each: 2 cm over D4, 2 cm over F4's front end, left of the row
    # beside C4, in front of the row before E4, at the keys' height.
    (c0, _, _), (_, _, c1) = boxes["C4"]
    misses = [
        ("2 cm above D4", over(boxes["D4"], up=0.02)),
        ("2 cm above F4 near its front end", over(boxes["F4"], dz=0.045, up=0.02)),
        ("beside the row, 2 cm left of C4", (c0 - 0.02, rest["C4"] - DEPTH, (boxes["C4"][0][2] + c1) / 2)),
        ("in front of the row, 3 cm before E4", (over(boxes["E4"])[0], rest["E4"] - DEPTH, boxes["E4"][1][2] + 0.03)),
    ]
    for where, point in misses:
        x, y, z = point
        hand.move_hand((x, y + 0.05, z), anchor="fingertip")
        hand.move_hand(point, anchor="fingertip")
        xr.step(60)
        heard = [e["frequency"] for e in sounds(xr, since)]
        assert not heard, f"expected no note with the fingertip {where}; observed {_describe(heard)}"
        assert_all_up(xr, rest, f"with the fingertip {where}")
        assert_states(xr, {n: (False, 0) for n in NOTES}, f"with the fingertip {where}")
        hand.move_hand((x, y + 0.05, z), anchor="fingertip")
    # Touches away from the key's centre: near the front and back ends, near the sides.
    touches = [
        ("D4", "near its front end", 0.0, 0.045),
        ("G4", "near its back end", 0.0, -0.045),
        ("C4", "near its left side", -0.015, 0.02),
        ("F4", "near its right side", 0.015, -0.02),
    ]
    plays = dict.fromkeys(NOTES, 0)
    for i, (note, where, dx, dz) in enumerate(touches, start=1):
        poke(xr, "dominant", note, dx, dz)
        plays[note] += 1
        bursts = sound_bursts(xr, since)
        assert len(bursts) == i, (
            f"expected a note for the touch of {note} {where} ({i} so far); observed sounds starting in frames {bursts}"
        )
        assert_burst_plays(xr, since, note, f"touching {note} {where}")
        assert_only_pressed(xr, note, rest, f"while the finger is in {note} {where}")
        assert_states(xr, {n: (n == note, plays[n]) for n in NOTES}, f"touching {note} {where}")
        lift(xr, "dominant")
    assert_no_errors(xr)


def test_either_hand_plays_and_both_play_at_the_same_time(xr):
    xr.settle()
    since = sounds_from(xr)
    rest = key_tops(xr)
    # Each hand plays the outer key on its own side.
    outer = {"left": "C4", "right": "G4"}
    for i, role in enumerate(("non_dominant", "dominant"), start=1):
        note = outer[xr.handedness(role)]
        poke(xr, role, note)
        st = state_of(xr, note)
        assert st.get("pressed") is True and st.get("plays") == 1, (
            f"expected the {role} ({xr.handedness(role)}) hand to play {note}; observed its state {st}"
        )
        bursts = sound_bursts(xr, since)
        assert len(bursts) == i, f"expected {i} note(s) so far; observed sounds in frames {bursts}"
        assert_burst_plays(xr, since, note, f"the {role} ({xr.handedness(role)}) hand touching {note}")
        assert_only_pressed(xr, note, rest, f"while the {role} hand is in {note}")
        lift(xr, role)
    assert_states(xr, {n: (False, 0) for n in ("D4", "E4", "F4")}, "after each hand played its outer key")
    # Both at once: the non-dominant hand holds its key while the dominant hand plays another.
    near = {"left": "D4", "right": "F4"}
    held = near[xr.handedness("non_dominant")]
    other = near[xr.handedness("dominant")]
    poke(xr, "non_dominant", held)
    assert_burst_plays(xr, since, held, f"the non-dominant hand touching {held}")
    poke(xr, "dominant", other)
    bursts = sound_bursts(xr, since)
    assert len(bursts) == 4, (
        f"expected the dominant hand's touch of {other} to play while the other hand holds {held} (4 notes so far); "
        f"observed sounds in frames {bursts}"
    )
    assert_burst_plays(xr, since, other, f"the dominant hand touching {other} while the other hand holds {held}")
    assert_only_pressed(xr, [held, other], rest, f"with one finger in {held} and the other in {other}")
    assert_states(xr, {held: (True, 1), other: (True, 1)}, f"with one finger in {held} and the other in {other}")
    xr.step(90)
    assert len(sound_bursts(xr, since)) == 4, "expected no note to repeat while both fingers stay in their keys"
    # Lifting the dominant finger releases only its key; the held key stays down and silent.
    lift(xr, "dominant")
    xr.step(PROMPT)
    assert_only_pressed(xr, held, rest, f"after the dominant finger left {other} (the other still in {held})")
    assert_states(xr, {held: (True, 1), other: (False, 1)}, f"after the dominant finger left {other}")
    assert len(sound_bursts(xr, since)) == 4, "expected no note as one finger leaves its key"
    # And the other way round: the dominant hand holds a key while the non-dominant one lifts and plays again.
    poke(xr, "dominant", other)
    lift(xr, "non_dominant")
    xr.step(PROMPT)
    assert_only_pressed(xr, other, rest, f"after the non-dominant finger left {held} (the other in {other})")
    poke(xr, "non_dominant", held)
    bursts = sound_bursts(xr, since)
    assert len(bursts) == 6, f"expected 6 notes in all (one per touch); observed sounds in frames {bursts}"
    assert_burst_plays(xr, since, held, f"the non-dominant hand touching {held} again while the other holds {other}")
    assert_only_pressed(xr, [held, other], rest, f"with one finger in {held} and the other in {other} again")
    assert_states(xr, {held: (True, 2), other: (True, 2)}, "with both fingers in their keys again")
    lift(xr, "non_dominant")
    lift(xr, "dominant")
    xr.step(PROMPT)
    assert_all_up(xr, rest, "after both fingers left")
    assert_no_errors(xr)


def test_the_piano_stays_in_the_room_as_the_user_moves(xr):
    xr.settle()
    rest = key_boxes(xr)

    def assert_in_place(when: str) -> None:
        __tracebackhide__ = True
        now = key_boxes(xr)
        worst = max(abs(now[n][j][i] - rest[n][j][i]) for n in NOTES for j in range(2) for i in range(3))
        assert worst < 0.003, (
            f"{when}: expected the keys to stay where they were in the room; observed one moved {worst:.3f} m "
            f"(middle key centre now {tuple(round((now['E4'][0][i] + now['E4'][1][i]) / 2, 3) for i in range(3))})"
        )

    head = xr.head
    head.rotate(pitch=-30)
    xr.step(10)
    assert_in_place("after the user looked down")
    head.move((0.0, -0.35, 0.0))
    xr.step(10)
    assert_in_place("after the user crouched")
    head.move((-0.15 if xr.handedness("dominant") == "right" else 0.15, 0.0, 0.1))
    xr.step(10)
    assert_in_place("after the user stepped sideways and back")
    head.rotate(yaw=25 if xr.handedness("dominant") == "right" else -25)
    xr.step(10)
    assert_in_place("after the user turned")
    # Played from there, crouched, looking down and to the side: the key still plays, and stays put.
    since = sounds_from(xr)
    tops = {n: box[1][1] for n, box in rest.items()}
    note = "F4" if xr.handedness("dominant") == "right" else "D4"
    approach(xr, "dominant", note)
    poke(xr, "dominant", note)
    bursts = sound_bursts(xr, since)
    assert len(bursts) == 1, f"expected one note for the touch of {note}; observed sounds in frames {bursts}"
    assert_burst_plays(xr, since, note, f"touching {note} while crouched, looking down and to the side")
    assert_only_pressed(xr, note, tops, f"while the finger is in {note} (user crouched)")
    lift(xr, "dominant")
    xr.step(PROMPT)
    assert_in_place("after the key was played")
    assert_no_errors(xr)
