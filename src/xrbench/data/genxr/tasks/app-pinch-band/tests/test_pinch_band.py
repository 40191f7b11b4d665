"""Runtime tests of the band between two pinches.

They check that
- the cylinder is gone and no band shows at the start, nor while one hand pinches on its own (held
  for half a second, with either hand first);
- the band shows within a frame of the second hand's pinch, whichever hand pinched first, and hides
  within a frame of either hand opening (the first or the second), staying hidden while the other
  hand still pinches, and shows again when both pinch again;
- while shown, read every frame as the hands move apart, together, up and to the side: its
  geometry (world vertices) has an end within 1.5 cm of each index fingertip (checked to 1.8 cm)
  and nothing more than 1.5 cm (checked to 1.8 cm) from the segment between them;
- its colour is green (green >= 150, red and blue <= 100) while the fingertips are less than 40 cm
  apart and red (red >= 200, green and blue <= 80) from 40 cm, switching within a frame of the
  distance crossing 40 cm, both ways, with the hands moving 1 cm a frame.

Fingertips come from the harness's own reading of the hand joints, the band from the scene graph.
Each test runs for a right- and a left-dominant user.
"""

from __future__ import annotations

import math

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = pytest.mark.xr_scenes("empty")

TAG = "pinch-band"
TOL = 0.018  # "within 1.5 cm", with 3 mm of slack
LIMIT = 0.40

Vec = tuple[float, float, float]

READ = r"""
(h, tag) => {
  const THREE = h.THREE, scene = h.guard(h.core.scene, 'the scene');
  scene.updateMatrixWorld(true);
  const shown = new Set();
  scene.traverseVisible((o) => { shown.add(o); });
  const out = [];
  let cylinder = 0;
  scene.traverse((o) => {
    h.guard(o, o.name || o.type);
    const g = o.geometry;
    if (o.isMesh && g && g.type === 'CylinderGeometry' && shown.has(o) && g.parameters &&
        Math.abs(g.parameters.radiusTop - 0.2) < 1e-6 && Math.abs(g.parameters.height - 0.4) < 1e-6) cylinder++;
    const t = o.userData && o.userData.xrblocksDevtools;
    if (!t || String(t.tag) !== tag || !shown.has(o)) return;
    const m = Array.isArray(o.material) ? o.material[0] : o.material;
    const hex = m && m.color ? m.color.getHex() : null;  // sRGB, as a developer writes colours
      const color = hex === null ? null : [(hex >> 16) & 255, (hex >> 8) & 255, hex & 255];
    const verts = [];
    const pos = g && g.attributes && g.attributes.position;
    if (pos) {
      const v = new THREE.Vector3();
      for (let i = 0; i < pos.count; i++) {
        v.fromBufferAttribute(pos, i).applyMatrix4(o.matrixWorld);
        verts.push([v.x, v.y, v.z]);
      }
    }
    out.push({color, verts});
  });
  return {bands: out, cylinder};
}
"""


def fmt(p) -> str:
    return "(" + ", ".join(f"{c:.3f}" for c in p) + ")"


def bands(xr) -> list[dict]:
    return xr.probe(READ, TAG)["bands"]


def tips(xr) -> tuple[Vec, Vec]:
    return (xr.hand_joints("left")["index-finger-tip"].position, xr.hand_joints("right")["index-finger-tip"].position)


def seg_dist(p, a, b) -> float:
    ab = [b[i] - a[i] for i in range(3)]
    ap = [p[i] - a[i] for i in range(3)]
    n = sum(c * c for c in ab)
    t = 0.0 if n < 1e-12 else max(0.0, min(1.0, sum(ab[i] * ap[i] for i in range(3)) / n))
    return math.dist(p, [a[i] + t * ab[i] for i in range(3)])


def is_green(c) -> bool:
    return c[1] >= 150 and c[0] <= 100 and c[2] <= 100


def is_red(c) -> bool:
    return c[0] >= 200 and c[1] <= 80 and c[2] <= 80


def expect_hidden(xr, what: str) -> None:
    __tracebackhide__ = True
    shown = bands(xr)
    assert not shown, f"{what}: expected no band; {len(shown)} shown"


def expect_band(xr, what: str) -> dict:
    """One band shown, a straight segment between the fingertips, coloured by its length."""
    __tracebackhide__ = True
    shown = bands(xr)
    assert len(shown) == 1, f"{what}: expected one band shown; observed {len(shown)}"
    band = shown[0]
    a, b = tips(xr)
    pts = band["verts"]
    assert pts, f"{what}: the band has no geometry"
    for name, p in (("left", a), ("right", b)):
        gap = min(math.dist(p, q) for q in pts)
        assert gap <= TOL, (
            f"{what}: expected an end of the band at the {name} index fingertip {fmt(p)} (within 1.5 cm); nothing of "
            f"it within {100 * gap:.1f} cm"
        )
    far = max(pts, key=lambda q: seg_dist(q, a, b))
    assert seg_dist(far, a, b) <= TOL, (
        f"{what}: expected the band straight between the fingertips; part of it is at {fmt(far)}, "
        f"{100 * seg_dist(far, a, b):.1f} cm off the segment"
    )
    length = math.dist(a, b)
    c = band["color"]
    assert c is not None, f"{what}: the band's material has no colour"
    ok = is_green(c) if length < LIMIT else is_red(c)
    assert ok, (
        f"{what}: the fingertips are {100 * length:.1f} cm apart, so the band should be "
        f"{'green' if length < LIMIT else 'red'}; its colour is rgb{tuple(c)}"
    )
    return band


