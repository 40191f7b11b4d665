"""Gaze dwell selection of XR Blocks UI buttons (held-out tests).

The app (the task's own `workspace/`, held out: it replaces the candidate's) enables the gaze
controller and has three `xb.UIButton`s, each 0.14 m high:
- `lights-button` (0.24 m wide, centred at (-0.13, 1.5, -1.2)) and `music-button` (0.24 m wide,
  centred at (0.13, 1.5, -1.2)) side by side, 20 mm apart, on `menu-card` (0.56 m wide, centred
  at (0, 1.5, -1.2), facing the user);
- `door-button` on `door-card`, centred at (0.8, 1.2, -0.8) and turned 45 degrees towards the
  start.
The head turns in one frame (`FAST`), so the gaze lands on a button in the frame the call steps;
the tests then step frames of known lengths and read the harness's own event log: a gaze
selection is an `object_select_start` on the button (the app's `clicks` must agree). The frame a
selection is due is the first frame at which the frame times after the landing frame add up to
1.5 s; one frame either side is accepted. Frames last 1/30 s (the head's actions too), to keep
the runs short, except where a test is about the frame rate (60, 72, 90 Hz and uneven times).
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = [pytest.mark.xr_scenes("empty"), pytest.mark.fail_to_pass]

FAST = 1.0e6  # degrees per second: the head turns in one frame
DWELL = 1.5  # seconds
HZ30 = 1000.0 / 30.0  # the default frame time of these tests
HZ60 = 1000.0 / 60.0
HZ72 = 1000.0 / 72.0
HZ90 = 1000.0 / 90.0
UNEVEN = (11.0, 16.0, 23.0, 9.5, 14.0, 19.0, 12.5)  # ms, repeated
BUTTONS = ("lights-button", "music-button", "door-button")
NOWHERE = (0.0, 3.2, -1.5)  # above the cards: the gaze meets nothing


class Gaze:
    """Drives the head and keeps the frame times stepped since each landing."""

    def __init__(self, xr):
        self.xr = xr
        self.times: dict[int, float] = {}  # frame -> its length in ms (frames this test stepped)

    @property
    def frame(self) -> int:
        return self.xr.step(0)

    def look(self, target) -> int:
        """Turn the head in one frame to a point or tagged object; returns the landing frame."""
        point = self.centre(target) if isinstance(target, str) else target
        self.xr.head.look_at(point, speed=FAST)
        self.times[self.frame] = self.xr.dt_ms
        return self.frame

    def centre(self, tag: str) -> tuple[float, float, float]:
        node = self.xr.find_by_tag(tag)
        return tuple(node.ui_rect.center) if node.ui_rect else tuple(node.position)

    def on_button(self, tag: str, dx: float = 0.0, dy: float = 0.0) -> tuple[float, float, float]:
        """A point on the button's face, dx to its right and dy up (metres, in its own plane)."""
        rect = self.xr.find_by_tag(tag).ui_rect
        c = rect.center
        nx, _, nz = rect.normal
        right = (nz, 0.0, -nx)  # the face's right, seen from the front
        return (c[0] + dx * right[0], c[1] + dy, c[2] + dx * right[2])

    def hold(self, seconds: float, dt_ms=HZ30) -> None:
        """Keep the head still for `seconds` of frames of `dt_ms` (a number or a repeating cycle)."""
        cycle = dt_ms if isinstance(dt_ms, tuple) else (dt_ms,)
        elapsed, i = 0.0, 0
        if len(cycle) == 1:
            n = max(1, round(seconds * 1000.0 / cycle[0]))
            start = self.frame
            self.xr.step(n, dt_ms=cycle[0])
            for f in range(start + 1, start + n + 1):
                self.times[f] = cycle[0]
            return
        while elapsed < seconds * 1000.0 - 1e-6:
            dt = cycle[i % len(cycle)]
            self.xr.step(1, dt_ms=dt)
            self.times[self.frame] = dt
            elapsed += dt
            i += 1

    def due(self, landing: int) -> int:
        """The first frame after `landing` at which the frame times since it reach 1.5 s."""
        total, f = 0.0, landing
        while True:
            f += 1
            if f not in self.times:
                raise AssertionError(f"test error: frame {f} was not stepped by hold()")
            total += self.times[f]
            if total >= DWELL * 1000.0 - 1e-6:
                return f

    def selections(self, tag: str, since: int = 0) -> list[int]:
        return [e.frame for e in self.xr.events("object_select_start", target=tag, since_frame=since)]

    def clicks(self, tag: str) -> int:
        return int(self.xr.find_by_tag(tag).state["clicks"])


