"""Arms, their system prompts, and the pinned, output-adapted baseline."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SYNTHETIC_PROMPT

from xrbench.errors import UserError
from xrbench.guidance import baseline as baseline_mod
from xrbench.guidance.arms import (
    DEFAULT_MODES,
    PART_SEPARATOR,
    Arm,
    check_baseline_selection,
    contract_text,
    parse_modes,
)
from xrbench.guidance.baseline import PUBLISHED_MAIN_JS_V1, adapt, load_baseline
from xrbench.guidance.task import TASKS_DIR, resolve_tasks


def test_modes_default_order_and_validation():
    assert parse_modes(None) == DEFAULT_MODES == ("with-skill", "without-skill")
    assert parse_modes("without-skill,with-baseline") == ("without-skill", "with-baseline")
    for bad, msg in (("with-skill,with-skill", "listed twice"), ("with-skil", "unsupported mode"), (",", "no mode")):
        with pytest.raises(UserError, match=msg):
            parse_modes(bad)


def test_baseline_file_required_with_the_arm_and_rejected_without():
    with pytest.raises(UserError, match="required"):
        check_baseline_selection(("with-skill", "with-baseline"), None)
    with pytest.raises(UserError, match="only accepted"):
        check_baseline_selection(("with-skill",), Path("x.txt"))
    check_baseline_selection(("with-baseline",), Path("x.txt"))
    check_baseline_selection(DEFAULT_MODES, None)


def test_with_skill_prompt_is_contract_skill_references_in_order():
    (task,) = resolve_tasks(TASKS_DIR, ["hands-pinch-spawn"])
    prompt = Arm("with-skill").system_prompt(task)
    parts = prompt.split(PART_SEPARATOR)
    assert parts[0] == "# XR Blocks app contract\n\n" + contract_text()
    assert parts[1].startswith("# Task skill: xb-add-interactions\n\n---\nname: xb-add-interactions")
    label, path = task.reference_paths[0]
    assert parts[2] == f"# Reference: {label}\n\n{path.read_text()}"
    assert len(parts) == 2 + len(task.reference_paths)


def test_without_skill_prompt_is_empty():
    (task,) = resolve_tasks(TASKS_DIR, ["hands-pinch-spawn"])
    assert Arm("without-skill").system_prompt(task) == ""


def test_pinned_declaration():
    d = PUBLISHED_MAIN_JS_V1
    assert d.sha256 == "0fa7a73d7ee1fefff7bdaabc4ec4bf7e4e8f6c22e0f53e7189550bfa683373a3"
    assert d.size == 122657 and d.protocol == "published-main-js-v1" and d.edit_file == "main.js"
    assert d.deployed_revision in d.source_url and len(d.substitutions) == 8
    assert baseline_mod.PINNED is PUBLISHED_MAIN_JS_V1


def test_the_real_declaration_rejects_any_other_file(tmp_path: Path):
    f = tmp_path / "prompts.txt"
    f.write_text(SYNTHETIC_PROMPT)
    with pytest.raises(UserError, match=r"has changed.*122657-byte snapshot 0fa7a73d"):
        load_baseline(f)


def test_adapted_baseline_and_its_provenance(baseline_file: Path):
    b = load_baseline(baseline_file)
    prov = b.provenance
    assert prov["protocol"] == "published-main-js-v1" and prov["original_bytes"] == len(SYNTHETIC_PROMPT.encode())
    assert [c["before"] for c in prov["adaptations"]] == [s[0] for s in PUBLISHED_MAIN_JS_V1.substitutions]
    assert "Output only the complete contents of `main.js`" in b.system_prompt
    assert "briefly outline" not in b.system_prompt
    # The examples after the heading are never touched, even where they repeat an adapted phrase.
    examples = b.system_prompt.split("# Reference Examples", 1)[1]
    assert examples == SYNTHETIC_PROMPT.split("# Reference Examples", 1)[1]
    assert "Output a SINGLE `index.html` file. (inside the examples" in examples
    assert b.original == baseline_file.read_bytes()
    assert Arm("with-baseline", b).system_prompt(resolve_tasks(TASKS_DIR, ["ui-button-hud"])[0]) == b.system_prompt


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "does not exist"),
        (b"", "empty"),
        (b"   \n", "empty"),
        (b"\xff\xfe not utf-8", "not UTF-8"),
    ],
)
def test_bad_baseline_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes | None, message: str):
    f = tmp_path / "prompts.txt"
    if content is not None:
        f.write_bytes(content)
        # Pin this very file, so the check that fails is the one under test, not the hash.
        decl = baseline_mod.BaselineDeclaration(
            **{**PUBLISHED_MAIN_JS_V1.__dict__, "sha256": baseline_mod.sha256_hex(content), "size": len(content)}
        )
        monkeypatch.setattr(baseline_mod, "PINNED", decl)
    with pytest.raises(UserError, match=message):
        load_baseline(f)


def test_changed_file_fails(baseline_file: Path):
    baseline_file.write_bytes(baseline_file.read_bytes() + b"\n")
    with pytest.raises(UserError, match="has changed"):
        load_baseline(baseline_file)


def test_substitutions_are_exact_and_once_only():
    decl = PUBLISHED_MAIN_JS_V1
    twice = SYNTHETIC_PROMPT.replace("5. **Planning:**", "5. **Planning:**\n5. **Planning:**")
    with pytest.raises(UserError, match=r"exactly one '5\. \*\*Planning:\*\*'.*found 2"):
        adapt(twice, decl)
    with pytest.raises(UserError, match="found 0"):
        adapt(SYNTHETIC_PROMPT.replace("CSS link tag must use:", "CSS must use:"), decl)
    with pytest.raises(UserError, match="Reference Examples"):
        adapt(SYNTHETIC_PROMPT.replace("# Reference Examples", "# Examples"), decl)


def test_baseline_only_for_main_js(baseline_file: Path):
    with pytest.raises(UserError, match=r"main\.js"):
        load_baseline(baseline_file, edit_file="app.js")
