"""LLM-as-judge: a model rates each candidate against the API authority and the task.

The authority, joined by `---` in this order: the project's app contract; the SDK's public
exports (the `export {...}` and `export type {...}` lists of `build/xrblocks.d.ts`, i.e. every
public name of the pinned package); the task skill; each reference file. The public names and the
references are the API authority; the skill is workflow guidance, not a complete API catalog.

The judge answers one JSON object::

    {"accomplishes_task": 1-5, "idiomatic_xrblocks": 1-5,
     "hallucination_severity": "none" | "minor" | "major", "rationale": "<one sentence>"}

It is called at temperature 0 with JSON output. Code fences around the reply are stripped. A
reply that is not such an object (not JSON, a missing or out-of-range field) is recorded as
`{"error": ..., "raw": <first 2000 characters>}`, never guessed. The judge model defaults to
`XRBENCH_JUDGE_MODEL`, else the generating model.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from pathlib import Path
from typing import Any

from xrbench.errors import UserError
from xrbench.guidance.arms import CONTRACT_HEADING, PART_SEPARATOR, contract_text
from xrbench.guidance.task import Task
from xrbench.llm import LLM, GenerationSettings, Message

SEVERITIES = ("none", "minor", "major")
JUDGE_SETTINGS = GenerationSettings(temperature=0.0, json_output=True)
JUDGE_FIELDS = ("accomplishes_task", "idiomatic_xrblocks", "hallucination_severity", "rationale")

JUDGE_PROMPT = """You are a senior XR Blocks reviewer. Rate the candidate implementation of the task \
below. The public export list and the reference documentation are the API authority for XR Blocks \
{version}; the task skill is workflow guidance, not a complete API catalog, so an identifier does \
not have to appear in the skill to be valid. Invented packages, invented elements (such as \
`<xr-scene>`), names removed from the SDK and APIs that conflict with the authority are \
hallucinations.

Respond with ONLY a JSON object, no prose and no code fences:

{{
  "accomplishes_task": 1-5,
  "idiomatic_xrblocks": 1-5,
  "hallucination_severity": "none" | "minor" | "major",
  "rationale": "<one sentence>"
}}

Definitions:
- accomplishes_task: does the code do what the task asks, whatever its API correctness?
- idiomatic_xrblocks: does it follow the supplied XR Blocks API and lifecycle?
- hallucination_severity: "none" = consistent with the authority and standard libraries; \
"minor" = one or two questionable identifiers, easy to repair, the intent is visible; "major" = \
invented packages, fake elements or whole made-up APIs, so the code would not run as it is.

# Task
{task}

# XR Blocks authority and task guidance
{authority}

# Candidate `{edit_file}`
```javascript
{code}
```
"""

_EXPORTS = re.compile(r"^export (?:type )?\{[^}]*\};?$", re.MULTILINE)


@cache
def public_exports(xrblocks_root: Path) -> str:
    """The public names of the package: the export lists at the end of `build/xrblocks.d.ts`."""
    dts = xrblocks_root / "build" / "xrblocks.d.ts"
    text = dts.read_text(encoding="utf-8")
    found = _EXPORTS.findall(text)
    if not found:  # an unexpected layout: fall back to the barrel module
        return (xrblocks_root / "src" / "xrblocks.ts").read_text(encoding="utf-8")
    return "\n".join(found)


def package_version(xrblocks_root: Path) -> str:
    try:
        return str(json.loads((xrblocks_root / "package.json").read_text(encoding="utf-8"))["version"])
    except (OSError, ValueError, KeyError):
        return "(unknown version)"


def authority(task: Task, xrblocks_root: Path) -> str:
    """The judge's authority text for a task (see the module docstring)."""
    parts = [
        f"{CONTRACT_HEADING}\n\n{contract_text()}",
        f"# Public exports of xrblocks {package_version(xrblocks_root)} (build/xrblocks.d.ts)\n\n"
        f"{public_exports(xrblocks_root)}",
        f"# Task skill: {task.spec.skill}\n\n{task.skill_text()}",
    ]
    for label, path in task.reference_paths:
        parts.append(f"# Reference: {label}\n\n{path.read_text(encoding='utf-8')}")
    return PART_SEPARATOR.join(parts)


