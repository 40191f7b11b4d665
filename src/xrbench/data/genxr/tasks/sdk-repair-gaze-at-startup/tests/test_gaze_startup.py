"""The gaze controller turned on at start-up, at run time, and off and on again (held-out tests).

The app (the task's own `workspace/`, held out: candidates change only `sdk/src`) has three
`xb.UIButton`s, each 0.14 m high: `on-button` and `off-button` side by side on `lamp-card`
(0.5 m wide, centred at (0, 1.5, -1.2), facing the start), and `dim-button` on `dim-card` (centred
at (-0.9, 1.2, -0.9), turned 45 degrees towards the start). Its page decides where it calls
`xb.core.input.enableGazeController()`: `index.html` in the Script's `init()`, `before-init.html`
before `xb.init()`, `gaze-off.html` never (the tests call `enableGazeController()` and
`disableGazeController()` between frames, through the harness's probe, on the candidate's SDK).
The `xr_app` fixture below hands the harness a copy of the candidate's app whose `index.html` is
the page a test asks for.

What is read: the gaze reticle (`xb.core.input.gazeController.reticle`): shown when it and all its
parents are visible and it is in the scene; its world position must be within 1 cm of where the
head's line of sight (the camera's position and forward direction, read by the harness) meets the
plane of the card looked at. A gaze press is an `object_select_start` on the button in the
harness's event log (the app's `clicks` must agree); it is due on the first frame at which the
frame times after the landing frame add up to 1.5 s, one frame either side accepted. The head
turns in one frame (`FAST`); frames last 1/30 s.
"""

from __future__ import annotations

import math
import shutil

import pytest

from xrbench.xrtest.assertions import assert_no_errors

pytestmark = [pytest.mark.xr_scenes("empty"), pytest.mark.fail_to_pass]

FAST = 1.0e6  # degrees per second: the head turns in one frame
DWELL = 1.5  # seconds
DT = 1000.0 / 30.0  # ms per frame
TOL = 0.01  # metres
BUTTONS = ("on-button", "off-button", "dim-button")
NOWHERE = (0.0, 3.4, -1.5)  # above the cards: the gaze meets nothing
CARD_OF = {"on-button": "lamp-card", "off-button": "lamp-card", "dim-button": "dim-card"}
# The cards' planes (a point and the normal), as the app places them: the UI is laid out on them.
H = math.sqrt(0.5)
PLANES = {"lamp-card": ((0.0, 1.5, -1.2), (0.0, 0.0, 1.0)), "dim-card": ((-0.9, 1.2, -0.9), (H, 0.0, H))}

PAGES = {
    "test_gaze_turned_on_in_script_init_follows_the_head_from_the_first_frame": "index.html",
    "test_gaze_turned_on_before_init_follows_the_head_from_the_first_frame": "before-init.html",
    "test_gaze_turned_on_at_run_time_off_and_on_again": "gaze-off.html",
}

RETICLE = r"""(h) => {
  const g = h.core.input.gazeController;
  const r = g ? g.reticle : null;
  if (!r) return {shown: false, attached: false, position: null, frame: h.frames};
  let visible = true, attached = false;
  for (let o = r; o; o = o.parent) {
    if (!o.visible) visible = false;
    if (o === h.core.scene) attached = true;
  }
  const e = r.matrixWorld.elements;
  return {shown: visible && attached, attached, position: [e[12], e[13], e[14]], frame: h.frames};
}"""

ENABLE = "(h, n) => { for (let i = 0; i < n; i++) h.core.input.enableGazeController(); return h.frames; }"
DISABLE = "(h) => { h.core.input.disableGazeController(); return h.frames; }"


@pytest.fixture
def xr_app(xr_app, request, tmp_path):
    """The candidate's app, with the page this test needs as its index.html."""
    page = PAGES.get(request.node.originalname, "index.html")
    if page == "index.html":
        return xr_app
    dest = tmp_path / "app"
    shutil.copytree(xr_app, dest, symlinks=True)
    shutil.copyfile(dest / page, dest / "index.html")
    return dest


