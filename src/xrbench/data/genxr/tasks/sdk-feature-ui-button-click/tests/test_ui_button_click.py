"""UIButton.onClick: a select that starts and ends on the button clicks it once, in the frame it is released.

The app (held out, in the task's workspace/) shows a UICard ('tally-card', state {count, adds, undos,
resets}) at (0, 1.35, -0.9) facing the user, with three 18 x 11 cm UIButtons in a row: 'add-button',
'undo-button' (its onClick is assigned after construction) and 'reset-button' (enabled only while
the count is 3 or more). Each button's tag state counts its onClick calls (`clicks`). Below them a
56 cm UISlider 'size-slider' (0.5 to 2, step 0.1, value 1; state {value, inputs, changes, changed})
sets the size of a plain sphere 'ping' (at (0.5, 1.35, -0.9)) that counts the selects it receives
(selects, ends, completed).

Where the buttons and the slider are is read from their rendered bounds (`xr.find(tag).bbox`).
"""

from __future__ import annotations

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

BUTTONS = ("add-button", "undo-button", "reset-button")
SHORT = {"add-button": "Add", "undo-button": "Undo", "reset-button": "Reset"}
ABOVE_CARD = (0.0, 1.78, -0.9)  # empty space, 18 cm above the card
LEFT_OF_CARD = (-0.62, 1.36, -0.9)  # empty space, 27 cm left of the card


def ready(xr):
    # Scripts finish their (async) initialisation between steps, and the UI renderer lays the card
    # out asynchronously: step until the buttons have their own places.
    xr.step(1)
    xr.step(1)
    for _ in range(600):
        a, b = xr.find("add-button").bbox, xr.find("undo-button").bbox
        if a and b and abs(a[0][0] - b[0][0]) > 0.1:
            break
        xr.step(1)
    else:
        pytest.fail("the UI was never laid out (the buttons never got their own places)")
    xr.wait(200)


def spot(xr, tag, fx=0.0, fy=0.0):
    """A point on the front of the tagged element, `fx`/`fy` of its half width/height off its centre."""
    lo, hi = xr.find(tag).bbox
    return ((lo[0] + hi[0]) / 2 + fx * (hi[0] - lo[0]) / 2, (lo[1] + hi[1]) / 2 + fy * (hi[1] - lo[1]) / 2, hi[2])


def frame(xr):
    return int(xr.probe("(h) => h.frames"))


class Clicks:
    """Counts each button's onClick calls and the card's tally; `expect` checks what changed since."""

    def __init__(self, xr):
        self.xr = xr
        self.seen = self.read()

    def read(self):
        return {tag: self.xr.find_by_tag(tag).state["clicks"] for tag in BUTTONS}

    def expect(self, what, **deltas):
        now = self.read()
        want = {tag: self.seen[tag] + deltas.get(SHORT[tag].lower(), 0) for tag in BUTTONS}
        if now != want:
            got = ", ".join(f"{SHORT[t]} {now[t] - self.seen[t]:+d}" for t in BUTTONS)
            exp = ", ".join(f"{SHORT[t]} {want[t] - self.seen[t]:+d}" for t in BUTTONS)
            raise AssertionError(f"{what}: expected onClick calls {exp}; observed {got}")
        self.seen = now


def aim(actor, point):
    actor.point_to(point, speed=600.0)  # a brisk turn (10 degrees a frame)


def press(xr, actor, role):
    """Start a select in one frame; returns that frame."""
    before = frame(xr)
    actor.start_select(1)
    started = [e for e in xr.events("select_start", hand=role) if e.frame > before]
    assert started, f"the {role} {type(actor).__name__.lower()}'s select did not start in the frame it was pressed"
    return started[-1].frame


def release(xr, actor, role):
    """End a select in one frame; returns that frame."""
    before = frame(xr)
    actor.end_select(1)
    ended = [e for e in xr.events("select_end", hand=role) if e.frame > before]
    assert ended, f"the {role} {type(actor).__name__.lower()}'s select did not end in the frame it was released"
    return ended[-1].frame


def click(xr, actor, role, point):
    aim(actor, point)
    actor.start_select(6)
    actor.end_select(6)


