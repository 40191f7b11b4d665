"""`IWERSession`: a plain WebXR app (three.js or any other) on Meta's IWER emulator, stepped in virtual time.

    with IWERSession("examples/iwer_cube", input_mode="hand") as s:
        s.step(2)
        s.select("cube")                      # point the dominant hand's ray at the cube and pinch
        assert s.find_by_tag("cube").state["on"]
        assert len(s.hand_joints("right")) == 25

`XRSession` runs XR Blocks apps on the SDK's desktop simulator. Apps that call WebXR themselves
have no simulator; they need a WebXR runtime. IWER (the Immersive Web Emulation Runtime) is one,
written in JavaScript: installed as `navigator.xr`, it emulates a Quest headset with controllers
and tracked hands, and `@iwer/sem` adds scanned rooms (planes, meshes, hit tests) for AR.

The lifecycle is `XRSession`'s: the app is copied into a temporary workspace whose import map
points `three`, `iwer` and `@iwer/sem` at the pinned node_modules, served by request routing, opened in
a fresh context of the shared browser with CDN requests answered locally or aborted, and torn down
on close (also on Ctrl-C). The harness page module (`js/iwer_harness.js`) runs before the app's
modules, installs IWER with `forceInstall` (Chromium already exposes a native `navigator.xr`),
optionally loads a room, and takes over IWER's frame loop. Opening then enters XR the way a user
would: a real click on the app's "Enter VR" / "Enter AR" / "Start AR" button (or, for apps without
one, `navigator.xr.requestSession` handed to the app's three.js renderer).

Time. IWER runs an XR session from one function that reschedules itself with the page's
requestAnimationFrame and passes `performance.now()` to the app's XR frame callbacks. The harness
replaces that scheduling with a gate: from the moment the session exists the loop is paused, and
`step(n)` runs IWER's own tick n times with a virtual clock (performance.now() is virtual too and
moves by exactly `dt_ms` per step). Input changes made between steps (poses, pinch, buttons) are
applied by IWER at the start of the next frame, which also dispatches select and squeeze events, so
an action followed by one step is seen by the app in exactly that frame, on every machine. A
session opened with `pause=False` runs freely instead; `wait_frames()` then waits on the frame
counter (never on wall-clock sleeps).

Coordinates. Readers and actors use the app's reference space (the first non-viewer space it
requested, e.g. three.js's 'local-floor'), which is also three.js's world frame unless the app
moves the camera through a rig.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlencode

from playwright.sync_api import Browser, BrowserContext, Locator, Page
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from xrbench.xrtest.browser import shared_browser
from xrbench.xrtest.errors import AppInitError, SessionClosedError, TagNotFoundError, WebDepsError, XRTestError
from xrbench.xrtest.pagesession import PageSession
from xrbench.xrtest.routing import Router, SessionLog, attach_log
from xrbench.xrtest.server import AppServer
from xrbench.xrtest.session import (
    DEFAULT_DT_MS,
    DEFAULT_VIEWPORT,
    HANDS,
    Joint,
    Pose,
    SceneNode,
    SessionHook,
    Vec3,
    load_js,
)
from xrbench.xrtest.webdeps import WebDeps, find_web_deps
from xrbench.xrtest.workspace import HARNESS_DIR, Workspace, create_workspace, local_import_map, rewrite_html

if TYPE_CHECKING:
    from xrbench.xrtest.readers import Target as ResolvedTarget

IWER_HARNESS_MODULE = f"/{HARNESS_DIR}/iwer_harness.js"

# The harness drives IWER's frame loop through its (exported, but internal) per-session state, so
# it is tied to these releases; others fail loudly instead of stepping wrongly.
REQUIRED_VERSIONS: dict[str, str] = {"iwer": "2.5.0", "@iwer/sem": "2.4.0"}

# Rooms that @iwer/sem 2.4 bundles in its ES build (loaded offline as chunks).
ROOMS: tuple[str, ...] = ("living_room", "meeting_room", "music_room", "office_large", "office_small")
DEVICES: tuple[str, ...] = ("metaQuest3", "metaQuest2", "metaQuestPro", "oculusQuest1")
MODES: tuple[str, ...] = ("immersive-vr", "immersive-ar")
InputMode = Literal["hand", "controller"]

# What `enter="api"` asks for; IWER grants every optional feature its Quest config supports.
DEFAULT_SESSION_INIT: dict[str, Any] = {
    "requiredFeatures": ["local-floor"],
    "optionalFeatures": ["hand-tracking", "plane-detection", "mesh-detection", "hit-test", "anchors"],
}

# The labels apps put on their session buttons: three.js's VRButton says "ENTER VR", its ARButton
# "START AR", XR Blocks "Enter XR".
ENTER_LABELS: dict[str, re.Pattern[str]] = {
    "immersive-vr": re.compile(r"\b(enter|start)\s*(vr|xr)\b", re.IGNORECASE),
    "immersive-ar": re.compile(r"\b(enter|start)\s*(ar|xr)\b", re.IGNORECASE),
}

# A target for pointing and reaching: a semantic tag, a scene node, or a point in the app's space.
Target = str | SceneNode | Sequence[float]


@dataclass(frozen=True)
class InputSourceInfo:
    """One XR input source as the app saw it in the last frame (poses in the app's reference space)."""

    handedness: str
    target_ray_mode: str
    profiles: tuple[str, ...]
    is_hand: bool
    target_ray: Pose | None
    grip: Pose | None
    buttons: tuple[float, ...]

    @classmethod
    def from_js(cls, d: dict[str, Any]) -> InputSourceInfo:
        return cls(
            handedness=d["handedness"],
            target_ray_mode=d["targetRayMode"],
            profiles=tuple(d["profiles"]),
            is_hand=bool(d["hand"]),
            target_ray=_pose(d.get("targetRay")),
            grip=_pose(d.get("grip")),
            buttons=tuple(float(b) for b in d.get("buttons") or ()),
        )


def _pose(d: dict[str, Any] | None) -> Pose | None:
    if not d:
        return None
    q = tuple(d["quaternion"])
    return Pose(tuple(d["position"]), q, _forward(q))  # type: ignore[arg-type]


def _forward(q: Sequence[float]) -> Vec3:
    """The -Z axis rotated by quaternion `q` (x, y, z, w): where a camera or a ray points."""
    x, y, z, w = q
    return (-2 * (x * z + w * y), -2 * (y * z - w * x), -(1 - 2 * (x * x + y * y)))


class IWERSession(PageSession):
    """A WebXR app under test on the IWER emulator (see the module docstring).

    Parameters:
        app_dir: folder with the app's `index.html`.
        mode: 'immersive-vr' or 'immersive-ar': which session to enter (which button to click).
        enter: how to enter XR: 'button' (a real click on the app's Enter/Start VR/AR/XR button, or
            on `enter_selector`), 'api' (`navigator.xr.requestSession(mode, session_init)` handed to
            the app's three.js renderer), 'auto' (the app requests a session on its own), or a
            callable given this session.
        enter_selector: a Playwright selector for the enter button when its label is unusual.
        room: an @iwer/sem room (`ROOMS`) to load before the session starts (AR planes, meshes,
            hit tests; rendered behind the app in AR), or None.
        input_mode: IWER's primary input at start: 'controller' or 'hand' (needs the app to enable
            'hand-tracking'). Hand actors switch to hands and controller actors to controllers.
        device: the emulated headset (`DEVICES`).
        dominant_hand: the hand actors use when none is named.
        pause: pause the XR loop before its first frame and step it in virtual time (default);
            False lets it run freely (use `wait_frames`).
        scene_expr: a JS expression for the app's three.js scene when it is not `window.scene` and
            cannot be found through the renderer (e.g. 'window.app.world').
        session_init: the XRSessionInit for `enter='api'`.
        stereo: render both eyes side by side (IWER's default is one eye over the whole canvas).
        init_timeout_s: wall-clock bound for loading the page, the room and entering XR.
        step_timeout_s: wall-clock bound for one harness call (a step of many frames included); an
            app that hangs in a frame callback fails the call instead of the test run.
    """

    backend = "iwer"

    def __init__(
        self,
        app_dir: str | Path,
        *,
        mode: str = "immersive-vr",
        enter: str | Callable[[IWERSession], None] = "button",
        enter_selector: str | None = None,
        room: str | None = None,
        input_mode: InputMode = "controller",
        device: str = "metaQuest3",
        dominant_hand: str = "right",
        pause: bool = True,
        scene_expr: str | None = None,
        session_init: dict[str, Any] | None = None,
        stereo: bool = False,
        browser: Browser | None = None,
        viewport: tuple[int, int] = DEFAULT_VIEWPORT,
        init_timeout_s: float = 30.0,
        step_timeout_s: float = 30.0,
        entry: str = "index.html",
        dt_ms: float = DEFAULT_DT_MS,
        url_params: dict[str, str] | None = None,
        deps: WebDeps | None = None,
        hooks: Sequence[SessionHook] = (),
    ):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if room is not None and room not in ROOMS:
            raise ValueError(f"unknown @iwer/sem room {room!r}; rooms: {', '.join(ROOMS)}")
        if device not in DEVICES:
            raise ValueError(f"unknown device {device!r}; devices: {', '.join(DEVICES)}")
        if input_mode not in ("hand", "controller"):
            raise ValueError(f"input_mode must be 'hand' or 'controller', not {input_mode!r}")
        if dominant_hand not in HANDS:
            raise ValueError(f"dominant_hand must be 'left' or 'right', not {dominant_hand!r}")
        if not callable(enter) and enter not in ("button", "api", "auto"):
            raise ValueError(f"enter must be 'button', 'api', 'auto' or a callable, not {enter!r}")
        if dt_ms <= 0:
            raise ValueError("dt_ms must be > 0")
        self.app_dir = Path(app_dir)
        self.mode = mode
        self.enter = enter
        self.enter_selector = enter_selector
        self.room = room
        # XR Blocks simulator scenes do not apply here (see `room`); kept for code written against
        # XRSession (hooks such as the recorder read `session.scene`).
        self.scene = None
        self.input_mode = input_mode
        self.device = device
        self.dominant_hand = dominant_hand
        self.pause_at_start = pause
        self.scene_expr = scene_expr
        self.session_init = session_init or DEFAULT_SESSION_INIT
        self.stereo = stereo
        self.viewport = viewport
        self.init_timeout_s = init_timeout_s
        self.step_timeout_s = step_timeout_s
        self.entry = entry
        self.dt_ms = dt_ms
        self.url_params = url_params or {}
        self._browser_arg = browser
        self._deps = deps
        self.hooks = list(hooks)
        self.log = SessionLog()
        self.init_status: dict[str, Any] = {}
        self.workspace: Workspace | None = None
        self.server: AppServer | None = None
        self.context: BrowserContext | None = None
        self._page: Page | None = None
        self._closed = False
        self._opened = False

    # --- lifecycle -----------------------------------------------------------------------------

    def __enter__(self) -> IWERSession:
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def url(self) -> str:
        """The page URL (only while open)."""
        if self.server is None:
            raise SessionClosedError("session is not open")
        query = urlencode(self.url_params)
        return f"{self.server.base_url}/{self.entry}" + (f"?{query}" if query else "")

    def _config(self) -> dict[str, Any]:
        return {
            "iwer": {
                "device": self.device,
                "environment": self.room,
                "inputMode": self.input_mode,
                "pauseAtStart": self.pause_at_start,
                "stereo": self.stereo,
                # Virtual time starts here (or later, if the page is older), so frame times are the
                # same in every run and never go back from what the page read before.
                "timeOriginMs": 10_000,
            }
        }

    def open(self) -> IWERSession:
        """Start everything, enter XR and pause; raises `AppInitError` or `BrowserLaunchError`."""
        if self._closed:
            raise SessionClosedError("a closed session cannot be reopened; create a new IWERSession")
        if self._opened:
            return self
        self._opened = True
        try:
            self._open()
        except BaseException:
            self.close()
            raise
        return self

    def _open(self) -> None:
        deps = self._deps or find_web_deps()
        for package in ("iwer", *(("@iwer/sem",) if self.room else ())):
            want, got = REQUIRED_VERSIONS[package], deps.versions.get(package)
            if got != want:
                found = f"{package} {got} is installed" if got else f"{package} is not installed"
                raise WebDepsError(f"{found} in {deps.node_modules}, but {want} is required; run `make web` (npm ci)")
        self.workspace = create_workspace(self.app_dir, deps, entry=self.entry, inject_harness=False)
        # create_workspace only knows the XR Blocks harness module; insert IWER's right after the
        # import map (a second rewrite of an already local map changes nothing else).
        html = self.workspace.path / self.entry
        html.write_text(
            rewrite_html(
                html.read_text(encoding="utf-8"),
                local_import_map(deps, self.workspace.app_dir),
                harness_module=IWER_HARNESS_MODULE,
            ),
            encoding="utf-8",
        )
        self.server = AppServer(self.workspace.path, deps.node_modules, app=self.workspace.app_dir)
        browser = self._browser_arg or shared_browser()
        extra: dict[str, Any] = {}
        for hook in self.hooks:
            extra.update(hook.context_options(self))  # type: ignore[arg-type]
        self.context = browser.new_context(
            viewport={"width": self.viewport[0], "height": self.viewport[1]},
            device_scale_factor=1,
            service_workers="block",
            **extra,
        )
        for hook in self.hooks:
            hook.context_created(self)  # type: ignore[arg-type]
        self.context.set_default_timeout(self.init_timeout_s * 1000)
        attach_log(self.context, self.log)
        self.server.install(self.context)
        Router(deps, self.server.base_url, self.log).install(self.context)
        self.context.add_init_script(
            script=f"window.__xrtestConfig = {json.dumps(self._config())};\n"
            + load_js("init")
            + "\n"
            + load_js("iwer_init")
        )
        self._page = self.context.new_page()
        timeout_ms = self.init_timeout_s * 1000
        try:
            self._page.goto(self.url, wait_until="load", timeout=timeout_ms)
        except PlaywrightError as e:
            raise self._init_error(f"the page did not load: {_first_line(e)}") from e
        self._wait_runtime(timeout_ms)
        self._enter(timeout_ms)

    def enter_xr(self) -> None:
        """Enter XR again after the session ended (the app's button, as at open); raises `AppInitError`."""
        status = self.status()
        if status["session"] and not status["ended"]:
            raise XRTestError("already in XR: end the session first (end_xr)")
        self._enter(self.init_timeout_s * 1000)

    def end_xr(self) -> None:
        """End the XR session as the user would (`XRSession.end()`); the app gets its 'end' event."""
        try:
            self.page.evaluate("() => window.__xrtest.iwer.endSession()")
        except PlaywrightError as e:
            raise XRTestError(f"ending the XR session failed: {_first_line(e)}") from e

    def _wait_runtime(self, timeout_ms: float) -> None:
        """Wait for the harness module: IWER installed and the room (if any) loaded."""
        try:
            self.page.wait_for_function(
                "() => window.__xrtest && window.__xrtest.iwer && window.__xrtest.iwer.ready"
                " || (window.__xrtest && window.__xrtest.errors.length > 0)",
                timeout=timeout_ms,
            )
        except PlaywrightTimeoutError as e:
            raise self._init_error(
                "the IWER runtime did not start (the harness module did not run or the room never loaded)"
            ) from e
        self.init_status = self._status_or_none() or {}
        if not self.init_status:
            raise self._init_error("the IWER harness module did not run (the page threw before it)")
        if self.init_status.get("readyError"):
            raise self._init_error(f"the @iwer/sem room {self.room!r} did not load: {self.init_status['readyError']}")

    def _enter(self, timeout_ms: float) -> None:
        """Enter XR as configured and wait until the app asked for its first XR frame."""
        # Counts before entering: only a new session, or a new error, ends the wait below.
        before, session_errors, page_errors = self.page.evaluate(
            "() => [window.__xrtest.iwer.sessions, window.__xrtest.iwer.sessionErrors.length,"
            " window.__xrtest.errors.length]"
        )
        try:
            if callable(self.enter):
                self.enter(self)
            elif self.enter == "button":
                self._enter_button().click(timeout=timeout_ms)
            elif self.enter == "api":
                self.page.evaluate(_ENTER_API_JS, {"mode": self.mode, "init": self.session_init})
        except PlaywrightTimeoutError as e:
            what = self.enter_selector or f"a button labelled like {ENTER_LABELS[self.mode].pattern!r}"
            raise self._init_error(f"could not click {what} to enter {self.mode}: {_first_line(e)}") from e
        except PlaywrightError as e:
            raise self._init_error(f"entering {self.mode} failed: {_first_line(e)}") from e
        try:
            # The app adopted the session once it asks for an XR animation frame (three.js does
            # after setSession); a rejected requestSession or a page error ends the wait early.
            self.page.wait_for_function(
                "([n, se, pe]) => { const i = window.__xrtest.iwer;"
                " return (i.sessions > n && i.appFrameRequests > 0) || i.sessionErrors.length > se"
                " || window.__xrtest.errors.length > pe; }",
                arg=[before, session_errors, page_errors],
                timeout=timeout_ms,
            )
        except PlaywrightTimeoutError as e:
            raise self._init_error(
                f"the app did not start an XR frame loop within {self.init_timeout_s:g} s of entering {self.mode}"
            ) from e
        self.init_status = self.status()
        if self.init_status["sessions"] <= before or self.init_status["appFrameRequests"] == 0:
            errors = self.init_status["sessionErrors"][session_errors:] or self.init_status["pageErrors"][page_errors:]
            reason = _first_line(errors[0]) if errors else "no XR session"
            raise self._init_error(f"entering {self.mode} failed: {reason}")

    def _enter_button(self) -> Locator:
        if self.enter_selector:
            return self.page.locator(self.enter_selector).first
        label = ENTER_LABELS[self.mode]
        return self.page.get_by_role("button", name=label).or_(self.page.get_by_text(label)).first

    def _init_error(self, headline: str) -> AppInitError:
        details = {
            "status": self.init_status,
            "page_errors": list(self.log.page_errors),
            "failed_requests": [str(f) for f in self.log.failed_requests],
            "console_errors": self.log.console_errors,
        }
        summary = self.log.summary()
        return AppInitError(f"{self.app_dir}: {headline}" + (f"\n{summary}" if summary else ""), details=details)

    # The emulated XRDevice, for `evaluate` calls the harness does not wrap
    # (e.g. f"() => {s.device_js}.controllers.right.updateAxes('thumbstick', 0, 1)").
    device_js = "window.__xrtest.iwer.device"

    def _call(self, method: str, args: dict[str, Any] | None = None, *, runs_frames: bool = False) -> Any:
        """Run `window.__xrtest.iwer[method](args)` in the page.

        Calls that run XR frames (`runs_frames`) execute the app's code, so they go through
        `wait_for_function`, which takes a timeout: an app stuck in a frame callback fails the call
        after `step_timeout_s` instead of hanging the test run (the result is boxed because a falsy
        value would make it poll again). The others only touch the emulated device and use the
        cheaper `evaluate`.
        """
        try:
            if not runs_frames:
                return self.page.evaluate("([m, a]) => window.__xrtest.iwer[m](a)", [method, args or {}])
            handle = self.page.wait_for_function(
                "([m, a]) => ({value: window.__xrtest.iwer[m](a)})",
                arg=[method, args or {}],
                timeout=self.step_timeout_s * 1000,
            )
            return handle.json_value()["value"]
        except PlaywrightTimeoutError as e:
            raise XRTestError(f"{method} did not finish within {self.step_timeout_s:g} s (is the page stuck?)") from e
        except PlaywrightError as e:
            summary = self.log.summary()
            raise XRTestError(f"{method} failed: {_first_line(e)}" + (f"\n{summary}" if summary else "")) from e

    # --- time -----------------------------------------------------------------------------------

    def step(self, frames: int = 1, dt_ms: float | None = None) -> int:
        """Run `frames` XR frames of `dt_ms` virtual milliseconds each; returns the frame counter.

        Pauses a freely running session first.
        """
        dt = self.dt_ms if dt_ms is None else dt_ms
        if frames < 0 or dt <= 0:
            raise ValueError("frames must be >= 0 and dt_ms > 0")
        if frames == 0:
            return self.frame
        result = self._call("step", {"frames": int(frames), "dtMs": float(dt)}, runs_frames=True)
        if result["ran"] < frames:
            status = self.status()
            why = "the XR session ended" if status["ended"] else "the app has not set an XR base layer"
            raise XRTestError(f"only {result['ran']} of {frames} XR frame(s) ran: {why}")
        return int(result["frames"])

    def advance(self, ms: float, dt_ms: float | None = None) -> int:
        """Advance `ms` virtual milliseconds in frames of `dt_ms` (at least one frame)."""
        dt = self.dt_ms if dt_ms is None else dt_ms
        return self.step(max(1, round(ms / dt)), dt)

    def pause(self) -> None:
        """Stop the free-running XR loop; from now on time moves only with `step`."""
        self._call("pause")

    def resume(self) -> None:
        """Let the XR loop run on the browser's animation frames again (real time)."""
        self._call("resume")

    @property
    def paused(self) -> bool:
        """Whether the XR loop is paused (stepped in virtual time)."""
        return not self.page.evaluate("() => window.__xrtest.iwer.clock.running")

    def wait_frames(self, frames: int, *, timeout_s: float | None = None) -> int:
        """Let `frames` more XR frames happen: stepped when paused, awaited on the frame counter when running."""
        if self.paused:
            return self.step(frames)
        target = self.frame + frames
        try:
            self.page.wait_for_function(
                "n => window.__xrtest.iwer.frames >= n",
                arg=target,
                timeout=(timeout_s or self.step_timeout_s) * 1000,
            )
        except PlaywrightTimeoutError as e:
            raise XRTestError(f"{frames} XR frame(s) did not happen in time (frame {self.frame})") from e
        return self.frame

    def _advance(self, frames: int) -> None:
        if frames > 0:
            self.wait_frames(frames)

    @property
    def frame(self) -> int:
        """XR animation frames delivered to the page so far."""
        return int(self.page.evaluate("() => window.__xrtest.iwer.frames"))

    def status(self) -> dict[str, Any]:
        """The harness's view: session, mode, frames, input mode, errors, whether the loop runs."""
        return self._call("status")

    def _status_or_none(self) -> dict[str, Any] | None:
        return self.page.evaluate(
            "() => window.__xrtest && window.__xrtest.iwer ? window.__xrtest.iwer.status() : null"
        )

    # --- readers --------------------------------------------------------------------------------

    def snapshot(self, *, include_private: bool = False) -> list[SceneNode]:
        """The app's three.js scene graph, world frame (see `js/iwer_snapshot.js` for how it is found)."""
        d = self.page.evaluate(
            load_js("iwer_snapshot"), {"sceneExpr": self.scene_expr, "includePrivate": include_private}
        )
        if d["source"] is None:
            raise XRTestError(
                "no three.js scene found: expose it as window.scene or pass scene_expr (the scene graph "
                "readers need a three.js app)"
            )
        return [SceneNode.from_js(n) for n in d["nodes"]]

    def find_all_by_tag(self, tag: str) -> list[SceneNode]:
        """Every node tagged `tag` (possibly none)."""
        return [n for n in self.snapshot(include_private=True) if n.tag == tag]

    def find_by_tag(self, tag: str) -> SceneNode:
        """The first node tagged `tag`; `TagNotFoundError` names the tags that do exist."""
        nodes = self.snapshot(include_private=True)
        for n in nodes:
            if n.tag == tag:
                return n
        raise _tag_not_found(tag, nodes)

    def frame_info(self) -> dict[str, Any]:
        """What the last XR frame showed: viewer pose, input sources, joints, planes (raw dict)."""
        last = self.page.evaluate("() => window.__xrtest.iwer.last")
        if last is None:
            raise XRTestError("no XR frame has run yet: call step() first")
        if last.get("error"):
            raise XRTestError(f"reading the last XR frame failed: {last['error']}")
        return last

    def camera_pose(self) -> Pose:
        """The headset (viewer) pose in the app's reference space, from the last XR frame."""
        viewer = self.frame_info().get("viewer")
        if not viewer:
            raise XRTestError("the last XR frame had no viewer pose (no reference space yet?)")
        pose = _pose(viewer)
        assert pose is not None
        return pose

    def input_sources(self) -> list[InputSourceInfo]:
        """The XR input sources of the last frame (hands or controllers, per the input mode)."""
        return [InputSourceInfo.from_js(d) for d in self.frame_info()["inputSources"]]

    def hand_joints(self, hand: str) -> dict[str, Joint]:
        """The 25 joints of the 'left' or 'right' hand, as `XRFrame.getJointPose` gave them last frame."""
        if hand not in HANDS:
            raise ValueError(f"hand must be 'left' or 'right', not {hand!r}")
        info = self.frame_info()
        joints = info["hands"].get(hand)
        if not joints:
            mode = self.current_input_mode
            raise XRTestError(
                f"the {hand} hand was not tracked in the last XR frame (input mode {mode!r}; call "
                "set_input_mode('hand') and step, and make sure the app enables 'hand-tracking')"
            )
        return {
            name: Joint(tuple(j["position"]), tuple(j["quaternion"]), j.get("radius"))  # type: ignore[arg-type]
            for name, j in joints.items()
        }

    def detected_planes(self) -> int | None:
        """Planes in the last frame's `detectedPlanes` (None without plane detection)."""
        return self.frame_info().get("planes")

    def detected_meshes(self) -> int | None:
        """Meshes in the last frame's `detectedMeshes` (None without mesh detection)."""
        return self.frame_info().get("meshes")

    def plane_labels(self) -> list[str | None]:
        """Semantic labels of the detected planes (floor, wall, table, ...)."""
        return list(self.frame_info().get("planeLabels") or [])

    def device_state(self) -> dict[str, Any]:
        """The emulated device: input mode, headset, hand and controller poses (app space), pinch values."""
        return self._call("deviceState")

    def webgl_info(self) -> dict[str, Any]:
        """WebGL details of the app's renderer (the XR base layer's context when in XR)."""
        return self.page.evaluate(_WEBGL_JS)

    def webgl_alive(self) -> bool:
        """Whether the app's WebGL context exists and is not lost."""
        return bool(self.webgl_info().get("alive"))

    def screenshot(self, path: str | Path | None = None) -> bytes:
        """A PNG of what the user sees (IWER shows the XR canvas over the page; step after changes)."""
        return self.page.screenshot(path=str(path) if path else None)

    # --- what the page reported ------------------------------------------------------------------

    @property
    def frame_errors(self) -> list[dict[str, Any]]:
        """Exceptions the app's XR frame callbacks threw ({frame, message}); IWER logs them and goes on."""
        return list(self.status()["frameErrors"])

    def errors(self) -> dict[str, list[str]]:
        """Everything that went wrong in the page so far, by kind (empty lists when healthy)."""
        return {
            "page_errors": self.page_errors,
            "console_errors": self.console_errors,
            "failed_requests": [str(f) for f in self.failed_requests],
            "frame_errors": [f"frame {e['frame']}: {e['message']}" for e in self.frame_errors],
        }

    # --- the simulated user, as XRSession's actors ------------------------------------------------
    #
    # `s.head`, `s.hand(role)` and `s.controller(role)` have the method names and signatures of
    # `actors.py` (XRSession), so a test reads the same on both backends; motions are gradual
    # (speeds in m/s and degrees/s, stepped frame by frame). The primitives below them act at once.

    def handedness(self, role: str) -> str:
        """'left' or 'right' for a hand role: 'dominant', 'non_dominant', 'left' or 'right'."""
        if role in HANDS:
            return role
        if role == "dominant":
            return self.dominant_hand
        if role in ("non_dominant", "non-dominant", "nondominant"):
            return "left" if self.dominant_hand == "right" else "right"
        raise ValueError(f"hand role must be 'dominant', 'non_dominant', 'left' or 'right', not {role!r}")

    @property
    def head(self) -> IWERHead:
        """The emulated headset: teleport_to, look_at, rotate, move, walk."""
        return IWERHead(self)

    def hand(self, role: str = "dominant") -> IWERHand:
        """A tracked hand by role: move_hand, reach_to, point_to, pinch, release, click, ..."""
        return IWERHand(self, self.handedness(role), role)

    def controller(self, role: str = "dominant") -> IWERController:
        """A controller by role: move_to, point_to, select, squeeze, ..."""
        return IWERController(self, self.handedness(role), role)

    def wait(self, ms: float) -> int:
        """Let `ms` virtual milliseconds pass (frames of `dt_ms`, at least one); returns the frame counter."""
        return self.advance(ms)

    def tagged(self, tag: str | None = None) -> list[SceneNode]:
        """Tagged nodes of the app's scene (those tagged `tag` when given)."""
        return [n for n in self.snapshot(include_private=True) if n.tag and (tag is None or n.tag == tag)]

    def find(self, target: Any) -> ResolvedTarget:
        """Resolve a tag, node, (x, y, z) point or actor to a `readers.Target` (point and box).

        A tagged group resolves to the centre of its largest mesh, where a ray aimed at it hits.
        """
        # Imported on use: only resolution needs the readers module (the XR Blocks backend's).
        from xrbench.xrtest.readers import Target as ResolvedTarget

        if isinstance(target, ResolvedTarget):
            return target
        if hasattr(target, "target") and callable(target.target):
            return target.target()
        if isinstance(target, str | SceneNode):
            nodes = self.snapshot(include_private=True)
            node = next((n for n in nodes if n.tag == target), None) if isinstance(target, str) else target
            if node is None:
                raise _tag_not_found(str(target), nodes)
            label = repr(node.tag) if node.tag else repr(node.name or node.type)
            return ResolvedTarget(label, target_point(node, nodes), node.bbox, node, "node")
        point = tuple(float(v) for v in target)
        if len(point) != 3:
            raise ValueError(f"a target point needs 3 coordinates, got {target!r}")
        return ResolvedTarget(f"point ({point[0]:.3f}, {point[1]:.3f}, {point[2]:.3f})", point, kind="point")  # type: ignore[arg-type]

    def _transform(self, device_id: str) -> Pose:
        """The emulated device's pose now (app space), whether or not a frame has shown it yet."""
        return _transform_pose(self._call("getTransform", {"device": device_id}))

    def _animate(
        self,
        device_id: str,
        *,
        position: Sequence[float] | None = None,
        quaternion: Sequence[float] | None = None,
        frames: int,
        carry: bool = False,
    ) -> None:
        self._call(
            "animate",
            {
                "device": device_id,
                "position": [float(v) for v in position] if position is not None else None,
                "quaternion": [float(v) for v in quaternion] if quaternion is not None else None,
                "frames": int(frames),
                "dtMs": self.dt_ms,
                "carry": carry,
            },
            runs_frames=True,
        )

    def _frames_for(self, amount: float, per_second: float) -> int:
        """Frames to cover `amount` (metres or degrees) at `per_second`, at least one."""
        if per_second <= 0:
            raise ValueError("speed must be > 0")
        return max(1, math.ceil(amount / (per_second * self.dt_ms / 1000.0) - 1e-9))

    # --- actors (primitives) ----------------------------------------------------------------------
    #
    # Every primitive changes the emulated device at once, then lets `frames` frames happen (default
    # 1: IWER applies input at the start of the next frame and dispatches select/squeeze events
    # there). Positions are in the app's reference space, in metres.

    def _hand(self, hand: str | None) -> str:
        hand = hand or self.dominant_hand
        if hand not in HANDS:
            raise ValueError(f"hand must be 'left' or 'right', not {hand!r}")
        return hand

    def resolve_target(self, target: Target) -> Vec3:
        """A point to aim or reach at for `target`: a tag, a scene node, or a point (x, y, z).

        For a node: the centre of its box when it is a mesh; for a group, the centre of its largest
        mesh (the centre of a group's box may lie between its parts, where a ray hits nothing).
        """
        if isinstance(target, str | SceneNode):
            nodes = self.snapshot(include_private=True)
            if isinstance(target, str):
                node = next((n for n in nodes if n.tag == target), None)
                if node is None:
                    raise _tag_not_found(target, nodes)
            else:
                node = target
            return target_point(node, nodes)
        point = tuple(float(v) for v in target)
        if len(point) != 3:
            raise ValueError(f"a target point needs 3 coordinates, got {target!r}")
        return point  # type: ignore[return-value]

    def set_input_mode(self, mode: InputMode, *, frames: int = 1) -> None:
        """Switch IWER's primary input between tracked hands and controllers (a frame to take effect)."""
        if mode == "hand" and "hand-tracking" not in self.status()["enabledFeatures"]:
            raise XRTestError("the app's XR session has no 'hand-tracking' feature: IWER cannot offer hands")
        self._call("setInputMode", {"mode": mode})
        self._advance(frames)

    @property
    def current_input_mode(self) -> str:
        """IWER's primary input now: 'hand' or 'controller' (`input_mode` is the one it started with)."""
        return str(self.page.evaluate("() => window.__xrtest.iwer.device.primaryInputMode"))

    def _ensure_mode(self, mode: InputMode) -> None:
        if self.current_input_mode != mode:
            self.set_input_mode(mode)

    def _input_id(self, hand: str) -> str:
        return f"{self.current_input_mode}-{hand}"

    def teleport_to(self, position: Sequence[float], *, carry_inputs: bool = True, frames: int = 1) -> Pose:
        """Move the headset (head position, eye height included); hands and controllers move along."""
        self._call("teleport", {"position": [float(v) for v in position], "carry": carry_inputs})
        self._advance(frames)
        return self.camera_pose() if frames > 0 else _transform_pose(self._call("getTransform", {"device": "headset"}))

    def look_at(self, target: Target, *, frames: int = 1) -> Pose:
        """Turn the head to face `target` (the view's -Z axis through it)."""
        point = self.resolve_target(target)
        head = self._call("getTransform", {"device": "headset"})["position"]
        q = self._call("lookRotation", {"from": head, "target": list(point)})
        self._call("setTransform", {"device": "headset", "quaternion": q})
        self._advance(frames)
        return self.camera_pose() if frames > 0 else _transform_pose(self._call("getTransform", {"device": "headset"}))

    def turn_head(self, yaw_deg: float = 0.0, pitch_deg: float = 0.0, *, frames: int = 1) -> Pose:
        """Turn the head by `yaw_deg` (about the vertical, positive = left) and `pitch_deg` (positive = up)."""
        head = self._call("getTransform", {"device": "headset"})
        q = turned(head["quaternion"], yaw_deg, pitch_deg)
        self._call("setTransform", {"device": "headset", "quaternion": list(q)})
        self._advance(frames)
        return self.camera_pose() if frames > 0 else _transform_pose(self._call("getTransform", {"device": "headset"}))

    def move_hand(
        self,
        position: Sequence[float],
        *,
        hand: str | None = None,
        orientation: Sequence[float] | None = None,
        point_at: Target | None = None,
        frames: int = 1,
    ) -> None:
        """Put a tracked hand's root (its target-ray origin) at `position`, switching to hands.

        `orientation` (x, y, z, w) or `point_at` (aim the hand's ray at a target) set its rotation.
        """
        hand = self._hand(hand)
        self._ensure_mode("hand")
        self._move(f"hand-{hand}", position, orientation, point_at)
        self._advance(frames)

    def move_controller(
        self,
        position: Sequence[float],
        *,
        hand: str | None = None,
        orientation: Sequence[float] | None = None,
        point_at: Target | None = None,
        frames: int = 1,
    ) -> None:
        """Put a controller at `position` (optionally rotated or aimed), switching to controllers."""
        hand = self._hand(hand)
        self._ensure_mode("controller")
        self._move(f"controller-{hand}", position, orientation, point_at)
        self._advance(frames)

    def _move(
        self, device_id: str, position: Sequence[float], orientation: Sequence[float] | None, point_at: Target | None
    ) -> None:
        pos = [float(v) for v in position]
        quat = [float(v) for v in orientation] if orientation is not None else None
        if point_at is not None:
            quat = self._call("lookRotation", {"from": pos, "target": list(self.resolve_target(point_at))})
        self._call("setTransform", {"device": device_id, "position": pos, "quaternion": quat})

    def point_at(self, target: Target, *, hand: str | None = None, frames: int = 1) -> None:
        """Aim the current input's ray (hand or controller, per the input mode) at `target`, in place."""
        device_id = self._input_id(self._hand(hand))
        origin = self._call("getTransform", {"device": device_id})["position"]
        q = self._call("lookRotation", {"from": origin, "target": list(self.resolve_target(target))})
        self._call("setTransform", {"device": device_id, "quaternion": q})
        self._advance(frames)

    def reach_to(
        self,
        target: Target,
        *,
        hand: str | None = None,
        joint: str = "index-finger-tip",
        speed_m_s: float = 0.5,
        max_frames: int = 240,
    ) -> Joint:
        """Move a hand so that `joint` (the index fingertip) ends at `target`, over frames at `speed_m_s`.

        The hand keeps its rotation; each frame moves it along a straight line, so touch and poke
        logic that needs motion across frames sees it. Returns the joint where it ended.
        """
        if speed_m_s <= 0:
            raise ValueError("speed_m_s must be > 0")
        hand = self._hand(hand)
        self._ensure_mode("hand")
        if hand not in self.frame_info()["hands"]:
            self.step(1)
        start_joint = self.hand_joints(hand)[joint].position
        root = self._call("getTransform", {"device": f"hand-{hand}"})["position"]
        point = self.resolve_target(target)
        goal = [root[i] + point[i] - start_joint[i] for i in range(3)]
        distance_m = math.dist(start_joint, point)
        frames = min(max_frames, max(1, math.ceil(distance_m / (speed_m_s * self.dt_ms / 1000.0))))
        self._call(
            "animate",
            {"device": f"hand-{hand}", "position": goal, "frames": frames, "dtMs": self.dt_ms},
            runs_frames=True,
        )
        return self.hand_joints(hand)[joint]

    def pinch(self, *, hand: str | None = None, frames: int = 1) -> None:
        """Close a hand's pinch (IWER morphs the joints and fires select/selectstart), switching to hands."""
        hand = self._hand(hand)
        self._ensure_mode("hand")
        self._call("setPinch", {"hand": hand, "value": 1.0})
        self._advance(frames)

    def release(self, *, hand: str | None = None, frames: int = 1) -> None:
        """Open a hand's pinch (fires selectend)."""
        hand = self._hand(hand)
        self._ensure_mode("hand")
        self._call("setPinch", {"hand": hand, "value": 0.0})
        self._advance(frames)

    def start_select(self, *, hand: str | None = None, frames: int = 1) -> None:
        """Press select on the current input: pinch a hand or pull a controller's trigger."""
        self._set_select(self._hand(hand), 1.0)
        self._advance(frames)

    def end_select(self, *, hand: str | None = None, frames: int = 1) -> None:
        """Release select on the current input."""
        self._set_select(self._hand(hand), 0.0)
        self._advance(frames)

    def _set_select(self, hand: str, value: float) -> None:
        if self.current_input_mode == "hand":
            self._call("setPinch", {"hand": hand, "value": value})
        else:
            self._call("setButton", {"hand": hand, "button": "trigger", "value": value})

    def select(
        self, target: Target | None = None, *, hand: str | None = None, hold_frames: int = 2, frames: int = 1
    ) -> None:
        """A full select with the current input: aim at `target` (if given), press, hold, release."""
        hand = self._hand(hand)
        if target is not None:
            self.point_at(target, hand=hand)
        self.start_select(hand=hand, frames=hold_frames)
        self.end_select(hand=hand, frames=frames)

    def trigger(self, value: float = 1.0, *, hand: str | None = None, frames: int = 1) -> None:
        """Set a controller's trigger (0..1; crossing 0 fires select events), switching to controllers."""
        hand = self._hand(hand)
        self._ensure_mode("controller")
        self._call("setButton", {"hand": hand, "button": "trigger", "value": float(value)})
        self._advance(frames)

    def squeeze(self, *, hand: str | None = None, hold_frames: int = 2, frames: int = 1) -> None:
        """Squeeze and release a controller's grip button (squeezestart/squeeze/squeezeend).

        IWER's tracked hands have no squeeze gesture, so this switches to controllers.
        """
        hand = self._hand(hand)
        self._ensure_mode("controller")
        self._call("setButton", {"hand": hand, "button": "squeeze", "value": 1.0})
        self._advance(hold_frames)
        self._call("setButton", {"hand": hand, "button": "squeeze", "value": 0.0})
        self._advance(frames)

    def press_button(self, button: str, *, hand: str | None = None, hold_frames: int = 2, frames: int = 1) -> None:
        """Press and release a controller button by IWER id ('a-button', 'b-button', 'x-button', 'thumbstick', ...)."""
        hand = self._hand(hand)
        self._ensure_mode("controller")
        self._call("setButton", {"hand": hand, "button": button, "value": 1.0})
        self._advance(hold_frames)
        self._call("setButton", {"hand": hand, "button": button, "value": 0.0})
        self._advance(frames)

    def thumbstick(self, x: float, y: float, *, hand: str | None = None, frames: int = 1) -> None:
        """Hold a controller's thumbstick at (x, y) in [-1, 1] (stays until set back to 0, 0)."""
        hand = self._hand(hand)
        self._ensure_mode("controller")
        self._call("setAxes", {"hand": hand, "x": float(x), "y": float(y)})
        self._advance(frames)

    def remote(self, method: str, params: dict[str, Any] | None = None, *, max_frames: int = 600) -> Any:
        """Call IWER's remote-control API (`device.remote.dispatch`) and step frames until it answers.

        The API queues commands and executes them in frames (`animate_to` lerps over its duration in
        virtual time); a paused session is stepped one frame at a time until the command answers,
        up to `max_frames`. Poses in the remote API are IWER's own (global space = local-floor).
        """
        try:
            result = self.page.evaluate(
                "(a) => window.__xrtest.iwer.remoteCall(a)",
                {"method": method, "params": params or {}, "maxFrames": max_frames, "dtMs": self.dt_ms},
            )
        except PlaywrightError as e:
            raise XRTestError(f"IWER remote {method} failed: {_first_line(e)}") from e
        if not result["ok"]:
            raise XRTestError(f"IWER remote {method} failed: {result['error']}")
        return result["value"]


DEFAULT_HAND_SPEED = 0.6  # m/s: 1 cm per 60 Hz frame (as actors.py)
DEFAULT_HEAD_SPEED = 1.0  # m/s, a walk
DEFAULT_TURN_SPEED = 180.0  # degrees/s: 3 degrees per frame
CLICK_HOLD_FRAMES = 12  # 200 ms at 60 Hz
# Where IWER rests each hand and controller, in the head's frame.
REST_POSITIONS: dict[str, Vec3] = {"left": (-0.25, -0.1, -0.4), "right": (0.25, -0.1, -0.4)}


class IWERHead:
    """The emulated headset, with the methods of `actors.Head`."""

    def __init__(self, session: IWERSession):
        self.session = session

    @property
    def pose(self) -> Pose:
        """The headset's pose now (app space; forward is where it looks)."""
        return self.session._transform("headset")

    @property
    def position(self) -> Vec3:
        """Where the eyes are."""
        return self.pose.position

    def target(self) -> ResolvedTarget:
        """The head as a target of assertions (its position)."""
        from xrbench.xrtest.readers import Target as ResolvedTarget

        return ResolvedTarget(label="the head", point=self.position, kind="head")

    def teleport_to(self, target: Any, *, distance: float | None = None, face: bool = True) -> None:
        """Jump in one frame; hands and controllers come along.

        Without `distance` the eyes go to the target point. With one, the user stands that far from
        the target horizontally, on the line towards where they are now, at the current eye height,
        and (with `face`) looks at it.
        """
        point = self.session.find(target).point
        if distance is None:
            self.session.teleport_to(point)
            return
        here = self.position
        away = (here[0] - point[0], here[2] - point[2])
        length = math.hypot(*away)
        ax, az = (0.0, 1.0) if length < 1e-6 else (away[0] / length, away[1] / length)
        self.session.teleport_to((point[0] + ax * distance, here[1], point[2] + az * distance), frames=0)
        if face:
            self.session.look_at(point, frames=0)
        self.session.step(1)

    def look_at(self, target: Any, *, speed: float = DEFAULT_TURN_SPEED) -> int:
        """Turn towards a target at `speed` degrees/s; returns the frames it took."""
        pose = self.pose
        goal = self.session._call(
            "lookRotation", {"from": list(pose.position), "target": list(self.session.find(target).point)}
        )
        return self._turn_to(pose.quaternion, goal, speed)

    def rotate(self, yaw: float = 0.0, pitch: float = 0.0, *, speed: float = DEFAULT_TURN_SPEED) -> int:
        """Turn by `yaw` degrees (positive: left) and `pitch` degrees (positive: up); returns frames."""
        q = self.pose.quaternion
        return self._turn_to(q, turned(q, yaw, pitch), speed)

    def _turn_to(self, start: Sequence[float], goal: Sequence[float], speed: float) -> int:
        frames = self.session._frames_for(_angle_deg(start, goal), speed)
        self.session._animate("headset", quaternion=goal, frames=frames)
        return frames

    def move(self, delta: Sequence[float], *, speed: float = DEFAULT_HEAD_SPEED) -> int:
        """Move by `delta` metres, gradually, keeping the view direction (hands come along)."""
        here = self.position
        return self._move_to(tuple(here[i] + float(delta[i]) for i in range(3)), speed)

    def _move_to(self, goal: Sequence[float], speed: float) -> int:
        frames = self.session._frames_for(math.dist(self.position, goal), speed)
        self.session._animate("headset", position=goal, frames=frames, carry=True)
        return frames

    def walk(self, path: Sequence[Any], speed: float = DEFAULT_HEAD_SPEED, *, face: bool = True) -> int:
        """Walk through points (eye positions) or targets (at the current eye height); returns frames."""
        frames = 0
        for item in path:
            t = self.session.find(item)
            here = self.position
            goal = t.point if t.kind == "point" else (t.point[0], here[1], t.point[2])
            if face and math.dist((here[0], here[2]), (goal[0], goal[2])) > 1e-6:
                frames += self.look_at((goal[0], here[1], goal[2]))
            frames += self._move_to(goal, speed)
        return frames


class IWERHand:
    """One tracked hand, with the methods of `actors.Hand`; its actions switch IWER to hands.

    IWER's hand select is the pinch: `start_select` pinches, `end_select` opens. Pinching morphs the
    joints at once, so `pinch()` needs a single frame (the simulator's takes 24).
    """

    def __init__(self, session: IWERSession, handedness: str, role: str | None = None):
        if handedness not in HANDS:
            raise ValueError(f"handedness must be 'left' or 'right', not {handedness!r}")
        self.session = session
        self.handedness = handedness
        self.role = role or handedness
        self.device_id = f"hand-{handedness}"

    def __repr__(self) -> str:
        return f"IWERHand({self.handedness!r}, role={self.role!r})"

    def _ensure(self) -> None:
        self.session._ensure_mode("hand")
        last = self.session.page.evaluate("() => window.__xrtest.iwer.last")
        if not last or self.handedness not in (last.get("hands") or {}):
            self.session.step(1)  # the joints exist once a frame has tracked the hand

    @property
    def position(self) -> Vec3:
        """The hand's root (where its target ray starts), app space."""
        return self.session._transform(self.device_id).position

    @property
    def fingertip(self) -> Vec3:
        """The index fingertip in the last frame."""
        return self.joints["index-finger-tip"].position

    @property
    def joints(self) -> dict[str, Joint]:
        """The 25 joints in the last frame."""
        return self.session.hand_joints(self.handedness)

    def target(self) -> ResolvedTarget:
        """The hand as a target of assertions (its root)."""
        from xrbench.xrtest.readers import Target as ResolvedTarget

        return ResolvedTarget(label=f"the {self.role} hand ({self.handedness})", point=self.position, kind="hand")

    def move_hand(
        self, position: Any, *, speed: float = DEFAULT_HAND_SPEED, anchor: str = "controller"
    ) -> dict[str, Any]:
        """Move the hand gradually so its `anchor` ('controller': the root, or 'fingertip') ends at `position`."""
        if anchor not in ("controller", "fingertip"):
            raise ValueError("anchor must be 'controller' or 'fingertip'")
        self._ensure()
        point = self.session.find(position).point
        root = self.position
        start, goal = root, point
        if anchor == "fingertip":
            # The hand keeps its rotation, so the fingertip keeps its offset from the root.
            start = self.fingertip
            goal = tuple(root[i] + point[i] - start[i] for i in range(3))
        frames = self.session._frames_for(math.dist(start, point), speed)
        self.session._animate(self.device_id, position=goal, frames=frames)
        return {"frames": frames, "position": self.position, "fingertip": self.fingertip}

    move_to = move_hand

    def move_by(self, delta: Sequence[float], *, speed: float = DEFAULT_HAND_SPEED) -> dict[str, Any]:
        """Move the hand by `delta` metres, gradually."""
        here = self.position
        return self.move_hand(tuple(here[i] + float(delta[i]) for i in range(3)), speed=speed)

    def rest(self, *, speed: float = DEFAULT_HAND_SPEED) -> dict[str, Any]:
        """Bring the hand back to where IWER rests it, beside and below the head."""
        head = self.session.head.pose
        offset = _rotate(head.quaternion, REST_POSITIONS[self.handedness])
        return self.move_hand(tuple(head.position[i] + offset[i] for i in range(3)), speed=speed)

    def reach_to(self, target: Any, *, depth: float = 0.02, speed: float = DEFAULT_HAND_SPEED) -> dict[str, Any]:
        """Put the index fingertip `depth` metres inside the target's box (where a straight reach enters it)."""
        self._ensure()
        t = self.session.find(target)
        goal = _entry_point(self.fingertip, t.bbox, depth) if t.bbox else t.point
        return self.move_hand(goal, speed=speed, anchor="fingertip")

    def point_to(self, target: Any, *, speed: float = DEFAULT_TURN_SPEED) -> int:
        """Turn the hand so its ray points at the target; returns frames."""
        self._ensure()
        return _aim(self.session, self.device_id, target, speed)

    def start_select(self, frames: int = 1) -> None:
        """Pinch (IWER fires select and selectstart) and run `frames` frames."""
        self.session.pinch(hand=self.handedness, frames=frames)

    def end_select(self, frames: int = 1) -> None:
        """Open the pinch (selectend) and run `frames` frames."""
        self.session.release(hand=self.handedness, frames=frames)

    def pinch(self, frames: int = 1) -> None:
        """Pinch and hold for `frames` frames."""
        self.start_select(frames)

    def release(self, frames: int = 1) -> None:
        """Open the pinch."""
        self.end_select(frames)

    def click(self, target: Any = None, *, hold_frames: int = CLICK_HOLD_FRAMES) -> None:
        """A ray click: point at `target` (if given), pinch for `hold_frames`, release, wait as long."""
        if target is not None:
            self.point_to(target)
        self.start_select(hold_frames)
        self.end_select(hold_frames)


class IWERController:
    """One controller, with the methods of `actors.Controller`; its actions switch IWER to controllers."""

    def __init__(self, session: IWERSession, handedness: str, role: str | None = None):
        if handedness not in HANDS:
            raise ValueError(f"handedness must be 'left' or 'right', not {handedness!r}")
        self.session = session
        self.handedness = handedness
        self.role = role or handedness
        self.device_id = f"controller-{handedness}"

    def __repr__(self) -> str:
        return f"IWERController({self.handedness!r}, role={self.role!r})"

    @property
    def position(self) -> Vec3:
        """The controller's position (where its ray starts), app space."""
        return self.session._transform(self.device_id).position

    @property
    def ray_direction(self) -> Vec3 | None:
        """Where the controller's ray points."""
        return self.session._transform(self.device_id).forward

    def target(self) -> ResolvedTarget:
        """The controller as a target of assertions."""
        from xrbench.xrtest.readers import Target as ResolvedTarget

        return ResolvedTarget(label=f"the {self.role} controller ({self.handedness})", point=self.position, kind="hand")

    def move_to(self, position: Any, *, speed: float = DEFAULT_HAND_SPEED) -> dict[str, Any]:
        """Move the controller gradually to a point (or a target's centre)."""
        self.session._ensure_mode("controller")
        goal = self.session.find(position).point
        frames = self.session._frames_for(math.dist(self.position, goal), speed)
        self.session._animate(self.device_id, position=goal, frames=frames)
        return {"frames": frames, "position": self.position}

    def point_to(self, target: Any, *, speed: float = DEFAULT_TURN_SPEED) -> int:
        """Aim the ray at the target; returns frames."""
        self.session._ensure_mode("controller")
        return _aim(self.session, self.device_id, target, speed)

    def _button(self, button: str, value: float, frames: int) -> None:
        self.session._ensure_mode("controller")
        self.session._call("setButton", {"hand": self.handedness, "button": button, "value": value})
        self.session._advance(frames)

    def start_select(self, frames: int = 1) -> None:
        """Press the trigger."""
        self._button("trigger", 1.0, frames)

    def end_select(self, frames: int = 1) -> None:
        """Release the trigger."""
        self._button("trigger", 0.0, frames)

    def select(self, target: Any = None, *, hold_frames: int = CLICK_HOLD_FRAMES) -> None:
        """Aim at `target` (if given), press the trigger for `hold_frames`, release, wait as long."""
        if target is not None:
            self.point_to(target)
        self.start_select(hold_frames)
        self.end_select(hold_frames)

    def start_squeeze(self, frames: int = 1) -> None:
        """Press the grip."""
        self._button("squeeze", 1.0, frames)

    def end_squeeze(self, frames: int = 1) -> None:
        """Release the grip."""
        self._button("squeeze", 0.0, frames)

    def squeeze(self, *, hold_frames: int = CLICK_HOLD_FRAMES) -> None:
        """Press the grip for `hold_frames`, release, wait as long."""
        self.start_squeeze(hold_frames)
        self.end_squeeze(hold_frames)


def _aim(session: IWERSession, device_id: str, target: Any, speed: float) -> int:
    """Turn a hand or controller gradually so its ray points at `target`; returns frames."""
    pose = session._transform(device_id)
    goal = session._call("lookRotation", {"from": list(pose.position), "target": list(session.find(target).point)})
    frames = session._frames_for(_angle_deg(pose.quaternion, goal), speed)
    session._animate(device_id, quaternion=goal, frames=frames)
    return frames


def _angle_deg(a: Sequence[float], b: Sequence[float]) -> float:
    """The rotation angle between two unit quaternions, in degrees."""
    dot = min(1.0, abs(sum(x * y for x, y in zip(a, b, strict=True))))
    return math.degrees(2 * math.acos(dot))


def _rotate(q: Sequence[float], v: Sequence[float]) -> Vec3:
    """Vector `v` rotated by unit quaternion `q` (x, y, z, w)."""
    x, y, z, w = q
    tx, ty, tz = 2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]), 2 * (x * v[1] - y * v[0])
    return (v[0] + w * tx + (y * tz - z * ty), v[1] + w * ty + (z * tx - x * tz), v[2] + w * tz + (x * ty - y * tx))


