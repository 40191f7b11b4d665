"""`xrbench llm info` / `xrbench llm ask`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from llm_fakes import FakeServer
from typer.testing import CliRunner

from xrbench.cli.llm_cmd import app

FIXTURE = Path(__file__).parent / "fixtures" / "recordings.jsonl"
runner = CliRunner()


def test_info_not_configured() -> None:
    result = runner.invoke(app, ["info"])
    assert result.exit_code == 0
    assert "skipped: no provider configured" in result.output


def test_info_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "g")
    result = runner.invoke(app, ["info", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["configured"] is True
    assert (data["provider"], data["model"]) == ("gemini", "gemini-2.5-flash")


def test_info_replay() -> None:
    result = runner.invoke(app, ["info", "--replay", str(FIXTURE)])
    assert result.exit_code == 0
    assert "provider: replay" in result.output
    assert "model: local-model" in result.output


def test_ask_replay() -> None:
    args = ["ask", "Name one XR headset.", "--system", "Answer briefly.", "--seed", "1"]
    result = runner.invoke(app, [*args, "--replay", str(FIXTURE)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "echo: Name one XR headset."
    assert "16 total tokens" in result.output


def test_ask_replay_miss() -> None:
    result = runner.invoke(app, ["ask", "Something never recorded", "--replay", str(FIXTURE)])
    assert result.exit_code == 1
    assert "Something never recorded" in result.output


def test_ask_live(openai_server: FakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XRBENCH_CACHE_DIR", str(tmp_path))
    args = ["ask", "ping", "--base-url", openai_server.url + "/v1", "--model", "m"]
    args += ["--max-output-tokens", "5"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "echo: ping"
    assert openai_server.last.body["max_tokens"] == 5
    again = runner.invoke(app, args)
    assert "(cached)" in again.output
    assert len(openai_server.requests) == 1


def test_ask_not_configured() -> None:
    result = runner.invoke(app, ["ask", "hello"])
    assert result.exit_code == 2
    assert "no provider configured" in result.output


def test_ask_with_image_and_reasoning(openai_server: FakeServer, tmp_path: Path) -> None:
    image = tmp_path / "frame.jpg"
    image.write_bytes(b"jpeg")
    args = ["ask", "what?", "--base-url", openai_server.url + "/v1", "--model", "m", "--image", str(image)]
    result = runner.invoke(app, [*args, "--reasoning", "high", "--json-output"])
    assert result.exit_code == 0, result.output
    body = openai_server.last.body
    assert body["messages"][0]["content"][1]["image_url"]["url"].startswith("data:image/jpeg;base64,")
    assert body["reasoning_effort"] == "high"
    assert body["response_format"] == {"type": "json_object"}
