"""VLM checks and the adaptive actor, offline: a fake OpenAI-compatible server on 127.0.0.1 plays the model."""

from __future__ import annotations

import base64
import json
import struct
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from llm_fakes import FakeServer, chat_completion, openai_error, serve

from xrbench.xrtest import XRSession
from xrbench.xrtest.iwer import IWERSession
from xrbench.xrtest.vlm import (
    RETRY_PROMPT,
    AdaptiveResult,
    adaptive_act,
    assert_vlm,
    make_executor,
    vlm_check,
)

REPO = Path(__file__).resolve().parents[2]
IWER_APP = REPO / "examples" / "iwer_cube"
TAP_TO_LIGHT = REPO / "examples" / "tap_to_light"
# A 1x1 PNG: enough for the parts of the pipeline that do not look at the picture.
TINY_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def user_parts(body: dict[str, Any]) -> tuple[str, list[bytes]]:
    """The text and the decoded images of the first user message of a chat request."""
    user = next(m for m in body["messages"] if m["role"] == "user")
    assert isinstance(user["content"], list), "the user message carries no image parts"
    text = " ".join(p["text"] for p in user["content"] if p["type"] == "text")
    images = []
    for part in user["content"]:
        if part["type"] == "image_url":
            url = part["image_url"]["url"]
            assert url.startswith("data:image/png;base64,")
            images.append(base64.b64decode(url.split(",", 1)[1]))
    return text, images


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def reply(obj: Any) -> tuple[int, Any]:
    return 200, chat_completion(obj if isinstance(obj, str) else json.dumps(obj), model="test-vlm")


@pytest.fixture
def fake_vlm(monkeypatch) -> Iterator[Callable[[Callable[[str, Any], tuple[int, Any]]], FakeServer]]:
    """`fake_vlm(responder)` serves a fake OpenAI endpoint and configures it as the provider (no cache)."""
    servers: list[Iterator[FakeServer]] = []

    def start(responder: Callable[[str, Any], tuple[int, Any]]) -> FakeServer:
        def checked(path: str, body: Any) -> tuple[int, Any]:
            # A failed check inside the server answers 400 (not retried), so the test fails at once
            # with the message instead of waiting out the client's retries of a dropped connection.
            try:
                return responder(path, body)
            except AssertionError as e:
                return 400, openai_error(f"fake model check failed: {e}", "invalid_request_error")

        gen = serve(FakeServer(checked))
        servers.append(gen)
        server = next(gen)
        monkeypatch.setenv("XRBENCH_BASE_URL", server.url + "/v1")
        monkeypatch.setenv("XRBENCH_MODEL", "test-vlm")
        monkeypatch.setenv("XRBENCH_CACHE_DIR", "off")  # every call must reach the fake server
        monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
        for var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
            monkeypatch.delenv(var, raising=False)
        return server

    yield start
    for gen in servers:
        gen.close()


@pytest.fixture
def open_iwer(xr_browser) -> Iterator[Callable[..., IWERSession]]:
    sessions: list[IWERSession] = []

    def factory(**kwargs: Any) -> IWERSession:
        session = IWERSession(IWER_APP, browser=xr_browser, **kwargs)
        sessions.append(session)
        return session.open()

    yield factory
    for session in sessions:
        session.close()


class StubSession:
    """A session stand-in for the judging logic: a fixed screenshot, nothing else."""

    def __init__(self) -> None:
        self.shots = 0

    def screenshot(self) -> bytes:
        self.shots += 1
        return TINY_PNG


