"""Atomic writes: the file appears whole, with the permissions a plain write would give."""

from __future__ import annotations

import gzip
import json
import os
import stat

import pytest

from xrbench.errors import ValidationError
from xrbench.store.atomic import atomic_write_json, atomic_write_text
from xrbench.store.read import read_json


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


def test_json_gz_is_compressed_reproducible_and_read_back(tmp_path):
    report = {"summary": {"n": 1}, "tasks": {"t": {"c": {"runs": [{"a": "é"}]}}}}
    atomic_write_json(tmp_path / "r.json.gz", report, one_line_from=2)
    first = (tmp_path / "r.json.gz").read_bytes()
    assert gzip.decompress(first).decode("utf-8") == _text(tmp_path, report)
    atomic_write_json(tmp_path / "r.json.gz", report, one_line_from=2)
    assert (tmp_path / "r.json.gz").read_bytes() == first  # no timestamp: same content, same bytes
    assert read_json(tmp_path / "r.json.gz") == report


def test_a_broken_json_gz_is_a_one_line_error(tmp_path):
    (tmp_path / "r.json.gz").write_bytes(b'{"not": "compressed"}')
    with pytest.raises(ValidationError) as e:
        read_json(tmp_path / "r.json.gz")
    assert str(tmp_path / "r.json.gz") in str(e.value) and "gzip" in str(e.value)
    assert len(str(e.value).splitlines()) == 1


def _text(tmp_path, report):
    atomic_write_json(tmp_path / "plain.json", report, one_line_from=2)
    return (tmp_path / "plain.json").read_text(encoding="utf-8")
