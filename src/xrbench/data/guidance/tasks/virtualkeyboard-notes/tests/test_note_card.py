"""Runtime tests of `virtualkeyboard-notes`: the generated app, driven through the xrtest `xr` fixture.

The keys are pressed as a user would, by clicking where they are drawn (the dominant hand's
pinch). Two limits of running offline shape these tests:

- the keyboard's action keys (Backspace, Tab, Caps Lock, Enter, Shift, Space) fetch their icons
  from `cdn.jsdelivr.net/gh/marella/material-symbols`, which is not among the pinned packages, so
  those six requests are aborted (the keys show a fallback glyph and work) and are allowed here;
- the harness's scene reader (`snapshot`, hence `find_by_tag`) fails on the icon objects of
  XR Blocks UI, so the card, its texts and the keys are read with probes of the harness
  (`h.core.scene`), never through page globals, and the keys are clicked at the points a probe
  gives.

Each test runs for a right- and a left-dominant user.
"""

import math

from xrbench.xrtest.assertions import assert_no_errors

OFFLINE_ICONS = (r"material-symbols", r"^Failed to load resource:")

# The card tagged 'note-card': its state, where it is, the texts shown on it and the keyboard in
# it (an object named 'Keyboard' with `pressKey`, the addon's class).
READ_CARD = """(h) => {
  let card = null;
  h.core.scene.traverse((o) => {
    const d = o.userData && o.userData.xrblocksDevtools;
    if (!card && d && d.tag === 'note-card') card = o;
  });
  if (!card) return null;
  const texts = [];
  let keyboard = null;
  card.traverse((o) => {
    if (o !== card && typeof o.text === 'string') texts.push(o.text);
    if (!keyboard && o.name === 'Keyboard' && typeof o.pressKey === 'function') keyboard = o;
  });
  const state = card.userData.xrblocksDevtools.state || {};
  return {
    draft: state.draft,
    notes: Array.isArray(state.notes) ? [...state.notes] : state.notes,
    position: card.getWorldPosition(new h.THREE.Vector3()).toArray(),
    texts,
    keyboard: keyboard ? {value: keyboard.value} : null,
  };
}"""

# Where the key is drawn (XR Blocks UI elements report their drawn position).
KEY_POINT = """(h, key) => {
  let found = null;
  h.core.scene.traverse((o) => { if (!found && o.name === 'KeyboardKey:' + key) found = o; });
  return found ? found.getWorldPosition(new h.THREE.Vector3()).toArray() : null;
}"""


def card(xr):
    state = xr.probe(READ_CARD)
    assert state is not None, "no object tagged 'note-card'"
    assert state["keyboard"] is not None, "the card holds no virtual keyboard (the addon's Keyboard)"
    return state


def press(xr, *keys):
    hand = xr.hand("dominant")
    for key in keys:
        point = xr.probe(KEY_POINT, key)
        assert point is not None, f"no key {key!r} on the virtual keyboard"
        hand.click(tuple(point))
        xr.step(2)


def shown(state, text):
    return any(text in t for t in state["texts"])


def test_keyboard_on_a_card_in_reach(xr):
    xr.settle()
    xr.step(5)
    state = card(xr)
    assert state["draft"] == "" and state["notes"] == [], f"the card starts with {state}"
    head = xr.camera_pose().position
    distance = math.dist(head, state["position"])
    assert 0.4 <= distance <= 2.0, f"the card is {distance:.2f} m from the user, expected within reach"
    assert state["position"][2] < head[2] - 0.3, f"the card at {state['position']} is not in front of the user"
    assert xr.probe(KEY_POINT, "q") is not None, "the keyboard has no keys laid out"
    assert_no_errors(xr, allow=OFFLINE_ICONS)


def test_typing_shows_the_draft(xr):
    xr.settle()
    xr.step(5)
    press(xr, "h", "i")
    state = card(xr)
    assert state["draft"] == "hi", f"typed h, i: draft {state['draft']!r}"
    assert shown(state, "hi"), f"the card does not show the draft: {state['texts']}"
    press(xr, "Shift", "a")
    assert card(xr)["draft"] == "hiA", f"Shift, a: draft {card(xr)['draft']!r}"
    press(xr, "Backspace")
    state = card(xr)
    assert state["draft"] == "hi" and state["notes"] == [], f"Backspace: {state}"
    assert_no_errors(xr, allow=OFFLINE_ICONS)


def test_enter_saves_a_note_and_clears_the_draft(xr):
    xr.settle()
    xr.step(5)
    press(xr, "o", "k", "Enter")
    state = card(xr)
    assert state["notes"] == ["ok"], f"typed o, k, Enter: notes {state['notes']!r}"
    assert state["draft"] == "" and state["keyboard"]["value"] == "", (
        f"the draft ({state['draft']!r}) or the keyboard ({state['keyboard']['value']!r}) was not cleared"
    )
    assert shown(state, "ok"), f"the card does not show the saved note: {state['texts']}"
    press(xr, "Enter")
    assert card(xr)["notes"] == ["ok"], "Enter on an empty draft saved a note"
    press(xr, "n", "o", "Enter")
    state = card(xr)
    assert state["notes"] == ["ok", "no"], f"second note: notes {state['notes']!r}"
    assert shown(state, "no"), f"the card does not show the second note: {state['texts']}"
    assert_no_errors(xr, allow=OFFLINE_ICONS)