def _entry_point(start: Sequence[float], box: tuple[Vec3, Vec3], depth: float) -> Vec3:
    """`depth` metres inside `box` on the line from `start` to its centre (capped at the centre).

    A fingertip that stops on a surface touches nothing in box-based touch tests, and one pushed
    through reaches the other side: aim just inside, where the reach enters.
    """
    lo, hi = box
    centre = tuple((lo[i] + hi[i]) / 2 for i in range(3))
    d = tuple(centre[i] - start[i] for i in range(3))
    length = math.sqrt(sum(c * c for c in d))
    if length < 1e-9:
        return centre  # type: ignore[return-value]
    t_enter = 0.0
    for i in range(3):  # slab test: where the segment start -> centre enters the box
        if abs(d[i]) < 1e-12:
            continue
        t0, t1 = (lo[i] - start[i]) / d[i], (hi[i] - start[i]) / d[i]
        t_enter = max(t_enter, min(t0, t1))
    t = min(1.0, t_enter + depth / length)
    return (start[0] + d[0] * t, start[1] + d[1] * t, start[2] + d[2] * t)


def _tag_not_found(tag: str, nodes: Sequence[SceneNode]) -> TagNotFoundError:
    tags = sorted({n.tag for n in nodes if n.tag})
    return TagNotFoundError(
        f"no object tagged {tag!r} in the scene (tags present: {', '.join(tags) if tags else 'none'}); tag "
        "objects with object.userData.xrblocksDevtools = {tag: '...', state: {...}}"
    )


