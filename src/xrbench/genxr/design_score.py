"""The design score of GenXR app tasks: a VLM rates frames of a trial's recorded XR tests on ten XR
design heuristics, each 1-5; the design score is their mean.

Tests decide whether an app *works*; the design score says how well it is *designed* for a person
in a headset: placement, legibility, feedback, comfort. It is a secondary signal, reported next to
Pass@1 and never mixed into it, because a model's ratings vary with the model.

Per trial (`score_trial`):

    <trial>/design/frames/NN.png    the frames the model saw (see `frames.sample_frames`)
    <trial>/design/prompt.json      system prompt, user prompt, image hashes, generation settings
    <trial>/design/responses.json   every raw reply (a second one when the first was unparseable)
    <trial>/design/design.json      {"design_score", "status", "ratings": {key: {"score", "reason"}}, ...}

Per job (`score_job`): `<job>/design_summary.json` with the mean over the job's app-task trials,
per heuristic and per task. `status` is "scored", "skipped: <why>" (no provider configured, not an
app task, nothing recorded), "unparseable: ..." (the reply was not the JSON asked for, after one
retry) or "error: ..." (the provider failed); only "scored" trials carry a score.

Frames come from the verifier's recordings, so run the job with `--record` (a passing test keeps
no video otherwise).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xrbench.genxr.frames import sample_frames
from xrbench.llm import GenerationSettings, Image, Message, NotConfigured, ProviderError, resolve_llm, skip_reason
from xrbench.store.atomic import atomic_write_json
from xrbench.store.read import read_json

DESIGN_DIR = "design"
DESIGN_FILE = "design.json"
SUMMARY_FILE = "design_summary.json"
DEFAULT_FRAMES = 8
PROMPT_VERSION = 1
MAX_INSTRUCTION_CHARS = 3_000
SETTINGS = GenerationSettings(temperature=0, json_output=True)


@dataclass(frozen=True)
class Heuristic:
    """One XR design heuristic: a stable key, a short name, and what the rater looks for."""

    key: str
    name: str
    question: str


HEURISTICS: tuple[Heuristic, ...] = (
    Heuristic(
        "placement_reach",
        "Comfortable placement and reach",
        "Content the user must touch sits within easy arm's reach (about 0.4-0.7 m, between chest and eye "
        "height); content meant for distant pointing is clearly targetable; nothing needed is behind the user, "
        "far off to the side, or inside their body.",
    ),
    Heuristic(
        "legibility",
        "Legibility at distance",
        "Text, numbers and icons are large enough for their viewing distance (angular size, not pixel size) and "
        "contrast clearly with what is behind them; labels are short.",
    ),
    Heuristic(
        "visual_hierarchy",
        "Visual hierarchy and focus",
        "The main object or action stands out by size, position, colour or contrast; secondary content is "
        "subordinate; the view is not cluttered and the user can tell where to look first.",
    ),
    Heuristic(
        "interaction_feedback",
        "Feedback on interaction",
        "Hover, touch, pinch or select, grab and release visibly change the target right away (highlight, press "
        "state, motion, colour, a changed value), so the user knows the input was received.",
    ),
    Heuristic(
        "affordances_consistency",
        "Affordances and consistency",
        "Interactive elements look interactive (buttons look pressable, handles grabbable) and inert ones do not; "
        "similar elements look and behave alike and follow XR conventions (panels, rays, pinch to select).",
    ),
    Heuristic(
        "spatial_stability",
        "Spatial stability and motion comfort",
        "Content stays put in the world or follows the user smoothly (lazy follow), without jitter, sudden jumps "
        "or rigid head-locking; the app never moves the user's viewpoint unexpectedly.",
    ),
    Heuristic(
        "depth_grounding",
        "Depth cues and grounding",
        "Objects show believable depth (shading, shadows, occlusion, contact with surfaces), so their distance "
        "and position can be judged; nothing floats ambiguously, intersects the user or z-fights.",
    ),
    Heuristic(
        "scale",
        "Real-world scale",
        "Objects and UI have plausible physical sizes for what they are and for how they are used (a button "
        "fingertip-sized, a tabletop object hand-sized), consistent with each other and with the room.",
    ),
    Heuristic(
        "ergonomics",
        "Ergonomics of head and arm movement",
        "The task can be done mostly within a comfortable field of view (about 30 degrees either side, slightly "
        "below eye level) without repeated large head turns, looking far up or down, or holding the arms raised "
        "for long.",
    ),
    Heuristic(
        "error_prevention",
        "Error prevention and recovery",
        "Targets are large and far enough apart to avoid accidental activation; destructive actions are guarded "
        "or reversible; the app's current state is visible, so the user can tell what happened and undo it.",
    ),
)
HEURISTIC_NAMES = {h.key: h.name for h in HEURISTICS}


def _system_prompt() -> str:
    lines = "\n".join(f'{i}. "{h.key}": {h.name}. {h.question}' for i, h in enumerate(HEURISTICS, 1))
    example = ", ".join(f'"{h.key}": {{"score": 1-5, "reason": "..."}}' for h in HEURISTICS[:2])
    return f"""You are an expert XR interaction designer reviewing an app for a headset (WebXR, built with XR Blocks).