class Gaze:
    """Drives the head, keeps the frame times stepped, reads the reticle and the presses."""

    def __init__(self, xr):
        self.xr = xr
        self.times: dict[int, float] = {}

    @property
    def frame(self) -> int:
        return self.xr.step(0)

    def step(self, n: int = 1) -> int:
        start = self.frame
        self.xr.step(n, dt_ms=DT)
        for f in range(start + 1, start + n + 1):
            self.times[f] = DT
        return self.frame

    def hold(self, seconds: float) -> int:
        return self.step(max(1, round(seconds * 1000.0 / DT)))

    def look(self, target) -> int:
        """Turn the head in one frame to a point or a tagged button's centre; the landing frame."""
        point = self.centre(target) if isinstance(target, str) else target
        self.xr.head.look_at(point, speed=FAST)
        self.times[self.frame] = self.xr.dt_ms
        return self.frame

    def go(self, eyes) -> None:
        """Put the eyes at `eyes` (one frame)."""
        self.xr.head.teleport_to(tuple(eyes))
        self.times[self.frame] = self.xr.dt_ms

    def centre(self, tag: str):
        node = self.xr.find_by_tag(tag)
        return tuple(node.ui_rect.center) if node.ui_rect else tuple(node.position)

    def reticle(self) -> dict:
        return self.xr.probe(RETICLE)

    def sight_on(self, card: str):
        """Where the head's line of sight meets the plane of `card` on this frame, or None."""
        pose = self.xr.camera_pose()
        c, n = PLANES[card]
        o, d = pose.position, pose.forward
        den = sum(d[i] * n[i] for i in range(3))
        if abs(den) < 1e-6:
            return None
        t = sum((c[i] - o[i]) * n[i] for i in range(3)) / den
        return None if t <= 0 else tuple(o[i] + t * d[i] for i in range(3))

    def expect_reticle_on(self, card: str, what: str) -> None:
        r = self.reticle()
        point = self.sight_on(card)
        assert point is not None, f"test error: the head does not look at {card} at frame {r['frame']}"
        assert r["shown"], (
            f"{what}: expected the gaze reticle shown at {fmt(point)} (where the head's line of sight meets "
            f"{card}) at frame {r['frame']}; observed it hidden (in the scene: {r['attached']})"
        )
        off = math.dist(point, r["position"])
        assert off <= TOL, (
            f"{what}: expected the gaze reticle within 1 cm of {fmt(point)} (where the head's line of sight "
            f"meets {card}) at frame {r['frame']}; observed at {fmt(r['position'])}, {off * 100:.1f} cm away"
        )

    def expect_no_reticle(self, what: str) -> None:
        r = self.reticle()
        assert not r["shown"], (
            f"{what}: expected no gaze reticle at frame {r['frame']}; observed one shown at {fmt(r['position'])}"
        )

    def due(self, landing: int) -> int:
        total, f = 0.0, landing
        while True:
            f += 1
            if f not in self.times:
                raise AssertionError(f"test error: frame {f} was not stepped by the test")
            total += self.times[f]
            if total >= DWELL * 1000.0 - 1e-6:
                return f

    def presses(self, tag: str, since: int) -> list[int]:
        return [e.frame for e in self.xr.events("object_select_start", target=tag, since_frame=since)]

    def clicks(self) -> dict[str, int]:
        return {tag: int(self.xr.find_by_tag(tag).state["clicks"]) for tag in BUTTONS}

    def expect_press(self, tag: str, landing: int, since: int, what: str) -> None:
        due = self.due(landing)
        seen = self.presses(tag, since)
        assert len(seen) == 1 and abs(seen[0] - due) <= 1, (
            f"{what}: expected one gaze press of {tag} at frame {due} +/- 1 (1.5 s after the gaze landed on it "
            f"at frame {landing}); observed presses at frames {seen or 'none'}"
        )
        for other in BUTTONS:
            if other != tag:
                assert not self.presses(other, since), (
                    f"{what}: expected no press of {other} since frame {since}; "
                    f"observed at frames {self.presses(other, since)}"
                )

    def expect_no_press(self, since: int, what: str) -> None:
        seen = {tag: self.presses(tag, since) for tag in BUTTONS}
        assert not any(seen.values()), f"{what}: expected no gaze press since frame {since}; observed {seen}"

    def dwell(self, tag: str, what: str) -> None:
        """From looking at nothing, turn to `tag`: the reticle on it on the landing frame, no press
        for 1.3 s, one at 1.5 s."""
        self.look(NOWHERE)
        start = self.frame
        landing = self.look(tag)
        self.expect_reticle_on(CARD_OF[tag], f"{what}: on the frame the gaze lands on {tag}")
        self.hold(1.3)
        self.expect_no_press(start, f"{what}: 1.3 s after the gaze landed on {tag}")
        self.expect_reticle_on(CARD_OF[tag], f"{what}: 1.3 s after the gaze landed on {tag}")
        self.hold(0.4)
        self.expect_press(tag, landing, start, what)