@pytest.mark.fail_to_pass
def test_a_click_calls_on_click_once_in_the_frame_it_is_released(xr):
    ready(xr)
    clicks = Clicks(xr)
    actors = [
        ("dominant", xr.hand("dominant"), "add-button", 0.0, 0.0),
        ("non_dominant", xr.hand("non_dominant"), "undo-button", 0.5, -0.4),
        ("dominant", xr.controller("dominant"), "add-button", -0.6, 0.5),
        ("non_dominant", xr.controller("non_dominant"), "add-button", 0.6, -0.5),
    ]
    for k, (role, actor, tag, fx, fy) in enumerate(actors):
        name = f"the {role} {type(actor).__name__.lower()}"
        aim(actor, spot(xr, tag, fx, fy))
        press(xr, actor, role)
        clicks.expect(f"in the frame {name} pressed on {SHORT[tag]}")
        held = 1500 if k < 2 else 500
        for t in range(0, held, 250):
            xr.wait(250)
            clicks.expect(f"while {name} held its select on {SHORT[tag]} ({(t + 250) / 1000:.2f} s)")
        release(xr, actor, role)
        clicks.expect(f"in the frame {name} released its select on {SHORT[tag]}", **{SHORT[tag].lower(): 1})
        xr.wait(500)
        clicks.expect(f"in the half second after {name} clicked {SHORT[tag]} (one call per click)")
    # Quick clicks one after the other: one call each.
    hand = xr.hand("dominant")
    aim(hand, spot(xr, "add-button", 0.3, 0.3))
    for k in range(3):
        hand.start_select(2)
        hand.end_select(3)
        clicks.expect(f"quick click {k + 1} of the dominant hand on Add (two frames held)", add=1)
    tally = xr.find_by_tag("tally-card").state
    assert tally["adds"] == 6 and tally["undos"] == 1, f"expected the app to count 6 adds and 1 undo; observed {tally}"
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_only_a_select_that_starts_and_ends_on_the_button_clicks(xr):
    ready(xr)
    clicks = Clicks(xr)
    hand, role = xr.hand("dominant"), "dominant"
    add, undo = spot(xr, "add-button"), spot(xr, "undo-button")
    lo, hi = xr.find("add-button").bbox
    beside_add = (lo[0] - 0.025, (lo[1] + hi[1]) / 2, hi[2])  # the card, 2.5 cm left of Add's edge
    cases = [
        ("pressed on Add, released on the sphere", add, "ping", {}),
        ("pressed on Add, released on Undo", add, undo, {}),
        ("pressed on Add, released in empty space above the card", add, ABOVE_CARD, {}),
        ("pressed on Add, released on the card 2.5 cm beside Add", add, beside_add, {}),
        ("pressed on Undo, released on Add", undo, add, {}),
        ("pressed in empty space above the card, released on Add", ABOVE_CARD, add, {}),
        ("pressed on the card 2.5 cm beside Add, released on Add", beside_add, add, {}),
        ("pressed on the sphere, released on Add", "ping", add, {}),
        ("pressed on Add, released on Add after a sweep to the sphere and back", add, add, {"add": 1}),
    ]
    for what, start, end, deltas in cases:
        aim(hand, start)
        press(xr, hand, role)
        hand.start_select(2)
        if start == end:
            aim(hand, "ping")
            hand.start_select(2)
        aim(hand, end)
        hand.start_select(2)
        release(xr, hand, role)
        hand.end_select(3)
        clicks.expect(f"a select of the dominant hand {what}", **deltas)
    # The same with the other hand's controller.
    ctl, crole = xr.controller("non_dominant"), "non_dominant"
    for what, start, end, deltas in [
        ("pressed on Undo, released left of the card", undo, LEFT_OF_CARD, {}),
        ("pressed left of the card, released on Undo", LEFT_OF_CARD, undo, {}),
        ("pressed on Undo, released on Undo after leaving it", undo, undo, {"undo": 1}),
    ]:
        aim(ctl, start)
        press(xr, ctl, crole)
        ctl.start_select(2)
        if start == end:
            aim(ctl, LEFT_OF_CARD)
            ctl.start_select(2)
        aim(ctl, end)
        ctl.start_select(2)
        release(xr, ctl, crole)
        ctl.end_select(3)
        clicks.expect(f"a select of the non-dominant controller {what}", **deltas)
    click(xr, hand, role, add)
    clicks.expect("a plain click of the dominant hand on Add", add=1)
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_each_hand_and_controller_clicks_on_its_own(xr):
    ready(xr)
    clicks = Clicks(xr)
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    add, undo = spot(xr, "add-button", -0.3, 0.2), spot(xr, "undo-button", 0.3, -0.2)
    # Both hands hold selects on different buttons and release them in different frames.
    aim(dom, add)
    aim(non, undo)
    press(xr, dom, "dominant")
    press(xr, non, "non_dominant")
    xr.wait(300)
    clicks.expect("while both hands held selects on Add and Undo")
    release(xr, non, "non_dominant")
    clicks.expect("in the frame the non-dominant hand released Undo (the dominant hand still on Add)", undo=1)
    xr.wait(300)
    clicks.expect("while the dominant hand still held Add")
    release(xr, dom, "dominant")
    clicks.expect("in the frame the dominant hand released Add", add=1)
    # Both hands on the same button: one click for each release.
    aim(non, add)
    press(xr, dom, "dominant")
    press(xr, non, "non_dominant")
    xr.wait(200)
    release(xr, dom, "dominant")
    clicks.expect("in the frame the dominant hand released Add while the non-dominant hand held it too", add=1)
    xr.wait(200)
    release(xr, non, "non_dominant")
    clicks.expect("in the frame the non-dominant hand then released Add", add=1)
    dom.end_select(4)
    # One hand holds Add while the other presses elsewhere and releases on Add, or presses the
    # sphere: the other hand's selects neither click nor cancel the first hand's click.
    press(xr, dom, "dominant")
    aim(non, ABOVE_CARD)
    press(xr, non, "non_dominant")
    aim(non, add)
    release(xr, non, "non_dominant")
    clicks.expect("the non-dominant hand pressing above the card and releasing on Add (the dominant hand on Add)")
    click(xr, non, "non_dominant", "ping")
    clicks.expect("the non-dominant hand clicking the sphere while the dominant hand held Add")
    aim(non, undo)
    press(xr, non, "non_dominant")
    release(xr, dom, "dominant")
    clicks.expect("in the frame the dominant hand released Add (the non-dominant hand pressing Undo)", add=1)
    aim(non, ABOVE_CARD)
    release(xr, non, "non_dominant")
    clicks.expect("the non-dominant hand releasing above the card after pressing Undo")
    # Both controllers, pressed in the same frame on two buttons, released in the same frame.
    a, b = xr.controller("dominant"), xr.controller("non_dominant")
    aim(a, undo)
    aim(b, spot(xr, "add-button"))
    b.start_select(0)
    a.start_select(6)
    b.end_select(0)
    a.end_select(6)
    clicks.expect("both controllers pressing and releasing in the same frames, on Undo and Add", undo=1, add=1)
    # Stepped aside and crouched, looking at the card off-centre.
    xr.head.move((0.45, -0.35, 0.15), speed=1.5)
    xr.head.look_at((0.25, 1.3, -0.9))
    for role in ("dominant", "non_dominant"):
        hand = xr.hand(role)
        hand.rest(speed=1.5)
        click(xr, hand, role, spot(xr, "add-button", 0.5, 0.5))
        clicks.expect(f"a click of the {role} hand on Add after stepping aside and crouching", add=1)
        aim(hand, spot(xr, "undo-button"))
        press(xr, hand, role)
        aim(hand, "ping")
        release(xr, hand, role)
        hand.end_select(4)
        clicks.expect(f"the {role} hand pressing Undo and releasing on the sphere after stepping aside")
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_the_current_on_click_is_the_one_called(xr):
    ready(xr)
    clicks = Clicks(xr)
    hand = xr.hand("dominant")
    # Undo's callback was assigned after construction.
    click(xr, hand, "dominant", spot(xr, "add-button"))
    click(xr, hand, "dominant", spot(xr, "undo-button"))
    clicks.expect("a click on Add, then one on Undo (whose onClick was assigned after construction)", add=1, undo=1)
    # Replace Add's callback now: the new one is called, the old one no longer.
    xr.probe(
        """(h) => {
          h.core.scene.traverse((o) => {
            const tag = o.userData?.xrblocksDevtools;
            if (tag?.tag === 'add-button') {
              tag.state.replaced = 0;
              o.onClick = () => { tag.state.replaced += 1; };
            }
          });
        }"""
    )
    click(xr, hand, "dominant", spot(xr, "add-button"))
    xr.controller("non_dominant").select(spot(xr, "add-button", 0.4, 0.4), hold_frames=6)
    clicks.expect("two clicks on Add after its onClick was replaced (the old callback must not run)")
    replaced = xr.find_by_tag("add-button").state.get("replaced")
    assert replaced == 2, f"expected Add's new onClick called once per click (2); observed {replaced}"
    assert_no_errors(xr)