def ms(gaze: Gaze, a: int, b: int) -> float:
    """Milliseconds stepped from after frame a to frame b."""
    return sum(gaze.times.get(f, HZ30) for f in range(a + 1, b + 1))


def expect_one(gaze: Gaze, tag: str, landing: int, since: int, what: str) -> int:
    """Exactly one selection of `tag` since frame `since`, within one frame of the due frame."""
    due = gaze.due(landing)
    seen = gaze.selections(tag, since)
    described = ", ".join(f"frame {f} ({ms(gaze, landing, f) / 1000:.3f} s after landing)" for f in seen) or "none"
    assert len(seen) == 1, (
        f"{what}: expected one selection of {tag} at frame {due} (1.5 s after the gaze landed on it at frame "
        f"{landing}); observed selections: {described}"
    )
    assert abs(seen[0] - due) <= 1, (
        f"{what}: expected {tag} selected at frame {due} +/- 1 (1.5 s after the gaze landed at frame {landing}); "
        f"observed frame {seen[0]} ({ms(gaze, landing, seen[0]) / 1000:.3f} s after landing)"
    )
    return seen[0]


def expect_none(gaze: Gaze, tags, since: int, what: str) -> None:
    for tag in (tags,) if isinstance(tags, str) else tags:
        seen = gaze.selections(tag, since)
        assert not seen, f"{what}: expected no selection of {tag} since frame {since}; observed at frames {seen}"


def expect_no_select(gaze: Gaze, since: int, what: str) -> None:
    """No select of anything at all (a button, a card or nothing) since frame `since`."""
    seen = [
        (e.type, e.frame, e.tags or e.target)
        for e in gaze.xr.events(since_frame=since)
        if e.type in ("select_start", "object_select_start", "select")
    ]
    assert not seen, f"{what}: expected nothing selected since frame {since}; observed {seen}"


def expect_clicks(gaze: Gaze, counts: dict[str, int], what: str) -> None:
    observed = {tag: gaze.clicks(tag) for tag in counts}
    assert observed == counts, f"{what}: expected onClick counts {counts}; observed {observed}"


@pytest.fixture
def gaze(xr):
    """The app with its UI laid out and the head looking at nothing."""
    xr.settle()
    xr.dt_ms = HZ30  # the head's actions take frames of 1/30 s
    g = Gaze(xr)
    g.look(NOWHERE)
    g.hold(0.2)
    for tag in BUTTONS:
        assert xr.find_by_tag(tag).ui_rect is not None, f"{tag} has no laid-out rectangle after settle()"
    return g


def dwell(gaze: Gaze, tag: str, target=None, dt=HZ30, what: str = "", since: int | None = None) -> int:
    """Look at `tag` (or the point `target` on it) and check: nothing for 1.3 s, then one selection at 1.5 s."""
    start = gaze.frame if since is None else since
    landing = gaze.look(target if target is not None else tag)
    gaze.hold(1.3, dt)
    expect_none(gaze, BUTTONS, start, f"{what}: 1.3 s after the gaze landed on {tag}")
    gaze.hold(0.3, dt)
    return expect_one(gaze, tag, landing, start, what)


