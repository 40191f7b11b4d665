"""A UISlider's value follows the ray along the track (held-out tests).

The app (the task's own `workspace/`, held out: it replaces the candidate's) has two sliders, each
filling a world-space card except for the card's 24 mm padding, and a Mute button:
- `volume-slider` (0..1, step 0.01, starting at 0.3) on a 0.44 m card centred at (0, 1.4, -0.8),
  facing the user: the track spans x = -0.196 .. 0.196 m at y = 1.4, z = -0.8;
- `brightness-slider` (20..100, step 5, starting at 60) on a 0.36 m card centred at
  (0.42, 1.3, -0.6), turned -35 degrees about y and tilted back 25 degrees (Euler YXZ): its track
  spans -0.156 .. 0.156 m along the card's local x;
- `mute-button` (state: clicks) on a card centred at (0, 1.25, -0.8) sets the volume to 0.
Each slider's state has value, inputs, changes, lastChange and the lists inputValues /
changeValues of every value its `onInput` / `onChange` reported (the app records what the event
recorder cannot see). The UI has no public bounding boxes, so points on the tracks come from the
app's fixed layout.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

SLOW = 30.0  # degrees per second: the ray moves about 8 mm a frame at the cards' distance
FAST = 3000.0  # one frame


def _rotate(q_deg: tuple[float, float], v: tuple[float, float, float]) -> tuple[float, float, float]:
    """Rotate v by Euler YXZ (x = pitch, y = yaw, degrees): R = Ry * Rx."""
    pitch, yaw = (math.radians(a) for a in q_deg)
    x, y, z = v
    y, z = y * math.cos(pitch) - z * math.sin(pitch), y * math.sin(pitch) + z * math.cos(pitch)
    x, z = x * math.cos(yaw) + z * math.sin(yaw), -x * math.sin(yaw) + z * math.cos(yaw)
    return (x, y, z)


class Track:
    def __init__(self, tag, centre, half, angles, lo, hi, step):
        self.tag, self.centre, self.half, self.angles = tag, centre, half, angles
        self.lo, self.hi, self.step = lo, hi, step

    def at(self, fraction: float, dy: float = 0.0) -> tuple[float, float, float]:
        """The world point at `fraction` of the track's length from its left end, dy above its middle line."""
        local = (-self.half + fraction * 2 * self.half, dy, 0.0)
        offset = _rotate(self.angles, local)
        return tuple(c + o for c, o in zip(self.centre, offset, strict=True))

    def expected(self, fraction: float) -> float:
        raw = self.lo + min(max(fraction, 0.0), 1.0) * (self.hi - self.lo)
        return round(self.lo + round((raw - self.lo) / self.step) * self.step, 6)


VOLUME = Track("volume-slider", (0.0, 1.4, -0.8), 0.196, (0.0, 0.0), 0.0, 1.0, 0.01)
BRIGHTNESS = Track("brightness-slider", (0.42, 1.3, -0.6), 0.156, (-25.0, -35.0), 20.0, 100.0, 5.0)
MUTE = (0.0, 1.25, -0.8)


def state(app, track: Track) -> dict:
    return app.find_by_tag(track.tag).state


def seen(s: dict) -> str:
    """A slider's recorded state, for assertion messages."""
    return (
        f"value {s['value']}, onInput {s['inputs']}x {s['inputValues']}, onChange {s['changes']}x {s['changeValues']}"
    )


def near(track: Track, value: float, expected: float) -> bool:
    """Volume: within 1.5 steps (6 mm of track); brightness: the exact step."""
    tolerance = 0.015 if track is VOLUME else 1e-6
    return abs(value - expected) <= tolerance


@pytest.fixture
def app(xr):
    """The app once its UI is laid out and hit-testable (UIKit loads and lays out asynchronously)."""
    xr.step(1)
    hand = xr.hand("dominant")
    for track in (VOLUME, BRIGHTNESS):
        hand.point_to(track.at(0.5, dy=0.015))
        for _ in range(120):
            hovered = [e for e in xr.events("hover_enter", hand="dominant", target="UISlider")]
            if len(hovered) >= (1 if track is VOLUME else 2):
                break
            xr.step(5)
        else:
            pytest.fail(f"the {track.tag} never became hoverable by the dominant hand's ray")
    hand.point_to((0.0, 2.2, -1.5))
    return xr


