"""Synthetic model answers for the guidance tests, served by a local OpenAI-compatible server.

These stand in for recorded model responses; they are fixtures, not results. A generation request
is recognised by its user message (the task's prompt) and its system prompt (the arm):

- with-skill: the task's reference answer in a ```javascript block;
- without-skill: the reference "aged" to the pre-0.20 API (`SpatialPanel`, `TextButton`,
  `onTriggered`, `enablePlanes`, raw joint access), wrapped in prose; for `hands-pinch-spawn` a
  syntax error after an import (the Node 20 `node --check` pitfall), for `casual-doorbell` no
  fence at all;
- with-baseline: the reference with the stale `SimulatorAddons.js` import the published prompt
  teaches;

and a judge request by the judge prompt's first words: ratings derived from the candidate (legacy
names -> major hallucination), except for `casual-doorbell`, whose judge reply is not JSON.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from llm_fakes import chat_completion

from xrbench.guidance.task import TASKS_DIR

LEGACY = (
    ("UICard", "SpatialPanel"),
    ("UIButton", "TextButton"),
    ("onClick", "onTriggered"),
    ("enablePlaneDetection", "enablePlanes"),
    ("getIndexTip(handedness)", "hands[handedness].joints['index-finger-tip']"),
)
LEGACY_NAMES = ("SpatialPanel", "TextButton", "onTriggered", "enablePlanes", "SimulatorAddons")


@cache
def prompts() -> dict[str, str]:
    """prompt.md text -> task id, for every bundled task."""
    return {(d / "prompt.md").read_text(encoding="utf-8"): d.name for d in sorted(TASKS_DIR.iterdir()) if d.is_dir()}


def reference(task_id: str) -> str:
    return (TASKS_DIR / task_id / "reference" / "main.js").read_text(encoding="utf-8")


def task_of(user_message: str) -> str:
    for prompt, task_id in prompts().items():
        if user_message.endswith("TASK:\n" + prompt):
            return task_id
    raise KeyError("unknown task prompt")


def arm_of(system: str | None) -> str:
    if not system:
        return "without-skill"
    if system.startswith("# XR Blocks app contract"):
        return "with-skill"
    return "with-baseline"


def answer(task_id: str, arm: str, seed: int | None = None) -> str:
    """The synthetic model answer for one task and arm."""
    code = reference(task_id)
    if seed is not None:
        code = f"// variant {seed}\n" + code
    if arm == "with-skill":
        return f"```javascript\n{code}```\n"
    if arm == "with-baseline":
        return f"```javascript\nimport 'xrblocks/addons/simulator/SimulatorAddons.js';\n{code}```"
    aged = code
    for new, old in LEGACY:
        aged = aged.replace(new, old)
    if task_id == "hands-pinch-spawn":
        aged = aged.replace("    if (tip) {", "    if (tip {", 1)
    if task_id == "casual-doorbell":
        return aged
    return f"Sure! Here is the complete app.\n\n```js\n{aged}```\n\nOpen index.html to try it."


def judge_answer(task_id: str, code: str) -> str:
    if task_id == "casual-doorbell":
        return "The candidate looks reasonable overall, I would rate it highly."
    legacy = any(name in code for name in LEGACY_NAMES)
    verdict = {
        "accomplishes_task": 3 if legacy else 5,
        "idiomatic_xrblocks": 2 if legacy else 5,
        "hallucination_severity": "major" if legacy else "none",
        "rationale": "Uses names removed in v0.20." if legacy else "Current API, complete behaviour.",
    }
    return "```json\n" + json.dumps(verdict) + "\n```"


_JUDGE_TASK = re.compile(r"# Task\n(.*?)\n\n# XR Blocks authority", re.DOTALL)
_JUDGE_CODE = re.compile(r"```javascript\n(.*)\n```\n?$", re.DOTALL)


def respond(messages: list[dict[str, Any]], seed: int | None = None) -> str:
    """The answer to one chat request (OpenAI message dicts)."""
    system = next((m["content"] for m in messages if m["role"] == "system"), None)
    user = next(m["content"] for m in messages if m["role"] == "user")
    if user.startswith("You are a senior XR Blocks reviewer."):
        task_text = _JUDGE_TASK.search(user)
        code = _JUDGE_CODE.search(user)
        task_id = next(t for p, t in prompts().items() if task_text and p.strip() == task_text.group(1).strip())
        return judge_answer(task_id, code.group(1) if code else "")
    return answer(task_of(user), arm_of(system), seed)


def guidance_responder(path: str, body: Any) -> tuple[int, Any]:
    """A `FakeServer` responder for `POST /v1/chat/completions`."""
    if path != "/v1/chat/completions":
        return 404, {"error": {"message": f"no route {path}", "type": "invalid_request_error"}}
    text = respond(body["messages"], body.get("seed"))
    return 200, chat_completion(text, model=body["model"], prompt_tokens=1000, completion_tokens=400)
