"""Vision-language checks and a VLM-guided actor for XR sessions.

Scene-graph assertions are the primary oracle of xrtest: exact, cheap and explainable. Some
properties are only visible, though ("the label is readable", "the menu faces the user"). For those:

- `vlm_check(session, criterion)` takes one or a few screenshots of what the user sees and asks the
  configured model (`xrbench.llm`) whether a narrowly scoped, human-written criterion holds. The
  model answers `{"pass": bool, "reason": str}`; an unparseable reply is retried once, then counts
  as a failure with the raw text recorded. Without a configured provider the verdict is
  `skipped=True` and never `passed`.
- `assert_vlm(session, criterion)` is the pytest form: skips without a provider, fails with the
  model's reason otherwise.
- `adaptive_act(session, instruction)` carries out one narrowly scoped instruction ("press the
  button that starts the game") in a bounded loop: each step shows the model a screenshot, the
  tagged objects and the action vocabulary, and executes the one JSON action it answers with. The
  whole trajectory (prompts, replies, actions, outcomes) is kept.

Actions run through an `ActionExecutor`, so the actor works on both backends: `IWERExecutor`
aims the dominant hand or controller and selects; `XRBlocksExecutor` clicks the projected screen
point of the target with the simulator's mouse, holding the button across frames.

Use VLM verdicts as a secondary signal, reported apart from scene-graph assertions: models vary,
and a wrong "pass" is possible.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

from xrbench.llm import LLM, GenerationSettings, Image, Message, NotConfigured, resolve_llm
from xrbench.store.atomic import atomic_write_json
from xrbench.xrtest.errors import XRTestError
from xrbench.xrtest.iwer import IWERSession

SETTINGS = GenerationSettings(temperature=0.0, json_output=True)

CHECK_SYSTEM = """You judge screenshots of an XR (VR or AR) app, taken from the user's point of view in the headset.
Decide whether ONE criterion holds. Judge only what the criterion asks, and only from what the screenshots show:
if it cannot be seen clearly, it does not hold.
Reply with a single JSON object and nothing else:
{"pass": true or false, "reason": "one short sentence naming what you see"}"""

RETRY_PROMPT = "That reply was not the JSON object asked for. Reply with only the JSON object, nothing else."

ACT_SYSTEM = """You operate an XR (VR or AR) app for a tester, one action per turn, to carry out ONE instruction.
Each turn you get a screenshot of the user's view, the app's tagged objects (semantic tags with positions in
metres: x right, y up, -z straight ahead from where the user started) and the actions taken so far.
Reply with ONE JSON object and nothing else, one of:
{"action": "click", "target": "<tag>", "reason": "..."}   select or press the tagged object
{"action": "point", "target": "<tag>", "reason": "..."}   aim at the tagged object without pressing (hover)
{"action": "look", "target": "<tag>", "reason": "..."}    turn the head to face the tagged object
{"action": "turn", "yaw_deg": <number>, "pitch_deg": <number>, "reason": "..."}
    turn the head by yaw (> 0 = left) and pitch (> 0 = up) degrees
{"action": "wait", "frames": <1-120>, "reason": "..."}    let time pass
{"action": "done", "reason": "..."}      the instruction has been carried out, as the screenshot shows
{"action": "give_up", "reason": "..."}   the instruction cannot be carried out
Use only tags from the list. Answer "done" only when the screenshot shows the result."""

ACTIONS = ("click", "point", "look", "turn", "wait", "done", "give_up")
MAX_WAIT_FRAMES = 120

View = str | Sequence[float] | None


# --- verdicts ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class VLMVerdict:
    """The outcome of `vlm_check`.

    `passed` is True only when a model judged the criterion to hold; `skipped` is True when no
    provider is configured (then `passed` is False and `reason` starts with "skipped: "). `raw`
    holds every reply text (two when the first was unparseable), `images` the number of screenshots.
    """

    passed: bool
    reason: str
    skipped: bool = False
    criterion: str = ""
    raw: tuple[str, ...] = ()
    images: int = 0
    model: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Plain data for result files."""
        return asdict(self)


def _resolve(llm: LLM | None) -> tuple[LLM | None, str | None]:
    """The model to use, or None and the skip reason when no provider is configured."""
    if llm is not None:
        return llm, None
    try:
        return resolve_llm(), None
    except NotConfigured as e:
        return None, f"skipped: {e.reason}"


