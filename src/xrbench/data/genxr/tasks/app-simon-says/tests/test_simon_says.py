"""Runtime tests of the Simon-says game.

They check
- the four pads tagged 'simon-pad' (0.11 x 0.02 x 0.11 m within 20 %, centred where stated within
  1 cm, dark in their dim colours) and the score panel tagged 'score-panel' (0.4 x 0.2 m within
  20 %, at most 5 cm thick, centred at (0, 1.45, -0.7) within 3 cm, showing text, best 0 and last
  0 at the start);
- the playbacks, in the harness's log of the sounds the page starts: the first one (green alone)
  within 2 s of the app opening, each later one 1 s after the full repeat that earned it (within
  3 frames), its steps 0.6 s apart, each a tone of the step's pad (pitch within 2 %, 0.3-0.5 s
  long), the step's pad lit while it sounds (4 and 20 frames after its start) and every pad dark
  between steps (28 and 34 frames after), no sound at all while the user takes their time;
- the user's touches, poked into the pads from above one frame at a time: a correct pad's tone
  within 3 frames of the fingertip entering it and the pad lit, a wrong pad's error tone (110 Hz,
  0.6-1.0 s) within 3 frames instead of the pad's tone, then the new game's playback (green
  alone) 2 s after the wrong touch (within 3 frames);
- touches outside the user's turn (during a playback, in the pause after a full repeat and after
  a wrong pad) and a fingertip hovering 2 cm over a pad play nothing and count for nothing; a
  finger kept in a pad counts once;
- the score panel's state (best, last) and picture: a new best, and a game's end, change what it
  shows within 30 frames (0.5 s).
The hands take turns (dominant, non-dominant, ...). Each test runs for a right- and for a
left-dominant user.
"""

from __future__ import annotations

import time

import numpy as np
import pytest

from xrbench.xrtest.assertions import assert_no_errors

PAD = "simon-pad"
PANEL = "score-panel"
ORDER = ["green", "yellow", "red", "blue", "blue", "red", "yellow", "green"]
CENTRES = {
    "green": (-0.065, 1.0, -0.465),
    "red": (0.065, 1.0, -0.465),
    "yellow": (-0.065, 1.0, -0.335),
    "blue": (0.065, 1.0, -0.335),
}
DIM = {"green": 0x1B5E20, "red": 0x8B1A1A, "yellow": 0x7A6A00, "blue": 0x0D3B66}
LIT = {"green": 0x4CFF4C, "red": 0xFF4040, "yellow": 0xFFEE33, "blue": 0x40A0FF}
HZ = {"green": 392.0, "red": 329.63, "yellow": 261.63, "blue": 196.0}
ERROR_HZ = 110.0
PITCH_TOL = 0.02
PAD_SIZE = (0.11, 0.02, 0.11)
SIZE_TOL = 0.2
COLOUR_TOL = 48  # per channel (the instruction says 40)
PROMPT = 3  # frames: "within 50 ms" at 60 Hz
STEP = 36  # frames: 0.6 s
PAUSE = 60  # frames: 1 s after a full repeat
GAME_OVER = 120  # frames: 2 s after a wrong pad
FIRST_BY = 120 + PROMPT  # frames: the first playback starts within 2 s of the app opening
TONE_LEN = (0.3, 0.5)
ERROR_LEN = (0.6, 1.0)
PANEL_CENTRE = (0.0, 1.45, -0.7)
PANEL_SIZE = (0.4, 0.2)
PANEL_PROMPT = 30  # frames: half a second
CHANGED = 40  # pixels of the panel's picture that a new number changes, at least

pytestmark = pytest.mark.xr_scenes("empty")


# --- reading ------------------------------------------------------------------------------------


def sounds(xr, since: int = 0) -> list[dict]:
    return xr.audio()[since:]


def sound_length(xr, e: dict) -> float | None:
    if e["duration"] is not None:
        return e["duration"]
    if e["stop_frame"] is None:
        return None
    return (e["stop_frame"] - e["frame"]) * xr.dt_ms / 1000 + e["stop_delay"]


