"""Requirements and mutants: every test serves a requirement, every requirement has a mutant."""

from __future__ import annotations

import pytest

from xrbench.errors import ValidationError
from xrbench.genxr.stats import suite_stats
from xrbench.genxr.task import load_task
from xrbench.genxr.validate import Candidate, materialize, mutation_score, validate

from .builders import APP_TOML, EXAMPLE_TASK, make_app_task, write

REQUIREMENTS = """
[[requirements]]
id = "has-button"
text = "Add a button tagged `red-button`."
tests = ["test_has_button"]

[[requirements]]
id = "turns-red"
text = "It turns the light red."
tests = ["tests/test_app.py::test_turns_red"]
"""

MUTANT = """Mutates: valid/ok
Note: the light turns blue
diff --git a/main.js b/main.js
--- a/main.js
+++ b/main.js
@@ -LINE +LINE @@
-// red-button 0xff0000
+// red-button 0x0000ff
"""


def task_with_requirements(root, requirements: str = REQUIREMENTS, mutants: dict[str, str] | None = None):
    task = make_app_task(root, toml=APP_TOML + requirements)
    good = (task / "solutions" / "valid" / "ok" / "main.js").read_text()
    line = good.splitlines().index("// red-button 0xff0000") + 1
    default = {"turns-red-blue.patch": MUTANT.replace("LINE", f"{line},1"), "has-button-none.patch": None}
    for name, text in (mutants if mutants is not None else default).items():
        if text is None:  # a mutant that drops the tag comment
            text = MUTANT.replace("LINE", f"{line},1").replace("+// red-button 0x0000ff", "+// 0xff0000")
            text = text.replace("the light turns blue", "no button is tagged")
        write(task / "solutions" / "mutants" / name, text)
    return task


def problems(task_dir) -> list[str]:
    with pytest.raises(ValidationError) as e:
        load_task(task_dir, strict=True)
    return str(e.value).splitlines()


def test_a_requirement_without_a_mutant_yet_loads_for_a_run_but_not_for_check(tmp_path):
    task_dir = task_with_requirements(tmp_path, mutants={"has-button-none.patch": None})
    task = load_task(task_dir)  # while its author writes the mutants: prepare, verify, validate
    assert [m.requirement for m in task.mutants] == ["has-button"]
    assert any("'turns-red' has no mutant" in line for line in problems(task_dir))


def test_requirements_and_mutants_load_and_mutants_apply_to_their_valid_solution(tmp_path):
    task = load_task(task_with_requirements(tmp_path))
    assert [r.id for r in task.spec.requirements] == ["has-button", "turns-red"]
    mutants = {m.name: m for m in task.mutants}
    assert {n: (m.requirement, m.base) for n, m in mutants.items()} == {
        "has-button-none": ("has-button", "ok"),
        "turns-red-blue": ("turns-red", "ok"),
    }
    assert mutants["turns-red-blue"].note == "the light turns blue"
    ws = materialize(Candidate(task, mutants["turns-red-blue"]), tmp_path / "ws")
    text = (ws / "main.js").read_text()
    assert "// red-button 0x0000ff" in text and "0xff0000" not in text  # the valid solution, then the edit
    assert suite_stats([task]).proof[task.id] == {"requirements": 2, "mutants": 2, "valid": 1, "blind": 0}


@pytest.mark.parametrize(
    ("requirements", "mutants", "expected"),
    [
        # A test that serves no requirement.
        (REQUIREMENTS.split('[[requirements]]\nid = "turns-red"')[0], {}, "test_turns_red checks no requirement"),
        # A requirement naming a test that does not exist.
        (REQUIREMENTS.replace("test_has_button", "test_nothing"), None, "'test_nothing' names no test function"),
        # A requirement without a mutant.
        (REQUIREMENTS, {"has-button-none.patch": None}, "'turns-red' has no mutant"),
        # A mutant of no requirement, and of no valid solution.
        (
            REQUIREMENTS,
            {"colour-x.patch": "Mutates: valid/gone\nNote: x\ndiff --git a/x b/x\n"},
            "start with a requirement id",
        ),
        (
            REQUIREMENTS,
            {"turns-red-x.patch": "Mutates: valid/gone\nNote: x\ndiff --git a/x b/x\n"},
            "no valid solution named 'gone'",
        ),
        # A mutant without its header lines.
        (REQUIREMENTS, {"turns-red-x.patch": "diff --git a/x b/x\n"}, "Mutates"),
        (REQUIREMENTS, {"turns-red-x.patch": "Mutates: valid/ok\ndiff --git a/x b/x\n"}, "Note"),
        (REQUIREMENTS + REQUIREMENTS.split("\n\n")[0], None, "duplicate requirement id 'has-button'"),
    ],
)
def test_requirement_problems_are_one_line_each(tmp_path, requirements, mutants, expected):
    task = task_with_requirements(tmp_path, requirements, mutants)
    found = problems(task)
    assert any(expected in line for line in found), found
    assert all("task.toml" in line or ".patch" in line for line in found), found


def test_a_task_without_requirements_still_loads(tmp_path):
    task = load_task(make_app_task(tmp_path))
    assert task.spec.requirements == [] and task.mutants == []


def test_the_format_example_declares_requirements_and_a_mutant_each():
    task = load_task(EXAMPLE_TASK)
    killed = {m.requirement for m in task.mutants}
    assert killed == {r.id for r in task.spec.requirements} and len(killed) >= 3


