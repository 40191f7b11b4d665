"""Recording live answers and replaying them offline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from llm_fakes import FIXTURE_MODEL, FIXTURE_REQUESTS, FakeServer

from xrbench.llm import (
    LLM,
    GenerationSettings,
    Image,
    Message,
    ProviderError,
    RecordingProvider,
    ReplayMiss,
    ReplayProvider,
    request_key,
    resolve_llm,
)
from xrbench.llm.keys import key_of
from xrbench.llm.openai_compat import OpenAICompatProvider

FIXTURE = Path(__file__).parent / "fixtures" / "recordings.jsonl"
QUESTIONS = [[Message("user", f"question {i}")] for i in range(3)]


def live(server: FakeServer) -> OpenAICompatProvider:
    return OpenAICompatProvider(base_url=server.url + "/v1")


def test_record_then_replay_offline(openai_server: FakeServer, tmp_path: Path) -> None:
    path = tmp_path / "rec.jsonl"
    recorder = LLM(RecordingProvider(live(openai_server), path), "m")
    recorded = [recorder.complete(q, GenerationSettings(seed=2)) for q in QUESTIONS]
    recorder.complete(QUESTIONS[0], GenerationSettings(seed=2))  # already recorded: not appended again

    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(lines) == 3
    for line, q in zip(lines, QUESTIONS, strict=True):
        assert line["key"] == request_key(recorder.provider, "m", q, GenerationSettings(seed=2))
        assert line["request"]["messages"][0]["content"] == q[0].content
        assert line["response"]["text"] == f"echo: {q[0].content}"
    served = len(openai_server.requests)

    replay = LLM(ReplayProvider(path), "m")
    for q, original in zip(QUESTIONS, recorded, strict=True):
        out = replay.complete(q, GenerationSettings(seed=2))
        assert out.text == original.text
        assert out.usage == original.usage
        assert out.provider == "replay"
    assert len(openai_server.requests) == served

    with pytest.raises(ReplayMiss) as info:
        replay.complete(QUESTIONS[0], GenerationSettings(seed=3))
    assert info.value.key == request_key(recorder.provider, "m", QUESTIONS[0], GenerationSettings(seed=3))
    assert info.value.preview == "question 0"
    assert info.value.key in str(info.value)
    assert "question 0" in str(info.value)


def test_cache_hits_are_recorded_too(openai_server: FakeServer, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    LLM(live(openai_server), "m", cache_dir=cache).complete(QUESTIONS[0])
    record = tmp_path / "rec.jsonl"
    out = LLM(live(openai_server), "m", cache_dir=cache, record=record).complete(QUESTIONS[0])
    assert out.cached is True
    assert len(openai_server.requests) == 1
    replayed = ReplayProvider(record).complete(QUESTIONS[0], model="m", settings=GenerationSettings())
    assert replayed.text == out.text


def test_record_from_env(openai_server: FakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record = tmp_path / "rec.jsonl"
    monkeypatch.setenv("XRBENCH_RECORD", str(record))
    llm = resolve_llm(base_url=openai_server.url + "/v1", model="m", cache_dir=tmp_path / "cache")
    assert llm.describe()["record"] == str(record)
    llm.complete(QUESTIONS[1])
    assert len(record.read_text().splitlines()) == 1


def test_replay_fixture() -> None:
    llm = resolve_llm(replay=FIXTURE)
    assert llm.model == FIXTURE_MODEL  # the only model in the file
    assert llm.describe() == {"provider": "replay", "model": FIXTURE_MODEL, "replay": str(FIXTURE)}
    for messages, settings in FIXTURE_REQUESTS:
        out = llm.complete(messages, settings)
        assert out.text == f"echo: {messages[-1].content}"
        assert out.usage.input_tokens == 11
        assert out.cached is False


def test_fixture_keys_are_request_keys() -> None:
    # Guards the key function: changing it silently would orphan every recording and cache entry.
    for line in FIXTURE.read_text().splitlines():
        rec = json.loads(line)
        assert rec["key"] == key_of(rec["request"])


def test_replay_miss_names_key_and_prompt() -> None:
    replay = ReplayProvider(FIXTURE)
    other_image = [Message("user", "What is in this image?", (Image(b"another picture"),))]
    with pytest.raises(ReplayMiss) as info:
        replay.complete(other_image, model=FIXTURE_MODEL, settings=FIXTURE_REQUESTS[1][1])
    assert len(info.value.key) == 64
    assert info.value.preview == "What is in this image?"
    assert str(FIXTURE) in str(info.value)


def test_truncated_last_line_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "rec.jsonl"
    path.write_text(FIXTURE.read_text() + '{"key": "abc", "requ')
    assert len(ReplayProvider(path)) == 2


def test_corrupt_line_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "rec.jsonl"
    path.write_text("not json\n" + FIXTURE.read_text())
    with pytest.raises(ProviderError, match="line 1"):
        ReplayProvider(path)