def name_of(hz) -> str:
    """The pad (or 'error') whose pitch a sound has, or a description of it."""
    if not hz:
        return "a sound of unknown pitch"
    for name, f in [*HZ.items(), ("error", ERROR_HZ)]:
        if abs(hz - f) <= PITCH_TOL * f:
            return name
    return f"{hz:.1f} Hz"


def describe(entries: list[dict]) -> str:
    return ", ".join(f"{name_of(e['frequency'])} (frame {e['frame']})" for e in entries) or "nothing"


def pads(xr) -> dict:
    """The four pads by their state.colour."""
    found = [n for n in xr.tagged(PAD) if n.root == "scene"]
    assert len(found) == 4, f"expected 4 objects tagged {PAD!r}; observed {len(found)}"
    by = {}
    for n in found:
        colour = n.state.get("colour") if isinstance(n.state, dict) else None
        assert colour in CENTRES and colour not in by, (
            f"expected the pads' state.colour to be green, red, yellow and blue, once each; observed {n.state!r}"
        )
        assert n.bbox is not None, f"expected the {colour} pad to have a world bounding box (a mesh)"
        by[colour] = n
    return by


def _close(hexstr, want: int) -> bool:
    if not hexstr:
        return False
    got = int(hexstr.lstrip("#"), 16)
    return all(abs(((got >> s) & 255) - ((want >> s) & 255)) <= COLOUR_TOL for s in (16, 8, 0))


def _black(hexstr) -> bool:
    if not hexstr:
        return True
    got = int(hexstr.lstrip("#"), 16)
    return all(((got >> s) & 255) <= COLOUR_TOL for s in (16, 8, 0))


def look(node) -> str:
    """'lit', 'dark' or 'neither' (with its colours)."""
    colour = node.state.get("colour")
    if _close(node.color, LIT[colour]) or _close(node.emissive, LIT[colour]):
        return "lit"
    if _close(node.color, DIM[colour]) and _black(node.emissive):
        return "dark"
    return f"neither (colour {node.color}, emissive {node.emissive})"


def assert_looks(xr, lit: str | None, when: str) -> None:
    """Only `lit` (a colour, or None) is lit; every other pad is dark."""
    __tracebackhide__ = True
    seen = {c: look(n) for c, n in pads(xr).items()}
    want = {c: ("lit" if c == lit else "dark") for c in CENTRES}
    assert seen == want, f"{when} (frame {xr.frame}): expected the pads {want}; observed {seen}"


def panel(xr):
    found = [n for n in xr.tagged(PANEL) if n.root == "scene"]
    assert len(found) == 1, f"expected one object tagged {PANEL!r}; observed {len(found)}"
    assert found[0].bbox is not None, f"expected the {PANEL!r} to be a mesh with a bounding box"
    return found[0]


def panel_state(xr) -> tuple:
    s = panel(xr).state
    s = s if isinstance(s, dict) else {}
    return s.get("best"), s.get("last")