def target_point(node: SceneNode, nodes: Sequence[SceneNode]) -> Vec3:
    """Where to aim at `node`: its box centre if it is a mesh, else the centre of its largest mesh.

    `nodes` is the snapshot `node` came from (descendants are found through their `parents`).
    """

    def centre(n: SceneNode) -> Vec3:
        assert n.bbox is not None
        lo, hi = n.bbox
        return ((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, (lo[2] + hi[2]) / 2)

    if node.is_mesh and node.bbox is not None:
        return centre(node)
    meshes = [n for n in nodes if n.is_mesh and n.bbox is not None and n.visible and node.uuid in n.parents]
    if meshes:
        return centre(max(meshes, key=lambda n: math.prod(n.size or (0.0, 0.0, 0.0))))
    return centre(node) if node.bbox is not None else node.position


def turned(q: Sequence[float], yaw_deg: float, pitch_deg: float) -> tuple[float, float, float, float]:
    """Quaternion `q` (x, y, z, w) turned by yaw about the world vertical and pitch about its own x axis."""
    yaw, pitch = math.radians(yaw_deg) / 2, math.radians(pitch_deg) / 2
    q_yaw = (0.0, math.sin(yaw), 0.0, math.cos(yaw))
    q_pitch = (math.sin(pitch), 0.0, 0.0, math.cos(pitch))
    return _quat_mul(_quat_mul(q_yaw, q), q_pitch)


def _quat_mul(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float, float]:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    )