@pytest.mark.fail_to_pass
def test_a_disabled_button_ignores_input_until_it_is_enabled(xr):
    ready(xr)
    clicks = Clicks(xr)
    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    add, undo, reset = (spot(xr, t) for t in BUTTONS)

    def count():
        return xr.find_by_tag("tally-card").state["count"]

    click(xr, dom, "dominant", reset)
    clicks.expect("a click of the dominant hand on Reset while it is disabled (count 0)")
    for _ in range(2):
        click(xr, non, "non_dominant", add)
    clicks.expect("two clicks on Add", add=2)
    xr.controller("dominant").select(reset, hold_frames=6)
    clicks.expect("a click of the dominant controller on Reset while it is disabled (count 2)")
    # Pressed while disabled, enabled (the other hand brings the count to 3) before the release.
    # (The pipeline may end a select on a disabled control early: the release is not checked.)
    aim(dom, reset)
    dom.start_select(2)
    click(xr, non, "non_dominant", add)
    clicks.expect("the non-dominant hand clicking Add while the dominant hand held Reset", add=1)
    assert xr.find_by_tag("reset-button").state["disabled"] is False and count() == 3
    xr.wait(200)
    dom.end_select(5)
    clicks.expect("releasing Reset after a select that started while it was disabled")
    # Enabled now: a click works, and disables it again (count 0).
    click(xr, dom, "dominant", reset)
    clicks.expect("a click of the dominant hand on Reset once it is enabled (count 3)", reset=1)
    assert count() == 0 and xr.find_by_tag("reset-button").state["disabled"] is True
    click(xr, non, "non_dominant", reset)
    clicks.expect("a click of the non-dominant hand on Reset after it was disabled again")
    # Enabled, pressed, then disabled (the other hand's Undo) before the release.
    for _ in range(3):
        click(xr, non, "non_dominant", add)
    clicks.expect("three clicks on Add", add=3)
    aim(dom, reset)
    press(xr, dom, "dominant")
    click(xr, non, "non_dominant", undo)
    clicks.expect("the non-dominant hand clicking Undo while the dominant hand held Reset", undo=1)
    assert xr.find_by_tag("reset-button").state["disabled"] is True and count() == 2
    dom.end_select(5)
    clicks.expect("releasing Reset after it was disabled during the select")
    # Enabled again: the other hand's controller clicks it.
    click(xr, non, "non_dominant", add)
    xr.controller("non_dominant").select(spot(xr, "reset-button", -0.4, 0.3), hold_frames=6)
    clicks.expect("a click on Add, then one of the non-dominant controller on Reset", add=1, reset=1)
    assert count() == 0
    assert_no_errors(xr)