def panel_picture(xr) -> np.ndarray:
    lo, hi = panel(xr).bbox
    centre = ((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, hi[2])
    return xr.picture(centre, (1, 0, 0), (0, 1, 0), (hi[0] - lo[0], hi[1] - lo[1]), (128, 64)).astype(int)


def text_pixels(shot: np.ndarray) -> int:
    """Pixels that clearly differ (by over 48 in a channel) from the picture's most common colour."""
    flat = shot.reshape(-1, 3)
    colours, counts = np.unique(flat // 8, axis=0, return_counts=True)
    main = colours[np.argmax(counts)] * 8 + 4
    return int((np.abs(flat - main).max(axis=1) > 48).sum())


def differing(a: np.ndarray, b: np.ndarray) -> int:
    return int((np.abs(a - b).max(axis=2) > 48).sum())


def assert_panel(xr, best: int, last: int, before: np.ndarray | None, when: str) -> np.ndarray:
    """The panel's state is (best, last); its picture differs from `before` (when given)."""
    __tracebackhide__ = True
    got = panel_state(xr)
    assert got == (best, last), f"{when}: expected the panel's state best={best}, last={last}; observed {got}"
    now = panel_picture(xr)
    if before is not None:
        n = differing(before, now)
        for _ in range(4):
            # Text laid out off the main thread (SDF text) may take a moment of real time to show.
            if n >= CHANGED:
                break
            time.sleep(0.05)
            xr.step(1)
            now = panel_picture(xr)
            n = differing(before, now)
        assert n >= CHANGED, (
            f"{when}: expected the score panel to show the new numbers within half a second; it looks the same as "
            f"before ({n} pixels differ, at least {CHANGED} expected)"
        )
    return now


# --- acting -------------------------------------------------------------------------------------


def hover(xr, role: str, colour: str, up: float = 0.06) -> None:
    x, y, z = CENTRES[colour]
    xr.hand(role).move_hand((x, y + 0.01 + up, z), anchor="fingertip")


def poke(xr, role: str, colour: str, lift: bool = True) -> int:
    """Poke `role`'s index fingertip into the pad from 6 cm above, the last 2.5 cm one frame per cm;
    returns the frame in which the fingertip entered the pad; then lift it 6 cm (unless not `lift`)."""
    hand = xr.hand(role)
    x, y, z = CENTRES[colour]
    top = y + 0.01
    hover(xr, role, colour)
    hand.move_hand((x, top + 0.025, z), anchor="fingertip")
    entered = None
    for dy in (0.015, 0.005, -0.005, -0.012):
        hand.move_hand((x, top + dy, z), anchor="fingertip", speed=3.0)
        if entered is None and hand.fingertip[1] < top:
            entered = xr.frame
    assert entered is not None, "the test's fingertip did not enter the pad"
    if lift:
        hover(xr, role, colour)
    return entered


def step_to(xr, frame: int) -> None:
    if frame > xr.frame:
        xr.step(frame - xr.frame)


def roles():
    while True:
        yield "dominant"
        yield "non_dominant"


class Game:
    """Follows the game: where the sound log was read up to, and the rounds played."""

    def __init__(self, xr):
        self.xr = xr
        self.read = 0  # sounds already accounted for
        self.hands = roles()

    def new_sounds(self) -> list[dict]:
        return sounds(self.xr, self.read)

    def expect_playback(self, n: int, start: int | None, when: str, lights: bool = True) -> int:
        """Round of length `n` plays, its first step at frame `start` (-1..+3 frames; None: by the
        first playback's deadline); checks every step's tone, and (with `lights`) the pads' light.
        Returns the frame after which the user's turn has begun."""
        __tracebackhide__ = True
        xr = self.xr
        if start is None:
            while xr.frame < FIRST_BY and not self.new_sounds():
                xr.step(1)
            got = self.new_sounds()
            assert got, f"{when}: expected the first playback to start within 2 s of the app opening; no sound started"
            start = got[0]["frame"]
        first = start
        for k in range(n):
            pad = ORDER[k % len(ORDER)]
            due = first + k * STEP
            step_to(xr, due + PROMPT)
            got = self.new_sounds()
            assert len(got) == 1, (
                f"{when}: expected step {k + 1} of {n} ({pad}) to start sounding at frame {due} (0.6 s after the "
                f"step before, within 50 ms); by frame {xr.frame} observed {describe(got)}"
            )
            e = got[0]
            assert name_of(e["frequency"]) == pad, (
                f"{when}: expected step {k + 1} of {n} to sound {pad} ({HZ[pad]} Hz); observed {describe(got)}"
            )
            assert due - 1 <= e["frame"] <= due + PROMPT, (
                f"{when}: expected step {k + 1} of {n} ({pad}) at frame {due} (within 50 ms); observed frame "
                f"{e['frame']}"
            )
            assert (e.get("start_delay") or 0) <= 0.05, (
                f"{when}: expected step {k + 1}'s tone to start when it is played, not scheduled "
                f"{e['start_delay']:.2f} s ahead"
            )
            length = sound_length(xr, e)
            assert length is not None and TONE_LEN[0] <= length <= TONE_LEN[1], (
                f"{when}: expected step {k + 1}'s tone ({pad}) to last 0.4 s (0.3-0.5 s); observed "
                f"{'no end' if length is None else f'{length:.2f} s'}"
            )
            self.read += 1
            at = e["frame"]
            if k == 0:
                first = at
            if lights:
                for dt, lit in ((4, pad), (20, pad), (28, None), (34, None)):
                    step_to(xr, at + dt)
                    assert_looks(xr, lit, f"{when}, {dt} frames into step {k + 1} of {n} ({pad})")
            else:
                step_to(xr, at + 34)
        assert not self.new_sounds(), (
            f"{when}: expected no other sound in the playback; observed {describe(self.new_sounds())}"
        )
        return xr.frame

    def touch(self, colour: str, expect: str, when: str, role: str | None = None) -> int:
        """Poke `colour`; expect its tone ('pad'), the error sound ('error') or nothing ('none');
        returns the frame the fingertip entered."""
        __tracebackhide__ = True
        xr = self.xr
        role = role or next(self.hands)
        entered = poke(xr, role, colour)
        got = self.new_sounds()
        if expect == "none":
            assert not got, (
                f"{when}: expected the touch of {colour} ({role} hand) to play nothing; observed {describe(got)}"
            )
            return entered
        want = colour if expect == "pad" else "error"
        assert len(got) == 1 and name_of(got[0]["frequency"]) == want, (
            f"{when}: expected the touch of {colour} ({role} hand) to play "
            f"{'its tone' if want == colour else 'the error sound (110 Hz)'} alone; observed {describe(got)}"
        )
        e = got[0]
        assert entered - 1 <= e["frame"] <= entered + PROMPT, (
            f"{when}: expected the sound within 50 ms of the fingertip entering {colour} (frame {entered}); observed "
            f"it in frame {e['frame']}"
        )
        length = sound_length(xr, e)
        lo, hi = TONE_LEN if want == colour else ERROR_LEN
        assert length is not None and lo <= length <= hi, (
            f"{when}: expected the {want} sound to last {lo}-{hi} s; observed "
            f"{'no end' if length is None else f'{length:.2f} s'}"
        )
        if want == colour:
            assert xr.frame - e["frame"] <= 20, "the test's touch took too long to check the light"
            seen = look(pads(xr)[colour])
            assert seen == "lit", (
                f"{when}: expected {colour} lit {xr.frame - e['frame']} frames after its touch; observed it {seen}"
            )
        self.read += 1
        return e["frame"]

    def repeat(self, n: int, when: str) -> int:
        """Repeat round `n` correctly; returns the frame of the last touch's tone."""
        frame = -1
        for k in range(n):
            frame = self.touch(ORDER[k % len(ORDER)], "pad", f"{when}, step {k + 1} of {n}")
        return frame


# --- tests --------------------------------------------------------------------------------------


def test_the_pads_panel_and_first_round(xr):
    xr.settle()
    cylinders = [d for d in xr.drawn(("mesh",)) if "Cylinder" in d.geometry]
    assert not cylinders, f"expected the starting app's cylinder removed; observed {cylinders}"
    found = pads(xr)
    for colour, n in found.items():
        size = n.size
        assert all(abs(size[i] - PAD_SIZE[i]) <= SIZE_TOL * PAD_SIZE[i] for i in range(3)), (
            f"expected the {colour} pad to be 0.11 x 0.02 x 0.11 m (x, y, z, within 20 %); observed "
            f"{size[0]:.3f} x {size[1]:.3f} x {size[2]:.3f}"
        )
        c = tuple((n.bbox[0][i] + n.bbox[1][i]) / 2 for i in range(3))
        assert all(abs(c[i] - CENTRES[colour][i]) <= 0.01 for i in range(3)), (
            f"expected the {colour} pad centred at {CENTRES[colour]} (within 1 cm); observed "
            f"{tuple(round(v, 3) for v in c)}"
        )
    p = panel(xr)
    lo, hi = p.bbox
    c = tuple((lo[i] + hi[i]) / 2 for i in range(3))
    assert all(abs(c[i] - PANEL_CENTRE[i]) <= 0.03 for i in range(3)), (
        f"expected the score panel centred at {PANEL_CENTRE} (within 3 cm); observed {tuple(round(v, 3) for v in c)}"
    )
    w, h, d = (hi[i] - lo[i] for i in range(3))
    assert abs(w - PANEL_SIZE[0]) <= SIZE_TOL * PANEL_SIZE[0] and abs(h - PANEL_SIZE[1]) <= SIZE_TOL * PANEL_SIZE[1], (
        f"expected the score panel 0.4 m wide and 0.2 m high (within 20 %); observed {w:.3f} x {h:.3f}"
    )
    assert d <= 0.05, f"expected the score panel flat, facing the user (at most 5 cm deep along z); observed {d:.3f}"
    text = text_pixels(panel_picture(xr))
    for _ in range(4):
        # Text laid out off the main thread (SDF text) may take a moment of real time to show.
        if text >= CHANGED:
            break
        time.sleep(0.05)
        xr.step(1)
        text = text_pixels(panel_picture(xr))
    assert text >= CHANGED, f"expected the score panel's front to show text; seen straight on, {text} pixels differ"
    assert panel_state(xr) == (0, 0), f"expected the panel's state best=0, last=0 at first; observed {panel_state(xr)}"
    game = Game(xr)
    game.expect_playback(1, None, "the first round")
    # The user takes their time: nothing plays, nothing lights.
    for _ in range(3):
        xr.step(60)
        assert not game.new_sounds(), f"expected no sound while the user waits; observed {describe(game.new_sounds())}"
        assert_looks(xr, None, "while the user waits")
    last = game.repeat(1, "the first round")
    game.expect_playback(2, last + PAUSE, "the second round")
    assert_no_errors(xr)


def test_each_full_repeat_makes_the_sequence_one_longer(xr):
    xr.settle()
    game = Game(xr)
    before = panel_picture(xr)
    game.expect_playback(1, None, "round 1")
    last = game.repeat(1, "round 1")
    xr.step(PANEL_PROMPT)
    before = assert_panel(xr, 1, 0, before, "after the first full repeat")
    for n in (2, 3, 4):
        game.expect_playback(n, last + PAUSE, f"round {n}", lights=n != 3)
        last = game.repeat(n, f"round {n}")
        xr.step(PANEL_PROMPT)
        before = assert_panel(xr, n, 0, before if n == 2 else None, f"after the full repeat of round {n}")
    game.expect_playback(5, last + PAUSE, "round 5 (blue twice at its end)")
    assert_no_errors(xr)


def test_touches_outside_the_users_turn_count_for_nothing(xr):
    xr.settle()
    game = Game(xr)
    turn = game.expect_playback(1, None, "round 1", lights=False)
    hover(xr, "non_dominant", "blue")
    step_to(xr, turn)
    # The user's turn: a fingertip hovering 2 cm above green for a second touches nothing.
    hover(xr, "dominant", "green", up=0.02)
    xr.step(60)
    assert not game.new_sounds(), (
        f"expected no sound with the fingertip 2 cm above green; observed {describe(game.new_sounds())}"
    )
    assert_looks(xr, None, "with the fingertip 2 cm above green")
    # Green, kept in: one tone; the round is repeated in full.
    entered = poke(xr, "dominant", "green", lift=False)
    got = game.new_sounds()
    assert len(got) == 1 and name_of(got[0]["frequency"]) == "green", (
        f"expected the touch of green to play green; observed {describe(got)}"
    )
    assert entered - 1 <= got[0]["frame"] <= entered + PROMPT
    game.read += 1
    last = got[0]["frame"]
    # In the pause after it, the other hand touches a wrong pad: ignored (no error, no restart).
    poke(xr, "non_dominant", "blue")
    assert xr.frame < last + PAUSE - 2, "the test's touch came after the pause"
    assert not game.new_sounds(), (
        f"expected a touch in the pause after a full repeat to play nothing; observed {describe(game.new_sounds())}"
    )
    hover(xr, "non_dominant", "yellow", up=0.025)
    # Round 2 plays as due, with the finger still in green; the other hand touches yellow and red
    # while it plays: ignored.
    step_to(xr, last + PAUSE + 2)
    poke(xr, "non_dominant", "yellow")
    poke(xr, "non_dominant", "red")
    assert xr.frame < last + PAUSE + STEP + 24, "the test's touches came after the playback"
    got = game.new_sounds()
    assert [name_of(e["frequency"]) for e in got] == ["green", "yellow"], (
        f"expected round 2's playback (green, yellow) and nothing for the touches during it; observed {describe(got)}"
    )
    assert last + PAUSE - 1 <= got[0]["frame"] <= last + PAUSE + PROMPT, (
        f"expected round 2's playback 1 s after the full repeat (frame {last + PAUSE}); observed {describe(got)}"
    )
    game.read += 2
    step_to(xr, got[1]["frame"] + 34)
    assert not game.new_sounds(), f"expected nothing more; observed {describe(game.new_sounds())}"
    # The finger kept in green all along still counts for nothing; lifted and touched again, with
    # yellow, it repeats round 2.
    hover(xr, "dominant", "green")
    assert not game.new_sounds(), "expected nothing as the finger leaves green"
    last = game.repeat(2, "round 2 after the ignored touches")
    assert panel_state(xr) == (2, 0), f"expected best=2, last=0 after two full repeats; observed {panel_state(xr)}"
    game.expect_playback(3, last + PAUSE, "round 3", lights=False)
    assert_no_errors(xr)


def test_a_wrong_pad_buzzes_shows_the_score_and_starts_a_new_game(xr):
    xr.settle()
    game = Game(xr)
    game.expect_playback(1, None, "round 1", lights=False)
    last = game.repeat(1, "round 1")
    game.expect_playback(2, last + PAUSE, "round 2", lights=False)
    last = game.repeat(2, "round 2")
    game.expect_playback(3, last + PAUSE, "round 3", lights=False)
    xr.step(PANEL_PROMPT)
    before = assert_panel(xr, 2, 0, None, "after two full repeats")
    game.touch("green", "pad", "round 3, step 1")
    wrong = game.touch("blue", "error", "round 3, blue instead of yellow")
    step_to(xr, wrong + PANEL_PROMPT)
    before = assert_panel(xr, 2, 2, before, "after the wrong pad in round 3")
    # In the pause, touches count for nothing.
    game.touch("yellow", "none", "in the pause after the wrong pad")
    assert xr.frame < wrong + GAME_OVER - 2
    # A new game: green alone, 2 s after the wrong touch.
    game.expect_playback(1, wrong + GAME_OVER, "the new game's round 1")
    last = game.repeat(1, "the new game's round 1")
    game.expect_playback(2, last + PAUSE, "the new game's round 2", lights=False)
    xr.step(PANEL_PROMPT)
    assert_panel(xr, 2, 2, None, "after the new game's first full repeat (not a new best)")
    # Wrong at the first step: red instead of green.
    wrong = game.touch("red", "error", "the new game's round 2, red instead of green")
    step_to(xr, wrong + PANEL_PROMPT)
    assert_panel(xr, 2, 1, before, "after the wrong pad in the new game's round 2")
    game.expect_playback(1, wrong + GAME_OVER, "the third game's round 1", lights=False)
    assert_no_errors(xr)