You see frames in time order, taken from recordings of automated tests in which a simulated user (head,
hands or controllers) uses the app. The simulated hands and controllers belong to the test harness, not
to the app. Frames are small: judge text by its apparent size in the view, not by whether every pixel is sharp.

Rate the app's design on each of these ten heuristics:
{lines}

Scores: 1 = severe problems, 2 = major problems, 3 = acceptable with noticeable issues, 4 = good with
minor issues, 5 = excellent. Judge only what the frames show; when a heuristic cannot be judged from them,
give 3 and say so in its reason. Reply with a single JSON object and nothing else:
{{"ratings": {{{example}, ... one entry for each of the ten keys}}, "summary": "one or two sentences"}}"""


SYSTEM_PROMPT = _system_prompt()
RETRY_PROMPT = (
    "That reply was not the JSON object asked for. Reply with only the JSON object: "
    '{"ratings": {<each of the ten keys>: {"score": <integer 1-5>, "reason": "..."}}, "summary": "..."}'
)


def parse_ratings(text: str) -> tuple[dict[str, dict[str, Any]], str] | None:
    """(ratings by heuristic key, summary) from a reply, or None unless all ten have an integer score 1-5."""
    from xrbench.xrtest.vlm import parse_json_reply

    data = parse_json_reply(text)
    if data is None:
        return None
    raw = data.get("ratings", data)
    if not isinstance(raw, dict):
        return None
    ratings: dict[str, dict[str, Any]] = {}
    for h in HEURISTICS:
        entry = raw.get(h.key)
        score, reason = (entry.get("score"), entry.get("reason")) if isinstance(entry, dict) else (entry, None)
        if isinstance(score, str) and score.strip().isdigit():
            score = int(score.strip())
        if isinstance(score, float) and score.is_integer():
            score = int(score)
        if isinstance(score, bool) or not isinstance(score, int) or not 1 <= score <= 5:
            return None
        ratings[h.key] = {"score": score, "reason": reason.strip() if isinstance(reason, str) else ""}
    summary = data.get("summary")
    return ratings, summary.strip() if isinstance(summary, str) else ""


def _instruction(trial_dir: Path) -> str | None:
    """The task's instruction: the copy the agent got, else the task folder named in the job's lock.json."""
    candidates = [trial_dir / "agent" / "instruction.md"]
    result = _read(trial_dir / "result.json") or {}
    lock = _read(trial_dir.parent / "lock.json") or {}
    task_dir = ((lock.get("tasks") or {}).get(result.get("task")) or {}).get("dir")
    if task_dir:
        candidates.append(Path(task_dir) / "instruction.md")
    for path in candidates:
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace").strip()
            return text[:MAX_INSTRUCTION_CHARS]
    return None


def _read(path: Path) -> dict[str, Any] | None:
    try:
        data = read_json(path)
    except Exception:  # missing or unreadable: the caller decides what that means
        return None
    return data if isinstance(data, dict) else None


def _user_prompt(instruction: str | None, n: int, source: str | None, origins: Sequence[str]) -> str:
    tests = sorted({o.split("/")[1] for o in origins if o.count("/") >= 2})
    what = "video recordings" if source == "video" else "key-frame screenshots"
    text = f"The app was built for this task:\n\n{instruction}\n\n" if instruction else ""
    text += f"{n} frame(s) follow, in time order, sampled from {what} of {len(tests) or 'its'} test(s)"
    return text + (": " + "; ".join(tests) + "." if tests else ".")


def _record(trial_dir: Path, record: dict[str, Any]) -> dict[str, Any]:
    atomic_write_json(trial_dir / DESIGN_DIR / DESIGN_FILE, record)
    return record


def _base(trial_dir: Path) -> dict[str, Any]:
    result = _read(trial_dir / "result.json") or {}
    return {
        "trial": trial_dir.name,
        "task": result.get("task"),
        "task_type": result.get("task_type"),
        "design_score": None,
        "status": "",
        "prompt_version": PROMPT_VERSION,
        "heuristics": dict(HEURISTIC_NAMES),
        "ratings": {},
        "summary": "",
        "frames": [],
        "frame_sources": [],
        "source": None,
        "model": None,
        "notes": [],
    }


def score_trial(trial_dir: str | Path, llm: Any | None, *, frames: int = DEFAULT_FRAMES) -> dict[str, Any]:
    """Rate one trial's recorded frames; writes and returns `<trial>/design/design.json` (see module doc).

    `llm` is an `xrbench.llm.LLM`; None uses the configured provider, and without one the record is
    `{"design_score": None, "status": "skipped: no provider configured ..."}`.
    """
    trial_dir = Path(trial_dir)
    record = _base(trial_dir)
    if record["task_type"] not in (None, "app"):
        return _record(trial_dir, {**record, "status": f"skipped: not an app task ({record['task_type']})"})
    if llm is None:
        reason = skip_reason()
        if reason is not None:
            return _record(trial_dir, {**record, "status": f"skipped: {reason}"})
        try:
            llm = resolve_llm()
        except NotConfigured as e:
            return _record(trial_dir, {**record, "status": f"skipped: {e.reason}"})
    record["model"] = getattr(llm, "model", None)
    out = trial_dir / DESIGN_DIR
    sample = sample_frames(trial_dir, out / "frames", frames)
    record.update(
        frames=[f.relative_to(trial_dir).as_posix() for f in sample.frames],
        frame_sources=sample.sources,
        source=sample.source,
        notes=sample.notes,
    )
    if not sample.frames:
        return _record(
            trial_dir, {**record, "status": "skipped: no recorded video or key frames (run the job with --record)"}
        )
    pngs = [f.read_bytes() for f in sample.frames]
    user = _user_prompt(_instruction(trial_dir), len(pngs), sample.source, sample.sources)
    messages = [Message("system", SYSTEM_PROMPT), Message("user", user, tuple(Image(p, "image/png") for p in pngs))]
    atomic_write_json(
        out / "prompt.json",
        {
            "system": SYSTEM_PROMPT,
            "user": user,
            "images": [
                {"file": f.relative_to(trial_dir).as_posix(), "sha256": hashlib.sha256(p).hexdigest()}
                for f, p in zip(sample.frames, pngs, strict=True)
            ],
            "settings": SETTINGS.to_dict(),
            "llm": llm.describe() if hasattr(llm, "describe") else {"model": record["model"]},
        },
    )
    responses: list[dict[str, Any]] = []
    parsed = None
    try:
        for attempt in range(2):
            completion = llm.complete(messages, SETTINGS)
            responses.append(completion.to_dict())
            parsed = parse_ratings(completion.text)
            if parsed is not None or attempt == 1:
                break
            messages = [*messages, Message("assistant", completion.text), Message("user", RETRY_PROMPT)]
    except ProviderError as e:  # auth, quota, network after retries: the score is missing, not low
        atomic_write_json(out / "responses.json", responses)
        return _record(trial_dir, {**record, "status": f"error: {type(e).__name__}: {e}"})
    atomic_write_json(out / "responses.json", responses)
    if parsed is None:
        last = responses[-1]["text"] if responses else ""
        return _record(trial_dir, {**record, "status": f"unparseable: {json.dumps(last[:300])} (after one retry)"})
    ratings, summary = parsed
    score = round(sum(r["score"] for r in ratings.values()) / len(ratings), 3)
    return _record(
        trial_dir, {**record, "status": "scored", "design_score": score, "ratings": ratings, "summary": summary}
    )


def app_trials(job_dir: Path) -> list[Path]:
    """The job's finished trials of app tasks, in name order."""
    out = []
    for result in sorted(job_dir.glob("*/result.json")):
        data = _read(result)
        if data is not None and data.get("task_type") == "app":
            out.append(result.parent)
    return out