def click_and_check(app, hand, track: Track, fraction: float, dy: float = 0.0) -> None:
    before = state(app, track)
    n_inputs, n_changes = len(before["inputValues"]), len(before["changeValues"])
    expected = track.expected(fraction)
    hand.point_to(track.at(fraction, dy))
    hand.start_select(frames=8)
    during = state(app, track)
    where = f"the {track.tag} clicked at {fraction:.0%} of its track, {dy * 1000:+.0f} mm off its middle line"
    assert near(track, during["value"], expected), (
        f"{where}: expected value {expected} while pressed; observed {seen(during)}"
    )
    hand.end_select(frames=10)
    after = state(app, track)
    new_inputs = after["inputValues"][n_inputs:]
    assert len(new_inputs) <= 1 and all(near(track, v, expected) for v in new_inputs), (
        f"{where}: expected the value to go straight to {expected} (one onInput at most); "
        f"observed onInput values {new_inputs}"
    )
    assert near(track, after["value"], expected), (
        f"{where}: expected value {expected} after release; observed {seen(after)}"
    )
    new_changes = after["changeValues"][n_changes:]
    if new_inputs:
        assert len(new_changes) == 1 and near(track, new_changes[0], expected), (
            f"{where}: expected one onChange with {expected} on release; observed onChange values {new_changes}"
        )
    else:
        assert new_changes == [], (
            f"{where}: expected no onChange without an onInput; observed onChange values {new_changes}"
        )


@pytest.mark.fail_to_pass
def test_a_click_sets_the_value_under_the_ray_at_any_height_on_the_track(app):
    hand = app.hand("dominant")
    # Volume, facing the user: 25 %, 50 % a little above the middle line, 80 % a little below, 10 %.
    for fraction, dy in [(0.25, 0.0), (0.5, 0.012), (0.8, -0.01), (0.1, 0.0), (0.97, 0.008)]:
        click_and_check(app, hand, VOLUME, fraction, dy)
    # Brightness, turned and tilted: values that round up (58.5 -> 60, 66.4 -> 65), down (51.5 -> 50),
    # near either end (21.6 -> 20, 98.4 -> 100), above and below the middle line.
    for fraction, dy in [(0.48125, 0.0), (0.39375, 0.012), (0.58, -0.012), (0.02, 0.0), (0.98, 0.01), (0.8125, -0.008)]:
        click_and_check(app, hand, BRIGHTNESS, fraction, dy)
    # The same point along the track, from the top edge to the bottom edge of the slider.
    for track, fraction in [(VOLUME, 0.3), (BRIGHTNESS, 0.7), (VOLUME, 0.02), (BRIGHTNESS, 0.03)]:
        for dy in (0.016, -0.016, 0.0):
            click_and_check(app, hand, track, fraction, dy)
    assert_no_errors(app)


def sweep(app, hand, track: Track, fractions, dy: float = 0.0, changes: int = 0) -> None:
    for fraction in fractions:
        hand.point_to(track.at(fraction, dy), speed=SLOW)
        s = state(app, track)
        assert near(track, s["value"], track.expected(fraction)), (
            f"dragging the {track.tag} to {fraction:.0%} of its track: expected value {track.expected(fraction)}; "
            f"observed {seen(s)}"
        )
        assert s["changes"] == changes, (
            f"dragging the {track.tag}: expected {changes} onChange before release; observed {seen(s)}"
        )