class RecordingExecutor:
    """An executor that only records what it was asked to do."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def tagged_objects(self) -> list[dict[str, Any]]:
        return [{"tag": "start-button", "position": [0, 1.2, -1], "visible": True}]

    def screenshot(self) -> bytes:
        self.calls.append(("screenshot", None))
        return TINY_PNG

    def click(self, target: str) -> str:
        self.calls.append(("click", target))
        return f"clicked {target}"

    def point(self, target: str) -> str:
        self.calls.append(("point", target))
        return f"pointed at {target}"

    def look(self, target: Any) -> str:
        self.calls.append(("look", target))
        return f"looked at {target}"

    def turn(self, yaw_deg: float, pitch_deg: float) -> str:
        self.calls.append(("turn", (yaw_deg, pitch_deg)))
        return "turned"

    def wait(self, frames: int) -> str:
        self.calls.append(("wait", frames))
        return f"waited {frames}"


# --- vlm_check -----------------------------------------------------------------------------------


@pytest.mark.xr
def test_vlm_check_judges_the_users_view(open_iwer, fake_vlm, tmp_path):
    def judge(path: str, body: Any) -> tuple[int, Any]:
        assert path == "/v1/chat/completions" and body["model"] == "test-vlm"
        text, images = user_parts(body)
        assert images and all(png_size(i) == (640, 360) for i in images)  # the page as the user sees it
        assert body["response_format"] == {"type": "json_object"} and body["temperature"] == 0.0
        if "blue cube" in text:
            return reply({"pass": True, "reason": "a blue cube is in front of the user"})
        return reply({"pass": False, "reason": "there is no red sphere"})

    server = fake_vlm(judge)
    s = open_iwer()
    s.step(1)
    verdict = vlm_check(s, "A blue cube is visible in front of the user.", record_dir=tmp_path / "check")
    assert verdict.passed and not verdict.skipped
    assert verdict.reason == "a blue cube is in front of the user"
    assert verdict.images == 1 and verdict.model == "test-vlm" and len(verdict.raw) == 1
    text, _ = user_parts(server.last.body)
    assert "Criterion: A blue cube is visible in front of the user." in text
    assert (tmp_path / "check" / "view-0.png").is_file()
    assert json.loads((tmp_path / "check" / "verdict.json").read_text())["passed"] is True

    with pytest.raises(AssertionError, match="there is no red sphere"):
        assert_vlm(s, "A red sphere is visible.")
    # Two key frames, ten frames apart, go out in one request.
    frame = s.frame
    verdict = vlm_check(s, "A blue cube stays visible.", views=2, frames_between=10)
    assert verdict.images == 2 and s.frame == frame + 10
    assert len(user_parts(server.last.body)[1]) == 2
    # A view can first turn the head towards a tagged object.
    vlm_check(s, "A blue cube fills the centre of the view.", views=["cube"])
    assert s.camera_pose().forward == pytest.approx((0, -0.196, -0.981), abs=1e-3)


def test_unparseable_reply_is_retried_once_then_fails_with_the_raw_text(fake_vlm):
    server = fake_vlm(lambda path, body: reply({"pass": True, "reason": "fine"}))
    session = StubSession()

    server.queue(*reply("Sure! The cube looks blue to me."))
    verdict = vlm_check(session, "The cube is blue.")
    assert verdict.passed and verdict.raw == ("Sure! The cube looks blue to me.", '{"pass": true, "reason": "fine"}')
    retry = server.last.body["messages"]
    assert retry[-2] == {"role": "assistant", "content": "Sure! The cube looks blue to me."}
    assert retry[-1] == {"role": "user", "content": RETRY_PROMPT}

    server.queue(*reply("no idea"))
    server.queue(*reply('{"pass": "maybe"}'))
    verdict = vlm_check(session, "The cube is blue.")
    assert not verdict.passed and not verdict.skipped
    assert verdict.raw == ("no idea", '{"pass": "maybe"}')
    assert "unparseable model reply" in verdict.reason and '{"pass": "maybe"}' in verdict.reason

    # Fenced JSON with prose around it is accepted as is.
    server.queue(*reply('Here you go:\n```json\n{"pass": false, "reason": "it is red"}\n```'))
    verdict = vlm_check(session, "The cube is blue.")
    assert not verdict.passed and verdict.reason == "it is red" and len(verdict.raw) == 1


def test_provider_errors_are_not_verdicts(fake_vlm):
    from xrbench.llm import AuthError

    fake_vlm(lambda path, body: (401, openai_error("bad key", "invalid_request_error", "invalid_api_key")))
    with pytest.raises(AuthError):
        vlm_check(StubSession(), "The cube is blue.")


def test_without_a_provider_checks_and_actor_are_skipped():
    session = StubSession()
    verdict = vlm_check(session, "The cube is blue.")
    assert verdict.skipped and not verdict.passed
    assert verdict.reason.startswith("skipped: no provider configured")
    assert session.shots == 0  # nothing is captured for a check that cannot run
    with pytest.raises(pytest.skip.Exception, match="no provider configured"):
        assert_vlm(session, "The cube is blue.")

    executor = RecordingExecutor()
    result = adaptive_act(session, "press start", executor=executor)
    assert result.skipped and not result.completed and result.steps == []
    assert result.reason.startswith("skipped: no provider configured")
    assert executor.calls == []


# --- adaptive_act ----------------------------------------------------------------------------------


@pytest.mark.xr
def test_adaptive_actor_turns_on_the_lamp_in_two_steps(open_session, fake_vlm, tmp_path):
    script = iter([{"action": "click", "target": "lamp", "reason": "the lamp's button"}, {"action": "done"}])

    def model(path: str, body: Any) -> tuple[int, Any]:
        text, images = user_parts(body)
        assert len(images) == 1 and png_size(images[0]) == (640, 360)
        assert "Instruction: turn on the lamp" in text and '"tag": "lamp"' in text
        assert body["messages"][0]["role"] == "system" and '"action": "click"' in body["messages"][0]["content"]
        return reply(next(script))

    server = fake_vlm(model)
    s: XRSession = open_session(TAP_TO_LIGHT, scene="empty")
    s.step(1)
    assert s.find_by_tag("lamp").state["on"] is False
    result = adaptive_act(s, "turn on the lamp", record_dir=tmp_path / "run")
    assert result.completed and result.status == "done"
    assert [step.action["action"] for step in result.steps if step.action] == ["click", "done"]
    assert result.steps[0].ok and result.steps[0].outcome.startswith("clicked lamp at screen point")
    assert s.find_by_tag("lamp").state == {"on": True, "toggles": 1}
    # The second prompt reports what the first action did.
    second, _ = user_parts(server.requests[1].body)
    assert '1. {"action": "click", "target": "lamp"' in second and "clicked lamp" in second
    saved = json.loads((tmp_path / "run" / "trajectory.json").read_text())
    assert saved["completed"] and len(saved["steps"]) == 2 and saved["steps"][0]["replies"]
    assert (tmp_path / "run" / "step-01.png").is_file() and (tmp_path / "run" / "step-02.png").is_file()


@pytest.mark.xr
def test_adaptive_actor_is_bounded_by_max_steps(open_iwer, fake_vlm):
    answers = iter(
        [
            {"action": "click", "target": "teapot", "reason": "maybe it is the teapot"},
            {"action": "point", "target": "cube"},
            {"action": "wait", "frames": 5},
        ]
    )
    fake_vlm(lambda path, body: reply(next(answers)))
    s = open_iwer(input_mode="hand")
    s.step(1)
    result: AdaptiveResult = adaptive_act(s, "make the cube orange", max_steps=3)
    assert result.status == "max_steps" and not result.completed and len(result.steps) == 3
    first, second, third = result.steps
    assert not first.ok and first.outcome.startswith("failed: no object tagged 'teapot'")
    assert second.ok and second.outcome == "aimed the right hand at cube"
    assert third.ok and third.outcome == "waited 5 frames"
    assert "-> failed: no object tagged 'teapot'" in third.prompt  # the model was told
    assert s.find_by_tag("cube").state["selects"] == 0  # pointing is not selecting


def test_executor_protocol_and_invalid_replies(fake_vlm):
    fake_vlm(lambda path, body: reply("I would press the start button."))
    executor = RecordingExecutor()
    assert make_executor(executor) is executor
    result = adaptive_act(StubSession(), "press start", executor=executor)
    assert result.status == "invalid_reply" and len(result.steps) == 1
    assert result.steps[0].replies == ["I would press the start button."] * 2
    assert [c[0] for c in executor.calls] == ["screenshot"]
    with pytest.raises(TypeError):
        make_executor(object())
