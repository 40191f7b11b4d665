"""Regenerate `recordings.jsonl`: one bundled task (`select-cube-color`), both default arms and
their judge calls, recorded from the local fake OpenAI server (`guidance_fakes`).

Run from the repository root: ``.venv/bin/python tests/guidance/make_recordings.py``. Rerun it
when the app contract, the task, its skill or references, or the judge prompt change (the
requests, and so their keys, change with them).
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from guidance_fakes import guidance_responder  # noqa: E402
from llm_fakes import FakeServer, serve  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from xrbench.cli.main import app  # noqa: E402

MODEL = "fake-coder"


def main() -> None:
    out = HERE / "recordings.jsonl"
    out.unlink(missing_ok=True)
    os.environ["XRBENCH_CACHE_DIR"] = "off"
    os.environ["XRBENCH_RECORD"] = str(out)
    os.environ["NO_PROXY"] = "127.0.0.1"
    servers = serve(FakeServer(guidance_responder))
    server = next(servers)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            args = ["guidance", "run", "--tasks", "select-cube-color", "--judge", "--base-url", server.url + "/v1"]
            result = CliRunner().invoke(app, [*args, "--model", MODEL, "--out", tmp])
            print(result.output)
            if result.exit_code != 0:
                raise SystemExit(result.exit_code)
    finally:
        servers.close()
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
