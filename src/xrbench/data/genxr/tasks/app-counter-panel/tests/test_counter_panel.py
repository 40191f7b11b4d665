"""Runtime tests of the counter panel.

They check that
- the panel sits where the user can use it: in front of the user (within 30 degrees of the view
  direction), 0.5-1.1 m from the eyes, its centre within 0.25 m of eye height, facing the user,
  with the "+1" button on it;
- each ray selection of the button, by either hand, adds exactly one to `state.count`, and the
  panel shows it: every count shown looks different from every other one;
- selecting the panel away from the button leaves the count, and what the panel shows, unchanged
  (it changes far fewer pixels than a count going from 0 to 1 does).

What the panel shows is read from pixels, not from its state: the app's scene is rendered off
screen by a camera in front of the panel (both hands lowered, their rays on the floor, half a
second after the last selection), and the button's area is left out of the comparison (it may
light up when pressed).
"""

from __future__ import annotations

import base64
import itertools
import math
import time
from dataclasses import dataclass

import numpy as np
import pytest

from xrbench.xrtest.assertions import (
    assert_facing_user,
    assert_near,
    assert_no_errors,
    assert_state,
    assert_visible,
)

pytestmark = pytest.mark.xr_scenes("empty")

PANEL, BUTTON = "counter-panel", "plus-button"
HOLD = 6  # frames a click holds the pinch (and waits after releasing it)
PICTURE = (512, 256)  # width, height of the off-screen pictures of the panel, in pixels
SETTLE = 30  # frames (half a second) for a brief press or hover effect to fade before a picture
CHANGED = 16  # pixels that must differ between pictures of two different counts
SAME = 8  # pixels that may always differ between two pictures of the same count

# A probe (see `XRSession.probe`) that renders the app's scene off screen with a camera that frames
# the world box `box` from the side of the user's head; it returns RGBA rows from the bottom up
# (base64) and the pixel rectangles [x0, y0, x1, y1] (from the bottom left) that the world boxes in
# `masks` cover in that picture.
_PICTURE_JS = """
(h, {box, masks, width, height}) => {
  const THREE = h.THREE, core = h.core, renderer = core.renderer;
  if (!(renderer instanceof THREE.WebGLRenderer)) throw new Error('xb.core.renderer is not a WebGLRenderer');
  h.guard(core.scene, 'xb.core.scene');
  h.guard(core.camera, 'xb.core.camera');
  core.scene.updateMatrixWorld(true);
  const lo = new THREE.Vector3(...box[0]), hi = new THREE.Vector3(...box[1]);
  const centre = lo.clone().add(hi).multiplyScalar(0.5), size = hi.clone().sub(lo);
  const towardsHead = core.camera.getWorldPosition(new THREE.Vector3()).sub(centre).normalize();
  const fov = 40;
  const fit = Math.max(size.y, Math.hypot(size.x, size.z) * height / width);
  const camera = new THREE.PerspectiveCamera(fov, width / height, 0.01, 20);
  camera.position.copy(centre).addScaledVector(towardsHead, 0.6 * fit / Math.tan(THREE.MathUtils.degToRad(fov / 2)));
  camera.lookAt(centre);
  camera.layers.mask = core.camera.layers.mask;
  camera.updateMatrixWorld(true);
  const rects = masks.map(([a, b]) => {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const x of [a[0], b[0]]) for (const y of [a[1], b[1]]) for (const z of [a[2], b[2]]) {
      const v = new THREE.Vector3(x, y, z).project(camera);
      const px = (v.x + 1) / 2 * width, py = (v.y + 1) / 2 * height;
      x0 = Math.min(x0, px); x1 = Math.max(x1, px); y0 = Math.min(y0, py); y1 = Math.max(y1, py);
    }
    return [x0, y0, x1, y1];
  });
  const target = new THREE.WebGLRenderTarget(width, height);
  const previous = renderer.getRenderTarget();
  const xrEnabled = renderer.xr.enabled;
  const pixels = new Uint8Array(width * height * 4);
  try {
    renderer.xr.enabled = false;
    renderer.setRenderTarget(target);
    renderer.clear();
    renderer.render(core.scene, camera);
    renderer.readRenderTargetPixels(target, 0, 0, width, height, pixels);
  } finally {
    renderer.setRenderTarget(previous);
    renderer.xr.enabled = xrEnabled;
    target.dispose();
  }
  let text = '';
  for (let i = 0; i < pixels.length; i += 0x8000) {
    text += String.fromCharCode.apply(null, pixels.subarray(i, i + 0x8000));
  }
  return {pixels: btoa(text), rects};
}
"""