def parse_json_reply(text: str) -> dict[str, Any] | None:
    """The JSON object in a model reply (bare, fenced or surrounded by prose), or None."""
    text = text.strip()
    fenced = re.search(r"```(?:json)?\s*(.*?)```", text, re.DOTALL)
    if fenced:
        text = fenced.group(1).strip()
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return None
    try:
        value = json.loads(text[start : end + 1])
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _parse_verdict(text: str) -> tuple[bool, str] | None:
    d = parse_json_reply(text)
    if d is None or not isinstance(d.get("pass"), bool):
        return None
    reason = d.get("reason")
    return d["pass"], reason.strip() if isinstance(reason, str) else ""


def _ask_json(llm: LLM, messages: list[Message], parse: Any) -> tuple[Any, list[str]]:
    """Ask, parse; on an unparseable reply ask once more with the reply quoted. Returns (parsed or None, raws)."""
    raws: list[str] = []
    for attempt in range(2):
        completion = llm.complete(messages, SETTINGS)
        raws.append(completion.text)
        parsed = parse(completion.text)
        if parsed is not None:
            return parsed, raws
        if attempt == 0:
            messages = [*messages, Message("assistant", completion.text), Message("user", RETRY_PROMPT)]
    return None, raws


def capture_views(
    session: Any,
    views: int | Sequence[View] = 1,
    *,
    frames_between: int = 10,
    executor: ActionExecutor | None = None,
) -> list[bytes]:
    """Screenshots of the user's view: `views` key frames of the current view, `frames_between` frames apart,
    or one screenshot per entry of a sequence (None: as is; a tag or point: look at it first)."""
    specs: list[View] = [None] * views if isinstance(views, int) else list(views)
    if not specs:
        raise ValueError("views must ask for at least one screenshot")
    shots: list[bytes] = []
    for i, spec in enumerate(specs):
        if i > 0 and frames_between > 0:
            session.step(frames_between)
        if spec is not None:
            (executor or make_executor(session)).look(spec)
        shots.append(session.screenshot())
    return shots


def vlm_check(
    session: Any,
    criterion: str,
    *,
    views: int | Sequence[View] = 1,
    frames_between: int = 10,
    images: Sequence[bytes] | None = None,
    llm: LLM | None = None,
    context: str | None = None,
    record_dir: str | Path | None = None,
) -> VLMVerdict:
    """Ask the configured vision model whether `criterion` holds in the user's view.

    Screenshots come from `session` (see `capture_views`) unless `images` (PNG bytes) are given.
    `context` adds a sentence about the app. `llm` defaults to `resolve_llm()` (flags/environment);
    without a provider the verdict is skipped, never passed. Provider failures (auth, quota,
    network after retries) raise the provider layer's errors: they are infrastructure errors, not
    verdicts. `record_dir` receives the screenshots and `verdict.json`.
    """
    criterion = criterion.strip()
    if not criterion:
        raise ValueError("criterion must not be empty")
    model, skip = _resolve(llm)
    if model is None:
        return VLMVerdict(passed=False, reason=skip or "skipped", skipped=True, criterion=criterion)
    shots = list(images) if images is not None else capture_views(session, views, frames_between=frames_between)
    prompt = f"Criterion: {criterion}\n"
    if context:
        prompt += f"About the app: {context}\n"
    prompt += f"{len(shots)} screenshot(s) of the user's view follow" + (", in time order." if len(shots) > 1 else ".")
    messages = [
        Message("system", CHECK_SYSTEM),
        Message("user", prompt, tuple(Image(png, "image/png") for png in shots)),
    ]
    parsed, raws = _ask_json(model, messages, _parse_verdict)
    if parsed is None:
        verdict = VLMVerdict(
            passed=False,
            reason=f"unparseable model reply (after one retry): {raws[-1][:500]!r}",
            criterion=criterion,
            raw=tuple(raws),
            images=len(shots),
            model=model.model,
        )
    else:
        passed, reason = parsed
        verdict = VLMVerdict(
            passed=passed,
            reason=reason or ("holds" if passed else "does not hold"),
            criterion=criterion,
            raw=tuple(raws),
            images=len(shots),
            model=model.model,
        )
    if record_dir is not None:
        out = Path(record_dir)
        out.mkdir(parents=True, exist_ok=True)
        for i, png in enumerate(shots):
            (out / f"view-{i}.png").write_bytes(png)
        atomic_write_json(out / "verdict.json", {**verdict.to_dict(), "prompt": prompt, "llm": model.describe()})
    return verdict


def assert_vlm(session: Any, criterion: str, **kwargs: Any) -> VLMVerdict:
    """`vlm_check` for tests: `pytest.skip` without a provider, an `AssertionError` with the model's reason on fail."""
    import pytest  # only tests call this; the package does not depend on pytest

    verdict = vlm_check(session, criterion, **kwargs)
    if verdict.skipped:
        pytest.skip(verdict.reason)
    if not verdict.passed:
        raise AssertionError(f"VLM check failed: {criterion!r}: {verdict.reason}")
    return verdict