def ready(xr) -> None:
    """Hands in front of the chest, fingertips about 25 cm apart."""
    xr.step(2)
    s = 1.0 if xr.handedness("dominant") == "right" else -1.0
    xr.hand("dominant").move_hand((s * 0.12, 1.25, -0.45), anchor="fingertip")
    xr.hand("non_dominant").move_hand((-s * 0.12, 1.25, -0.45), anchor="fingertip")
    xr.step(3)


@pytest.mark.parametrize("first", ["dominant", "non_dominant"])
def test_the_band_shows_only_while_both_hands_pinch(xr, first):
    xr.step(2)
    assert xr.probe(READ, TAG)["cylinder"] == 0, "expected the starting app's cylinder to be removed"
    expect_hidden(xr, "at the start")
    ready(xr)
    second = "non_dominant" if first == "dominant" else "dominant"
    xr.hand(first).start_select(1)
    for _ in range(6):
        xr.step(5)
        expect_hidden(xr, f"while only the {first.replace('_', '-')} hand pinches")
    xr.hand(second).start_select(1)
    if not bands(xr):
        xr.step(1)  # within a frame
    expect_band(xr, "within a frame of the second hand's pinch")
    for _ in range(10):
        xr.step(3)
        expect_band(xr, "while both hands hold their pinches")
    xr.hand(first).end_select(1)
    if bands(xr):
        xr.step(1)
    expect_hidden(xr, f"within a frame of the {first.replace('_', '-')} hand (the first to pinch) opening")
    for _ in range(4):
        xr.step(5)
        expect_hidden(xr, "while only the other hand still pinches")
    xr.hand(first).start_select(1)
    if not bands(xr):
        xr.step(1)
    expect_band(xr, "within a frame of both pinching again")
    xr.hand(first).start_select(10)  # still held
    xr.hand(second).end_select(1)
    if bands(xr):
        xr.step(1)
    expect_hidden(xr, f"within a frame of the {second.replace('_', '-')} hand opening")
    xr.hand(first).end_select(10)
    expect_hidden(xr, "after both hands opened")
    assert_no_errors(xr)


def stretch(xr, role: str, delta: Vec, frames: int, what: str) -> None:
    """Move one hand by `delta` over `frames` frames, 1 frame a step; the band is read every frame,
    and its colour must switch within a frame of the fingertips crossing 40 cm apart."""
    __tracebackhide__ = True
    hand = xr.hand(role)
    before = math.dist(*tips(xr))
    for _ in range(frames):
        hand.move_by(tuple(c / frames for c in delta), speed=100.0)
        now = math.dist(*tips(xr))
        crossed = (before < LIMIT) != (now < LIMIT)
        if crossed:
            c = bands(xr)[0]["color"] if bands(xr) else None
            if c is None or not (is_green(c) if now < LIMIT else is_red(c)):
                xr.step(1)  # within a frame
        expect_band(xr, f"{what} ({100 * now:.1f} cm apart)")
        before = now


def test_it_follows_the_hands_and_turns_red_from_40_cm(xr):
    ready(xr)
    s = 1.0 if xr.handedness("dominant") == "right" else -1.0
    non = xr.hand("non_dominant")
    dom = xr.hand("dominant")
    non.start_select(0)
    dom.start_select(3)
    expect_band(xr, "both hands pinching 25 cm apart")
    stretch(xr, "dominant", (s * 0.3, 0.0, 0.0), 30, "pulling the dominant hand out")
    assert math.dist(*tips(xr)) > 0.5, "test set-up: the fingertips should be over 50 cm apart"
    stretch(xr, "dominant", (-s * 0.3, 0.1, 0.0), 30, "bringing it back, a little higher")
    stretch(xr, "non_dominant", (-s * 0.25, -0.1, 0.1), 25, "pulling the other hand out and down")
    stretch(xr, "non_dominant", (s * 0.25, 0.2, -0.1), 25, "bringing it back up")
    xr.head.rotate(yaw=40)
    stretch(xr, "dominant", (0.2, 0.2, -0.2), 20, "both hands up and to the side")
    non.end_select(0)
    dom.end_select(2)
    expect_hidden(xr, "after both hands opened")
    assert_no_errors(xr)