def judge_message(task: Task, code: str, xrblocks_root: Path) -> str:
    """The judge's single user message."""
    return JUDGE_PROMPT.format(
        version=package_version(xrblocks_root),
        task=task.prompt.strip(),
        authority=authority(task, xrblocks_root),
        edit_file=task.spec.edit_file,
        code=code,
    )


_FENCE = re.compile(r"^```(?:json)?\s*\n?|```\s*$", re.MULTILINE)


def parse_verdict(text: str) -> dict[str, Any]:
    """The judge's ratings, or `{"error", "raw"}` when the reply is not a valid verdict."""
    raw = (text or "").strip()
    cleaned = _FENCE.sub("", raw).strip()
    try:
        data = json.loads(cleaned)
    except json.JSONDecodeError as e:
        return {"error": f"unparseable judge reply: {e.msg} at line {e.lineno}", "raw": raw[:2000]}
    if not isinstance(data, dict):
        return {"error": "unparseable judge reply: not a JSON object", "raw": raw[:2000]}
    problems = []
    for key in ("accomplishes_task", "idiomatic_xrblocks"):
        v = data.get(key)
        if isinstance(v, bool) or not isinstance(v, int | float) or not 1 <= v <= 5 or v != int(v):
            problems.append(f"{key} must be an integer 1-5, got {v!r}")
    if data.get("hallucination_severity") not in SEVERITIES:
        problems.append(
            f"hallucination_severity must be one of {', '.join(SEVERITIES)}, got {data.get('hallucination_severity')!r}"
        )
    if not isinstance(data.get("rationale"), str):
        problems.append("rationale must be a string")
    if problems:
        return {"error": "invalid judge reply: " + "; ".join(problems), "raw": raw[:2000]}
    return {
        "accomplishes_task": int(data["accomplishes_task"]),
        "idiomatic_xrblocks": int(data["idiomatic_xrblocks"]),
        "hallucination_severity": data["hallucination_severity"],
        "rationale": data["rationale"],
    }


SEED_JUDGE_MODEL = "gemini-2.5-pro"  # the seed harness's judge: a separate, stronger model


def choose_judge_model(requested: str | None, *, generator: str, provider: str, self_judge: bool = False) -> str:
    """The judge model: `requested`, else `XRBENCH_JUDGE_MODEL`, else the seed's judge on the
    Gemini API. A model never grades its own candidates unless `self_judge` says so: that, or no
    judge to default to (another provider), is a `UserError` naming the way out."""
    name = (requested or "").strip() or os.environ.get("XRBENCH_JUDGE_MODEL", "").strip()
    if not name and provider == "gemini":
        name = SEED_JUDGE_MODEL
    if not name:
        if self_judge:
            return generator
        raise UserError(
            f"--judge: no default judge model for provider {provider!r}: name one with --judge-model "
            "(or XRBENCH_JUDGE_MODEL), or pass --self-judge to let the generating model grade itself"
        )
    if name == generator and not self_judge:
        raise UserError(
            f"--judge: the judge model {name} generated the candidates and would grade itself: name another "
            "with --judge-model (or XRBENCH_JUDGE_MODEL), or pass --self-judge"
        )
    return name


def judge_code(llm: LLM, task: Task, code: str, xrblocks_root: Path) -> dict[str, Any]:
    """Ask the judge about one candidate; adds `task`, `judge_model` and the call's usage."""
    completion = llm.complete([Message("user", judge_message(task, code, xrblocks_root))], JUDGE_SETTINGS)
    verdict = parse_verdict(completion.text)
    verdict.update(
        task=task.id,
        judge_model=llm.model,
        judge_provider=completion.provider,
        usage=completion.usage.to_dict(),
        cached=completion.cached,
    )
    return verdict
