"""The bundled GenXR-Bench suite: composition, and the verifier's accuracy on its reference candidates.

`make test` validates a representative subset (the tasks `xrbench run --quick` uses: one app and
one SDK-repair task; of each, the candidates the main job validates: valid, blind, adversarial,
untouched and three mutants) once; the whole suite three times is `make test-all` (and the README's figure).
"""

from __future__ import annotations

import pytest

from xrbench.genxr.task import Capability, Difficulty, TaskType, load_tasks
from xrbench.genxr.validate import validate
from xrbench.run_all import PARALLEL_RUNS, _quick_tasks

SUITE = [t for t in load_tasks() if not t.spec.example]


def test_suite_composition():
    by_type = {k: sum(t.type is k for t in SUITE) for k in TaskType}
    assert by_type[TaskType.APP] >= 20 and by_type[TaskType.SDK_FEATURE] >= 6 and by_type[TaskType.SDK_REPAIR] >= 6
    assert {c for t in SUITE for c in t.spec.capabilities} == set(Capability)
    assert {t.spec.difficulty for t in SUITE} == set(Difficulty)
    for t in SUITE:
        assert len(t.valid_solutions) >= 1 and len(t.adversarial_solutions) >= 2, t.id
        assert all(s.note for s in t.adversarial_solutions), t.id


@pytest.mark.xr
def test_verifier_separates_the_candidates_of_a_subset(tmp_path):
    tasks = _quick_tasks(SUITE)
    assert {t.type.value for t in tasks} == {"app", "sdk-repair"}
    report = validate(tasks, tmp_path / "validate.json", repeats=1, jobs=PARALLEL_RUNS, subset="representative")
    s = report["summary"]
    wrong = {
        f"{task}/{label}": rec["runs"][0]["outcome"]
        for task, entry in report["tasks"].items()
        for label, rec in entry["candidates"].items()
        if not rec["correct"]
    }
    assert s["accuracy"] == 1.0, wrong
    assert s["confusion"]["valid"]["pass"] >= 2 and s["confusion"]["empty"]["fail"] == 2
    assert s["mutants"] >= 2 and s["mutation_score"] == 1.0


@pytest.mark.slow
@pytest.mark.xr
def test_whole_suite_three_times(tmp_path):
    report = validate(SUITE, tmp_path / "validate.json", repeats=3)
    assert report["summary"]["accuracy"] == 1.0 and report["summary"]["flaky_candidates"] == []
