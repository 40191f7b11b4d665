"""Frames of a trial's recorded XR tests, for a model to look at (the design score).

A trial's verifier keeps, per recorded test, `artifacts/<test>/video.webm` and key-frame PNGs
`NN-<name>.png` (see `xrtest/recording.py`). `sample_frames` picks `n` frames spread evenly over
the recordings: videos are decoded with the ffmpeg that `imageio-ffmpeg` ships; without a video
(or an ffmpeg) the key frames are used instead.

Playwright's videos start with blank frames while the page loads, so frames are taken at the
centres of `n` equal segments (never the very first frame) and near-uniform frames are dropped,
unless every frame is blank: a blank app is what the model should then see.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from xrbench.procs import owned_temporary_directory
from xrbench.xrtest.browser import find_ffmpeg

T = TypeVar("T")
DECODE_FPS = 2.0
DECODE_TIMEOUT_S = 120
BLANK_RANGE = 12  # grey levels: a frame whose darkest and brightest pixels are closer than this is blank
_KEYFRAME = re.compile(r"^\d{2,}-.+\.png$")


@dataclass
class FrameSample:
    """The frames picked, where each came from, and what went wrong on the way."""

    frames: list[Path] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)  # per frame: "<video or key frame>#<index>", trial-relative
    source: str | None = None  # "video", "keyframes" or None (nothing recorded)
    notes: list[str] = field(default_factory=list)


def spread(items: Sequence[T], n: int) -> list[T]:
    """`n` items evenly spread over `items` (segment centres), or all of them when there are fewer."""
    if n <= 0:
        return []
    if len(items) <= n:
        return list(items)
    return [items[int((i + 0.5) * len(items) / n)] for i in range(n)]


def find_videos(trial_dir: Path) -> list[Path]:
    """Every recorded video of the trial, in folder order."""
    root = trial_dir / "artifacts"
    return sorted(root.rglob("video*.webm")) if root.is_dir() else []


def find_keyframes(trial_dir: Path) -> list[Path]:
    """Every key-frame screenshot of the trial (`NN-<name>.png`), in folder and frame order."""
    root = trial_dir / "artifacts"
    return sorted(p for p in root.rglob("*.png") if _KEYFRAME.match(p.name)) if root.is_dir() else []


def decode(video: Path, out_dir: Path, ffmpeg: str, fps: float | None = DECODE_FPS) -> list[Path]:
    """Decode `video` into PNGs at `fps` (None: every frame; also the fallback when `fps` yields none)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    filters = [["-vf", f"fps={fps:g}"], []] if fps else [[]]
    for vf in filters:
        for old in out_dir.glob("*.png"):
            old.unlink()
        cmd = [
            ffmpeg,
            "-hide_banner",
            "-loglevel",
            "error",
            "-nostdin",
            "-i",
            str(video),
            *vf,
            str(out_dir / "%05d.png"),
        ]
        try:
            subprocess.run(cmd, capture_output=True, timeout=DECODE_TIMEOUT_S, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return []
        frames = sorted(out_dir.glob("*.png"))
        if frames:
            return frames
    return []


def is_blank(png: Path) -> bool:
    """Whether a frame is (nearly) one flat colour, such as the white page before the app draws."""
    from PIL import Image

    try:
        with Image.open(png) as im:
            lo, hi = im.convert("L").getextrema()
    except OSError:
        return True
    return hi - lo < BLANK_RANGE


def _quotas(n: int, k: int) -> list[int]:
    """Split n frames over k videos as evenly as possible."""
    return [n // k + (1 if i < n % k else 0) for i in range(k)]


def sample_frames(trial_dir: Path, out_dir: Path, n: int = 8) -> FrameSample:
    """Pick up to `n` frames of the trial's recordings into `out_dir` as `NN.png` (replacing earlier ones)."""
    trial_dir = Path(trial_dir)
    sample = FrameSample()
    if out_dir.exists():
        shutil.rmtree(out_dir)
    out_dir.mkdir(parents=True)
    picked: list[tuple[Path, str]] = []
    videos = spread(find_videos(trial_dir), n)
    found = find_ffmpeg() if videos else None  # the one the recordings were made with
    ffmpeg = str(found) if found else None
    if videos and ffmpeg is None:
        sample.notes.append("no ffmpeg to decode the videos (install imageio-ffmpeg); using key frames")
    with owned_temporary_directory("xrbench-frames-") as tmp:
        if ffmpeg:
            for i, (video, quota) in enumerate(zip(videos, _quotas(n, len(videos)), strict=True)):
                frames = decode(video, Path(tmp) / f"v{i}", ffmpeg)
                if 0 < len(frames) < quota:  # a short video: every frame, to fill its share
                    frames = decode(video, Path(tmp) / f"v{i}", ffmpeg, fps=None)
                if not frames:
                    sample.notes.append(f"{video.relative_to(trial_dir)}: could not be decoded")
                    continue
                shown = [f for f in frames if not is_blank(f)] or frames
                rel = video.relative_to(trial_dir).as_posix()
                picked += [(f, f"{rel}#{frames.index(f)}") for f in spread(shown, quota)]
        if picked:
            sample.source = "video"
        else:
            keyframes = find_keyframes(trial_dir)
            shown = [f for f in keyframes if not is_blank(f)] or keyframes
            picked = [(f, f.relative_to(trial_dir).as_posix()) for f in spread(shown, n)]
            sample.source = "keyframes" if picked else None
        for i, (frame, origin) in enumerate(picked, 1):
            dest = out_dir / f"{i:02d}.png"
            shutil.copyfile(frame, dest)
            sample.frames.append(dest)
            sample.sources.append(origin)
    return sample
