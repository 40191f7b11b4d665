"""pytest plugin of the XR harness: the `xr` fixture, hand and scene variants, timeouts, recordings.

Installed as the `pytest11` entry point `xrbench.xrtest.pytest_plugin`, so any pytest run in an
environment with xrbench has it; `-p xrbench.xrtest.pytest_plugin` names it explicitly (as GenXR
verification does). A test asks for `xr` and gets an open `XRSession` of the app under test:

    # pytest tests/ --xr-app examples/tap_to_light
    import pytest

    @pytest.mark.xr_scenes("empty", "kitchen")
    @pytest.mark.xr_timeout(30)
    def test_lamp_starts_off(xr):
        xr.step(2)
        assert xr.find_by_tag("lamp").state["on"] is False
        xr.keyframe("start")

Every test using `xr` runs once per dominant hand (`right`, `left`; `xr_hands(...)` narrows
that) and once per scene it lists (`xr_scenes(...)`, else `--xr-scenes`, else the app's own
environment), so the test above runs as `test_lamp_starts_off[right-empty]`, `[right-kitchen]`,
`[left-empty]` and `[left-kitchen]`. Each run gets a fresh browser context on one browser per
process (per xdist worker).

Infrastructure errors stay apart from test failures: a browser that does not start and an app
that does not initialise fail the `xr` fixture, so the test is an *error* whose text names
`BrowserLaunchError` or `AppInitError` (GenXR grading looks for these names). A run in which no
XR test executed ends with the line `xrtest: NO XR TEST RAN` (and `"xr_tests_ran": 0` in the
`--xr-report` JSON); pytest's own exit status 5 covers a run that collected nothing.

Options: `--xr-app DIR` (or `$XRBENCH_XR_APP`), `--xr-scenes a,b`, `--xr-record` (keep video and
key frames of every test, not only failed ones), `--xr-trace` (Playwright traces),
`--xr-no-recording` (record nothing, not even failed tests: for runs whose artifacts nobody
reads, such as `genxr validate`), `--xr-artifacts DIR` (default `.xrtest-artifacts`),
`--xr-timeout SECONDS` (default bound of an XR test's call; the `xr_timeout` marker overrides
it), `--xr-report FILE` (JSON results).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from xrbench.xrtest.contexts import ContextPool
from xrbench.xrtest.iwer import IWERSession
from xrbench.xrtest.recording import DEFAULT_ARTIFACTS_DIR, Recorder, artifact_dir_name
from xrbench.xrtest.recording import keyframe as _keyframe
from xrbench.xrtest.session import HANDS, XRSession

APP_ENV_VAR = "XRBENCH_XR_APP"
DEFAULT_HANDS = ("right", "left")
DEFAULT_TIMEOUT_S = 300.0
NO_XR_TESTS_LINE = "xrtest: NO XR TEST RAN"
BACKENDS = ("xrblocks", "iwer")


class XRTimeoutError(AssertionError):
    """A test ran past its `xr_timeout`: the test fails (the app or the test hangs), its session is closed.

    An AssertionError on purpose: a hung app is the candidate's failure, not infrastructure.
    """


@dataclass(frozen=True)
class XRVariant:
    """One run of an XR test: the dominant hand and the scene (None: the app's own environment)."""

    hand: str = "right"
    scene: str | None = None

    @property
    def id(self) -> str:
        return self.hand if self.scene is None else f"{self.hand}-{self.scene}"


class _PluginSession:
    """What the plugin adds to a session: `keyframe(name)` and the `variant` it runs in."""

    variant: XRVariant | None = None

    def keyframe(self, name: str) -> Path | None:
        """Screenshot the page now into the test's recording (kept with the test's artifacts)."""
        return _keyframe(self, name)  # type: ignore[arg-type]


class XRTestSession(_PluginSession, XRSession):
    """The plugin's session on XR Blocks' simulator."""


class IWERTestSession(_PluginSession, IWERSession):
    """The plugin's session on the IWER WebXR emulator (`xr_backend("iwer")`, `--xr-backend iwer`)."""


@dataclass
class _State:
    """Per-run settings and counters of the plugin (one per pytest config)."""

    app: Path | None
    scenes: tuple[str, ...]
    record: bool
    trace: bool
    artifacts: Path
    timeout_s: float
    report: Path | None
    backend: str = "xrblocks"
    no_recording: bool = False
    video: bool | None = None  # decided on first use (needs an ffmpeg)
    # From the test reports (so that they also reach an xdist controller): node id -> result.
    results: dict[str, dict[str, Any]] = field(default_factory=dict)
    collection_errors: list[dict[str, str]] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)

    @property
    def xr_tests_ran(self) -> int:
        """Tests that opened (or tried to open) the app."""
        return sum(1 for r in self.results.values() if r["xr"])

    @property
    def kept(self) -> dict[str, str]:
        """Node id -> artifact folder, for the tests whose recordings were kept."""
        return {k: r["artifacts"] for k, r in self.results.items() if r.get("artifacts")}


