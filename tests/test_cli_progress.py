"""Progress bars: off a terminal, slow loops leave a line per tenth in the log."""

from __future__ import annotations

import io

from rich.console import Console

from xrbench.cli import common


def run_loop(monkeypatch, *, terminal: bool, gap_s: float, total: int = 20) -> list[str]:
    out = io.StringIO()
    monkeypatch.setattr(common, "err_console", Console(file=out, force_terminal=terminal, width=100))
    monkeypatch.setattr(common, "MILESTONE_GAP_S", gap_s)
    with common.progress_bars() as start:
        advance = start("validate 3 task(s)", total)
        for _ in range(total):
            advance(1)
    return [line for line in out.getvalue().splitlines() if line.startswith("validate 3 task(s): ")]


def test_a_log_gets_a_line_per_tenth_of_a_slow_loop(monkeypatch):
    lines = run_loop(monkeypatch, terminal=False, gap_s=0.0)
    assert [line.split(" (")[0] for line in lines] == [f"validate 3 task(s): {n}/20" for n in range(2, 21, 2)]


def test_fast_loops_and_terminals_get_no_extra_lines(monkeypatch):
    assert run_loop(monkeypatch, terminal=False, gap_s=3600.0) == []
    assert run_loop(monkeypatch, terminal=True, gap_s=0.0) == []