# --- executing actions ------------------------------------------------------------------------


class ActionNotSupported(XRTestError):
    """The session's backend cannot perform this action (yet)."""


@runtime_checkable
class ActionExecutor(Protocol):
    """What `adaptive_act` needs from a session: what is there, what it looks like, and a few actions.

    Each action returns a short description of what was done (it goes back to the model as history)
    and raises on failure (`TagNotFoundError`, `ActionNotSupported`, ...).
    """

    def tagged_objects(self) -> list[dict[str, Any]]: ...

    def screenshot(self) -> bytes: ...

    def click(self, target: str) -> str: ...

    def point(self, target: str) -> str: ...

    def look(self, target: View) -> str: ...

    def turn(self, yaw_deg: float, pitch_deg: float) -> str: ...

    def wait(self, frames: int) -> str: ...


def _tagged(nodes: Sequence[Any]) -> list[dict[str, Any]]:
    return [{"tag": n.tag, "position": [round(v, 2) for v in n.position], "visible": n.visible} for n in nodes if n.tag]


class IWERExecutor:
    """Actions on an `IWERSession`: aim the dominant hand (or controller, per the input mode) and select."""

    def __init__(self, session: IWERSession, *, hand: str | None = None):
        self.session = session
        self.hand = hand or session.dominant_hand

    def tagged_objects(self) -> list[dict[str, Any]]:
        return _tagged(self.session.snapshot())

    def screenshot(self) -> bytes:
        return self.session.screenshot()

    def click(self, target: str) -> str:
        point = self.session.resolve_target(target)
        self.session.select(point, hand=self.hand)
        return f"aimed the {self.hand} {self.session.current_input_mode} at {target} and selected"

    def point(self, target: str) -> str:
        self.session.point_at(self.session.resolve_target(target), hand=self.hand)
        return f"aimed the {self.hand} {self.session.current_input_mode} at {target}"

    def look(self, target: View) -> str:
        if target is None:
            return "kept the view"
        pose = self.session.look_at(target if isinstance(target, str) else tuple(target))
        return f"looked at {target}; now facing {tuple(round(v, 2) for v in pose.forward or ())}"

    def turn(self, yaw_deg: float, pitch_deg: float) -> str:
        self.session.turn_head(yaw_deg, pitch_deg)
        return f"turned the head by yaw {yaw_deg:g} deg, pitch {pitch_deg:g} deg"

    def wait(self, frames: int) -> str:
        self.session.wait_frames(frames)
        return f"waited {frames} frames"


# Where to press the mouse for an object: the screen point of one of its meshes where a camera ray
# hits that object first (a group's box centre can lie between its parts; a mesh can be covered).
_SCREEN_POINT_JS = """({uuid}) => {
  const core = window.xb.core;
  const THREE = window.__xrtest.THREE;
  const target = core.scene.getObjectByProperty('uuid', uuid);
  if (!target) return null;
  core.scene.updateMatrixWorld(true);
  const camera = core.camera;
  camera.updateMatrixWorld(true);
  const shown = (o) => { for (let p = o; p; p = p.parent) if (!p.visible) return false; return true; };
  const inside = (o) => { for (let p = o; p; p = p.parent) if (p === target) return true; return false; };
  const candidates = [];
  const box = new THREE.Box3();
  target.traverse((o) => {
    if (!o.isMesh || !shown(o)) return;
    box.setFromObject(o);
    if (!box.isEmpty()) candidates.push(box.getCenter(new THREE.Vector3()));
  });
  box.setFromObject(target);
  if (!box.isEmpty()) candidates.push(box.getCenter(new THREE.Vector3()));
  const raycaster = new THREE.Raycaster();
  let fallback = null;
  for (const c of candidates) {
    const ndc = c.clone().project(camera);
    if (Math.abs(ndc.x) > 1 || Math.abs(ndc.y) > 1 || Math.abs(ndc.z) > 1) continue;
    const point = {x: (ndc.x + 1) / 2 * innerWidth, y: (1 - ndc.y) / 2 * innerHeight};
    fallback = fallback || point;
    raycaster.setFromCamera(new THREE.Vector2(ndc.x, ndc.y), camera);
    const hits = raycaster.intersectObjects(core.scene.children, true)
      .filter((h) => h.object.isMesh && shown(h.object));
    if (hits.length && inside(hits[0].object)) return {...point, hit: true};
  }
  return fallback ? {...fallback, hit: false} : null;
}"""