_STATE = pytest.StashKey[_State]()
_REPORTS = pytest.StashKey[dict[str, pytest.TestReport]]()
_TIMED_OUT = pytest.StashKey[float]()
# Item user properties: they travel with every report (to JUnit and to an xdist controller).
PROP_VARIANT = "xr_variant"
PROP_RAN = "xr_ran"
PROP_ARTIFACTS = "xr_artifacts"
PROP_TIMED_OUT = "xr_timed_out"


# --- configuration ---------------------------------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("xrtest", "XR app tests (xrbench.xrtest)")
    group.addoption("--xr-app", default=None, metavar="DIR", help=f"The XR Blocks app under test (or ${APP_ENV_VAR})")
    group.addoption(
        "--xr-scenes",
        default=None,
        metavar="NAMES",
        help="Comma-separated scenes for XR tests without an xr_scenes marker (default: the app's own)",
    )
    group.addoption(
        "--xr-record",
        action="store_true",
        default=False,
        help="Keep video and key frames of every XR test (default: failed tests only)",
    )
    group.addoption(
        "--xr-no-recording",
        action="store_true",
        default=False,
        help="Record nothing (no video, no key frames), not even for failed tests",
    )
    group.addoption("--xr-trace", action="store_true", default=False, help="Record a Playwright trace per XR test")
    group.addoption(
        "--xr-artifacts",
        default=None,
        metavar="DIR",
        help=f"Where recordings go, one folder per test (default {DEFAULT_ARTIFACTS_DIR}/)",
    )
    group.addoption(
        "--xr-timeout",
        type=float,
        default=DEFAULT_TIMEOUT_S,
        metavar="SECONDS",
        help=f"Wall-clock bound of an XR test's call unless marked xr_timeout (0: none; default {DEFAULT_TIMEOUT_S:g})",
    )
    group.addoption(
        "--xr-full-frames",
        action="store_true",
        default=False,
        help="Draw every stepped frame on the page's canvas (default: only frames someone sees are "
        "drawn there: a recorded test's last frame of each harness call, the frame before a screenshot; "
        "every other render pass runs; verdicts are the same, at a fraction of the cost)",
    )
    group.addoption("--xr-report", default=None, metavar="FILE", help="Write XR test results as JSON here")
    group.addoption(
        "--xr-backend",
        choices=BACKENDS,
        default="xrblocks",
        help="How XR tests run the app: XR Blocks' simulator (default) or the IWER WebXR emulator",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "xr: runs XR apps in headless Chromium (added to every test using `xr`)")
    config.addinivalue_line(
        "markers", "xr_scenes(*names): run the test once per simulator scene (empty, living_room, kitchen, office)"
    )
    config.addinivalue_line("markers", "xr_hands(*hands): dominant hands to run the test with (default right, left)")
    config.addinivalue_line(
        "markers", "xr_timeout(seconds): wall-clock bound of the test; a test that runs longer fails"
    )
    config.addinivalue_line(
        "markers",
        "xr_backend(name, **options): 'xrblocks' (the SDK's simulator) or 'iwer' (IWERSession options, "
        "e.g. input_mode='hand'); scenes do not apply to IWER",
    )
    app = config.getoption("--xr-app") or os.environ.get(APP_ENV_VAR) or None
    if config.getoption("--xr-no-recording") and (config.getoption("--xr-record") or config.getoption("--xr-trace")):
        raise pytest.UsageError("--xr-no-recording contradicts --xr-record and --xr-trace")
    invocation = config.invocation_params.dir
    app_dir = (invocation / app).resolve() if app else None
    if app_dir is not None and not app_dir.is_dir():
        raise pytest.UsageError(f"--xr-app {app}: not a directory")
    scenes = tuple(s.strip() for s in (config.getoption("--xr-scenes") or "").split(",") if s.strip())
    for name in scenes:
        _check_scene(name, "--xr-scenes")
    artifacts = config.getoption("--xr-artifacts") or DEFAULT_ARTIFACTS_DIR
    report = config.getoption("--xr-report")
    config.stash[_STATE] = state = _State(
        app=app_dir,
        scenes=scenes,
        record=bool(config.getoption("--xr-record")),
        trace=bool(config.getoption("--xr-trace")),
        no_recording=bool(config.getoption("--xr-no-recording")),
        artifacts=(invocation / artifacts).resolve(),
        timeout_s=float(config.getoption("--xr-timeout") or 0),
        report=(invocation / report).resolve() if report else None,
        backend=config.getoption("--xr-backend") or "xrblocks",
    )
    config.pluginmanager.register(_ResultCollector(state), "xrtest-results")