@dataclass
class Picture:
    """What the panel shows: RGB pixels (rows from the bottom up) and the rectangles left out."""

    pixels: np.ndarray
    masked: list


def lower_hands(xr) -> None:
    """Both hands at rest, their rays on the floor: nothing on or near the panel is pointed at;
    then a moment for any press or hover effect to fade."""
    for role in ("dominant", "non_dominant"):
        hand = xr.hand(role)
        hand.rest()
        x, _, z = hand.position
        hand.point_to((x, 0.0, z - 0.5))
    xr.step(SETTLE)


def render_panel(xr) -> Picture:
    """The panel as drawn now, seen from in front of it, the button's area masked out."""
    panel, button = xr.find_by_tag(PANEL), xr.find_by_tag(BUTTON)
    assert panel.bbox is not None and button.bbox is not None, "the panel or its button has no geometry"
    width, height = PICTURE
    args = {
        "box": [list(panel.bbox[0]), list(panel.bbox[1])],
        "masks": [[list(button.bbox[0]), list(button.bbox[1])]],
        "width": width,
        "height": height,
    }
    got = xr.probe(_PICTURE_JS, args)
    rgba = np.frombuffer(base64.b64decode(got["pixels"]), dtype=np.uint8).reshape(height, width, 4)
    return Picture(rgba[:, :, :3].astype(int), got["rects"])


def picture(xr) -> Picture:
    """The panel once the hands are lowered and its look has settled: text that is laid out off
    the main thread (SDF text, for example) may take a moment of real time to show a new number,
    so this renders again until two pictures agree (a few tries at most)."""
    lower_hands(xr)
    shot = render_panel(xr)
    for _ in range(4):
        time.sleep(0.05)
        xr.step(2)
        again = render_panel(xr)
        if differing(shot, again) <= SAME:
            return again
        shot = again
    return shot


def differing(a: Picture, b: Picture) -> int:
    """Pixels that clearly differ (by over 48 in a colour channel), outside both pictures' masks."""
    diff = np.abs(a.pixels - b.pixels).max(axis=2) > 48
    height, width = diff.shape
    for x0, y0, x1, y1 in [*a.masked, *b.masked]:
        rows = slice(max(0, math.floor(y0) - 2), max(0, min(height, math.ceil(y1) + 3)))
        cols = slice(max(0, math.floor(x0) - 2), max(0, min(width, math.ceil(x1) + 3)))
        diff[rows, cols] = False
    return int(diff.sum())


def assert_shows_new_count(before: Picture, after: Picture, when: str) -> int:
    """The two pictures differ clearly outside the button; returns how many pixels differ."""
    __tracebackhide__ = True
    n = differing(before, after)
    assert n >= CHANGED, (
        f"{when}: expected the panel to show the new count; it looks the same as before "
        f"({n} of {PICTURE[0] * PICTURE[1]} pixels differ outside the button, at least {CHANGED} expected)"
    )
    return n


