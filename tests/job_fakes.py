"""Synthetic GenXR job folders, shaped like those `xrbench genxr run` writes (see `genxr/job.py` and
`genxr/trial.py`), with real media: PNG key frames (Pillow) and small WebM videos (imageio-ffmpeg's
ffmpeg), so that reports and the design score can be tested without running agents or browsers.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from xrbench.genxr.job import JobConfig, summarize
from xrbench.xrtest.recording import artifact_dir_name


def write_json(path: Path, data: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    return path


def make_png(path: Path, color: tuple[int, int, int] = (40, 90, 160), size: tuple[int, int] = (64, 36)) -> Path:
    """A small PNG: a coloured square on a dark background (not blank)."""
    from PIL import Image, ImageDraw

    path.parent.mkdir(parents=True, exist_ok=True)
    im = Image.new("RGB", size, (20, 20, 24))
    ImageDraw.Draw(im).rectangle([size[0] // 4, size[1] // 4, 3 * size[0] // 4, 3 * size[1] // 4], fill=color)
    im.save(path)
    return path


def make_video(path: Path, seconds: float = 1.0) -> Path:
    """A tiny VP8 WebM of ffmpeg's test pattern."""
    import imageio_ffmpeg

    path.parent.mkdir(parents=True, exist_ok=True)
    cmd = [
        imageio_ffmpeg.get_ffmpeg_exe(),
        "-hide_banner",
        "-loglevel",
        "error",
        "-nostdin",
        "-y",
        "-f",
        "lavfi",
        "-i",
        f"testsrc=size=160x90:rate=10:duration={seconds}",
        "-c:v",
        "libvpx",
        "-b:v",
        "200k",
        str(path),
    ]
    subprocess.run(cmd, check=True, capture_output=True, timeout=120)
    return path