def _check_scene(name: str, where: str, error: type[Exception] = pytest.UsageError) -> None:
    from xrbench.xrtest.errors import SceneError
    from xrbench.xrtest.scenes import get_scene

    try:
        get_scene(name)
    except SceneError as e:
        raise error(f"{where}: {e}") from None


def pytest_report_header(config: pytest.Config) -> list[str]:
    state = config.stash.get(_STATE, None)
    if state is None or state.app is None:
        return []
    lines = [f"xrtest: app {state.app}; artifacts {state.artifacts}"]
    try:
        from xrbench.xrtest.browser import find_chromium, running_as_root
        from xrbench.xrtest.sandbox import plan_sandbox

        plan = plan_sandbox(find_chromium(), root=running_as_root())
        lines.append(f"xrtest: browser sandbox {plan.describe()}")
    except Exception as e:  # the header must never stop the run; the xr fixture reports it properly
        lines.append(f"xrtest: browser sandbox unknown ({type(e).__name__}: {e})")
    return lines


# --- variants ----------------------------------------------------------------------------------------


def _marker_args(node: Any, name: str) -> tuple[Any, ...] | None:
    marker = node.get_closest_marker(name)
    if marker is None:
        return None
    args = marker.args[0] if len(marker.args) == 1 and isinstance(marker.args[0], list | tuple) else marker.args
    return tuple(args)


def variants_for(node: Any, state: _State) -> list[XRVariant]:
    """The hand x scene variants of a test, from its markers and the run's options.

    A bad marker raises ValueError: pytest reports the test's file as not collected.
    """
    hands = _marker_args(node, "xr_hands") or DEFAULT_HANDS
    for hand in hands:
        if hand not in HANDS:
            raise ValueError(f"{node.nodeid}: xr_hands({hand!r}): a hand is 'right' or 'left'")
    scenes: tuple[str | None, ...] = _marker_args(node, "xr_scenes") or state.scenes or (None,)
    if _backend(node, state)[0] == "iwer":
        scenes = (None,)  # IWER rooms are an IWERSession option (`room`), not simulator scenes
    for scene in scenes:
        if scene is not None:
            _check_scene(str(scene), f"{node.nodeid}: xr_scenes", ValueError)
    if len(set(hands)) != len(hands) or len(set(scenes)) != len(scenes):
        raise ValueError(f"{node.nodeid}: xr_hands / xr_scenes list a value twice")
    return [XRVariant(hand, scene) for hand in hands for scene in scenes]