@pytest.mark.fail_to_pass
def test_dragging_moves_the_value_with_the_ray_and_clamps_past_the_ends(app):
    hand = app.hand("dominant")
    hand.point_to(VOLUME.at(0.15))
    hand.start_select(frames=8)
    assert near(VOLUME, state(app, VOLUME)["value"], 0.15), (
        f"volume pressed at 15%: expected 0.15; observed {seen(state(app, VOLUME))}"
    )
    # Along the track slowly, checked at every step, drifting up and down across the track.
    sweep(app, hand, VOLUME, [0.15 + 0.05 * i for i in range(1, 15)], dy=0.01)
    sweep(app, hand, VOLUME, [0.85 - 0.07 * i for i in range(1, 6)], dy=-0.012)
    # Past the right end and off the card: the drag keeps the slider, clamped to max at once.
    hand.point_to((VOLUME.at(1.0)[0] + 0.15, 1.45, -0.8), speed=FAST)
    s = state(app, VOLUME)
    assert s["value"] == pytest.approx(1.0, abs=1e-9) and s["changes"] == 0, (
        f"volume dragged past its right end: expected 1.0 and no onChange yet; observed {seen(s)}"
    )
    hand.point_to(VOLUME.at(0.4, 0.005), speed=FAST)
    assert near(VOLUME, state(app, VOLUME)["value"], 0.4), (
        f"volume dragged back to 40%: expected 0.4; observed {seen(state(app, VOLUME))}"
    )
    # Past the left end, below the card: min at once; released there, it stays and onChange fires once.
    hand.point_to((VOLUME.at(0.0)[0] - 0.12, 1.33, -0.8), speed=FAST)
    s = state(app, VOLUME)
    assert s["value"] == pytest.approx(0.0, abs=1e-9) and s["changes"] == 0, (
        f"volume dragged past its left end: expected 0.0 and no onChange yet; observed {seen(s)}"
    )
    app.step(20)
    hand.end_select(frames=6)
    s = state(app, VOLUME)
    assert s["changeValues"] == [0.0], (
        f"volume released at its left end: expected one onChange with 0.0; observed {seen(s)}"
    )
    app.step(30)
    hand.point_to(VOLUME.at(0.5), speed=FAST)
    app.step(10)
    s = state(app, VOLUME)
    assert s["value"] == 0.0 and s["changeValues"] == [0.0], (
        f"the ray moved over the volume after release: expected it to stay 0.0 with one onChange; observed {seen(s)}"
    )

    # The turned, tilted card, from a hand held low and to the side: a second drag starts and stops.
    hand.move_to((0.05, 1.05, -0.25))
    hand.point_to(BRIGHTNESS.at(0.7, -0.01))
    hand.start_select(frames=8)
    assert state(app, BRIGHTNESS)["value"] == 75, (
        f"brightness pressed at 70% from a low hand: expected 75; observed {seen(state(app, BRIGHTNESS))}"
    )
    sweep(app, hand, BRIGHTNESS, [0.7 - 0.05 * i for i in range(1, 10)], dy=0.008)
    hand.point_to(BRIGHTNESS.at(-0.4, 0.05), speed=FAST)  # past the left end, above the card
    s = state(app, BRIGHTNESS)
    assert s["value"] == 20 and s["changes"] == 0, (
        f"brightness dragged past its left end: expected 20 and no onChange yet; observed {seen(s)}"
    )
    hand.point_to(BRIGHTNESS.at(1.5, -0.04), speed=FAST)  # past the right end, below the card
    s = state(app, BRIGHTNESS)
    assert s["value"] == 100 and s["changes"] == 0, (
        f"brightness dragged past its right end: expected 100 and no onChange yet; observed {seen(s)}"
    )
    hand.point_to(BRIGHTNESS.at(0.48125, 0.0), speed=FAST)
    assert state(app, BRIGHTNESS)["value"] == 60, (
        f"brightness dragged back to 48%: expected 60; observed {seen(state(app, BRIGHTNESS))}"
    )
    hand.end_select(frames=6)
    s = state(app, BRIGHTNESS)
    assert s["changeValues"] == [60] and s["value"] == 60, (
        f"brightness released at 60: expected value 60 and one onChange with 60; observed {seen(s)}"
    )
    assert_no_errors(app)


