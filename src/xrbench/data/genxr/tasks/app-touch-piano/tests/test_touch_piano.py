"""Runtime tests of the touch piano.

They check the five keys tagged 'piano-key' (size, spacing, notes from left to right, both as
their state names them and as they sound: poking each key in turn plays C4, D4, E4, F4, G4); that
a fingertip poking a key from above plays that key's note exactly once per touch (counted both in
the key's state and in the harness's log of the sounds the page starts: one burst of sound per
touch, not one per frame, at that note's frequency and no other key's), presses only that key
down by 5-10 mm (the others do not move) and lets it come back up; and that either hand can play.
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

pytestmark = pytest.mark.xr_scenes("empty")


def sounds_from(xr) -> int:
    """Where the sounds from now on begin in the harness's sound log (it logs every sound started)."""
    return len(xr.audio())


def sounds(xr, since: int) -> list[dict]:
    """Every sound started since `since`: {'kind', 'frame', 'frequency'} (pitch in Hz, or None)."""
    return xr.audio()[since:]


def sound_bursts(xr, since: int) -> list[int]:
    """Frames in which at least one sound started (a chord of oscillators counts once)."""
    return sorted({e["frame"] for e in sounds(xr, since)})


def _sounds_like(hz, note: str) -> bool:
    return bool(hz) and abs(hz - FREQUENCIES[note]) <= PITCH_TOL * FREQUENCIES[note]


def assert_last_burst_plays(xr, since: int, note: str, when: str) -> None:
    """The latest burst of sound since `since` holds `note`'s frequency and no other key's."""
    __tracebackhide__ = True
    started = sounds(xr, since)
    assert started, f"{when}: expected {note} to sound; no sound started"
    last = max(e["frame"] for e in started)
    heard = [e["frequency"] for e in started if e["frame"] == last]
    described = ", ".join(f"{hz:.1f} Hz" if hz else "a sound of unknown pitch" for hz in heard)
    assert any(_sounds_like(hz, note) for hz in heard), (
        f"{when}: expected {note} at {FREQUENCIES[note]} Hz (+-{PITCH_TOL:.0%}); observed {described}"
    )
    others = [n for n in NOTES if n != note and any(_sounds_like(hz, n) for hz in heard)]
    assert not others, f"{when}: expected only {note}; the same burst also played {others} ({described})"


def keys(xr) -> list:
    """The tagged keys from left to right (by x)."""
    found = sorted(xr.tagged(KEY), key=lambda n: (n.bbox[0][0] + n.bbox[1][0]) / 2 if n.bbox else n.position[0])
    assert len(found) == 5, f"expected 5 objects tagged {KEY!r}; observed {len(found)}"
    return found


def key_top(xr, note: str) -> float:
    node = next(k for k in keys(xr) if k.state.get("note") == note)
    return node.bbox[1][1]


def state_of(xr, note: str) -> dict:
    return next(k.state for k in keys(xr) if k.state.get("note") == note)


def key_tops(xr) -> dict:
    """The top of every key's world box, by note."""
    return {k.state.get("note"): k.bbox[1][1] for k in keys(xr)}


def assert_only_pressed(xr, note: str, rest: dict, when: str) -> None:
    """`note`'s key is down by 5-10 mm from its `rest` top; every other key is still up."""
    __tracebackhide__ = True
    tops = key_tops(xr)
    sunk = rest[note] - tops[note]
    assert 0.004 <= sunk <= 0.011, f"{when}: expected {note} 5-10 mm down; observed it {sunk * 1000:.1f} mm down"
    moved = {n: round((rest[n] - tops[n]) * 1000, 1) for n in NOTES if n != note and abs(rest[n] - tops[n]) >= 0.0015}
    assert not moved, f"{when}: expected only {note} to go down; observed others down by (mm) {moved}"


def poke(xr, role: str, note: str) -> None:
    """Bring `role`'s index fingertip 6 cm over the key whose state names `note`, then down into it."""
    poke_key(xr, role, next(k for k in keys(xr) if k.state.get("note") == note))


def poke_key(xr, role: str, node) -> None:
    """Bring `role`'s index fingertip 6 cm over the key `node`, then down into it."""
    (x0, _, z0), (x1, y1, z1) = node.bbox
    hand = xr.hand(role)
    hand.move_hand(((x0 + x1) / 2, y1 + 0.06, (z0 + z1) / 2), anchor="fingertip")
    hand.reach_to(node, depth=0.012)