def fmt(p) -> str:
    return "(" + ", ".join(f"{v:.3f}" for v in p) + ")" if p is not None else "None"


def sweep(gaze: Gaze, card: str, points, what: str) -> None:
    """Turn the head to each point in one frame, checking the reticle on every one of those frames."""
    for p in points:
        gaze.look(p)
        gaze.expect_reticle_on(card, f"{what}: looking at {fmt(p)}")


def lamp_sweep(gaze: Gaze, what: str) -> None:
    """Across the lamp card, left to right and up a little, one frame per point."""
    points = [(x, 1.46 + 0.015 * k, -1.2) for k, x in enumerate((-0.2, -0.12, -0.04, 0.04, 0.12, 0.2))]
    sweep(gaze, "lamp-card", points, what)


def first_shown(gaze: Gaze, card: str = "lamp-card", limit: int = 60) -> int:
    """Step from the start to the first frame on which `card` is laid out (the UI layout engine
    loads in wall-clock time, so on a busy machine that may be a frame or two later): the first
    frame on which the head's line of sight can meet it."""
    for _ in range(limit):
        frame = gaze.step(1)
        if gaze.xr.find_by_tag(card).ui_rect is not None:
            return frame
    raise AssertionError(f"expected {card} laid out within {limit} frames of the start; it was not")


@pytest.mark.xr_scenes("empty", "living_room")
def test_gaze_turned_on_in_script_init_follows_the_head_from_the_first_frame(xr):
    """index.html: reticle from the first frame the card is shown; then turn, walk and crouch, pressing a
    button from each pose."""
    xr.dt_ms = DT
    gaze = Gaze(xr)
    first_shown(gaze)
    gaze.expect_reticle_on("lamp-card", "gaze turned on in the Script's init(), on the first frame the card is shown")
    assert_no_errors(xr)
    xr.settle()
    gaze.look(NOWHERE)
    gaze.hold(0.2)
    gaze.expect_no_reticle("looking above the cards")
    gaze.dwell("on-button", "from the start, looking at On")
    lamp_sweep(gaze, "turning the head across the lamp card from the start")
    gaze.look(NOWHERE)
    gaze.go((0.45, 1.5, 0.3))  # walked to the right and back
    lamp_sweep(gaze, "turning the head across the lamp card after walking right")
    gaze.dwell("off-button", "after walking right, looking at Off")
    gaze.look(NOWHERE)
    gaze.go((-0.2, 1.0, -0.1))  # crouched
    sweep(gaze, "dim-card", [(-0.95, 1.18, -0.85), (-0.85, 1.22, -0.95)], "crouched, looking at the Dim card")
    gaze.dwell("dim-button", "crouched, looking at Dim")
    assert gaze.clicks() == {"on-button": 1, "off-button": 1, "dim-button": 1}, (
        f"expected one onClick of each button after the three looks; observed {gaze.clicks()}"
    )
    assert_no_errors(xr)