class XRBlocksExecutor:
    """Actions on an `XRSession` (XR Blocks simulator): a real mouse press at the target's screen point.

    The simulator turns mouse presses into selections in its User mode, once per frame, so the
    button is held across stepped frames. A session in another mode (the automation preset uses
    Navigation) is switched to User mode for the click. Head actions use the session's head actor
    (`s.head.look_at` / `rotate`, see actors.py), and raise `ActionNotSupported` without one.
    """

    def __init__(self, session: Any, *, hold_frames: int = 3, settle_frames: int = 2):
        self.session = session
        self.hold_frames = hold_frames
        self.settle_frames = settle_frames

    def tagged_objects(self) -> list[dict[str, Any]]:
        return _tagged(self.session.snapshot())

    def screenshot(self) -> bytes:
        return self.session.screenshot()

    def _screen_point(self, target: str) -> tuple[float, float]:
        node = self.session.find_by_tag(target)
        point = self.session.evaluate(_SCREEN_POINT_JS, {"uuid": node.uuid})
        if point is None:
            raise XRTestError(f"{target} is not in view (look at it first)")
        return float(point["x"]), float(point["y"])

    def _ensure_user_mode(self) -> bool:
        return bool(
            self.session.evaluate(
                "() => { const c = xb.core.simulator && xb.core.simulator.controls;"
                " if (!c || c.simulatorMode === xb.SimulatorMode.USER) return false;"
                " c.setSimulatorMode(xb.SimulatorMode.USER); return true; }"
            )
        )

    def click(self, target: str) -> str:
        switched = self._ensure_user_mode()
        x, y = self._screen_point(target)
        mouse = self.session.page.mouse
        mouse.move(x, y)
        self.session.step(self.settle_frames)
        mouse.down()
        self.session.step(self.hold_frames)  # the simulator reads the button once per frame
        mouse.up()
        self.session.step(self.settle_frames)
        note = " (switched the simulator to User mode)" if switched else ""
        return f"clicked {target} at screen point ({x:.0f}, {y:.0f}){note}"

    def point(self, target: str) -> str:
        self._ensure_user_mode()
        x, y = self._screen_point(target)
        self.session.page.mouse.move(x, y)
        self.session.step(self.settle_frames)
        return f"moved the pointer onto {target} at ({x:.0f}, {y:.0f})"

    def _head(self) -> Any:
        head = getattr(self.session, "head", None)
        if head is None or not callable(getattr(head, "look_at", None)):
            raise ActionNotSupported("this XR Blocks session has no head actor (actors.py)")
        return head

    def look(self, target: View) -> str:
        if target is None:
            return "kept the view"
        self._head().look_at(target if isinstance(target, str) else tuple(target))
        return f"looked at {target}"

    def turn(self, yaw_deg: float, pitch_deg: float) -> str:
        self._head().rotate(yaw_deg, pitch_deg)
        return f"turned the head by yaw {yaw_deg:g} deg, pitch {pitch_deg:g} deg"

    def wait(self, frames: int) -> str:
        self.session.step(frames)
        return f"waited {frames} frames"


def make_executor(session: Any) -> ActionExecutor:
    """The executor for a session's backend (an executor passes through unchanged)."""
    if isinstance(session, IWERSession):
        return IWERExecutor(session)
    if isinstance(session, ActionExecutor):
        return session
    if all(hasattr(session, name) for name in ("find_by_tag", "step", "page", "screenshot")):
        return XRBlocksExecutor(session)
    raise TypeError(f"no action executor for {type(session).__name__}; pass executor=...")


# --- the adaptive actor -----------------------------------------------------------------------

Status = Literal["done", "gave_up", "max_steps", "invalid_reply", "skipped"]


@dataclass
class AdaptiveStep:
    """One turn of `adaptive_act`: what the model saw and said, and what happened."""

    index: int
    prompt: str
    replies: list[str]
    action: dict[str, Any] | None
    outcome: str
    ok: bool
    screenshot_sha256: str
    screenshot: bytes = field(default=b"", repr=False)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("screenshot")
        return d


