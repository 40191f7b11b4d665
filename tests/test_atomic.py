"""Atomic writes: the file appears whole, with the permissions a plain write would give."""

from __future__ import annotations

import json
import os
import stat

from xrbench.store.atomic import atomic_write_json, atomic_write_text


def test_atomic_writes_respect_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        atomic_write_text(tmp_path / "a.txt", "x")
        os.umask(0o077)
        atomic_write_json(tmp_path / "b.json", {"a": 1})
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.txt").stat().st_mode) == 0o644  # not mkstemp's 0600
    assert stat.S_IMODE((tmp_path / "b.json").stat().st_mode) == 0o600
    assert (tmp_path / "a.txt").read_text() == "x" and not list(tmp_path.glob(".*.tmp"))


def test_json_one_line_from_a_depth_keeps_the_content(tmp_path):
    report = {"summary": {"n": 2, "ok": []}, "tasks": {"t": {"c": {"runs": [{"a": "é", "b": {"x": 1}}]}, "e": {}}}}
    atomic_write_json(tmp_path / "r.json", report, one_line_from=2)
    text = (tmp_path / "r.json").read_text(encoding="utf-8")
    assert json.loads(text) == report
    assert text.splitlines() == [
        "{",
        '  "summary": {',
        '    "n": 2,',
        '    "ok": []',
        "  },",
        '  "tasks": {',
        '    "t": {"c": {"runs": [{"a": "é", "b": {"x": 1}}]}, "e": {}}',
        "  }",
        "}",
    ]