def _backend(node: Any, state: _State) -> tuple[str, dict[str, Any]]:
    """The test's backend and its session options (`xr_backend` marker, else `--xr-backend`)."""
    marker = node.get_closest_marker("xr_backend")
    if marker is None:
        return state.backend, {}
    name = marker.args[0] if marker.args else state.backend
    if name not in BACKENDS:
        raise ValueError(f"{node.nodeid}: xr_backend({name!r}): a backend is one of {', '.join(BACKENDS)}")
    return name, dict(marker.kwargs)


def _uses_our_xr(metafunc: pytest.Metafunc) -> bool:
    """Whether `xr` resolves to this plugin's fixture (a test module may define its own `xr`)."""
    if "xr" not in metafunc.fixturenames:
        return False
    defs = getattr(metafunc, "_arg2fixturedefs", {}).get("xr")
    if not defs:
        return True
    func = getattr(defs[-1], "func", None)
    return getattr(func, "__module__", None) == __name__


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if not _uses_our_xr(metafunc):
        return
    state = metafunc.config.stash[_STATE]
    variants = variants_for(metafunc.definition, state)
    metafunc.parametrize("xr", variants, indirect=True, ids=[v.id for v in variants])


def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "xr" in getattr(item, "fixturenames", ()):
            # So that `-m "not xr"` leaves out everything that needs a browser.
            item.add_marker(pytest.mark.xr)
            spec = getattr(item, "callspec", None)
            variant = spec.params.get("xr") if spec is not None else None
            if isinstance(variant, XRVariant):
                item.user_properties.append((PROP_VARIANT, variant.id))


# --- fixtures ----------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def xr_browser() -> Iterator[Any]:
    """One headless Chromium per test process (per xdist worker); each test gets its own context.

    A browser that does not start raises `BrowserLaunchError` here, once; every XR test of the run
    is then an error naming it.
    """
    from xrbench.xrtest.browser import launch_browser

    handle = launch_browser()
    try:
        yield handle.browser
    finally:
        handle.close()


@pytest.fixture(scope="session")
def xr_contexts() -> Iterator[ContextPool]:
    """Browser contexts reused by the run's sessions (emptied between them; see `contexts.py`)."""
    pool = ContextPool()
    try:
        yield pool
    finally:
        pool.close()


@pytest.fixture
def xr_app(request: pytest.FixtureRequest) -> Path:
    """The app under test: `--xr-app DIR` or `$XRBENCH_XR_APP`.

    Override it in a `conftest.py` to tie a folder of tests to its app (as `examples/` does).
    """
    state: _State = request.config.stash[_STATE]
    if state.app is None:
        pytest.fail(f"xrtest: no app under test: pass --xr-app DIR or set ${APP_ENV_VAR}", pytrace=False)
    return state.app