def _transform_pose(d: dict[str, Any]) -> Pose:
    q = tuple(d["quaternion"])
    return Pose(tuple(d["position"]), q, _forward(q))  # type: ignore[arg-type]


def _first_line(e: BaseException | str) -> str:
    lines = str(e).strip().splitlines()
    return lines[0] if lines else type(e).__name__


# Entering without a button: request the session and hand it to the app's three.js renderer (the
# one iwer_init.js saw; SEM's own renderer draws into its environment canvas and is skipped).
_ENTER_API_JS = """async ({mode, init}) => {
  const state = window.__xrtest;
  const sem = state.iwer.device.sem;
  const entry = state.three.renderers.find(
    (r) => r.renderer.xr && (!sem || r.renderer.domElement !== sem.environmentCanvas));
  if (!entry) throw new Error('enter="api" needs a three.js WebGLRenderer with xr (none was created)');
  const session = await navigator.xr.requestSession(mode, init);
  await entry.renderer.xr.setSession(session);
}"""

_WEBGL_JS = """() => {
  const state = window.__xrtest;
  const session = state.iwer && state.iwer.session;
  const layer = session && !state.iwer.ended && session.renderState && session.renderState.baseLayer;
  let gl = layer ? layer.context : null;
  if (!gl) {
    const entry = (state.three ? state.three.renderers : []).find((r) => r.renderer.getContext);
    gl = entry ? entry.renderer.getContext() : null;
  }
  if (!gl) return {alive: false, reason: 'no WebGL context found'};
  const lost = gl.isContextLost();
  const debug = lost ? null : gl.getExtension('WEBGL_debug_renderer_info');
  return {alive: !lost, lost, version: lost ? null : gl.getParameter(gl.VERSION),
          renderer: debug ? gl.getParameter(debug.UNMASKED_RENDERER_WEBGL) : null,
          canvas: [gl.canvas.width, gl.canvas.height]};
}"""
