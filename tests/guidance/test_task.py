"""Task format, discovery and resolution; the bundled suite."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import BASIC_SPEC, make_task

from xrbench.errors import UserError, ValidationError
from xrbench.guidance.task import (
    TASKS_DIR,
    discover,
    load_spec,
    resolve_tasks,
    style_of,
    validate_task_id,
)


def test_discovery_globs_spec_files_not_a_list(tmp_path: Path):
    root = tmp_path / "tasks"
    make_task(root, "b-task", BASIC_SPEC)
    make_task(root, "a-task", BASIC_SPEC)
    (root / "not-a-task").mkdir()  # no spec.json: not a task
    assert [p.name for p in discover(root)] == ["a-task", "b-task"]
    assert [t.id for t in resolve_tasks(root)] == ["a-task", "b-task"]


@pytest.mark.parametrize("bad", ["-x", ".hidden", "has space", "a/b", ""])
def test_task_id_regex(bad: str):
    with pytest.raises(UserError):
        validate_task_id(bad)
    assert validate_task_id("ok-1.2_x") == "ok-1.2_x"


def test_style_from_key_or_id():
    assert style_of("canvas-pinch-portal") == "casual"
    assert style_of("casual-doorbell") == "casual"
    assert style_of("hands-pinch-spawn") == "engineer"
    assert style_of("canvas-x", "engineer") == "engineer"


def test_spec_problems_name_file_line_and_field(tmp_path: Path):
    d = make_task(tmp_path, "t", {**BASIC_SPEC, "expected_api": ["typo"], "expected_apis": "not-a-list"})
    spec, problems = load_spec(d / "spec.json")
    assert spec is None
    text = "\n".join(str(p) for p in problems)
    lines = (d / "spec.json").read_text().splitlines()
    api_line = next(i for i, ln in enumerate(lines, 1) if '"expected_apis"' in ln)
    assert f"spec.json: line {api_line}: expected_apis: " in text
    assert "expected_api: unknown key" in text


def test_invalid_json_is_one_line(tmp_path: Path):
    d = tmp_path / "t"
    d.mkdir()
    (d / "spec.json").write_text('{\n  "skill": "x",\n}\n')
    _, problems = load_spec(d / "spec.json")
    assert len(problems) == 1 and "line 3" in str(problems[0]) and "invalid JSON" in str(problems[0])


def test_every_missing_file_is_reported_at_once(tmp_path: Path):
    root = tmp_path / "tasks"
    make_task(root, "one", {**BASIC_SPEC, "skill": "xb-no-such-skill", "forbidden_patterns": ["(unclosed"]})
    make_task(root, "two", {**BASIC_SPEC, "reference_files": ["docs/missing.md"], "template": "templates/nope"})
    with pytest.raises(ValidationError) as exc:
        resolve_tasks(root)
    text = str(exc.value)
    assert "skill: no skill 'xb-no-such-skill'" in text
    assert "forbidden_patterns[0]: invalid regex" in text
    assert "reference_files[0]: 'docs/missing.md' not found" in text
    assert "template: 'templates/nope' not found" in text
    assert all(": line " in line for line in text.splitlines())


def test_unknown_and_duplicate_task_selection(tmp_path: Path):
    root = tmp_path / "tasks"
    make_task(root, "one", BASIC_SPEC)
    with pytest.raises(ValidationError) as exc:
        resolve_tasks(root, ["one", "one", "nope", "bad id"])
    text = str(exc.value)
    assert "nope: no such task" in text and "one: listed twice" in text and "bad id: invalid task id" in text


def test_task_local_paths_resolve(tmp_path: Path):
    root = tmp_path / "tasks"
    d = make_task(
        root, "local", {**BASIC_SPEC, "skill": "./MY_SKILL.md", "reference_files": ["notes.md"], "template": "app"}
    )
    (d / "MY_SKILL.md").write_text("# my skill\n")
    (d / "notes.md").write_text("notes\n")
    (d / "app").mkdir()
    (d / "app" / "index.html").write_text("<html></html>")
    (task,) = resolve_tasks(root)
    assert task.skill_file == d / "MY_SKILL.md"
    assert task.reference_paths == (("notes.md", d / "notes.md"),)
    assert task.template_dir == d / "app"


def test_bundled_suite():
    tasks = resolve_tasks(TASKS_DIR)
    assert len(tasks) >= 15
    styles = [t.style for t in tasks]
    assert abs(styles.count("engineer") - styles.count("casual")) <= 1
    for t in tasks:
        data = json.loads((t.dir / "spec.json").read_text())
        assert set(data) <= {
            "skill",
            "reference_files",
            "template",
            "edit_file",
            "expected_imports",
            "expected_apis",
            "forbidden_patterns",
            "style",
        }
        assert t.reference_solution is not None, t.id
    # Current API names only: nothing removed in v0.20 is expected anywhere.
    removed = {"SpatialPanel", "TextButton", "TextView", "enablePlanes", "enableUI", "onTriggered"}
    assert not removed & {api for t in tasks for api in t.spec.expected_apis}