def test_a_steady_look_selects_once_after_1_5_s(gaze):
    """60 Hz: nothing before 1.5 s, one selection at 1.5 s, none more in 3 s of looking on; then Music."""
    start = gaze.frame
    dwell(gaze, "lights-button", dt=HZ60, what="a steady look at Lights at 60 Hz")
    gaze.hold(3.0)
    expect_one(gaze, "lights-button", start + 1, start, "3 s more looking at Lights after its selection")
    expect_none(gaze, ("music-button", "door-button"), start, "looking at Lights")
    expect_clicks(gaze, {"lights-button": 1, "music-button": 0, "door-button": 0}, "after one look at Lights")
    gaze.look(NOWHERE)
    gaze.hold(0.5)
    dwell(gaze, "music-button", what="a first look at Music after Lights was selected")
    gaze.hold(0.3)
    expect_clicks(gaze, {"lights-button": 1, "music-button": 1, "door-button": 0}, "after a look at Music")
    assert_no_errors(gaze.xr)


def test_the_dwell_is_1_5_s_of_frame_time_at_any_frame_rate(gaze):
    """72 Hz, 90 Hz and uneven frame times: selected when the frames' own time reaches 1.5 s."""
    for tag, rate, dt in (
        ("music-button", "72 Hz", HZ72),
        ("door-button", "90 Hz", HZ90),
        ("lights-button", "uneven frame times", UNEVEN),
    ):
        dwell(gaze, tag, dt=dt, what=f"a steady look at {tag} at {rate}")
        gaze.look(NOWHERE)
        gaze.hold(0.3)
    expect_clicks(gaze, {"lights-button": 1, "music-button": 1, "door-button": 1}, "after three looks")
    assert_no_errors(gaze.xr)


def test_looking_away_resets_the_dwell_and_every_look_selects_again(gaze):
    """Partial looks are forgotten (to nothing and to the card's background); looking back selects again."""
    xr = gaze.xr
    card = xr.find_by_tag("menu-card").ui_rect
    background = (card.center[0], card.center[1] + card.height / 2 - 0.01, card.center[2])  # top padding
    # 1.0 s on Lights, away to nothing, back: a full 1.5 s again.
    start = gaze.frame
    gaze.look("lights-button")
    gaze.hold(1.0)
    gaze.look(NOWHERE)
    gaze.hold(0.3)
    dwell(gaze, "lights-button", what="Lights looked at again after 1 s on it and a look at nothing", since=start)
    # Looking on, then 2 s on the card's background and 2 s on nothing (neither selects anything), and back.
    gaze.hold(1.0)
    start = gaze.frame
    gaze.look(background)
    gaze.hold(2.0)
    expect_no_select(gaze, start, "2 s looking at the menu card's background")
    start = gaze.frame
    gaze.look(NOWHERE)
    gaze.hold(2.0)
    expect_no_select(gaze, start, "2 s looking at nothing")
    dwell(gaze, "lights-button", what="Lights looked at again after its selection and a look at the card")
    # A partial look at Lights, the card's background, then Door: Door needs its own 1.5 s.
    gaze.look(NOWHERE)
    gaze.hold(0.3)
    start = gaze.frame
    gaze.look(gaze.on_button("lights-button", dx=0.05))
    gaze.hold(1.2)
    gaze.look(background)
    gaze.hold(0.2)
    dwell(gaze, "door-button", what="Door after 1.2 s on Lights and a look at the card", since=start)
    # The other buttons again, one after another.
    for tag in ("music-button", "lights-button"):
        gaze.look(NOWHERE)
        gaze.hold(0.3)
        dwell(gaze, tag, what=f"{tag} in a round of the buttons")
    expect_clicks(gaze, {"lights-button": 3, "music-button": 1, "door-button": 1}, "after every look")
    assert_no_errors(xr)


def test_moving_straight_to_the_neighbour_needs_its_own_1_5_s(gaze):
    """Lights to Music and back with no gap in the gaze: each needs its own full dwell."""
    lights = gaze.on_button("lights-button", dx=0.1)  # near Lights' right edge
    music = gaze.on_button("music-button", dx=-0.1)  # 40 mm on, across the 20 mm gap
    start = gaze.frame
    gaze.look(lights)
    gaze.hold(1.0)
    dwell(gaze, "music-button", music, what="Music straight after 1 s on Lights", since=start)
    expect_none(gaze, "lights-button", start, "leaving Lights for Music")
    gaze.hold(1.2)
    dwell(gaze, "lights-button", lights, what="straight back to Lights from a selected Music")
    gaze.hold(0.4)
    dwell(gaze, "music-button", music, what="straight on to Music from a selected Lights")
    expect_clicks(gaze, {"lights-button": 1, "music-button": 2, "door-button": 0}, "after the switches")
    assert_no_errors(gaze.xr)


