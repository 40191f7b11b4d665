"""Readers for what XR Blocks draws without geometry of its own: UI layout, and growing buffers."""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors, assert_state
from xrbench.xrtest.errors import XRTestError

from .conftest import InitScript


@pytest.fixture
def ui(open_session, test_apps):
    session = open_session(test_apps / "ui_card", scene="empty")
    session.settle()
    return session


def test_settle_waits_for_layout_and_ui_rects_give_the_drawn_rectangles(ui):
    card, yes, no = (ui.find_by_tag(t) for t in ("card", "yes-button", "no-button"))
    assert ui.find_by_tag("title").ui_rect is not None  # its font loaded before settle returned
    # Sizes from the app's style in pixels times the card's pixelSize (0.001 m).
    assert (yes.ui_rect.width, yes.ui_rect.height) == pytest.approx((0.2, 0.1), abs=1e-4)
    assert (no.ui_rect.width, no.ui_rect.height) == pytest.approx((0.12, 0.1), abs=1e-4)
    assert card.ui_rect.center == pytest.approx((0.1, 1.3, -0.8), abs=1e-3)
    # A row: Yes left of No, 40 px apart, both inside the card and facing the user (+z).
    gap = (no.ui_rect.center[0] - no.ui_rect.width / 2) - (yes.ui_rect.center[0] + yes.ui_rect.width / 2)
    assert gap == pytest.approx(0.04, abs=1e-3)
    lo, hi = card.bbox
    for rect in (yes.ui_rect, no.ui_rect):
        assert all(lo[i] - 1e-6 <= c[i] <= hi[i] + 1e-6 for c in rect.corners for i in (0, 1))
        assert rect.normal == pytest.approx((0, 0, 1), abs=1e-6)
    # The elements' bounding boxes are their rectangles (they have no geometry of their own).
    assert yes.bbox[0][0] == pytest.approx(yes.ui_rect.corners[0][0]) and yes.size[2] == pytest.approx(0, abs=1e-6)


def test_settle_is_deterministic(open_session, test_apps):
    frames = [open_session(test_apps / "ui_card", scene="empty").settle() for _ in range(2)]
    assert frames[0] == frames[1]


# A loaded machine: the UI layout engine (yoga, WebAssembly) takes 1.5 s of wall clock to compile,
# with no request in flight. Before it is there, UI elements have presentation objects with a
# default 1 x 1 transform; a CI run once read that as the buttons' size.
SLOW_WASM = """(() => {
  const now = performance.now.bind(performance), instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = function (...args) {
    const t0 = now();
    return instantiate.apply(this, args).then((r) => new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => (now() - t0 > 1500 ? resolve(r) : channel.port2.postMessage(0));
      channel.port2.postMessage(0);
    }));
  };
})();"""


def test_settle_waits_for_a_slow_layout_engine_in_wall_clock_time(open_session, test_apps):
    slow = open_session(test_apps / "ui_card", scene="empty", hooks=[InitScript(SLOW_WASM)])
    assert slow.settle() == open_session(test_apps / "ui_card", scene="empty").settle()
    yes = slow.find_by_tag("yes-button").ui_rect
    assert (yes.width, yes.height) == pytest.approx((0.2, 0.1), abs=1e-4)


@pytest.mark.parametrize("hand", ["right", "left"])
def test_a_ray_click_by_tag_aims_at_the_drawn_button(ui, hand):
    ui.hand(hand).click("no-button")
    assert_state(ui, "no-button", clicks=1)
    assert_state(ui, "yes-button", clicks=0)
    ui.hand(hand).click("yes-button")
    assert_state(ui, "yes-button", clicks=1)
    assert_no_errors(ui)


def test_settle_names_what_never_finished(open_session, test_apps):
    session = open_session(test_apps / "ui_card", scene="empty")
    session.context.route("**/never-answered", lambda route: None)  # a fetch that never ends
    session.page.evaluate("() => { fetch('/never-answered'); }")
    with pytest.raises(XRTestError, match=r"did not settle within 1 frame\(s\) and 2 s: 1 fetch\(es\) running"):
        session.settle(timeout_s=2)


def test_bbox_of_a_growing_line_follows_its_draw_range(ui):
    # A stroke as drawing apps write it: a preallocated buffer whose bounding box was computed
    # while it was empty, then filled and its draw range grown (three never recomputes the box).
    ui.page.evaluate(
        """() => {
          const T = window.__xrtest.THREE;
          const positions = new Float32Array(300);
          const geometry = new T.BufferGeometry();
          geometry.setAttribute('position', new T.BufferAttribute(positions, 3));
          geometry.setDrawRange(0, 0);
          geometry.computeBoundingBox();
          const line = new T.Line(geometry, new T.LineBasicMaterial());
          line.userData.xrblocksDevtools = {tag: 'stroke', state: {}};
          window.xb.core.scene.add(line);
          positions.set([0.5, 1.0, -1.0, 0.7, 1.2, -1.0, 0.6, 1.4, -0.9]);
          geometry.attributes.position.needsUpdate = true;
          geometry.setDrawRange(0, 3);
        }"""
    )
    stroke = ui.find_by_tag("stroke")
    assert stroke.bbox == (pytest.approx((0.5, 1.0, -1.0)), pytest.approx((0.7, 1.4, -0.9)))
    assert not math.isclose(stroke.bbox[0][0], 0.0)  # the stale box would start at the origin


def test_objects_that_use_the_name_bounding_box_for_something_else_still_read(ui):
    # uikit's SVG icons (the virtual keyboard's keys) keep a signal in `boundingBox`: the reader
    # must take the geometry's box, not crash on it.
    ui.probe(
        """(h) => {
          const m = new h.THREE.Mesh(new h.THREE.BoxGeometry(0.2, 0.2, 0.2), new h.THREE.MeshBasicMaterial());
          m.position.set(0, 1, -1);
          m.boundingBox = {value: undefined};
          m.userData.xrblocksDevtools = {tag: 'icon-like'};
          h.core.scene.add(m);
        }"""
    )
    ui.step(1)
    lo, hi = ui.find_by_tag("icon-like").bbox
    assert lo == pytest.approx((-0.1, 0.9, -1.1)) and hi == pytest.approx((0.1, 1.1, -0.9))