@pytest.fixture
def xr(
    request: pytest.FixtureRequest, xr_browser: Any, xr_contexts: ContextPool, xr_app: Path
) -> Iterator[XRTestSession | IWERTestSession]:
    """An open session of the app under test (`xr_app`), in this test's hand and scene variant.

    An `XRTestSession` (XR Blocks' simulator), or an `IWERTestSession` for tests marked
    `xr_backend("iwer")` or run with `--xr-backend iwer`. Raises `AppInitError` (the test is an
    error) when the app does not initialise. Closed after the test; its recording is kept when
    the test failed or with `--xr-record`; nothing is recorded with `--xr-no-recording`.
    """
    state: _State = request.config.stash[_STATE]
    variant: XRVariant = getattr(request, "param", None) or XRVariant()
    item = request.node
    item.user_properties.append((PROP_RAN, "1"))
    if state.video is None:
        from xrbench.xrtest.browser import video_supported

        state.video = video_supported()
    recorder: Recorder | None = None
    if not state.no_recording:
        recorder = Recorder(state.artifacts / artifact_dir_name(item.nodeid), video=state.video, trace=state.trace)
        if not state.video:
            recorder.notes.append("no video: no ffmpeg found (install imageio-ffmpeg, or set $XRBENCH_FFMPEG)")
    backend, options = _backend(item, state)
    hooks = [recorder] if recorder is not None else []
    common: dict[str, Any] = {"browser": xr_browser, "hooks": hooks, "dominant_hand": variant.hand}
    session: XRTestSession | IWERTestSession
    try:
        if backend == "iwer":
            session = IWERTestSession(Path(xr_app), **{"input_mode": "hand", **options, **common})
        else:
            # A Playwright trace belongs to a whole context: traced sessions get their own.
            contexts = None if state.trace else xr_contexts
            session = XRTestSession(
                Path(xr_app),
                scene=variant.scene,
                contexts=contexts,
                full_frames=request.config.getoption("--xr-full-frames"),
                **common,
            )
        session.variant = variant
        session.open()  # AppInitError: open() closed the session (and the recorder's hook ran)
    except BaseException:
        _finish_recording(item, state, recorder, keep=True)
        raise
    try:
        yield session
    finally:
        timed_out = _TIMED_OUT in item.stash
        keep = state.record or timed_out or _failed(item)
        if recorder is not None:
            recorder.keep = keep
            recorder.page_usable = not timed_out
        session.reusable = not timed_out
        session.close()
        _finish_recording(item, state, recorder, keep=keep)


def _failed(item: pytest.Item) -> bool:
    reports = item.stash.get(_REPORTS, {})
    return any(r.failed for r in reports.values())


def _finish_recording(item: pytest.Item, state: _State, recorder: Recorder | None, *, keep: bool) -> None:
    if recorder is None:
        return
    kept = recorder.finalize(keep)
    if kept is not None:
        item.user_properties.append((PROP_ARTIFACTS, str(kept)))


# --- timeouts ----------------------------------------------------------------------------------------


def _timeout_for(item: pytest.Item, state: _State) -> float:
    marker = item.get_closest_marker("xr_timeout")
    if marker is not None:
        seconds = marker.args[0] if marker.args else marker.kwargs.get("seconds")
        try:
            value = float(seconds)
        except (TypeError, ValueError):
            pytest.fail(f"xr_timeout needs a number of seconds, got {seconds!r}", pytrace=False)
        return value
    return state.timeout_s if "xr" in getattr(item, "fixturenames", ()) else 0.0


@contextlib.contextmanager
def _wall_clock_limit(seconds: float, on_timeout: Any) -> Iterator[None]:
    """Raise `XRTimeoutError` in the main thread after `seconds` (SIGALRM; no-op elsewhere).

    Playwright's sync API (1.65) passes an exception raised by a signal handler while it waits
    for the browser on to the caller and stays usable, so this also ends a test stuck in a page
    script (`while (true) {}`); the session is closed afterwards, which kills the page.
    """
    if seconds <= 0 or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def handler(signum: int, frame: Any) -> None:
        raise on_timeout()

    previous = signal.signal(signal.SIGALRM, handler)
    outer_delay, outer_interval = signal.setitimer(signal.ITIMER_REAL, seconds)
    started = time.monotonic()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous if previous is not None else signal.SIG_DFL)
        if outer_delay > 0:
            # Someone else's alarm (e.g. pytest-timeout's signal method) was pending: re-arm what is left of it.
            left = max(outer_delay - (time.monotonic() - started), 0.001)
            signal.setitimer(signal.ITIMER_REAL, left, outer_interval)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    state = item.config.stash[_STATE]
    limit = _timeout_for(item, state)

    def on_timeout() -> XRTimeoutError:
        if _TIMED_OUT not in item.stash:
            item.stash[_TIMED_OUT] = limit
            item.user_properties.append((PROP_TIMED_OUT, f"{limit:g}"))
        return XRTimeoutError(
            f"xr_timeout: the test ran longer than {limit:g} s and was stopped (its session is closed)"
        )

    with _wall_clock_limit(limit, on_timeout):
        result = yield
    if _TIMED_OUT in item.stash:
        # The test swallowed the timeout (e.g. `except BaseException`): it still ran too long.
        raise on_timeout()
    return result