@dataclass
class AdaptiveResult:
    """The trajectory of `adaptive_act` and how it ended.

    `completed` is True when the model declared the instruction done; check the app's state too.
    """

    instruction: str
    status: Status
    reason: str
    steps: list[AdaptiveStep] = field(default_factory=list)
    model: str | None = None

    @property
    def completed(self) -> bool:
        return self.status == "done"

    @property
    def skipped(self) -> bool:
        return self.status == "skipped"

    @property
    def actions(self) -> list[dict[str, Any]]:
        """The actions the model chose, in order (unparseable turns left out)."""
        return [s.action for s in self.steps if s.action is not None]

    def to_dict(self) -> dict[str, Any]:
        return {
            "instruction": self.instruction,
            "status": self.status,
            "completed": self.completed,
            "reason": self.reason,
            "model": self.model,
            "steps": [s.to_dict() for s in self.steps],
        }

    def save(self, directory: str | Path) -> Path:
        """Write `trajectory.json` and one screenshot per step into `directory`; returns the JSON path."""
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        for s in self.steps:
            if s.screenshot:
                (out / f"step-{s.index:02d}.png").write_bytes(s.screenshot)
        path = out / "trajectory.json"
        atomic_write_json(path, self.to_dict())
        return path


def _parse_action(text: str) -> dict[str, Any] | None:
    d = parse_json_reply(text)
    if d is None or d.get("action") not in ACTIONS:
        return None
    return d


def _execute(executor: ActionExecutor, action: dict[str, Any]) -> str:
    kind = action["action"]
    if kind in ("click", "point", "look"):
        target = action.get("target")
        if not isinstance(target, str) or not target:
            raise ValueError(f"{kind} needs a 'target' tag")
        return getattr(executor, kind)(target)
    if kind == "turn":
        return executor.turn(float(action.get("yaw_deg") or 0.0), float(action.get("pitch_deg") or 0.0))
    if kind == "wait":
        frames = int(action.get("frames") or 30)
        return executor.wait(max(1, min(MAX_WAIT_FRAMES, frames)))
    raise ValueError(f"unknown action {kind!r}")


def adaptive_act(
    session: Any,
    instruction: str,
    *,
    max_steps: int = 8,
    llm: LLM | None = None,
    executor: ActionExecutor | None = None,
    context: str | None = None,
    record_dir: str | Path | None = None,
) -> AdaptiveResult:
    """Carry out one narrowly scoped `instruction` with a VLM choosing one action per step.

    Each step sends a screenshot, the tagged objects and the actions so far; the reply is one JSON
    action (see `ACT_SYSTEM`), executed through `executor` (default: `make_executor(session)`).
    An action that fails (unknown tag, unsupported) is recorded and reported back to the model on
    the next step. Ends when the model says done or give_up, after `max_steps` steps, or on a reply
    that stays unparseable after one retry. Without a provider the result is skipped, no action is
    taken. `record_dir` receives the trajectory and screenshots.
    """
    if max_steps < 1:
        raise ValueError("max_steps must be >= 1")
    instruction = instruction.strip()
    model, skip = _resolve(llm)
    if model is None:
        return AdaptiveResult(instruction, "skipped", skip or "skipped")
    executor = executor or make_executor(session)
    result = AdaptiveResult(instruction, "max_steps", f"no 'done' within {max_steps} steps", model=model.model)
    history: list[str] = []
    for index in range(1, max_steps + 1):
        shot = executor.screenshot()
        objects = executor.tagged_objects()
        prompt = (
            f"Instruction: {instruction}\n"
            + (f"About the app: {context}\n" if context else "")
            + f"Step {index} of at most {max_steps}.\n"
            + "Tagged objects:\n"
            + ("\n".join(json.dumps(o) for o in objects) if objects else "(none)")
            + "\nActions so far:\n"
            + ("\n".join(history) if history else "(none)")
            + "\nThe screenshot of the user's view follows."
        )
        messages = [Message("system", ACT_SYSTEM), Message("user", prompt, (Image(shot, "image/png"),))]
        action, raws = _ask_json(model, messages, _parse_action)
        step = AdaptiveStep(
            index=index,
            prompt=prompt,
            replies=raws,
            action=action,
            outcome="",
            ok=False,
            screenshot_sha256=hashlib.sha256(shot).hexdigest(),
            screenshot=shot,
        )
        result.steps.append(step)
        if action is None:
            step.outcome = "unparseable reply"
            result.status, result.reason = "invalid_reply", f"unparseable model reply: {raws[-1][:300]!r}"
            break
        kind = action["action"]
        if kind in ("done", "give_up"):
            step.ok = True
            step.outcome = kind
            result.status = "done" if kind == "done" else "gave_up"
            result.reason = str(action.get("reason") or kind)
            break
        try:
            step.outcome = _execute(executor, action)
            step.ok = True
        except (XRTestError, LookupError, ValueError, TypeError) as e:
            # Reported back to the model: it may pick another target or give up.
            step.outcome = f"failed: {str(e).splitlines()[0] if str(e) else type(e).__name__}"
        history.append(f"{index}. {json.dumps(action)} -> {step.outcome}")
    if record_dir is not None:
        result.save(record_dir)
    return result