def lift(xr, role: str) -> None:
    hand = xr.hand(role)
    x, y, z = hand.fingertip
    hand.move_hand((x, y + 0.07, z), anchor="fingertip")


def test_the_keys_are_laid_out_in_a_row_from_c4_to_g4(xr):
    xr.step(1)
    found = keys(xr)
    assert [k.state.get("note") for k in found] == NOTES, (
        f"expected the notes {NOTES} from left to right; observed {[k.state.get('note') for k in found]}"
    )
    for k in found:
        sx, sy, sz = k.size
        assert abs(sx - 0.05) < 0.006 and abs(sy - 0.02) < 0.006 and abs(sz - 0.12) < 0.01, (
            f"expected {k.state.get('note')} to be 0.05 x 0.02 x 0.12 m; observed {sx:.3f} x {sy:.3f} x {sz:.3f}"
        )
    centres = [((k.bbox[0][0] + k.bbox[1][0]) / 2) for k in found]
    gaps = [b - a for a, b in itertools.pairwise(centres)]
    assert all(abs(g - 0.055) < 0.004 for g in gaps), f"expected keys 0.055 m apart; observed {gaps}"
    mid = found[2].bbox
    centre = tuple((mid[0][i] + mid[1][i]) / 2 for i in range(3))
    assert all(abs(centre[i] - ROW_CENTRE[i]) < 0.015 for i in range(3)), (
        f"expected the middle key centred at {ROW_CENTRE}; observed {tuple(round(c, 3) for c in centre)}"
    )
    # Played from left to right (the keys found by where they are, not by their state), they sound
    # C4, D4, E4, F4, G4.
    since = sounds_from(xr)
    for i, note in enumerate(NOTES):
        poke_key(xr, "dominant", keys(xr)[i])
        assert len(sound_bursts(xr, since)) == i + 1, (
            f"expected one note for each key touched ({i + 1}); "
            f"observed sounds starting in frames {sound_bursts(xr, since)}"
        )
        assert_last_burst_plays(xr, since, note, f"touching key {i + 1} from the left")
        lift(xr, "dominant")
    assert_no_errors(xr)


def test_a_touch_plays_the_key_once_and_presses_only_that_key(xr):
    xr.step(1)
    since = sounds_from(xr)
    rest = key_tops(xr)
    rest_top = rest["E4"]
    poke(xr, "dominant", "E4")
    xr.step(30)  # the finger stays in the key for half a second
    st = state_of(xr, "E4")
    assert st.get("pressed") is True and st.get("plays") == 1, f"expected E4 pressed and played once; observed {st}"
    assert len(sound_bursts(xr, since)) == 1, (
        f"expected one note to start for one touch; observed sounds starting in frames {sound_bursts(xr, since)}"
    )
    assert_last_burst_plays(xr, since, "E4", "touching E4")
    for note in ("D4", "F4", "C4", "G4"):
        other = state_of(xr, note)
        assert not other.get("pressed") and other.get("plays", 0) == 0, (
            f"expected only E4 to react to the touch; observed {note} with state {other}"
        )
    assert_only_pressed(xr, "E4", rest, "while the finger is in E4")
    lift(xr, "dominant")
    assert state_of(xr, "E4").get("pressed") is False
    assert abs(key_top(xr, "E4") - rest_top) < 0.0015, "expected the key back up once the finger left it"
    poke(xr, "dominant", "E4")  # a second touch plays again
    assert state_of(xr, "E4").get("plays") == 2
    bursts = sound_bursts(xr, since)
    assert len(bursts) == 2, f"expected a second note for the second touch; observed {bursts}"
    assert_last_burst_plays(xr, since, "E4", "touching E4 again")
    assert_no_errors(xr)


def test_either_hand_plays_the_key_it_touches(xr):
    xr.step(1)
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
        assert_last_burst_plays(xr, since, note, f"the {role} ({xr.handedness(role)}) hand touching {note}")
        assert_only_pressed(xr, note, rest, f"while the {role} hand is in {note}")
        lift(xr, role)
    assert all(state_of(xr, n).get("plays", 0) == 0 for n in ("D4", "E4", "F4"))
    assert_no_errors(xr)