# --- reports -----------------------------------------------------------------------------------------


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[pytest.TestReport]:
    report: pytest.TestReport = yield
    item.stash.setdefault(_REPORTS, {})[report.when] = report
    if report.failed and any(k == PROP_RAN for k, _ in item.user_properties):
        folder = item.config.stash[_STATE].artifacts / artifact_dir_name(item.nodeid)
        report.sections.append(("xrtest artifacts", f"video and key frames: {folder}"))
    return report


class _ResultCollector:
    """Builds per-test results from the test reports (hence also in an xdist controller)."""

    def __init__(self, state: _State):
        self.state = state

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.failed:
            lines = str(report.longrepr or "").strip().splitlines()
            errors = [ln[1:].strip() for ln in lines if ln.startswith("E ")]
            message = errors[-1] if errors else lines[-1] if lines else "collection failed"
            self.state.collection_errors.append({"id": report.nodeid, "message": message[:2000]})

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        props = dict(report.user_properties)
        r = self.state.results.setdefault(
            report.nodeid,
            {"id": report.nodeid, "outcome": "passed", "message": "", "duration": 0.0, "xr": False},
        )
        r["duration"] = round(r["duration"] + report.duration, 3)
        r["xr"] = r["xr"] or PROP_RAN in props
        variant = props.get(PROP_VARIANT)
        hand, _, scene = str(variant or "").partition("-")
        r.update(hand=hand or None, scene=scene or None, timed_out=PROP_TIMED_OUT in props)
        if props.get(PROP_ARTIFACTS):
            r["artifacts"] = props[PROP_ARTIFACTS]
        if r["outcome"] not in ("passed", "xpassed"):
            return  # the first bad phase says what happened
        if report.failed:
            r["outcome"] = "failed" if report.when == "call" else "error"
            r["message"] = _message(report)[:4000]
        elif report.skipped:
            r["outcome"] = "xfailed" if hasattr(report, "wasxfail") else "skipped"
            r["message"] = _message(report)[:4000]
        elif report.when == "call" and hasattr(report, "wasxfail"):
            r["outcome"] = "xpassed"


def _message(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if report.skipped and isinstance(longrepr, tuple):
        return str(longrepr[2])
    crash = getattr(longrepr, "reprcrash", None)
    if crash is not None and getattr(crash, "message", ""):
        return str(crash.message)
    lines = str(longrepr or "").strip().splitlines()
    return lines[-1] if lines else ""


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    state = config.stash.get(_STATE, None)
    if state is None or config.option.collectonly:
        return
    collected_xr = any(r["xr"] for r in state.results.values()) or state.app is not None
    if not collected_xr and state.xr_tests_ran == 0:
        return
    tr = terminalreporter
    if state.xr_tests_ran == 0:
        tr.write_line(f"{NO_XR_TESTS_LINE}: no test opened the app (none collected, selected or unskipped)", red=True)
    else:
        tr.write_line(f"xrtest: {state.xr_tests_ran} XR test run(s)")
    if state.kept:
        tr.write_line(f"xrtest: recordings kept for {len(state.kept)} test(s) under {state.artifacts}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    state = session.config.stash.get(_STATE, None)
    if state is None or state.report is None:
        return
    if hasattr(session.config, "workerinput"):
        return  # an xdist worker: the controller has no results to merge; each worker's file would clash
    counts: dict[str, int] = {}
    for r in state.results.values():
        counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
    data = {
        "app": str(state.app) if state.app else None,
        "exit_status": int(exitstatus),
        "collected": session.testscollected,
        "xr_tests_ran": state.xr_tests_ran,
        "counts": counts,
        "duration": round(time.monotonic() - state.started, 3),
        "artifacts": state.kept,
        "tests": list(state.results.values()),
        "collection_errors": state.collection_errors,
    }
    state.report.parent.mkdir(parents=True, exist_ok=True)
    tmp = state.report.with_suffix(state.report.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2), encoding="utf-8")
    tmp.replace(state.report)