def make_trial(
    job_dir: Path,
    task: str,
    *,
    agent: str = "mini",
    attempt: int = 0,
    task_type: str = "app",
    difficulty: str = "easy",
    capabilities: Sequence[str] = ("ui", "interaction"),
    tests: Sequence[tuple[str, str, str]] = (("tests/test_app.py::test_button[right-empty]", "passed", ""),),
    infra_error: str | None = None,
    recorded: Sequence[str] = (),
    video: bool = True,
    trajectory: bool = False,
) -> Path:
    """A finished trial: result.json, verifier output, and recordings of the tests named in `recorded`."""
    trial = job_dir / f"{task}__{agent}__{attempt + 1}"
    passed = infra_error is None and all(o == "passed" for _, o, _ in tests)
    verdict = {
        "task": task,
        "passed": passed,
        "infra_error": infra_error,
        "tests": [{"id": i, "outcome": o, "message": m} for i, o, m in tests],
    }
    write_json(trial / "verifier" / "verdict.json", verdict)
    write_json(trial / "verifier" / "reward.json", {"reward": int(passed)})
    write_json(
        trial / "verifier" / "details.json",
        {
            **verdict,
            "reward": int(passed),
            "task_type": task_type,
            "infra_class": infra_error and infra_error.split(":")[0],
            "tests": [{"id": i, "outcome": o, "message": m, "kind": None, "required": True} for i, o, m in tests],
            "exit_code": 0 if passed else 1,
            "timed_out": False,
            "build_error": None,
            "duration_sec": 3.2,
            "output_tail": "1 passed" if passed else "1 failed",
        },
    )
    for test_id in recorded:
        folder = trial / "artifacts" / artifact_dir_name(test_id)
        make_png(folder / "01-after-tap.png", (200, 60, 60))
        make_png(folder / "02-end.png", (60, 200, 60))
        write_json(
            folder / "log.json", {"page_errors": [], "console_errors": ["boom"], "failed_requests": [], "notes": []}
        )
        if video:
            make_video(folder / "video.webm")
    (trial / "agent").mkdir(parents=True, exist_ok=True)
    (trial / "agent" / "instruction.md").write_text(f"Build the {task} app: a panel with a button.\n")
    agent_result: dict[str, Any] = {
        "exit_status": "submitted",
        "message": "",
        "steps": 2,
        "usage": {"input_tokens": 120.0, "output_tokens": 30.0, "api_calls": 2.0},
        "tool_usage": {"edit": 1, "inspect": 1},
        "trajectory": None,
    }
    if trajectory:
        agent_result["trajectory"] = "agent/trajectory.json"
        write_json(
            trial / "agent" / "trajectory.json",
            {
                "trajectory_format": "mini-swe-agent-1.1",
                "info": {"exit_status": "Submitted", "mini_version": "2.4.6"},
                "messages": [
                    {"role": "system", "content": "You are careful."},
                    {"role": "user", "content": "Build it <now>."},
                    {
                        "role": "assistant",
                        "content": "```mswea_bash_command\nls\n```",
                        "extra": {"actions": [{"command": "ls"}]},
                    },
                    {
                        "role": "user",
                        "content": "<returncode>0</returncode>",
                        "extra": {"returncode": 0, "seconds": 0.01},
                    },
                    {
                        "role": "assistant",
                        "content": "edit",
                        "extra": {"actions": [{"command": "printf 'x' >> main.js"}]},
                    },
                    {
                        "role": "user",
                        "content": "<returncode>0</returncode>",
                        "extra": {"returncode": 0, "seconds": 0.02},
                    },
                    {"role": "user", "content": "Format error", "extra": {"interrupt_type": "FormatError"}},
                    {"role": "exit", "content": "", "extra": {"exit_status": "Submitted"}},
                ],
            },
        )
    result = {
        "trial": trial.name,
        "task": task,
        "task_type": task_type,
        "difficulty": difficulty,
        "capabilities": list(capabilities),
        "agent": agent,
        "model": "scripted",
        "attempt": attempt,
        "reward": int(passed),
        "passed": passed,
        "infra_error": infra_error,
        "verifier_tries": 1,
        "failed_tests": [i for i, o, _ in tests if o != "passed"],
        "agent_result": agent_result,
        "timings": {"agent_s": 1.5, "verifier_s": 3.2, "total_s": 4.7},
        "limits": {},
        "sandbox": {},
    }
    write_json(trial / "result.json", result)
    return trial


def make_job(root: Path, name: str = "20260101-000000-mini", *, video: bool = True) -> Path:
    """A job of four trials: two app tasks (one passing with recordings and a trajectory, one failing
    with a recording), an SDK task with an infrastructure error, and a trial that never finished."""
    job = root / name
    ok_test = "tests/test_app.py::test_button[right-empty]"
    bad_test = "tests/test_app.py::test_counter_counts[left-kitchen]"
    make_trial(job, "app-counter", tests=[(ok_test, "passed", "")], recorded=[ok_test], video=video, trajectory=True)
    make_trial(
        job,
        "app-orb",
        capabilities=("hands",),
        tests=[(ok_test, "passed", ""), (bad_test, "failed", "AssertionError: expected count 1, observed 2 <b>")],
        recorded=[bad_test],
        video=video,
    )
    make_trial(
        job,
        "sdk-repair-x",
        task_type="sdk-repair",
        difficulty="hard",
        capabilities=("hands",),
        tests=[],
        infra_error="browser_launch_failed: no chromium",
    )
    (job / "app-unfinished__mini__1" / "agent").mkdir(parents=True)
    config = JobConfig(agent="mini", provider={"provider": "openai", "model": "scripted"}, record=True)
    write_json(job / "config.json", config.model_dump())
    write_json(
        job / "lock.json",
        {
            "xrbench": "0.1.0",
            "python": "3.11",
            "platform": "linux",
            "web_dependencies": {"xrblocks": "0.21.1"},
            "tasks": {"app-counter": {"dir": "/nonexistent", "sha256": "ab" * 32}},
        },
    )
    results = [json.loads(p.read_text()) for p in sorted(job.glob("*/result.json"))]
    write_json(job / "summary.json", summarize(config, results, 4))
    return job
