"""Per-test recordings of XR sessions: a video, key-frame screenshots, a Playwright trace, the page's log.

`Recorder` is a `SessionHook` (see `session.py`): pass it in `XRSession(..., hooks=[recorder])`.
Everything is written to a staging folder while the session runs; `Recorder.finalize(keep)`
then either moves it to the test's artifact folder or deletes it. The pytest plugin keeps the
artifacts of failed tests, or of every test with `--xr-record`:

    <artifacts>/<test id>/video.webm        the whole session (small: 320x180 by default)
    <artifacts>/<test id>/NN-<name>.png     key frames, in the order taken; the last is `end`
    <artifacts>/<test id>/trace.zip         Playwright trace (`--xr-trace`; open with `playwright show-trace`)
    <artifacts>/<test id>/log.json          console and page errors, failed and remote requests

Key frames: `keyframe(session, "after-tap")` in a test (or `xr.keyframe("after-tap")` on the
plugin's session) takes a screenshot now; the recorder adds an `end` frame when the session closes.

A video needs an ffmpeg that can write VP9 (see `browser.find_ffmpeg`); without one the recorder
writes no video and says so in `log.json`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import re
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playwright.sync_api import Error as PlaywrightError

if TYPE_CHECKING:
    from xrbench.xrtest.session import XRSession

DEFAULT_ARTIFACTS_DIR = ".xrtest-artifacts"
VIDEO_SIZE = (320, 180)
# A screenshot of a page that hangs would otherwise wait for the context's default timeout.
SCREENSHOT_TIMEOUT_MS = 5000
_MAX_NAME = 120


def artifact_dir_name(test_id: str) -> str:
    """A folder name for a pytest node id.

    `tests/test_a.py::test_x[right-kitchen]` -> `tests-test_a.py--test_x-right-kitchen`: characters
    other than letters, digits and `._-` become `-` (`::` becomes `--`). Long ids are cut and end
    with a short hash of the id, so that names stay unique.
    """
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", test_id.replace("::", "--")).strip("-.") or "test"
    if len(name) > _MAX_NAME:
        name = name[: _MAX_NAME - 9] + "-" + hashlib.sha1(test_id.encode()).hexdigest()[:8]
    return name


def _frame_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.")[:60] or "frame"


class Recorder:
    """Records one session (video, key frames, trace, log) into a staging folder; see the module docstring.

    `out_dir` is the test's artifact folder. `keep` says whether `closing` takes the `end`
    frame; the pytest plugin sets it once the test's outcome is known (True until then, so that a
    session that fails while opening is recorded). `page_usable = False` skips everything that
    needs the page to respond (after a timeout, the page may be stuck in a script).
    """

    def __init__(
        self,
        out_dir: str | Path,
        *,
        video: bool = True,
        trace: bool = False,
        video_size: tuple[int, int] = VIDEO_SIZE,
        end_frame: bool = True,
    ):
        self.out_dir = Path(out_dir)
        self.video = video
        self.trace = trace
        self.video_size = video_size
        self.end_frame = end_frame
        self.keep = True
        self.page_usable = True
        self.notes: list[str] = []
        self._frames = 0
        self._video: Any = None
        self._video_path: Path | None = None
        self._trace_started = False
        self.out_dir.parent.mkdir(parents=True, exist_ok=True)
        # Next to the final folder, so that keeping it is a rename on the same file system.
        self.staging = Path(tempfile.mkdtemp(prefix=f".{self.out_dir.name[:40]}-", dir=self.out_dir.parent))

    # --- SessionHook ------------------------------------------------------------------------------

    def context_options(self, session: XRSession) -> dict[str, Any]:
        """Ask Playwright to record the context's pages as WebM into the staging folder."""
        if not self.video:
            return {}
        return {
            "record_video_dir": str(self.staging / "video"),
            "record_video_size": {"width": self.video_size[0], "height": self.video_size[1]},
        }

    def context_created(self, session: XRSession) -> None:
        """Start the Playwright trace, when asked for."""
        if self.trace and session.context is not None:
            session.context.tracing.start(screenshots=True, snapshots=True, sources=False)
            self._trace_started = True

    def closing(self, session: XRSession) -> None:
        """Take the `end` key frame, stop the trace, write the log; each step on its own."""
        with contextlib.suppress(Exception):
            self._video = session.page.video
            self._video_path = Path(self._video.path()) if self._video else None
        if self.keep and self.end_frame and self.page_usable:
            self.keyframe(session, "end")
        if self._trace_started and session.context is not None:
            try:
                session.context.tracing.stop(path=str(self.staging / "trace.zip"))
            except PlaywrightError as e:
                self.notes.append(f"trace not saved: {str(e).splitlines()[0]}")
        self._write_log(session)

    # --- recording --------------------------------------------------------------------------------

    def keyframe(self, session: XRSession, name: str) -> Path | None:
        """Screenshot the page now as `NN-<name>.png`; None (and a note) when the page cannot."""
        self._frames += 1
        path = self.staging / f"{self._frames:02d}-{_frame_name(name)}.png"
        try:
            session.page.screenshot(path=str(path), timeout=SCREENSHOT_TIMEOUT_MS)
        except Exception as e:  # a closed or stuck page must not fail the test through its recording
            self.notes.append(f"key frame {name!r} not taken: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
            return None
        return path

    def _write_log(self, session: XRSession) -> None:
        log = session.log
        data = {
            "app": str(session.app_dir),
            "scene": session.scene.name if session.scene else None,
            "init_status": session.init_status,
            "page_errors": list(log.page_errors),
            "console_errors": list(log.console_errors),
            "failed_requests": [str(f) for f in log.failed_requests],
            "remote_requests": [dataclasses.asdict(r) for r in log.remote_requests],
            "notes": self.notes,
        }
        with contextlib.suppress(OSError, TypeError, ValueError):
            (self.staging / "log.json").write_text(json.dumps(data, indent=2, default=str), encoding="utf-8")

    def finalize(self, keep: bool) -> Path | None:
        """After the session closed (the video is complete then): keep or delete the recording.

        Kept: the staging folder becomes `out_dir` (replacing one from an earlier run) and the
        video is renamed `video.webm`; returns `out_dir`. Otherwise everything is deleted, an
        earlier run's folder included, so that stale artifacts never describe this run.
        """
        shutil.rmtree(self.out_dir, ignore_errors=True)
        if not keep:
            # A video in a reused context's folder (contexts.py) is deleted with the context.
            shutil.rmtree(self.staging, ignore_errors=True)
            return None
        elsewhere = self._video_path is not None and not self._video_path.is_relative_to(self.staging)
        if self._video is not None and self._video_path is not None and elsewhere:
            # Recorded into a reused context's folder: wait for it and bring it here.
            try:
                self._video_path = self.staging / "video" / self._video_path.name
                self._video.save_as(self._video_path)
            except Exception as e:  # the recording must never fail the test
                self.notes.append(f"video not saved: {str(e).splitlines()[0] if str(e) else type(e).__name__}")
                self._video_path = None
        videos = sorted((self.staging / "video").glob("*.webm"))
        if self._video_path is not None and self._video_path in videos:
            videos.remove(self._video_path)
            videos.insert(0, self._video_path)
        for i, video in enumerate(videos):
            # The app's page first; any other page it opened (a popup) after it.
            video.rename(self.staging / ("video.webm" if i == 0 else f"video-{i}.webm"))
        shutil.rmtree(self.staging / "video", ignore_errors=True)
        self.staging.rename(self.out_dir)
        return self.out_dir

    def discard(self) -> None:
        """Delete the staging folder (a recorder that was never used)."""
        shutil.rmtree(self.staging, ignore_errors=True)


def recorder_of(session: XRSession) -> Recorder | None:
    """The session's `Recorder` hook, if it has one."""
    return next((h for h in session.hooks if isinstance(h, Recorder)), None)


def keyframe(session: XRSession, name: str) -> Path | None:
    """Take a key-frame screenshot named `name` into the session's recording.

    Returns the PNG's staging path (it moves to the artifact folder if the test's artifacts are
    kept), or None when the session has no `Recorder` (outside the pytest plugin) or the page
    cannot be captured. Never fails the test.
    """
    recorder = recorder_of(session)
    return recorder.keyframe(session, name) if recorder is not None else None
