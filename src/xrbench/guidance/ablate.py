"""Skill ablation: drop one `## ` section of the task skill at a time and score each variant.

`split_sections` cuts `SKILL.md` into its head (frontmatter, title, introduction: never removed)
and one section per `## ` heading (headings inside code fences do not count). Variant `baseline`
keeps the whole skill; variant `<heading>` replaces that section by the line
`(section <heading> removed for ablation)`. Each variant is sent as the `with-skill` system prompt
with the ablated skill in place of the real one (same contract, same references, same user
message, same settings), so the baseline variant is exactly the `with-skill` request and a
`with-skill` run's answer is reused from the disk cache. Each variant's answer is extracted,
written to a workspace and scored like a result cell; with `repeats` > 1 the variant's numeric
fields are medians.

Output: `results/ablations/<model>/<task>.json` (every variant's score, its composite delta against
the baseline, the removed section's size) and `<task>.md` (the same as a Markdown table).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xrbench.guidance.arms import WITH_SKILL, skill_system_prompt
from xrbench.guidance.extract import extract
from xrbench.guidance.runner import DEFAULT_TEMPERATURE, Layout, aggregate, model_slug, user_message
from xrbench.guidance.score import ModuleParser, score_source
from xrbench.guidance.task import Task
from xrbench.llm import LLM, GenerationSettings, Message
from xrbench.store.atomic import atomic_write_json, atomic_write_text

BASELINE = "baseline"


@dataclass(frozen=True)
class Section:
    label: str
    text: str


def split_sections(skill: str) -> tuple[str, list[Section]]:
    """The skill's head and its `## ` sections, in order; `head + "".join(texts)` is the skill."""
    lines = skill.splitlines(keepends=True)
    head: list[str] = []
    sections: list[tuple[str, list[str]]] = []
    in_fence = False
    for line in lines:
        if line.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        if not in_fence and line.startswith("## "):
            sections.append((line[3:].strip(), [line]))
        elif sections:
            sections[-1][1].append(line)
        else:
            head.append(line)
    return "".join(head), [Section(label, "".join(body)) for label, body in sections]


def variants(skill: str) -> list[tuple[str, str | None, str]]:
    """`(variant, removed section or None, skill text)`: the baseline, then one per section."""
    head, sections = split_sections(skill)
    out: list[tuple[str, str | None, str]] = [(BASELINE, None, skill)]
    for i, sec in enumerate(sections):
        marker = f"(section {sec.label} removed for ablation)\n\n"
        text = head + "".join(marker if j == i else s.text for j, s in enumerate(sections))
        out.append((sec.label, sec.label, text))
    return out


def _slug(label: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "-", label).strip("-").lower()[:60] or "section"


def ablate_task(
    llm: LLM,
    task: Task,
    out: Path,
    *,
    repeats: int = 1,
    temperature: float = DEFAULT_TEMPERATURE,
    on_variant: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Score every ablation variant of one task's skill; writes the JSON and Markdown reports."""
    layout = Layout(out)
    base_dir = out / "ablations" / model_slug(llm.model) / task.id
    skill = task.skill_text()
    head, sections = split_sections(skill)
    sizes = {s.label: len(s.text) for s in sections}
    rows: list[dict[str, Any]] = []
    with ModuleParser() as parser:
        for index, (name, removed, text) in enumerate(variants(skill)):
            system_prompt = skill_system_prompt(task, skill_text=text)
            messages = [Message("system", system_prompt), Message("user", user_message(task))]
            samples = []
            for repeat in range(1, repeats + 1):
                settings = GenerationSettings(temperature=temperature, seed=None if repeat == 1 else repeat)
                completion = llm.complete(messages, settings)
                extraction = extract(completion.text)
                code = extraction.code
                vdir = base_dir / f"{index:02d}-{_slug(name)}" / f"r{repeat}"
                atomic_write_text(vdir / "workspace" / task.spec.edit_file, code)
                atomic_write_text(vdir / "meta" / "system_prompt.md", system_prompt)
                atomic_write_text(vdir / "meta" / "raw_response.md", completion.text)
                raw = code.encode("utf-8")
                score = score_source(
                    task.id, task.spec, raw, parser.check(code, task.spec.edit_file), no_code=extraction.no_code
                )
                score["run"] = {
                    "workspace": str(vdir / "workspace"),
                    "extraction": extraction.how,
                    "repeat": repeat,
                    "cached": completion.cached,
                    "prompt_tokens": completion.usage.input_tokens,
                }
                samples.append(score)
            cell = aggregate(samples)
            cell.update(variant=name, removed=removed, removed_chars=sizes.get(removed or "", 0))
            cell["prompt_chars"] = len(system_prompt)
            rows.append(cell)
            if on_variant:
                on_variant(name)
    baseline = rows[0]["composite"]
    for row in rows:
        row["delta"] = round(row["composite"] - baseline, 3)
    report = {
        "task": task.id,
        "skill": task.spec.skill,
        "model": llm.model,
        "mode": WITH_SKILL,
        "repeats": repeats,
        "temperature": temperature,
        "head_chars": len(head),
        "variants": rows,
    }
    target = layout.results / "ablations" / model_slug(llm.model) / f"{task.id}.json"
    atomic_write_json(target, report)
    atomic_write_text(target.with_suffix(".md"), ablation_markdown(report))
    report["path"] = str(target)
    return report


def ablation_markdown(report: dict[str, Any]) -> str:
    """The ablation report as a Markdown table (composite delta against the baseline)."""
    lines = [
        f"# Ablation: {report['task']} ({report['skill']}, {report['model']})",
        "",
        f"Each row drops one `## ` section of the skill; median of {report['repeats']} repeat(s).",
        "",
        "| variant | removed chars | composite | Δ vs baseline | api_match | parse_ok | forbidden_clean |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in report["variants"]:
        lines.append(
            f"| {row['variant']} | {row['removed_chars'] or '-'} | {row['composite']:.3f} | {row['delta']:+.3f} | "
            f"{row['api_match']:.3f} | {row['parse_ok']:.1f} | {row['forbidden_clean']:.1f} |"
        )
    return "\n".join(lines) + "\n"