def test_validate_runs_mutants_and_scores_them(tmp_path):
    task = load_task(task_with_requirements(tmp_path))
    report = validate([task], tmp_path / "v.json", pytest_args=[])
    s = report["summary"]
    assert s["accuracy"] == 1.0 and s["mutants"] == 2 and s["mutation_score"] == 1.0
    assert s["confusion"]["mutant"] == {"pass": 0, "fail": 2, "infra_error": 0}
    entry = report["tasks"]["red-button"]
    assert entry["mutation_score"] == 1.0
    assert entry["candidates"]["mutant/turns-red-blue"]["requirement"] == "turns-red"
    # The mutant's own requirement's test ran first, and with -x it was the only one.
    (run,) = entry["candidates"]["mutant/turns-red-blue"]["runs"]
    outcomes = {t["id"].split("::")[-1]: t["outcome"] for t in run["tests"]}
    assert outcomes == {"test_turns_red": "failed", "test_has_button": "missing"}


def test_mutation_score_counts_mutants_failed_in_every_run():
    def rec(kind, *outcomes):
        return {"kind": kind, "runs": [{"outcome": o} for o in outcomes]}

    records = [rec("mutant", "fail", "fail"), rec("mutant", "fail", "pass"), rec("valid", "pass"), rec("mutant")]
    assert mutation_score(records) == 0.5
    assert mutation_score([rec("valid", "pass")]) is None


def test_prepare_builds_a_mutant_on_its_valid_solution(tmp_path):
    from typer.testing import CliRunner

    from xrbench.cli.genxr_cmd import app

    dest = tmp_path / "ws"
    r = CliRunner().invoke(
        app, ["prepare", "--task", str(EXAMPLE_TASK), "--solution", "mutant/keeps-cycling-stops", "--dest", str(dest)]
    )
    assert r.exit_code == 0, r.output
    assert "Math.min(this.colorIndex + 1, 1)" in (dest / "main.js").read_text()


def test_the_starting_workspace_is_prepared_without_reading_the_solutions(tmp_path):
    """A solution being written (here a mutant naming no requirement) must neither stop nor show
    itself to whoever prepares the starting workspace, e.g. a blind author or an agent."""
    from typer.testing import CliRunner

    from xrbench.cli.genxr_cmd import app

    task_dir = task_with_requirements(tmp_path)
    write(task_dir / "solutions" / "mutants" / "half-written-secret.patch", MUTANT)
    with pytest.raises(ValidationError, match="half-written-secret"):
        load_task(task_dir)
    r = CliRunner().invoke(app, ["prepare", "--task", str(task_dir), "--dest", str(tmp_path / "ws")])
    assert r.exit_code == 0, r.output
    assert "secret" not in r.output and (tmp_path / "ws" / "main.js").is_file()
    r = CliRunner().invoke(
        app, ["prepare", "--task", str(task_dir), "--solution", "valid/ok", "--dest", str(tmp_path / "ok")]
    )
    assert r.exit_code != 0 and "half-written-secret" in r.output  # a solution's workspace still checks them


def test_a_representative_validation_keeps_the_first_and_blind_valid_solutions_and_a_mutant_sample(
    tmp_path,
):
    from xrbench.genxr.validate import representative_candidates

    task_dir = task_with_requirements(tmp_path)
    good = (task_dir / "solutions" / "valid" / "ok" / "main.js").read_text()
    blue = (task_dir / "solutions" / "mutants" / "turns-red-blue.patch").read_text()
    write(task_dir / "solutions" / "mutants" / "turns-red-green.patch", blue.replace("0x0000ff", "0x00ff00"))
    for name, blind in (("other", False), ("written-blind", True)):
        write(task_dir / "solutions" / "valid" / name / "main.js", good)
        write(
            task_dir / "solutions" / "valid" / name / "solution.toml",
            f'note = "{name}"\nblind = {str(blind).lower()}\n',
        )
    task = load_task(task_dir)
    labels = [c.label for c in representative_candidates(task)]
    assert sorted(labels) == sorted(
        [
            "valid/ok",
            "valid/written-blind",
            "adversarial/bad0",
            "adversarial/bad1",
            "mutant/has-button-none",
            "mutant/turns-red-blue",
            "empty",
        ]
    )
    # A smaller sample keeps mutants of different requirements, the same ones on every call.
    sample = [c.label for c in representative_candidates(task, mutants=1) if c.kind == "mutant"]
    assert len(sample) == 1 and sample == [
        c.label for c in representative_candidates(task, mutants=1) if c.kind == "mutant"
    ]
    report = validate([task], tmp_path / "v.json", pytest_args=[], subset="representative")
    assert sorted(report["tasks"]["red-button"]["candidates"]) == sorted(labels)
    assert report["summary"]["accuracy"] == 1.0 and report["summary"]["mutation_score"] == 1.0


def test_check_names_every_mutant_that_no_longer_applies_to_its_valid_solution(tmp_path):
    from typer.testing import CliRunner

    from xrbench.cli.genxr_cmd import app
    from xrbench.genxr.workspace import unappliable_patches

    task_dir = task_with_requirements(tmp_path / "suite")
    assert unappliable_patches(load_task(task_dir)) == []
    # The valid solution is edited where a mutant's context lies: the mutant no longer applies.
    good = task_dir / "solutions" / "valid" / "ok" / "main.js"
    good.write_text(good.read_text().replace("// red-button 0xff0000", "// red-button #ff0000"))
    whys = unappliable_patches(load_task(task_dir))
    assert len(whys) == 2 and all("does not apply to valid/ok" in why for why in whys)  # both edit that line
    assert any("turns-red-blue.patch" in why for why in whys) and any("has-button-none.patch" in why for why in whys)
    r = CliRunner().invoke(app, ["check", "--tasks", str(tmp_path / "suite")])
    assert r.exit_code == 2 and "turns-red-blue.patch" in r.output and "Traceback" not in r.output