@pytest.mark.pass_to_pass
def test_plain_objects_and_the_slider_keep_working(xr):
    ready(xr)
    clicks = Clicks(xr)

    def ping():
        s = xr.find_by_tag("ping").state
        return s["selects"], s["ends"], s["completed"]

    dom, non = xr.hand("dominant"), xr.hand("non_dominant")
    click(xr, dom, "dominant", "ping")
    assert ping() == (1, 1, 1), f"expected a click on the sphere to start and complete one select; observed {ping()}"
    aim(non, "ping")
    press(xr, non, "non_dominant")
    aim(non, ABOVE_CARD)
    release(xr, non, "non_dominant")
    assert ping() == (2, 2, 1), (
        f"expected a select pressed on the sphere and released above the card to start and end, not completed "
        f"(selects, ends, completed = 2, 2, 1); observed {ping()}"
    )
    # The slider: drag from a fifth of the way along to four fifths, then release above the card.
    lo, hi = xr.find("size-slider").bbox
    y, z = (lo[1] + hi[1]) / 2, hi[2]

    def at(f):
        return (lo[0] + f * (hi[0] - lo[0]), y, z)

    def slider():
        return xr.find_by_tag("size-slider").state

    for role, actor, start, end, release_at in [
        ("dominant", dom, 0.2, 0.8, (at(0.8)[0], 1.75, z)),
        ("non_dominant", xr.controller("non_dominant"), 0.7, 0.3, at(0.3)),
    ]:
        first = dict(slider())
        aim(actor, at(start))
        press(xr, actor, role)
        actor.start_select(4)
        aim(actor, at(end))
        actor.start_select(4)
        want = 0.5 + 1.5 * end
        moving = slider()
        assert abs(moving["value"] - want) <= 0.16 and moving["inputs"] > first["inputs"], (
            f"expected the slider dragged by the {role} {type(actor).__name__.lower()} to {end:.0%} of its length to "
            f"follow (value about {want:.2f}, onInput called); observed {moving}"
        )
        aim(actor, release_at)
        release(xr, actor, role)
        actor.end_select(4)
        done = slider()
        assert abs(done["value"] - want) <= 0.16 and done["changes"] == first["changes"] + 1, (
            f"expected the slider released by the {role} {type(actor).__name__.lower()} to keep its value (about "
            f"{want:.2f}) and call onChange once; observed {done} (before the drag: {first})"
        )
        assert done["changed"] == done["value"], f"expected onChange to report the kept value; observed {done}"
        xr.wait(300)
        assert xr.find_by_tag("size-slider").state == done, "expected the slider to stay as it was released"
    clicks.expect("selects of the sphere and drags of the slider (no button pressed)")
    assert_no_errors(xr)
