"""The runner end to end on synthetic answers from a local OpenAI-compatible server and on recorded
responses: cells, judge cells, metadata, reruns, repeats, record and replay."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import HERE
from guidance_fakes import answer
from llm_fakes import FakeServer, chat_completion
from typer.testing import CliRunner

from xrbench.cli.main import app
from xrbench.guidance.arms import MODES
from xrbench.guidance.runner import Layout, model_slug, user_message
from xrbench.guidance.score import SCORE_KEYS
from xrbench.guidance.task import TASKS_DIR, resolve_tasks

runner = CliRunner()
MODEL = "fake/coder:7b"
SLUG = "fake-coder-7b"
JUDGE = "fake/judge:70b"


def invoke(*args: str):
    result = runner.invoke(app, ["guidance", *args])
    return result


def test_model_slug_and_user_message():
    assert model_slug("models/gemini-2.5-pro") == "models-gemini-2.5-pro"
    assert model_slug(MODEL) == SLUG
    (task,) = resolve_tasks(TASKS_DIR, ["ui-button-hud"])
    assert user_message(task) == (
        "You are helping me build an xrblocks app. Return only the complete contents of `main.js` inside a single "
        "```javascript fenced block. No prose, no explanation, just the code.\n\nTASK:\n" + task.prompt
    )


def test_full_sweep_all_arms_judge_summary_and_charts(fake_server: FakeServer, baseline_file: Path, tmp_path: Path):
    out = tmp_path / "run"
    base = ["--base-url", fake_server.url + "/v1", "--model", MODEL, "--out", str(out)]
    r = invoke(
        "run",
        "--modes",
        ",".join(MODES),
        "--judge",
        "--judge-model",
        JUDGE,
        "--baseline-file",
        str(baseline_file),
        "--workers",
        "4",
        *base,
    )
    assert r.exit_code == 0, r.output
    tasks = resolve_tasks(TASKS_DIR)
    layout = Layout(out)
    for task in tasks:
        for mode in MODES:
            cell = json.loads(layout.result_path(MODEL, mode, task.id).read_text())
            assert set(SCORE_KEYS) <= set(cell) and cell["style"] == task.style
            run = cell["run"]
            assert run["mode"] == mode and run["model"] == MODEL and run["temperature"] == 0.2
            meta, ws = Path(run["metadata_dir"]), Path(run["workspace"])
            assert (ws / "index.html").is_file() and (ws / "main.js").is_file() and not (ws / "BROKEN.md").exists()
            for name in ("system_prompt.md", "user_msg.md", "raw_response.md", "usage.json", "run.json"):
                assert (meta / name).is_file()
            system = (meta / "system_prompt.md").read_text()
            assert (system == "") is (mode == "without-skill")
            assert (meta / "baseline_original.txt").is_file() is (mode == "with-baseline")
            if mode == "with-baseline":
                assert run["baseline"]["protocol"] == "published-main-js-v1"
                assert (meta / "baseline_original.txt").read_bytes() == baseline_file.read_bytes()
            judge = json.loads(layout.judge_path(MODEL, task.id, mode).read_text())
            assert judge["judge_model"] == JUDGE and judge["mode"] == mode
    # Every arm sent the same user message.
    msgs = {
        (
            Path(json.loads(layout.result_path(MODEL, m, "ui-button-hud").read_text())["run"]["metadata_dir"])
            / "user_msg.md"
        ).read_text()
        for m in MODES
    }
    assert len(msgs) == 1
    # The synthetic answers exercise the score: the Node 20 pitfall and legacy names.
    pitfall = json.loads(layout.result_path(MODEL, "without-skill", "hands-pinch-spawn").read_text())
    assert pitfall["parse_ok"] == 0.0 and pitfall["parse_errors"][0].startswith("main.js:")
    legacy = json.loads(layout.result_path(MODEL, "without-skill", "repair-legacy-ui").read_text())
    assert legacy["forbidden_clean"] == 0.0 and "SpatialPanel" in legacy["forbidden_violations"]
    raw = json.loads(layout.result_path(MODEL, "without-skill", "casual-doorbell").read_text())
    assert raw["run"]["extraction"] == "raw"
    unparseable = json.loads(layout.judge_path(MODEL, "casual-doorbell", "with-skill").read_text())
    assert unparseable["error"].startswith("unparseable judge reply") and "raw" in unparseable

    r = invoke("summarize", "--out", str(out))
    assert r.exit_code == 0, r.output
    summary = (out / "results" / "_summary.md").read_text()
    n = len(tasks)
    assert f"## {SLUG}" in summary and f"| with skill vs without skill | {n} | {n} |" in summary
    assert "published-main-js-v1" in summary and "unparseable" in summary
    r = invoke("plot", "--out", str(out))
    assert r.exit_code == 0, r.output
    charts = {p.name for p in (out / "charts").glob("*.png")}
    assert charts == {
        "composite_per_task.png",
        "judge_per_task.png",
        f"metrics_grid_{SLUG}.png",
        "prompt_style_breakdown.png",
        "api_match_breakdown.png",
    }


def test_rerun_replaces_the_cell(fake_server: FakeServer, tmp_path: Path, two_tasks: Path, monkeypatch):
    monkeypatch.setenv("XRBENCH_CACHE_DIR", "off")  # the second run must reach the server
    out = tmp_path / "run"
    args = ["run", "--tasks", "ui-button-hud", "--modes", "with-skill", "--tasks-root", str(two_tasks)]
    args += ["--base-url", fake_server.url + "/v1", "--model", MODEL, "--out", str(out)]
    assert invoke(*args, "--judge", "--self-judge").exit_code == 0
    layout = Layout(out)
    cell_file = layout.result_path(MODEL, "with-skill", "ui-button-hud")
    first = json.loads(cell_file.read_text())
    marker = Path(first["run"]["workspace"]) / "stale.txt"
    marker.write_text("from the first run")
    # The second run answers differently (and without a judge): the cell, workspace and judge cell are replaced.
    fake_server.queue(200, chat_completion("```javascript\nconst nothing = 1;\n```", model=MODEL))
    assert invoke(*args).exit_code == 0
    second = json.loads(cell_file.read_text())
    assert second["composite"] < first["composite"] and not marker.exists()
    assert not layout.judge_path(MODEL, "ui-button-hud", "with-skill").exists()


def test_the_app_block_after_an_html_block_and_a_reply_without_code(
    fake_server: FakeServer, tmp_path: Path, two_tasks: Path, monkeypatch
):
    monkeypatch.setenv("XRBENCH_CACHE_DIR", "off")
    out = tmp_path / "run"
    args = ["run", "--tasks", "ui-button-hud", "--modes", "with-skill", "--tasks-root", str(two_tasks)]
    args += ["--base-url", fake_server.url + "/v1", "--model", MODEL, "--out", str(out)]
    code = "import * as xb from 'xrblocks';\nxb.init(new xb.Options());\n"
    fake_server.queue(
        200, chat_completion(f"```html\n<div></div>\n```\nAnd the code:\n```javascript\n{code}```", model=MODEL)
    )
    assert invoke(*args).exit_code == 0
    cell_file = Layout(out).result_path(MODEL, "with-skill", "ui-button-hud")
    cell = json.loads(cell_file.read_text())
    assert (Path(cell["run"]["workspace"]) / "main.js").read_text() == code
    assert cell["run"]["extraction"] == "fenced" and cell["run"]["upstream_extraction"]["same"] is False
    assert (Path(cell["run"]["metadata_dir"]) / "upstream_main.js").read_text() == "And the code:\n"
    assert cell["parse_ok"] == 1.0 and "no_code" not in cell
    # Prose alone, even naming the API, is no attempt: 0 on every dimension, marked no_code.
    fake_server.queue(200, chat_completion("Use xb.init(new xb.Options()) and xb.Script.", model=MODEL))
    assert invoke(*args).exit_code == 0
    cell = json.loads(cell_file.read_text())
    assert cell["no_code"] is True and cell["run"]["extraction"] == "none"
    assert cell["composite"] == cell["api_match"] == cell["parse_ok"] == cell["forbidden_clean"] == 0.0
    assert invoke("summarize", "--out", str(out)).exit_code == 0
    summary = (out / "results" / "_summary.md").read_text()
    assert "| 0.00 (no code) |" in summary and "Replies without code" in summary and "with skill 1 of 1" in summary


def test_the_judge_is_a_separate_model_unless_asked(fake_server: FakeServer, tmp_path: Path, two_tasks: Path):
    args = ["run", "--tasks", "ui-button-hud", "--modes", "with-skill", "--judge", "--tasks-root", str(two_tasks)]
    args += ["--base-url", fake_server.url + "/v1", "--model", MODEL, "--out", str(tmp_path / "run")]
    # No default judge on an OpenAI-compatible endpoint, and never the generator unasked.
    for extra in ([], ["--judge-model", MODEL]):
        r = invoke(*args, *extra)
        assert r.exit_code == 2 and "--self-judge" in r.output, r.output
        assert not fake_server.requests, "refused before any model call"
    from xrbench.guidance.judge import SEED_JUDGE_MODEL, choose_judge_model

    assert choose_judge_model(None, generator="gemini-2.5-flash", provider="gemini") == SEED_JUDGE_MODEL


def test_repeats_take_medians(fake_server: FakeServer, tmp_path: Path, two_tasks: Path):
    out = tmp_path / "run"
    r = invoke(
        "run",
        "--tasks",
        "select-cube-color",
        "--modes",
        "without-skill",
        "--repeats",
        "3",
        "--judge",
        "--judge-model",
        JUDGE,
        "--tasks-root",
        str(two_tasks),
        "--base-url",
        fake_server.url + "/v1",
        "--model",
        MODEL,
        "--out",
        str(out),
    )
    assert r.exit_code == 0, r.output
    cell = json.loads(Layout(out).result_path(MODEL, "without-skill", "select-cube-color").read_text())
    assert cell["repeats"] == 3 and len(cell["samples"]) == 3
    assert [s["run"]["settings"]["seed"] for s in cell["samples"]] == [None, 2, 3]
    assert len({s["run"]["workspace"] for s in cell["samples"]}) == 3
    sizes = sorted(s["src_bytes"] for s in cell["samples"])
    assert cell["src_bytes"] == sizes[1]  # the median
    seeds = [req.body.get("seed") for req in fake_server.requests if "TASK:" in req.body["messages"][-1]["content"]]
    assert seeds == [None, 2, 3]
    judge = json.loads(Layout(out).judge_path(MODEL, "select-cube-color", "without-skill").read_text())
    assert judge["repeats"] == 3 and judge["accomplishes_task"] == 5.0


def test_record_then_replay_offline_gives_the_same_cells(
    fake_server: FakeServer, tmp_path: Path, two_tasks: Path, monkeypatch
):
    recordings = tmp_path / "rec.jsonl"
    common = ["--tasks-root", str(two_tasks), "--judge", "--self-judge", "--model", MODEL]
    monkeypatch.setenv("XRBENCH_RECORD", str(recordings))
    live = invoke("run", "--base-url", fake_server.url + "/v1", "--out", str(tmp_path / "live"), *common)
    assert live.exit_code == 0, live.output
    monkeypatch.delenv("XRBENCH_RECORD")
    monkeypatch.setenv("XRBENCH_CACHE_DIR", "off")
    replay = invoke("run", "--replay", str(recordings), "--out", str(tmp_path / "replay"), *common)
    assert replay.exit_code == 0, replay.output
    for mode in ("with-skill", "without-skill"):
        for task in ("select-cube-color", "ui-button-hud"):
            a = json.loads(Layout(tmp_path / "live").result_path(MODEL, mode, task).read_text())
            b = json.loads(Layout(tmp_path / "replay").result_path(MODEL, mode, task).read_text())
            assert {k: a[k] for k in SCORE_KEYS} == {k: b[k] for k in SCORE_KEYS}


def test_committed_recordings_replay(tmp_path: Path, two_tasks: Path, monkeypatch):
    """`recordings.jsonl` (made by `make_recordings.py`) replays one task offline, judge included."""
    monkeypatch.setenv("XRBENCH_CACHE_DIR", "off")
    rec = HERE / "recordings.jsonl"
    out = tmp_path / "run"
    r = invoke(
        "run",
        "--replay",
        str(rec),
        "--tasks",
        "select-cube-color",
        "--judge",
        "--self-judge",
        "--tasks-root",
        str(two_tasks),
        "--out",
        str(out),
    )
    assert r.exit_code == 0, (
        r.output + "\n(stale recordings? regenerate: .venv/bin/python tests/guidance/make_recordings.py)"
    )
    model = json.loads(rec.read_text().splitlines()[0])["request"]["model"]
    layout = Layout(out)
    w = json.loads(layout.result_path(model, "with-skill", "select-cube-color").read_text())
    wo = json.loads(layout.result_path(model, "without-skill", "select-cube-color").read_text())
    assert w["composite"] == 1.0 and w["run"]["provider"] == "replay"
    assert json.loads(layout.judge_path(model, "select-cube-color", "with-skill").read_text())["accomplishes_task"] == 5
    assert wo["run"]["extraction"] == "fenced"


def test_generation_errors_leave_gaps(fake_server: FakeServer, tmp_path: Path, two_tasks: Path):
    out = tmp_path / "run"
    fake_server.queue(400, {"error": {"message": "bad request", "type": "invalid_request_error"}})
    r = invoke(
        "run", "--tasks", "ui-button-hud", "--modes", "with-skill", "--tasks-root", str(two_tasks),
        "--base-url", fake_server.url + "/v1", "--model", MODEL, "--out", str(out),
    )  # fmt: skip
    assert r.exit_code == 1 and "BadRequestError" in r.output
    assert not Layout(out).result_path(MODEL, "with-skill", "ui-button-hud").exists()


def test_answers_differ_by_arm():
    """Sanity of the fixtures themselves: the arms get different synthetic answers."""
    assert answer("ui-button-hud", "with-skill") != answer("ui-button-hud", "without-skill")


def test_a_failed_judge_call_keeps_the_cell(fake_server: FakeServer, tmp_path: Path, two_tasks: Path, monkeypatch):
    monkeypatch.setenv("XRBENCH_CACHE_DIR", "off")
    out = tmp_path / "run"
    fake_server.queue(200, chat_completion("```javascript\nimport * as xb from 'xrblocks';\n```", model=MODEL))
    fake_server.queue(400, {"error": {"message": "judge refused", "type": "invalid_request_error"}})
    r = invoke(
        "run", "--tasks", "ui-button-hud", "--modes", "with-skill", "--judge", "--self-judge",
        "--tasks-root", str(two_tasks), "--base-url", fake_server.url + "/v1", "--model", MODEL, "--out", str(out),
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    layout = Layout(out)
    assert json.loads(layout.result_path(MODEL, "with-skill", "ui-button-hud").read_text())["parse_ok"] == 1.0
    judge = json.loads(layout.judge_path(MODEL, "ui-button-hud", "with-skill").read_text())
    assert judge["error"].startswith("judge call failed: BadRequestError") and "accomplishes_task" not in judge
