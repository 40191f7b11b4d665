"""Recording sessions: artifact folders, keep/discard, key frames, video and trace of a real session."""

from __future__ import annotations

import json
import zipfile
from types import SimpleNamespace

import pytest

from xrbench.xrtest.browser import video_supported
from xrbench.xrtest.recording import Recorder, artifact_dir_name, keyframe, recorder_of
from xrbench.xrtest.routing import SessionLog

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_artifact_dir_names_are_safe_and_distinct():
    assert artifact_dir_name("tests/test_a.py::test_x[right-kitchen]") == "tests-test_a.py--test_x-right-kitchen"
    assert artifact_dir_name("t.py::C::test_y[a/b c]") == "t.py--C--test_y-a-b-c"
    long_a, long_b = (artifact_dir_name(f"t.py::test_{'x' * 300}[{v}]") for v in ("a", "b"))
    assert len(long_a) <= 120 and long_a != long_b


def test_finalize_keeps_or_discards_and_never_leaves_stale_artifacts(tmp_path):
    out = tmp_path / "art" / "t.py--test_x"
    rec = Recorder(out, video=False)
    (rec.staging / "video").mkdir()
    (rec.staging / "video" / "page@1.webm").write_bytes(b"v")
    (rec.staging / "01-end.png").write_bytes(b"p")
    assert rec.finalize(True) == out
    assert sorted(p.name for p in out.iterdir()) == ["01-end.png", "video.webm"]
    # A later passing run of the same test removes the earlier run's folder and its own staging.
    rec = Recorder(out, video=False)
    assert rec.finalize(False) is None
    assert not out.exists() and list((tmp_path / "art").iterdir()) == []


def test_keyframe_without_a_recorder_does_nothing():
    session = SimpleNamespace(hooks=[])
    assert recorder_of(session) is None and keyframe(session, "x") is None


@pytest.mark.xr
def test_recording_a_session(open_session, tmp_path):
    rec = Recorder(tmp_path / "rec", trace=True)
    s = open_session(scene="empty", hooks=[rec])
    s.step(3)
    shot = keyframe(s, "after three/frames")
    assert shot is not None and shot.name == "01-after-three-frames.png"
    assert shot.read_bytes()[:8] == PNG_MAGIC
    s.close()
    out = rec.finalize(True)
    names = sorted(p.name for p in out.iterdir())
    assert names[:3] == ["01-after-three-frames.png", "02-end.png", "log.json"]
    assert "trace.zip" in names and zipfile.is_zipfile(out / "trace.zip")
    if video_supported():
        assert (out / "video.webm").stat().st_size > 1000
    log = json.loads((out / "log.json").read_text())
    assert log["scene"] == "empty" and log["init_status"]["status"] == "ready" and log["page_errors"] == []


def _fake_session(rec, shots):
    page = SimpleNamespace(video=None, screenshot=lambda **kw: shots.append(kw))
    return SimpleNamespace(
        page=page, context=None, log=SessionLog(), app_dir="app", scene=None, init_status={}, hooks=[rec]
    )


@pytest.mark.parametrize(("keep", "page_usable", "frames"), [(True, True, 1), (False, True, 0), (True, False, 0)])
def test_end_frame_only_when_kept_and_the_page_responds(tmp_path, keep, page_usable, frames):
    rec, shots = Recorder(tmp_path / "rec", video=False), []
    rec.keep, rec.page_usable = keep, page_usable
    rec.closing(_fake_session(rec, shots))
    assert len(shots) == frames and all(s["timeout"] == 5000 for s in shots)
    assert (rec.staging / "log.json").is_file()
    rec.discard()
