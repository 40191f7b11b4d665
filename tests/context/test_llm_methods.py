"""Zero-/few-shot LLM suggestion through the real `openai` client against a local server."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from llm_fakes import FakeServer, chat_completion, serve

from xrbench.context.cost import MenuCostModel
from xrbench.context.dataset import Dataset
from xrbench.context.evaluate import EvalConfig, evaluate
from xrbench.context.methods.registry import create_method
from xrbench.llm import resolve_llm

COOKING = ["recipes.view_recipe", "clock.set_timer", "made.up_facet"]
OTHER = ["music.view_now_playing", "music.open_section"]


def answer(path: str, body: dict) -> tuple[int, dict]:
    """Suggest by the scenario's task, the way a model would read the prompt."""
    user = next(m["content"] for m in body["messages"] if m["role"] == "user")
    task = re.search(r"^Task: (.*)$", user, re.M).group(1)
    ids = COOKING if task == "cooking" else OTHER
    reply = {
        "summary": "s",
        "recommendations": [{"facet_id": f, "tier": "primary", "confidence": 0.9, "reason": "r"} for f in ids],
    }
    return 200, chat_completion(json.dumps(reply), model=body["model"])


@pytest.fixture
def server() -> Iterator[FakeServer]:
    yield from serve(FakeServer(answer))


@pytest.fixture
def llm(server, tmp_path):
    return resolve_llm(
        provider="openai",
        base_url=server.url + "/v1",
        model="test-model",
        cache_dir=tmp_path / "cache",
        retry_wait=(0.01, 0.02),
    )


@pytest.fixture
def ds(tiny_dir):
    return Dataset.load(tiny_dir)


def run(ds, name, llm, task="initial", concurrency=None):
    method = create_method(name)
    method.llm = llm
    if concurrency:
        method.concurrency = concurrency
    return evaluate(ds, method, name, MenuCostModel(ds.catalog), EvalConfig(task, folds=3))


def test_zero_shot_prompt_settings_and_parsing(ds, llm, server):
    result = run(ds, "zeroshot-llm", llm)
    s1 = result["records"][0]
    assert s1["suggestions"] == ["recipes.view_recipe", "clock.set_timer"]
    assert s1["info"]["unknown_ids"] == ["made.up_facet"] and s1["info"]["unknown_count"] == 1
    # Requests run on a small thread pool: find s1's (cooking, kitchen, alone) by its content.
    body = next(
        r.body
        for r in server.requests
        if "cooking\nEnvironment: kitchen\nSocial: alone" in r.body["messages"][1]["content"]
    )
    assert body["temperature"] == 0.2
    assert body["response_format"] == {"type": "json_object"}
    system = body["messages"][0]["content"]
    assert system.startswith("You are an XR (Extended Reality) context-aware functional access support system.")
    assert "Recommend exactly 10 unique facets" in system
    user = body["messages"][1]["content"]
    assert "Task: cooking\nEnvironment: kitchen\nSocial: alone" in user
    assert (
        "- facet_id=recipes.view_recipe; app=Recipes; facet_name=View Recipe; is_entry_facet=false; "
        "linked_facets=[recipes.cook_recipe]"
    ) in user
    assert "Historical examples" not in user
    # A rerun is served from the disk cache: no new requests.
    n = len(server.requests)
    again = run(ds, "zeroshot-llm", llm)
    assert len(server.requests) == n and again["records"] == result["records"]


def test_next_task_prompt_lists_placed_facets(ds, llm, server):
    result = run(ds, "zeroshot-llm", llm, task="next")
    rec = next(r for r in result["records"] if r["scenario_id"] == "s1" and r["step"] == 2)
    assert rec["history"] == ["recipes.open_section", "recipes.view_recipe"]
    assert "recipes.view_recipe" not in rec["suggestions"]
    prompts = [r.body["messages"][1]["content"] for r in server.requests]
    placed = [p for p in prompts if "1. facet_id=recipes.open_section; app=Recipes" in p]
    assert placed and "Existing user-placed facets in the XR layout:" in placed[0]


