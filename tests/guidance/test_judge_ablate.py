"""The judge's prompt and reply parsing; skill ablation end to end on the local fake server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from llm_fakes import FakeServer

from xrbench.guidance.ablate import BASELINE, ablate_task, split_sections, variants
from xrbench.guidance.arms import Arm
from xrbench.guidance.judge import authority, judge_message, parse_verdict, public_exports
from xrbench.guidance.runner import user_message
from xrbench.guidance.task import TASKS_DIR, default_xrblocks_root, resolve_tasks
from xrbench.llm import LLM

GOOD = {"accomplishes_task": 4, "idiomatic_xrblocks": 5, "hallucination_severity": "minor", "rationale": "ok"}


@pytest.mark.parametrize(
    "reply", [json.dumps(GOOD), "```json\n" + json.dumps(GOOD) + "\n```", "```\n" + json.dumps(GOOD) + "\n```\n"]
)
def test_verdict_parsing(reply: str):
    assert parse_verdict(reply) == GOOD


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        ("Looks great to me!", "unparseable judge reply"),
        ("[1, 2]", "not a JSON object"),
        (json.dumps({**GOOD, "accomplishes_task": 7}), "accomplishes_task must be an integer 1-5"),
        (json.dumps({**GOOD, "idiomatic_xrblocks": True}), "idiomatic_xrblocks must be an integer 1-5"),
        (json.dumps({**GOOD, "hallucination_severity": "some"}), "hallucination_severity must be one of"),
        (json.dumps({k: v for k, v in GOOD.items() if k != "rationale"}), "rationale must be a string"),
    ],
)
def test_unparseable_or_invalid_verdicts_are_recorded_as_such(reply: str, error: str):
    out = parse_verdict(reply)
    assert error in out["error"] and out["raw"] == reply.strip()
    assert "accomplishes_task" not in out


def test_authority_holds_contract_public_names_skill_and_references():
    root = default_xrblocks_root()
    (task,) = resolve_tasks(TASKS_DIR, ["repair-legacy-ui"])
    text = authority(task, root)
    assert text.startswith("# XR Blocks app contract")
    exports = public_exports(root)
    assert "UICard" in exports and "enablePlaneDetection" not in exports  # names, not members
    assert "# Public exports of xrblocks 0.21.1" in text and "# Task skill: xb-debug-app" in text
    assert "# Reference: skills/xb-debug-app/references/diagnostic-branches.md" in text
    msg = judge_message(task, "const x = 1;", root)
    assert msg.startswith("You are a senior XR Blocks reviewer.") and msg.rstrip().endswith("const x = 1;\n```")


def test_sections_split_and_variants():
    skill = (
        "---\nname: x\n---\n\n# Title\n\nIntro.\n\n## 1. First\n\nA.\n```md\n## not a heading\n```\n\n"
        "## 2. Second\n\nB.\n"
    )
    head, sections = split_sections(skill)
    assert head == "---\nname: x\n---\n\n# Title\n\nIntro.\n\n"
    assert [s.label for s in sections] == ["1. First", "2. Second"]
    assert head + "".join(s.text for s in sections) == skill
    vs = variants(skill)
    assert [v[0] for v in vs] == [BASELINE, "1. First", "2. Second"]
    assert vs[0][2] == skill
    assert "(section 1. First removed for ablation)" in vs[1][2] and "A." not in vs[1][2] and "B." in vs[1][2]


def test_ablation_end_to_end(fake_server: FakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("XRBENCH_CACHE_DIR", "off")
    llm = LLM("openai", "fake-model", base_url=fake_server.url + "/v1", cache_dir=None)
    (task,) = resolve_tasks(TASKS_DIR, ["gestures-thumbs-up"])
    report = ablate_task(llm, task, tmp_path)
    n_sections = len(split_sections(task.skill_text())[1])
    assert len(report["variants"]) == 1 + n_sections == 6
    assert report["variants"][0]["variant"] == BASELINE and report["variants"][0]["delta"] == 0.0
    assert all("delta" in v and "composite" in v for v in report["variants"])
    path = Path(report["path"])
    assert path == tmp_path / "results" / "ablations" / "fake-model" / "gestures-thumbs-up.json"
    assert path.with_suffix(".md").read_text().startswith("# Ablation: gestures-thumbs-up")
    # The baseline variant is exactly the with-skill request, so a with-skill answer is reused.
    first = fake_server.requests[0].body["messages"]
    assert first[0]["content"] == Arm("with-skill").system_prompt(task)
    assert first[1]["content"] == user_message(task)