def _mean(values: Sequence[float]) -> float | None:
    return round(sum(values) / len(values), 3) if values else None


def summarize(records: Sequence[dict[str, Any]], model: str | None = None) -> dict[str, Any]:
    """design_summary.json from per-trial records: means over the scored app-task trials."""
    scored = [r for r in records if r.get("status") == "scored" and r.get("design_score") is not None]
    statuses = {r.get("status") for r in records}
    if not records:
        status = "skipped: no app-task trials"
    elif len(scored) == len(records):
        status = "scored"
    elif scored:
        status = f"scored {len(scored)} of {len(records)} app-task trials"
    elif len(statuses) == 1:
        status = str(records[0].get("status"))
    else:
        status = "not computed: " + "; ".join(sorted(str(s) for s in statuses))[:500]
    by_task: dict[str, list[float]] = {}
    for r in scored:
        by_task.setdefault(str(r.get("task")), []).append(r["design_score"])
    return {
        "design_score": _mean([r["design_score"] for r in scored]),
        "status": status,
        "trials_app": len(records),
        "trials_scored": len(scored),
        "model": model or next((r.get("model") for r in scored if r.get("model")), None),
        "prompt_version": PROMPT_VERSION,
        "heuristics": dict(HEURISTIC_NAMES),
        "by_heuristic": {h.key: _mean([r["ratings"][h.key]["score"] for r in scored]) for h in HEURISTICS}
        if scored
        else {},
        "by_task": {t: _mean(v) for t, v in sorted(by_task.items())},
        "trials": {r["trial"]: {"design_score": r.get("design_score"), "status": r.get("status")} for r in records},
    }


def score_job(
    job_dir: str | Path, llm: Any | None, *, frames: int = DEFAULT_FRAMES, workers: int = 1
) -> dict[str, Any]:
    """Score every app-task trial of a job; writes and returns `<job>/design_summary.json`.

    The provider is resolved once (None: from the environment); without one every app trial is
    recorded as skipped with the reason, and the summary's design score is None.
    """
    job_dir = Path(job_dir)
    trials = app_trials(job_dir)
    if llm is None and trials:
        reason = skip_reason()
        if reason is None:
            llm = resolve_llm()
    if llm is None:
        records = [score_trial(t, None, frames=frames) for t in trials]
    else:
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            records = list(pool.map(lambda t: score_trial(t, llm, frames=frames), trials))
    summary = summarize(records, getattr(llm, "model", None))
    atomic_write_json(job_dir / SUMMARY_FILE, summary)
    return summary