def test_few_shot_condition_examples_and_left_out(ds, llm, server):
    result = run(ds, "fewshot-llm-task+env", llm)
    # s6 (relaxing, kitchen) has no other scenario with the same task and environment.
    assert result["left_out"] == ["s6"]
    assert result["aggregate"]["scenarios"] == 5
    # s2 is the only scenario with social = "with others": its examples are the other cooking/kitchen ones.
    prompt = next(
        r.body["messages"][1]["content"]
        for r in server.requests
        if "Social: with others" in r.body["messages"][1]["content"]
    )
    assert "Transfer condition: Task+Env" in prompt
    assert set(re.findall(r"scenario=(\w+)", prompt)) == {"s1", "s5"}
    assert "- Recipes / Browse Recipes [recipes.browse_recipes]" not in prompt  # s2's own facets stay hidden
    assert (
        server.requests[-1]
        .body["messages"][0]["content"]
        .startswith("You are an XR (Extended Reality) context-aware functional access support system.\nYou are given:")
    )


def test_malformed_json_is_retried_once_then_recorded_as_failed(ds, llm, server):
    server.queue(200, chat_completion("not json at all"))
    result = run(ds, "zeroshot-llm", llm, concurrency=1)
    # s1 gets the broken reply; s5 has the identical prompt, so the cache replays the same exchange.
    retried = [r for r in result["records"] if r["info"]["retried"]]
    assert {r["scenario_id"] for r in retried} == {"s1", "s5"}
    assert all(r["suggestions"] == ["recipes.view_recipe", "clock.set_timer"] for r in retried)
    retry_msgs = next(r.body["messages"] for r in server.requests if len(r.body["messages"]) == 4)
    assert retry_msgs[-2] == {"role": "assistant", "content": "not json at all"}
    assert "could not be parsed" in retry_msgs[-1]["content"]

    server.queue(200, chat_completion("{broken"))
    server.queue(200, chat_completion("still {broken"))
    method = create_method("zeroshot-llm")
    method.llm = resolve_llm(
        provider="openai", base_url=server.url + "/v1", model="other-model", retry_wait=(0.01, 0.02)
    )
    method.concurrency = 1
    out = evaluate(ds, method, "zeroshot-llm", MenuCostModel(ds.catalog), EvalConfig("initial", folds=3))
    failed = [r for r in out["records"] if "error" in r]
    # s5's prompt is identical to s1's, so it gets the same (cached) broken exchange.
    assert [r["scenario_id"] for r in failed] == ["s1", "s5"] and failed[0]["suggestions"] == []
    assert "malformed model reply after retry" in failed[0]["error"]
    assert failed[0]["cost"] == failed[0]["manual_cost"]
    assert out["aggregate"]["failed"] == 2


def test_replay_of_recorded_responses(ds, llm, tmp_path, server):
    recordings = tmp_path / "rec.jsonl"
    live = resolve_llm(
        provider="openai", base_url=server.url + "/v1", model="test-model", cache_dir=None, record=recordings
    )
    recorded = run(ds, "zeroshot-llm", live)
    replayed = run(ds, "zeroshot-llm", resolve_llm(replay=recordings, cache_dir=None))
    assert [r["suggestions"] for r in replayed["records"]] == [r["suggestions"] for r in recorded["records"]]


def test_context_run_with_a_configured_provider(tiny_dir, server, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from xrbench.cli.main import app

    monkeypatch.setenv("XRBENCH_BASE_URL", server.url + "/v1")
    monkeypatch.setenv("XRBENCH_MODEL", "test-model")
    out = tmp_path / "run"
    args = ["context", "run", "--data", str(tiny_dir), "--methods", "manual,zeroshot-llm,fewshot-llm-user"]
    r = CliRunner().invoke(app, [*args, "--folds", "3", "--out", str(out)])
    assert r.exit_code == 0, r.output
    table = (out / "table_initial.md").read_text()
    assert "Zero-shot LLM" in table and "Few-shot LLM (user)" in table
    result = json.loads((out / "initial" / "zeroshot-llm.json").read_text())
    assert result["config"]["provider"]["model"] == "test-model"
    assert result["config"]["generation"]["temperature"] == 0.2
    assert "skipped" not in r.output