@pytest.mark.fail_to_pass
def test_a_controller_sets_and_drags_the_value(app):
    controller = app.controller("dominant")
    controller.point_to(BRIGHTNESS.at(0.39375, -0.01))
    controller.start_select(frames=8)
    assert state(app, BRIGHTNESS)["value"] == 50, (
        f"brightness pressed by the controller at 39%: expected 50; observed {seen(state(app, BRIGHTNESS))}"
    )
    for fraction in (0.5, 0.6, 0.7):
        controller.point_to(BRIGHTNESS.at(fraction, 0.008), speed=SLOW)
        assert state(app, BRIGHTNESS)["value"] == BRIGHTNESS.expected(fraction), (
            f"brightness dragged by the controller to {fraction:.0%}: expected {BRIGHTNESS.expected(fraction)}; "
            f"observed {seen(state(app, BRIGHTNESS))}"
        )
    controller.point_to(BRIGHTNESS.at(1.4, 0.06), speed=FAST)
    assert state(app, BRIGHTNESS)["value"] == 100, (
        "brightness dragged by the controller past its right end: expected 100; "
        f"observed {seen(state(app, BRIGHTNESS))}"
    )
    controller.end_select(frames=6)
    s = state(app, BRIGHTNESS)
    assert s["changeValues"] == [100] and s["value"] == 100, (
        f"brightness released by the controller at 100: expected one onChange with 100; observed {seen(s)}"
    )
    controller.point_to(VOLUME.at(0.35))
    controller.start_select(frames=8)
    controller.point_to(VOLUME.at(-0.5, -0.05), speed=FAST)
    assert state(app, VOLUME)["value"] == 0.0, (
        f"volume dragged by the controller past its left end: expected 0.0; observed {seen(state(app, VOLUME))}"
    )
    controller.end_select(frames=6)
    assert state(app, VOLUME)["changeValues"] == [0.0], (
        f"volume released by the controller at 0.0: expected one onChange with 0.0; observed {seen(state(app, VOLUME))}"
    )
    assert_no_errors(app)


@pytest.mark.fail_to_pass
def test_both_hands_drag_the_two_sliders_at_once(app):
    one, other = app.hand("dominant"), app.hand("non_dominant")
    one.point_to(VOLUME.at(0.2))
    other.point_to(BRIGHTNESS.at(0.8))
    one.start_select(frames=2)
    other.start_select(frames=8)
    v, b = state(app, VOLUME), state(app, BRIGHTNESS)
    assert near(VOLUME, v["value"], 0.2) and b["value"] == 85, (
        f"both hands pressed at once: expected volume 0.2 and brightness 85; observed volume {seen(v)}; "
        f"brightness {seen(b)}"
    )
    for i in range(1, 7):
        one.point_to(VOLUME.at(0.2 + 0.1 * i, 0.008), speed=SLOW)
        other.point_to(BRIGHTNESS.at(0.8 - 0.1 * i, -0.008), speed=SLOW)
        v, b = state(app, VOLUME), state(app, BRIGHTNESS)
        assert near(VOLUME, v["value"], VOLUME.expected(0.2 + 0.1 * i)), (
            f"both hands dragging, step {i}: expected volume {VOLUME.expected(0.2 + 0.1 * i)}; observed {seen(v)}"
        )
        assert b["value"] == BRIGHTNESS.expected(0.8 - 0.1 * i), (
            f"both hands dragging, step {i}: expected brightness {BRIGHTNESS.expected(0.8 - 0.1 * i)}; "
            f"observed {seen(b)}"
        )
    one.end_select(frames=6)
    other.point_to(BRIGHTNESS.at(0.9), speed=FAST)
    v, b = state(app, VOLUME), state(app, BRIGHTNESS)
    assert b["value"] == 90, (
        f"the other hand still dragging after the first let go: expected brightness 90; observed {seen(b)}"
    )
    assert v["changeValues"] == [0.8] or near(VOLUME, v["changeValues"][0], 0.8), (
        f"the first hand released the volume at 0.8: expected its onChange with 0.8; observed {seen(v)}"
    )
    other.end_select(frames=6)
    v, b = state(app, VOLUME), state(app, BRIGHTNESS)
    assert len(v["changeValues"]) == 1 and near(VOLUME, v["value"], 0.8), (
        f"both released: expected volume 0.8 with one onChange; observed {seen(v)}"
    )
    assert b["changeValues"] == [90] and b["value"] == 90, (
        f"both released: expected brightness 90 with one onChange; observed {seen(b)}"
    )
    assert_no_errors(app)


