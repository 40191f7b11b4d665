"""`xrbench run` (every benchmark into one run folder) and `xrbench compare`."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from xrbench import run_all
from xrbench.cli.main import app
from xrbench.compare import compare_runs, flatten
from xrbench.errors import UserError
from xrbench.run_all import PartResult, RunOptions

runner = CliRunner()


def fake_progress(label: str, total: int):
    return lambda n=1: None


def test_a_failing_part_does_not_stop_the_others(tmp_path, monkeypatch):
    def broken(opts):
        raise RuntimeError("boom")

    monkeypatch.setattr(run_all, "_context", broken)
    monkeypatch.setattr(run_all, "_genxr", lambda opts, progress: PartResult("GenXR-Bench", "ok", {"accuracy": 1.0}))
    monkeypatch.setattr(run_all, "_guidance", lambda opts: PartResult("Guidance", "ok", {"tasks": 15}))
    parts = run_all.run_all(RunOptions(tmp_path / "run"), fake_progress)
    assert [(p.name, p.status) for p in parts] == [
        ("ContextXR", "failed"),
        ("GenXR-Bench", "ok"),
        ("Guidance", "ok"),
        ("GenXR design score", "skipped"),
    ]
    skipped = json.loads((tmp_path / "run" / "skipped.json").read_text())
    assert skipped[0] == {"part": "context", "reason": "RuntimeError: boom"}
    assert skipped[1]["part"] == "genxr.design_score" and "no provider configured" in skipped[1]["reason"]
    lock = json.loads((tmp_path / "run" / "lock.json").read_text())
    assert set(lock["bundled_data_sha256"]) >= {"context", "genxr"} and lock["web_dependencies"]["xrblocks"] == "0.21.1"
    assert json.loads((tmp_path / "run" / "config.json").read_text())["kind"] == "run"


def test_the_context_part_runs_on_bundled_data(tmp_path):
    part = run_all._context(RunOptions(tmp_path, quick=True))
    assert (part.name, part.status, part.key) == ("ContextXR", "ok", "context")
    assert part.headline["initial: relational cost reduction %"] > 0
    assert "skipped" in part.reason and "no provider configured" in part.reason


def make_run(path, reduction=-24.8, xrblocks="0.21.1"):
    (path / "context").mkdir(parents=True)
    (path / "config.json").write_text(json.dumps({"kind": "run", "quick": True}))
    (path / "lock.json").write_text(json.dumps({"web_dependencies": {"xrblocks": xrblocks}}))
    (path / "parts.json").write_text(json.dumps([{"name": "ContextXR", "status": "ok", "seconds": 3.0}]))
    summary = {"dataset": {"checksum": "abc"}, "aggregates": {"initial": {"relational": {"reduction_pct": reduction}}}}
    (path / "context" / "summary.json").write_text(json.dumps(summary))
    return path


def test_compare_runs(tmp_path):
    a = make_run(tmp_path / "a")
    b = make_run(tmp_path / "b")
    (b / "parts.json").write_text(json.dumps([{"name": "ContextXR", "status": "ok", "seconds": 9.0}]))
    assert compare_runs(a, b).same  # wall time is not a difference
    c = make_run(tmp_path / "c", reduction=-30.0, xrblocks="0.22.0")
    diff = compare_runs(a, c)
    assert diff.changed == {
        "context.aggregates.initial.relational.reduction_pct": (-24.8, -30.0),
        "lock.web_dependencies.xrblocks": ("0.21.1", "0.22.0"),
    }
    r = runner.invoke(app, ["compare", str(a), str(c)])
    assert r.exit_code == 1 and "lock.web_dependencies.xrblocks" in r.output
    assert runner.invoke(app, ["compare", str(a), str(b)]).output.strip() == "no differences"
    with pytest.raises(UserError, match="not a run folder"):
        compare_runs(a, tmp_path)


def test_flatten():
    assert flatten({"a": {"b": 1, "c": [1, 2]}, "d": [{"e": 1}]}) == {"a.b": 1, "a.c": [1, 2], "d[0].e": 1}


@pytest.mark.slow  # the whole quick run: ContextXR, GenXR validation and an oracle job, guidance check
def test_quick_run_end_to_end(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a relative run folder, as `make run` gives
    out = tmp_path / "run"
    r = runner.invoke(app, ["run", "--quick", "--out", "run"])
    assert r.exit_code == 0, r.output
    parts = {p["name"]: p for p in json.loads((out / "parts.json").read_text())}
    assert {name: p["status"] for name, p in parts.items()} == {
        "ContextXR": "ok",
        "GenXR-Bench": "ok",
        "Guidance": "ok",
        "GenXR design score": "skipped",
    }
    assert parts["GenXR-Bench"]["headline"]["verifier accuracy"] == 1.0
    assert parts["GenXR-Bench"]["headline"]["oracle Pass@1"] == 1.0
    assert (out / "report" / "index.html").is_file()
    videos = list((out / "genxr" / "jobs").glob("*-oracle/*/artifacts/*/*.webm"))
    assert videos, "the oracle job kept no video"
