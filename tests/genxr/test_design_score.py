"""The VLM design score: frames from recorded videos (or key frames), ten heuristics rated by a
model served on 127.0.0.1 over the real OpenAI protocol, the job mean, unparseable replies, no provider."""

from __future__ import annotations

import contextlib
import json

import pytest
from job_fakes import make_job, make_png, make_trial, make_video
from llm_fakes import FakeServer, chat_completion, openai_default
from llm_fakes import serve as _serve

from xrbench.genxr import design_score as ds
from xrbench.genxr.frames import is_blank, sample_frames, spread
from xrbench.llm import resolve_llm

serve = contextlib.contextmanager(_serve)


def ratings_reply(scores: dict[str, int] | None = None, default: int = 4) -> str:
    scores = scores or {}
    return json.dumps(
        {
            "ratings": {
                h.key: {"score": scores.get(h.key, default), "reason": f"{h.name} looks fine"} for h in ds.HEURISTICS
            },
            "summary": "A tidy panel within reach.",
        }
    )


@pytest.fixture
def vlm(monkeypatch):
    """An LLM on a local fake OpenAI-compatible server (no disk cache, so every call reaches it)."""
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    server = FakeServer(default=openai_default)
    with serve(server) as srv:
        yield (
            srv,
            resolve_llm(provider="openai", model="fake-vlm", base_url=f"{srv.url}/v1", cache_dir="off", max_retries=0),
        )


def image_parts(body: dict) -> list[dict]:
    return [
        p
        for m in body["messages"]
        if isinstance(m["content"], list)
        for p in m["content"]
        if p.get("type") == "image_url"
    ]


def test_the_ten_heuristics_are_documented_in_the_prompt_and_readme():
    from pathlib import Path

    assert len(ds.HEURISTICS) == 10 and len({h.key for h in ds.HEURISTICS}) == 10
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    for h in ds.HEURISTICS:
        assert f'"{h.key}"' in ds.SYSTEM_PROMPT
        assert h.name in readme, f"README does not list the heuristic {h.name!r}"


def test_parse_ratings_accepts_only_ten_integer_scores():
    ratings, summary = ds.parse_ratings("Here you go:\n```json\n" + ratings_reply({"scale": 2}) + "\n```")
    assert ratings["scale"] == {"score": 2, "reason": "Real-world scale looks fine"} and summary.startswith("A tidy")
    flat = {h.key: 3 for h in ds.HEURISTICS}
    assert ds.parse_ratings(json.dumps(flat))[0]["legibility"]["score"] == 3  # bare scores, no "ratings" wrapper
    assert ds.parse_ratings(json.dumps({**flat, "legibility": "4"}))[0]["legibility"]["score"] == 4
    assert ds.parse_ratings(json.dumps({**flat, "legibility": 6})) is None  # out of range
    assert ds.parse_ratings(json.dumps({**flat, "legibility": 3.5})) is None
    assert ds.parse_ratings(json.dumps({k: v for k, v in flat.items() if k != "scale"})) is None  # one missing
    assert ds.parse_ratings("I like it.") is None


def test_frames_are_spread_over_the_videos_and_blank_frames_dropped(tmp_path):
    assert spread(list(range(10)), 3) == [1, 5, 8] and spread([1, 2], 5) == [1, 2] and spread([1], 0) == []
    job = tmp_path / "job"
    tests = [f"tests/test_app.py::test_{i}[right-empty]" for i in range(3)]
    trial = make_trial(job, "app-a", tests=[(t, "passed", "") for t in tests], recorded=tests)
    sample = sample_frames(trial, trial / "design" / "frames", n=4)
    assert sample.source == "video" and len(sample.frames) == 4
    assert [f.name for f in sample.frames] == ["01.png", "02.png", "03.png", "04.png"]
    # 4 frames over 3 videos: 2 + 1 + 1, each frame traced to its video and index.
    videos = [s.split("#")[0] for s in sample.sources]
    assert len(set(videos)) == 3 and all(v.endswith("/video.webm") for v in videos)
    assert not any(is_blank(f) for f in sample.frames)
    white = make_png(tmp_path / "white.png", color=(255, 255, 255), size=(8, 8))
    from PIL import Image

    Image.new("RGB", (8, 8), (255, 255, 255)).save(white)
    assert is_blank(white)


def test_key_frames_stand_in_when_there_is_no_video(tmp_path):
    test = "tests/test_app.py::test_button[right-empty]"
    trial = make_trial(tmp_path / "job", "app-a", recorded=[test], video=False)
    sample = sample_frames(trial, trial / "design" / "frames", n=8)
    assert sample.source == "keyframes" and len(sample.frames) == 2
    assert sample.sources[0].endswith("01-after-tap.png")
    bare = make_trial(tmp_path / "job", "app-b")
    assert sample_frames(bare, bare / "design" / "frames").source is None


