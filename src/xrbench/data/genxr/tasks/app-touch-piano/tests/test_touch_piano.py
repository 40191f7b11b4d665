"""Runtime tests of the touch piano.

They check the five keys tagged 'piano-key' (size, spacing, notes from left to right); that a
fingertip poking a key from above plays that key's note exactly once per touch (counted both in
the key's state and by spying on the page's Web Audio sources: one burst of sound per touch, not
one per frame), presses only that key down by 5-10 mm and lets it come back up; and that either
hand can play.
"""

from __future__ import annotations

import itertools

import pytest

from xrbench.xrtest.assertions import assert_no_errors

KEY = "piano-key"
NOTES = ["C4", "D4", "E4", "F4", "G4"]
ROW_CENTRE = (0.0, 1.2, -0.45)

pytestmark = pytest.mark.xr_scenes("empty")

# Records every Web Audio source start (oscillators, buffers) and audio element play, with the frame.
_SPY_JS = """
() => {
  if (window.__audioSpy) return;
  const log = window.__audioSpy = [];
  const wrap = (proto, name, kind) => {
    if (!proto || typeof proto[name] !== 'function') return;
    const original = proto[name];
    proto[name] = function (...args) {
      // Video elements (the simulator's camera feed) are not notes.
      if (!(this instanceof HTMLVideoElement)) log.push({kind, frame: window.__xrtest.frames});
      return original.apply(this, args);
    };
  };
  wrap(window.AudioScheduledSourceNode && AudioScheduledSourceNode.prototype, 'start', 'source');
  if (AudioBufferSourceNode.prototype.hasOwnProperty('start')) wrap(AudioBufferSourceNode.prototype, 'start', 'buffer');
  wrap(HTMLMediaElement.prototype, 'play', 'media');
}
"""


def spy_on_audio(xr) -> None:
    xr.evaluate(_SPY_JS)


def sound_bursts(xr) -> list[int]:
    """Frames in which at least one sound started (a chord of oscillators counts once)."""
    return sorted({e["frame"] for e in xr.evaluate("() => window.__audioSpy || []")})


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


def poke(xr, role: str, note: str) -> None:
    """Bring `role`'s index fingertip 6 cm over the key, then down into it."""
    node = next(k for k in keys(xr) if k.state.get("note") == note)
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
    assert_no_errors(xr)


def test_a_touch_plays_the_key_once_and_presses_only_that_key(xr):
    xr.step(1)
    spy_on_audio(xr)
    rest_top = key_top(xr, "E4")
    poke(xr, "dominant", "E4")
    xr.step(30)  # the finger stays in the key for half a second
    st = state_of(xr, "E4")
    assert st.get("pressed") is True and st.get("plays") == 1, f"expected E4 pressed and played once; observed {st}"
    assert len(sound_bursts(xr)) == 1, (
        f"expected one note to start for one touch; observed sounds starting in frames {sound_bursts(xr)}"
    )
    for note in ("D4", "F4", "C4", "G4"):
        other = state_of(xr, note)
        assert not other.get("pressed") and other.get("plays", 0) == 0, (
            f"expected only E4 to react to the touch; observed {note} with state {other}"
        )
    sunk = rest_top - key_top(xr, "E4")
    assert 0.004 <= sunk <= 0.011, f"expected the touched key 5-10 mm down; observed it {sunk * 1000:.1f} mm down"
    lift(xr, "dominant")
    assert state_of(xr, "E4").get("pressed") is False
    assert abs(key_top(xr, "E4") - rest_top) < 0.0015, "expected the key back up once the finger left it"
    poke(xr, "dominant", "E4")  # a second touch plays again
    assert state_of(xr, "E4").get("plays") == 2
    assert len(sound_bursts(xr)) == 2, f"expected a second note for the second touch; observed {sound_bursts(xr)}"
    assert_no_errors(xr)


def test_either_hand_plays_the_key_it_touches(xr):
    xr.step(1)
    spy_on_audio(xr)
    # Each hand plays the outer key on its own side.
    outer = {"left": "C4", "right": "G4"}
    for i, role in enumerate(("non_dominant", "dominant"), start=1):
        note = outer[xr.handedness(role)]
        poke(xr, role, note)
        st = state_of(xr, note)
        assert st.get("pressed") is True and st.get("plays") == 1, (
            f"expected the {role} ({xr.handedness(role)}) hand to play {note}; observed its state {st}"
        )
        assert len(sound_bursts(xr)) == i, f"expected {i} note(s) so far; observed sounds in frames {sound_bursts(xr)}"
        lift(xr, role)
    assert all(state_of(xr, n).get("plays", 0) == 0 for n in ("D4", "E4", "F4"))
    assert_no_errors(xr)
