"""`xrbench context` end to end through the CLI, and one-line errors for bad input."""

from __future__ import annotations

import json
import shutil

from typer.testing import CliRunner

from xrbench.cli.main import app

runner = CliRunner()


def test_lift_evaluate_run(tiny_dir, tmp_path):
    r = runner.invoke(app, ["context", "lift", "--data", str(tiny_dir), "--out", str(tmp_path / "lift.json")])
    assert r.exit_code == 0, r.output
    lift = json.loads((tmp_path / "lift.json").read_text())
    assert set(lift) >= {"facets", "distribution"}
    assert {"facet_id", "lift", "dominant"} <= set(lift["facets"][0])

    out = tmp_path / "eval.json"
    r = runner.invoke(
        app,
        [
            "context",
            "evaluate",
            "--data",
            str(tiny_dir),
            "--task",
            "next",
            "--method",
            "popularity",
            "--folds",
            "3",
            "--k",
            "3",
            "--out",
            str(out),
        ],
    )
    assert r.exit_code == 0, r.output
    res = json.loads(out.read_text())
    assert res["task"] == "next" and res["method"] == "popularity" and res["k"] == 3
    assert set(res["aggregate"]) >= {
        "records",
        "scenarios",
        "cost",
        "manual_cost",
        "reduction_pct",
        "recall",
        "precision",
        "f1",
        "hit",
        "ndcg",
    }
    assert set(res["records"][0]) >= {
        "scenario_id",
        "user",
        "task",
        "environment",
        "step",
        "history",
        "targets",
        "suggestions",
        "cost",
        "manual_cost",
        "recall",
        "precision",
        "f1",
        "hit",
        "ndcg",
    }

    run_dir = tmp_path / "run"
    args = [
        "context",
        "run",
        "--data",
        str(tiny_dir),
        "--methods",
        "manual,popularity",
        "--methods",
        "oracle",
        "--folds",
        "3",
        "--out",
        str(run_dir),
    ]
    r = runner.invoke(app, args)
    assert r.exit_code == 0, r.output
    for name in (
        "table_initial.md",
        "table_initial.csv",
        "table_next.md",
        "table_next.csv",
        "lift.json",
        "summary.json",
        "figures/lift_distribution.png",
        "initial/oracle.json",
        "next/popularity.json",
    ):
        assert (run_dir / name).exists(), name
    assert list((run_dir / "figures").glob("example_*.png"))
    table = (run_dir / "table_initial.md").read_text()
    assert "Manual Access" in table and "Global Popularity" in table and "Oracle" in table

    # A rerun reuses finished results (resume) instead of recomputing them.
    before = (run_dir / "next" / "popularity.json").stat().st_mtime_ns
    r = runner.invoke(app, args)
    assert r.exit_code == 0
    assert (run_dir / "next" / "popularity.json").stat().st_mtime_ns == before


def test_llm_method_without_provider_is_skipped(tiny_dir, tmp_path):
    out = tmp_path / "z.json"
    r = runner.invoke(
        app, ["context", "evaluate", "--data", str(tiny_dir), "--method", "zeroshot-llm", "--out", str(out)]
    )
    assert r.exit_code == 0
    assert "skipped: no provider configured" in r.output
    assert json.loads(out.read_text())["skipped"].startswith("no provider configured")


def test_tables_keep_the_rows_of_skipped_llm_methods(tiny_dir, tmp_path):
    out = tmp_path / "run"
    args = ["context", "run", "--data", str(tiny_dir), "--methods", "manual,zeroshot-llm,popularity"]
    r = runner.invoke(app, [*args, "--folds", "3", "--out", str(out)])
    assert r.exit_code == 0, r.output
    for task in ("initial", "next"):
        rows = [line for line in (out / f"table_{task}.md").read_text().splitlines() if line.startswith("| ")]
        conditions = [row.split(" | ")[0].removeprefix("| ") for row in rows[1:]]
        assert len(conditions) == 3 and conditions[0] == "Manual Access", conditions
        assert "skipped: no provider configured" in rows[2], rows  # in the order asked for
    note = (out / "table_next.md").read_text()
    assert "whole facet set (the paper's protocol)" in note


def test_bad_input_is_one_line_without_traceback(tiny_dir, tmp_path):
    d = tmp_path / "ds"
    shutil.copytree(tiny_dir, d)
    with (d / "events.csv").open("a") as f:
        f.write("s9,P1,cooking,kitchen,zero,clock.set_timer,alone\n")
    r = runner.invoke(app, ["context", "lift", "--data", str(d), "--out", str(tmp_path / "x.json")])
    assert r.exit_code == 2
    assert "Traceback" not in r.output
    assert f"error: {d / 'events.csv'}: line 17: step: 'zero' is not an integer" in r.output.replace("\n", "")
    r = runner.invoke(app, ["context", "evaluate", "--data", str(tiny_dir), "--method", "nope", "--out", "x.json"])
    assert r.exit_code == 2 and "unknown method 'nope'" in r.output
    bad_cost = tmp_path / "cost.toml"
    bad_cost.write_text("scan_items = 1\n")
    r = runner.invoke(
        app,
        [
            "context",
            "evaluate",
            "--data",
            str(tiny_dir),
            "--method",
            "manual",
            "--cost-config",
            str(bad_cost),
            "--out",
            str(tmp_path / "y.json"),
        ],
    )
    assert r.exit_code == 2 and "scan_items: unknown cost parameter" in r.output


def test_simulate_command(tmp_path):
    r = runner.invoke(
        app,
        [
            "context",
            "simulate",
            "--users",
            "5",
            "--scenarios",
            "12",
            "--seed",
            "3",
            "--out",
            str(tmp_path / "sim"),
        ],
    )
    assert r.exit_code == 0, r.output
    assert "5 users, 12 scenarios" in r.output
    r = runner.invoke(app, ["context", "validate", "--data", str(tmp_path / "sim")])
    assert r.exit_code == 0 and "(synthetic)" in r.output