def test_score_job_rates_app_trials_and_writes_prompts_and_replies(tmp_path, vlm):
    server, llm = vlm
    job = make_job(tmp_path)
    replies = {"app-counter": ratings_reply({"legibility": 2}), "app-orb": ratings_reply(default=5)}

    def answer(path, body):
        text = json.dumps(body)
        return 200, chat_completion(next(r for t, r in replies.items() if t in text), model=body["model"])

    server.default = answer
    summary = ds.score_job(job, llm, frames=3)
    # Only the two finished app trials are rated; the SDK trial and the unfinished one are not.
    assert len(server.requests) == 2
    for req in server.requests:
        assert len(image_parts(req.body)) == 3 and req.body["temperature"] == 0
        assert "placement_reach" in req.body["messages"][0]["content"]
        assert req.body.get("response_format", {}).get("type") == "json_object"
    counter = json.loads((job / "app-counter__mini__1" / "design" / "design.json").read_text())
    assert counter["status"] == "scored" and counter["source"] == "video"
    assert counter["design_score"] == pytest.approx((4 * 9 + 2) / 10)
    assert counter["ratings"]["legibility"] == {"score": 2, "reason": "Legibility at distance looks fine"}
    assert counter["frames"] == ["design/frames/01.png", "design/frames/02.png", "design/frames/03.png"]
    assert all((job / "app-counter__mini__1" / f).is_file() for f in counter["frames"])
    prompt = json.loads((job / "app-counter__mini__1" / "design" / "prompt.json").read_text())
    assert "Build the app-counter app" in prompt["user"] and len(prompt["images"]) == 3
    assert prompt["settings"]["json_output"] is True and prompt["settings"]["temperature"] == 0
    responses = json.loads((job / "app-counter__mini__1" / "design" / "responses.json").read_text())
    assert json.loads(responses[0]["text"])["ratings"]["legibility"]["score"] == 2
    assert summary == json.loads((job / ds.SUMMARY_FILE).read_text())
    assert summary["status"] == "scored" and summary["trials_app"] == 2 and summary["trials_scored"] == 2
    assert summary["design_score"] == pytest.approx((3.8 + 5.0) / 2)
    assert summary["by_heuristic"]["legibility"] == pytest.approx(3.5)
    assert summary["by_task"] == {"app-counter": 3.8, "app-orb": 5.0} and summary["model"] == "fake-vlm"
    assert not (job / "sdk-repair-x__mini__1" / "design").exists()


def test_unparseable_replies_are_retried_once_then_recorded(tmp_path, vlm):
    server, llm = vlm
    test = "tests/test_app.py::test_button[right-empty]"
    trial = make_trial(tmp_path / "job", "app-a", recorded=[test], video=False)
    server.default = lambda path, body: (200, chat_completion("It looks lovely!", model=body["model"]))
    record = ds.score_trial(trial, llm)
    assert len(server.requests) == 2  # one retry with a correction
    assert "not the JSON object" in server.requests[1].body["messages"][-1]["content"]
    assert record["design_score"] is None and record["status"].startswith("unparseable: ")
    assert "It looks lovely!" in record["status"]
    raws = json.loads((trial / "design" / "responses.json").read_text())
    assert [r["text"] for r in raws] == ["It looks lovely!", "It looks lovely!"]
    # A reply that parses on the retry is scored.
    server.queue(200, chat_completion("no json", model="fake-vlm"))
    server.queue(200, chat_completion(ratings_reply(default=3), model="fake-vlm"))
    assert ds.score_trial(trial, llm)["design_score"] == 3.0


def test_provider_errors_are_recorded_not_raised(tmp_path, vlm):
    server, llm = vlm
    test = "tests/test_app.py::test_button[right-empty]"
    trial = make_trial(tmp_path / "job", "app-a", recorded=[test], video=False)
    server.default = lambda path, body: (401, {"error": {"message": "bad key", "type": "invalid_request_error"}})
    record = ds.score_trial(trial, llm)
    assert record["design_score"] is None and record["status"].startswith("error: ")


def test_without_a_provider_the_score_is_skipped_with_the_reason(tmp_path):
    job = make_job(tmp_path, video=False)
    record = ds.score_trial(job / "app-counter__mini__1", None)
    assert record["design_score"] is None
    assert record["status"].startswith("skipped: no provider configured")
    summary = ds.score_job(job, None)
    assert summary["design_score"] is None and summary["trials_scored"] == 0 and summary["trials_app"] == 2
    assert summary["status"].startswith("skipped: no provider configured")
    assert not (job / "app-counter__mini__1" / "design" / "frames").exists()  # nothing sampled for nothing


def test_non_app_trials_and_trials_without_recordings_are_skipped(tmp_path, vlm):
    server, llm = vlm
    job = make_job(tmp_path, video=False)
    assert ds.score_trial(job / "sdk-repair-x__mini__1", llm)["status"] == "skipped: not an app task (sdk-repair)"
    bare = make_trial(tmp_path / "job2", "app-a")
    assert ds.score_trial(bare, llm)["status"].startswith("skipped: no recorded video or key frames")
    assert server.requests == []
    assert ds.summarize([])["status"] == "skipped: no app-task trials"


def test_make_video_is_decodable(tmp_path):
    from xrbench.genxr.frames import decode
    from xrbench.xrtest.browser import find_ffmpeg

    frames = decode(make_video(tmp_path / "v.webm", seconds=2.0), tmp_path / "out", str(find_ffmpeg()))
    assert len(frames) >= 3
