"""Runtime tests of the whack-a-target game.

They check that
- before the first game no target is shown and the score panel (facing the user) shows 0;
  selecting the start button starts a game with the target at the first position of the given
  sequence;
- each hit (a ray selection of the target, alternating the dominant and non-dominant hand)
  adds exactly one to the score and moves the target to the next position of the sequence;
- selections that miss the target change neither the score nor the target's position, and
  selecting the start button again restarts the game (score 0, first position).

The score is read from the panel's pixels as well as from `state.score`: after each hit the panel
looks different from how it looked at every earlier score of the game; after two misses, and
after a restart, it looks as it did at the start of the game (score 0): it differs from that
far less than the panel at score 2 does. The pixels come from the app's scene rendered off
screen by a camera in front of the panel, with both hands lowered and their rays on the floor,
half a second after the last selection.
"""

from __future__ import annotations

import base64
import itertools
import time
from dataclasses import dataclass

import numpy as np
import pytest

from xrbench.xrtest.assertions import (
    assert_facing_user,
    assert_no_errors,
    assert_not_visible,
    assert_position,
    assert_state,
    assert_visible,
)

pytestmark = pytest.mark.xr_scenes("empty")

START, TARGET, PANEL = "start-button", "whack-target", "score-panel"
SEQUENCE = [(-0.4, 1.5, -1.5), (0.4, 1.7, -1.5), (0.0, 1.3, -1.2), (0.5, 1.4, -1.3), (-0.5, 1.6, -1.3)]
HOLD = 6  # frames a click holds the pinch (and waits after releasing it)
PICTURE = (512, 256)  # width, height of the off-screen pictures of the score panel, in pixels
SETTLE = 30  # frames (half a second) for a brief effect of a selection to fade before a picture
CHANGED = 16  # pixels that must differ between pictures of two different scores
SAME = 8  # pixels that may always differ between two pictures of the same score

# A probe (see `XRSession.probe`) that renders the app's scene off screen with a camera that frames
# the world box `box` from the side of the user's head: RGBA rows from the bottom up (base64).
_PICTURE_JS = """
(h, {box, width, height}) => {
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
  return btoa(text);
}
"""


@dataclass
class Picture:
    """What the score panel shows: RGB pixels (rows from the bottom up)."""

    pixels: np.ndarray


def lower_hands(xr) -> None:
    """Both hands at rest, their rays on the floor: nothing is pointed at; then a moment for any
    effect of the last selection to fade."""
    for role in ("dominant", "non_dominant"):
        hand = xr.hand(role)
        hand.rest()
        x, _, z = hand.position
        hand.point_to((x, 0.0, z - 0.5))
    xr.step(SETTLE)


def render_panel(xr) -> Picture:
    """The score panel as drawn now, seen from in front of it."""
    box = xr.find_by_tag(PANEL).bbox
    assert box is not None, "the score panel has no geometry"
    width, height = PICTURE
    got = xr.probe(_PICTURE_JS, {"box": [list(box[0]), list(box[1])], "width": width, "height": height})
    rgba = np.frombuffer(base64.b64decode(got), dtype=np.uint8).reshape(height, width, 4)
    return Picture(rgba[:, :, :3].astype(int))


def picture(xr) -> Picture:
    """The score panel once the hands are lowered and its look has settled: text laid out off the
    main thread (SDF text, for example) may take a moment of real time to show a new score, so
    this renders again until two pictures agree (a few tries at most)."""
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
    """Pixels that clearly differ (by over 48 in a colour channel)."""
    return int((np.abs(a.pixels - b.pixels).max(axis=2) > 48).sum())


def assert_shows_new_score(before: Picture, after: Picture, when: str) -> int:
    """The two pictures differ clearly; returns how many pixels differ."""
    __tracebackhide__ = True
    n = differing(before, after)
    assert n >= CHANGED, (
        f"{when}: expected the score panel to show the new score; it looks the same as before "
        f"({n} of {PICTURE[0] * PICTURE[1]} pixels differ, at least {CHANGED} expected)"
    )
    return n


def assert_shows_same_score(before: Picture, after: Picture, changed: int, when: str) -> None:
    """The two pictures differ far less (a quarter) than a change of score (`changed` pixels) does."""
    __tracebackhide__ = True
    n, most = differing(before, after), max(SAME, changed // 4)
    assert n <= most, (
        f"{when}: expected the score panel to show the same score as before; {n} of "
        f"{PICTURE[0] * PICTURE[1]} pixels changed (a change of score changed {changed}; at most {most} allowed)"
    )


def target(xr):
    """The one visible target."""
    shown = [n for n in xr.tagged(TARGET) if n.root == "scene" and n.visible]
    assert len(shown) == 1, f"expected exactly one visible {TARGET!r}; observed {len(shown)}"
    return shown[0]


def assert_target_at(xr, k: int, when: str) -> None:
    __tracebackhide__ = True
    try:
        assert_position(xr, target(xr), SEQUENCE[k], tol=0.03)
    except AssertionError as e:
        raise AssertionError(f"{when}: expected the target at position {k + 1} of the sequence; {e}") from None


def start(xr, role="dominant"):
    xr.hand(role).click(START, hold_frames=HOLD)
    xr.hand(role).point_forward()


def test_the_start_button_starts_a_game_at_the_first_position(xr):
    xr.step(2)
    assert_not_visible(xr, TARGET)
    assert_state(xr, PANEL, score=0)
    assert_visible(xr, PANEL)
    assert_facing_user(xr, PANEL, max_angle=20)
    start(xr)
    assert_state(xr, PANEL, score=0, running=True)
    assert_target_at(xr, 0, "after selecting the start button")
    assert_no_errors(xr)


def test_each_hit_scores_one_and_moves_the_target_along_the_sequence(xr):
    xr.step(2)
    start(xr)
    shown = [picture(xr)]
    for hit in range(1, 4):
        role = "dominant" if hit % 2 else "non_dominant"
        xr.hand(role).click(target(xr), hold_frames=HOLD)
        assert_state(xr, PANEL, score=hit)
        assert_target_at(xr, hit % len(SEQUENCE), f"after hit {hit} (with the {role} hand)")
        shown.append(picture(xr))
    # Every score shown so far looks different from every other one.
    for a, b in itertools.combinations(range(len(shown)), 2):
        assert_shows_new_score(shown[a], shown[b], f"at score {b} (compared with score {a})")
    assert_no_errors(xr)


def test_misses_do_not_score_and_the_start_button_restarts(xr):
    xr.step(2)
    start(xr)
    zero = picture(xr)
    hand = xr.hand("dominant")
    hand.click((0.0, 2.6, -2.5), hold_frames=HOLD)  # empty space above the score panel
    hand.click((1.2, 1.5, -1.5), hold_frames=HOLD)  # empty space right of every target
    assert_state(xr, PANEL, score=0)
    assert_target_at(xr, 0, "after two misses")
    missed = picture(xr)
    hand.click(target(xr), hold_frames=HOLD)
    hand.click(target(xr), hold_frames=HOLD)
    assert_state(xr, PANEL, score=2)
    changed = assert_shows_new_score(zero, picture(xr), "after two hits (score 0 -> 2)")
    assert_shows_same_score(zero, missed, changed, "after two misses")
    start(xr, "non_dominant")
    assert_state(xr, PANEL, score=0, running=True)
    assert_target_at(xr, 0, "after restarting")
    assert_shows_same_score(zero, picture(xr), changed, "after restarting (score 0 again)")
    assert_no_errors(xr)