def test_gaze_turned_on_before_init_follows_the_head_from_the_first_frame(xr):
    """before-init.html: reticle from the first frame the card is shown; presses from two poses."""
    xr.dt_ms = DT
    gaze = Gaze(xr)
    first_shown(gaze)
    gaze.expect_reticle_on("lamp-card", "gaze turned on before xb.init(), on the first frame the card is shown")
    assert_no_errors(xr)
    xr.settle()
    gaze.dwell("dim-button", "gaze turned on before xb.init(), looking at Dim")
    gaze.look(NOWHERE)
    gaze.go((-0.3, 1.2, 0.2))
    lamp_sweep(gaze, "gaze turned on before xb.init(), after moving left and down")
    gaze.dwell("off-button", "gaze turned on before xb.init(), after moving, looking at Off")
    assert gaze.clicks() == {"on-button": 0, "off-button": 1, "dim-button": 1}, (
        f"expected one onClick of Dim and of Off; observed {gaze.clicks()}"
    )
    assert_no_errors(xr)


def test_gaze_turned_on_at_run_time_off_and_on_again(xr):
    """gaze-off.html: no gaze; turned on between frames; off; on again; on twice."""
    xr.dt_ms = DT
    gaze = Gaze(xr)
    gaze.step(1)
    gaze.expect_no_reticle("an app that never turned gaze on, first frame")
    xr.settle()

    # Never turned on: looking at On for 2.5 s presses nothing.
    start = gaze.frame
    gaze.look("on-button")
    for _ in range(5):
        gaze.hold(0.5)
        gaze.expect_no_reticle("gaze never turned on, looking at On")
    gaze.expect_no_press(start, "gaze never turned on, 2.5 s looking at On")

    # Turned on at run time while the head looks at Off: the reticle from the next frame, a press 1.5 s later.
    gaze.look("off-button")
    start = xr.probe(ENABLE, 1)
    landing = gaze.step(1)
    gaze.expect_reticle_on("lamp-card", "gaze turned on at run time, on the next frame")
    gaze.hold(1.3)
    gaze.expect_no_press(start, "gaze turned on at run time, 1.3 s looking at Off")
    gaze.hold(0.4)
    gaze.expect_press("off-button", landing, start, "gaze turned on at run time while looking at Off")
    lamp_sweep(gaze, "gaze turned on at run time, turning across the lamp card")
    gaze.dwell("on-button", "gaze turned on at run time, looking at On")
    assert_no_errors(xr)

    # Off: the reticle goes on the next frame, and nothing is pressed however long the user looks.
    gaze.look("dim-button")
    start = xr.probe(DISABLE)
    gaze.step(1)
    gaze.expect_no_reticle("gaze turned off, on the next frame")
    for tag in ("dim-button", "off-button"):
        gaze.look(tag)
        for _ in range(4):
            gaze.hold(0.5)
            gaze.expect_no_reticle(f"gaze turned off, looking at {tag}")
    gaze.expect_no_press(start, "gaze turned off, 2 s looking at Dim and 2 s at Off")

    # On again while looking at Off, and again (twice) while it is on: one ray, the full 1.5 s, one press.
    start = xr.probe(ENABLE, 1)
    landing = gaze.step(1)
    gaze.expect_reticle_on("lamp-card", "gaze turned on again, on the next frame")
    gaze.hold(0.5)
    xr.probe(ENABLE, 2)
    gaze.hold(0.8)
    gaze.expect_no_press(start, "gaze on again (and enabled twice more), 1.3 s looking at Off")
    gaze.expect_reticle_on("lamp-card", "gaze on again (and enabled twice more)")
    gaze.hold(0.4)
    gaze.expect_press("off-button", landing, start, "gaze on again (and enabled twice more) looking at Off")
    gaze.hold(2.0)
    gaze.expect_press("off-button", landing, start, "2 s more looking at Off after its press")
    gaze.look(NOWHERE)
    gaze.hold(0.3)
    gaze.dwell("dim-button", "gaze on again, looking at Dim")
    assert gaze.clicks() == {"on-button": 1, "off-button": 2, "dim-button": 1}, (
        f"expected onClick counts On 1, Off 2, Dim 1; observed {gaze.clicks()}"
    )
    assert_no_errors(xr)