@pytest.mark.fail_to_pass
def test_pinches_and_drags_that_start_off_a_slider_leave_it_alone(app):
    hand = app.hand("dominant")
    # A click on the card's padding beside the track and one just above the card: nothing changes.
    hand.click((VOLUME.at(0.0)[0] - 0.012, 1.4, -0.8))
    hand.click(VOLUME.at(0.6, 0.06))
    hand.click(BRIGHTNESS.at(1.0 + 0.012 / 0.312 * 2, 0.0))
    v, b = state(app, VOLUME), state(app, BRIGHTNESS)
    assert v["inputs"] == 0 and v["value"] == pytest.approx(0.3), (
        f"clicks beside the volume's track: expected volume untouched at 0.3; observed {seen(v)}"
    )
    assert b["inputs"] == 0 and b["value"] == 60, (
        f"a click beside the brightness track: expected brightness untouched at 60; observed {seen(b)}"
    )
    # A drag that starts above the card and sweeps down across the track and along it.
    hand.point_to(VOLUME.at(0.2, 0.07))
    hand.start_select(frames=8)
    for fraction, dy in [(0.2, 0.0), (0.5, 0.0), (0.8, -0.005), (0.9, -0.07)]:
        hand.point_to(VOLUME.at(fraction, dy), speed=SLOW)
    hand.end_select(frames=6)
    # A drag that starts on the brightness card's padding and moves along its track.
    hand.point_to(BRIGHTNESS.at(-0.05, 0.0))
    hand.start_select(frames=8)
    for fraction in (0.1, 0.5, 0.9):
        hand.point_to(BRIGHTNESS.at(fraction), speed=SLOW)
    hand.end_select(frames=6)
    app.step(10)
    v, b = state(app, VOLUME), state(app, BRIGHTNESS)
    assert v["inputs"] == 0 and v["changes"] == 0 and v["value"] == pytest.approx(0.3), (
        f"a drag that started above the volume's card: expected volume untouched at 0.3; observed {seen(v)}"
    )
    assert b["inputs"] == 0 and b["changes"] == 0 and b["value"] == 60, (
        f"a drag that started on the brightness card's padding: expected brightness untouched at 60; observed {seen(b)}"
    )
    # The slider still works after that.
    click_and_check(app, hand, BRIGHTNESS, 0.25)
    assert_no_errors(app)


@pytest.mark.pass_to_pass
def test_the_mute_button_and_the_middle_of_the_tracks_work(app):
    hand = app.hand("dominant")
    assert state(app, VOLUME)["value"] == pytest.approx(0.3), (
        f"expected the volume to start at 0.3; observed {seen(state(app, VOLUME))}"
    )
    click_and_check(app, hand, VOLUME, 0.5)
    click_and_check(app, hand, BRIGHTNESS, 0.5)
    hand.click(MUTE)
    clicks = app.find_by_tag("mute-button").state["clicks"]
    assert clicks == 1, f"a click on Mute: expected 1 click; observed {clicks}"
    assert state(app, VOLUME)["value"] == pytest.approx(0.0), (
        f"after Mute: expected volume 0.0; observed {seen(state(app, VOLUME))}"
    )
    # A press on Mute released off the button does not click it.
    hand.point_to(MUTE)
    hand.start_select(frames=8)
    hand.point_to((0.3, 1.1, -0.8))
    hand.end_select(frames=8)
    clicks = app.find_by_tag("mute-button").state["clicks"]
    assert clicks == 1, f"a press on Mute released off it: expected no new click (1 in all); observed {clicks}"
    click_and_check(app, hand, VOLUME, 0.5)
    s = state(app, VOLUME)
    assert near(VOLUME, s["value"], 0.5) and s["changes"] == 2, (
        f"volume clicked at 50% again: expected 0.5 with 2 onChange in all; observed {seen(s)}"
    )
    assert_no_errors(app)