def test_the_panel_is_in_front_at_eye_height_and_faces_the_user(xr):
    xr.step(2)
    head = xr.head.pose
    panel = xr.find(PANEL)
    offset = [panel.point[i] - head.position[i] for i in range(3)]
    flat = math.hypot(offset[0], offset[2])
    forward = head.forward or (0.0, 0.0, -1.0)
    ahead = (offset[0] * forward[0] + offset[2] * forward[2]) / (math.hypot(forward[0], forward[2]) or 1.0)
    assert ahead > 0, f"the panel is behind the user: centre {panel.point}, head {head.position}"
    angle = math.degrees(math.acos(max(-1.0, min(1.0, ahead / flat)))) if flat > 1e-6 else 0.0
    assert angle <= 30, f"the panel is {angle:.0f} deg to the side of the view direction (at most 30)"
    assert 0.5 <= flat <= 1.1, f"the panel is {flat:.2f} m in front of the eyes; expected 0.6-1.0 m"
    assert abs(offset[1]) <= 0.25, f"the panel's centre is {offset[1]:+.2f} m from eye height (at most 0.2 m)"
    assert_facing_user(xr, PANEL, max_angle=20)
    assert_visible(xr, BUTTON)
    assert_near(xr, BUTTON, PANEL, within=0.03)
    assert_no_errors(xr)


def test_each_selection_of_the_button_adds_one_with_either_hand(xr):
    xr.step(2)
    assert_state(xr, PANEL, count=0)
    shown = {0: picture(xr)}
    xr.hand("dominant").click(BUTTON, hold_frames=HOLD)
    assert_state(xr, PANEL, count=1)
    xr.hand("non_dominant").click(BUTTON, hold_frames=HOLD)
    assert_state(xr, PANEL, count=2)
    xr.hand("dominant").click(hold_frames=HOLD)  # still aiming at the button
    assert_state(xr, PANEL, count=3)
    shown[3] = picture(xr)
    for count, role in ((4, "dominant"), (5, "non_dominant")):
        xr.hand(role).click(BUTTON, hold_frames=HOLD)
        assert_state(xr, PANEL, count=count)
        shown[count] = picture(xr)
    # Every count shown so far looks different from every other one.
    for a, b in itertools.combinations(shown, 2):
        assert_shows_new_count(shown[a], shown[b], f"at count {b} (compared with count {a})")
    assert_no_errors(xr)


def test_selecting_the_panel_away_from_the_button_does_not_count(xr):
    xr.step(2)
    panel, button = xr.find(PANEL), xr.find(BUTTON)
    assert panel.bbox is not None and button.bbox is not None
    (lo, hi), centre = panel.bbox, panel.point
    # The inset corner of the panel's face farthest from the button (the panel faces the user
    # at the start, so its face spans x and y).
    corners = [
        (
            lo[0] + 0.15 * (hi[0] - lo[0]) if sx < 0 else hi[0] - 0.15 * (hi[0] - lo[0]),
            lo[1] + 0.15 * (hi[1] - lo[1]) if sy < 0 else hi[1] - 0.15 * (hi[1] - lo[1]),
            centre[2],
        )
        for sx in (-1, 1)
        for sy in (-1, 1)
    ]
    spot = max(corners, key=lambda p: math.dist(p, button.point))
    before = picture(xr)
    xr.hand("dominant").click(spot, hold_frames=HOLD)
    assert_state(xr, PANEL, count=0)
    away = picture(xr)
    xr.hand("dominant").click(BUTTON, hold_frames=HOLD)
    assert_state(xr, PANEL, count=1)
    counted = assert_shows_new_count(before, picture(xr), "after a selection of the button (count 0 -> 1)")
    # The selection away from the button left the panel showing 0: it changed far fewer pixels
    # than the count going from 0 to 1 did.
    n = differing(before, away)
    assert n <= max(SAME, counted // 4), (
        f"expected the panel to show the same count after a selection of the panel away from the button; "
        f"{n} of {PICTURE[0] * PICTURE[1]} pixels outside the button changed (the selection of the button, "
        f"count 0 -> 1, changed {counted}; at most {max(SAME, counted // 4)} allowed)"
    )
    assert_no_errors(xr)
