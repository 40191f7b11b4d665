"""`xrbench report PATH`: a job folder or a run directory, told apart by what they hold."""

from __future__ import annotations

from typer.testing import CliRunner

from xrbench.cli.common import App
from xrbench.cli.report_cmd import report

from .conftest import make_run

runner = CliRunner()
app = App()
app.command("report")(report)
app.command("other")(lambda: None)  # two commands, so that `report` is addressed by name as in `xrbench`


def test_report_of_a_job_and_of_a_run(job, job_template, tmp_path):
    r = runner.invoke(app, ["report", str(job)])
    assert r.exit_code == 0, r.output
    assert f"report: {job / 'report' / 'index.html'}" in r.output and "summary.md" in r.output
    assert (job / "report" / "trials" / "app-counter__mini__1.html").is_file()
    r = runner.invoke(app, ["report", str(job), "--out", str(tmp_path / "r")])
    assert r.exit_code == 0 and (tmp_path / "r" / "index.html").is_file()

    run = make_run(tmp_path / "runs", None, job_template)  # no ContextXR part: reported as not run
    r = runner.invoke(app, ["report", str(run)])
    assert r.exit_code == 0, r.output
    assert "file://" in r.output and (run / "report" / "genxr.html").is_file()
    assert not (run / "report" / "context.html").exists()
    r = runner.invoke(app, ["report", str(run), "--out", str(tmp_path / "x")])
    assert r.exit_code == 2 and "--out applies to a job folder" in r.stderr


def test_report_of_something_else_is_a_one_line_error(tmp_path):
    r = runner.invoke(app, ["report", str(tmp_path)])
    assert r.exit_code == 2 and r.stderr.startswith("error: ") and "neither a GenXR job folder" in r.stderr
    r = runner.invoke(app, ["report", str(tmp_path / "nope")])
    assert r.exit_code == 2 and "no such directory" in r.stderr and "Traceback" not in r.output