def test_a_fast_flick_restarts_the_dwell_and_slow_drift_does_not(gaze):
    """Within Lights: a one-frame jump (1.8 m/s) restarts; 0.1 m/s drift and jitter do not."""
    xr = gaze.xr
    # Fast: 0.8 s on the left of Lights, a 6 cm jump in one frame (1.8 m/s), then still.
    start = gaze.frame
    gaze.look(gaze.on_button("lights-button", dx=-0.06))
    gaze.hold(0.8)
    dwell(gaze, "lights-button", gaze.on_button("lights-button"), what="Lights, from the last fast flick", since=start)
    # Slow: drift across Music at about 0.1 m/s with +/-0.4 mm of jitter, from landing on.
    gaze.look(NOWHERE)
    gaze.hold(0.3)
    start = gaze.frame
    landing = gaze.look(gaze.on_button("music-button", dx=-0.08))
    for i in range(1, 51):
        x = -0.08 + 0.0033 * i + (0.0004 if i % 2 else -0.0004)  # 3.3 mm a frame of 1/30 s
        gaze.look(gaze.on_button("music-button", dx=x))
        if i == 40:
            expect_none(gaze, BUTTONS, start, "Music, 40 frames (1.33 s) of slow drift after landing")
    expect_one(gaze, "music-button", landing, start, "Music while the gaze drifts slowly over it")
    expect_clicks(gaze, {"lights-button": 1, "music-button": 1, "door-button": 0}, "after the flick and the drift")
    assert_no_errors(xr)


def test_gaze_dwell_works_from_other_poses(gaze):
    """Walking up to a button with the eyes on it, crouched to the side, close to the turned Door card."""
    xr = gaze.xr
    # Walk towards Lights at 0.3 m/s, eyes on its centre: the gaze point stays put, so the dwell runs on.
    start = gaze.frame
    target = gaze.on_button("lights-button", dx=0.04)
    landing = gaze.look(target)
    for i in range(1, 51):
        xr.head.teleport_to(target, distance=1.2 - 0.01 * i)  # 10 mm a frame of 1/30 s
        gaze.times[gaze.frame] = xr.dt_ms
        if i == 40:
            expect_none(gaze, BUTTONS, start, "walking up to Lights at 0.3 m/s, 40 frames (1.33 s) after landing")
    expect_one(gaze, "lights-button", landing, start, "Lights while walking up to it with the eyes on it")
    xr.head.teleport_to((0.0, 1.5, 0.0))
    xr.head.teleport_to((0.45, 1.05, -0.3))  # crouched, to the right
    for tag in ("lights-button", "door-button"):
        gaze.look(NOWHERE)
        gaze.hold(0.3)
        dwell(gaze, tag, gaze.on_button(tag, dx=0.03, dy=0.02), HZ90, f"{tag} from crouched at (0.45, 1.05, -0.3)")
    # Standing close to the Door card, off to its side: a partial look, away, back.
    xr.head.teleport_to((0.3, 1.6, -0.2))
    gaze.look(NOWHERE)
    gaze.hold(0.3)
    start = gaze.frame
    gaze.look(gaze.on_button("door-button", dx=-0.05))
    gaze.hold(0.9, HZ90)
    gaze.look(NOWHERE)
    gaze.hold(0.2)
    door = gaze.on_button("door-button", dx=0.05, dy=-0.03)
    dwell(gaze, "door-button", door, HZ90, "Door from close by after a partial look", since=start)
    expect_clicks(gaze, {"lights-button": 2, "music-button": 0, "door-button": 2}, "after the looks from other poses")
    assert_no_errors(xr)
