"""The FIXED static score, case by case (upstream `score_proto.py` semantics)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from conftest import make_task

from xrbench.guidance.score import (
    NODE_MISSING,
    SCORE_KEYS,
    ModuleParser,
    ParseResult,
    check_module,
    normalize_error,
    score_many,
    score_source,
    score_workspace,
    strip_comments,
)
from xrbench.guidance.task import GuidanceSpec

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def spec(**kw) -> GuidanceSpec:
    base = {"skill": "xb-build-app", "template": "templates/basic", "edit_file": "main.js"}
    return GuidanceSpec.model_validate({**base, **kw})


OK = ParseResult(True)


# --- comments --------------------------------------------------------------------------------------


def test_line_comment_does_not_count_but_a_string_does():
    # Upstream's pinned cases: prose about a gesture is not usage; the gesture name as a string is.
    s = spec(expected_apis=["thumbs-up"])
    assert score_source("t", s, b"// Detect a thumbs-up\nconst a = 1;\n", OK)["api_match"] == 0.0
    assert score_source("t", s, b"opts.setGestureEnabled('thumbs-up', true);\n", OK)["api_match"] == 1.0


def test_block_comments_removed_strings_and_templates_kept():
    src = "/* xb.enableHands() */ const u = 'http://x/*y*/'; const t = `a // ${b} c`; // tail\n"
    assert strip_comments(src) == " const u = 'http://x/*y*/'; const t = `a // ${b} c`; \n"


def test_regex_literals_are_kept_and_do_not_start_strings():
    src = "const re = /'\\/\\/x/g; xb.init(); // done\nconst half = a / b; // c\n"
    out = strip_comments(src)
    assert "xb.init();" in out and "done" not in out and "const half = a / b; \n" in out


def test_unterminated_block_comment_removes_the_rest():
    assert strip_comments("a(); /* never closed\nxb.init();") == "a(); "


# --- each share --------------------------------------------------------------------------------------


def test_import_match_is_a_substring_of_the_raw_source_comments_included():
    s = spec(expected_imports=["xrblocks/addons/netblocks/src/index.js", "@dimforge/rapier3d"])
    r = score_source("t", s, b"// see xrblocks/addons/netblocks/src/index.js\n", OK)
    assert (r["import_hits"], r["import_total"], r["import_match"]) == (1, 2, 0.5)


def test_forbidden_patterns_are_regexes_on_the_code_comments_left_out():
    s = spec(forbidden_patterns=["SpatialPanel", "navigator\\.xr\\.", "requestAnimationFrame"])
    # Quoting the contract's own rule in a comment is not breaking it (upstream counted it).
    quoted = b"// Never call requestAnimationFrame yourself.\n/* no SpatialPanel */\nconst x = navigatorXxr;\n"
    assert score_source("t", s, quoted, OK)["forbidden_violations"] == []
    r = score_source("t", s, b"new xb.SpatialPanel(); // a comment\nconst s = 'navigator.xr.x';\n", OK)
    assert r["forbidden_violations"] == ["SpatialPanel", "navigator\\.xr\\."] and r["forbidden_clean"] == 0.0
    clean = score_source("t", s, b"const ok = 1;\n", OK)
    assert clean["forbidden_violations"] == [] and clean["forbidden_clean"] == 1.0


def test_a_reply_without_code_scores_zero_on_every_dimension():
    s = spec(expected_apis=["xb.init"], expected_imports=["xrblocks"])
    r = score_source("t", s, b"", OK, no_code=True)
    assert (r["import_match"], r["api_match"], r["forbidden_clean"], r["parse_ok"], r["composite"]) == (0, 0, 0, 0, 0)
    assert r["no_code"] is True
    assert "no_code" not in score_source("t", s, b"xb.init();", OK)


def test_shares_round_to_three_places_and_are_one_when_nothing_is_expected():
    s = spec(expected_apis=["a1", "b2", "c3"])
    assert score_source("t", s, b"a1();", OK)["api_match"] == 0.333
    assert score_source("t", s, b"a1(); b2();", OK)["api_match"] == 0.667
    empty = score_source("t", spec(), b"", OK)
    assert empty["import_match"] == 1.0 and empty["api_match"] == 1.0


def test_composite_drops_import_match_when_no_imports_are_expected():
    s = spec(expected_apis=["a1", "b2"])
    r = score_source("t", s, b"a1();", ParseResult(False, ("main.js:1: SyntaxError: x",)))
    # mean(api 0.5, parse 0, forbidden 1) = 0.5
    assert r["composite"] == 0.5 and r["parse_ok"] == 0.0 and r["parse_errors"] == ["main.js:1: SyntaxError: x"]
    s2 = spec(expected_apis=["a1", "b2"], expected_imports=["zz"])
    # mean(api 0.5, parse 1, forbidden 1, import 0) = 0.625
    assert score_source("t", s2, b"a1();", OK)["composite"] == 0.625


def test_composite_rounds_to_three_places():
    s = spec(expected_apis=["a1", "b2", "c3"])
    # mean(1/3 rounded to 0.333, 1, 1) = 0.777...
    assert score_source("t", s, b"a1();", OK)["composite"] == 0.778


def test_output_keys_and_src_bytes():
    r = score_source("t", spec(), "é;".encode(), OK)
    assert tuple(r) == SCORE_KEYS
    assert r["task"] == "t" and r["skill"] == "xb-build-app" and r["src_bytes"] == 3


# --- parsing as a module -------------------------------------------------------------------------------


@needs_node
def test_node20_check_pitfall_is_caught(tmp_path: Path):
    """`node --check main.js` passes an import plus a syntax error; the module check does not."""
    src = "import * as xb from 'xrblocks';\nconst a = ;\n"
    f = tmp_path / "main.js"
    f.write_text(src)
    plain = subprocess.run(["node", "--check", str(f)], capture_output=True)
    major = int(subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()[1:].split(".")[0])
    if major == 20:
        assert plain.returncode == 0  # the pitfall itself, as documented for Node 20
    r = check_module(src)
    assert r == ParseResult(False, ("main.js:2: SyntaxError: Unexpected token ';'",))


@needs_node
@pytest.mark.parametrize(
    ("src", "ok"),
    [
        ("import * as xb from 'xrblocks';\nawait xb.init();\nexport const x = 1;\n", True),  # top-level await
        ("#!/usr/bin/env node\nconst a = 1;\n", True),
        ("", True),
        ("with (Math) { x = 1; }\n", False),  # strict mode in modules
        ("<!-- html comment\nconst a = 1;\n", False),  # not allowed in modules
        ("export { nope };\n", False),
        ("const await = 1;\n", False),
        ("const s = `abc\n", False),
    ],
)
def test_module_goal(src: str, ok: bool):
    assert check_module(src).ok is ok


@needs_node
def test_batch_equals_one_process_per_file():
    sources = [
        "import * as xb from 'xrblocks';\nconst a = ;\n",
        "const a = 1;\nfunction f( {\n",
        "let a = 1;\nlet a = 2;\n",
        "export { nope };\n",
        "import * as THREE from 'three';\nexport default class A extends THREE.Object3D {}\n",
        "with (Math) {}\n",
        "",
    ]
    with ModuleParser() as parser:
        batch = parser.check_many([("main.js", s) for s in sources])
    assert batch == [check_module(s) for s in sources]


@needs_node
def test_batch_falls_back_per_file_when_locations_are_unavailable(monkeypatch: pytest.MonkeyPatch):
    """A batch answer without a location is re-checked on its own, so results stay identical."""
    parser = ModuleParser()
    monkeypatch.setattr(parser, "_batch", lambda items: [{"ok": False, "stack": None} for _ in items])
    src = "import 'x';\nconst a = ;\n"
    assert parser.check_many([("main.js", src)]) == [check_module(src)]


def test_node_missing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setenv("XRBENCH_NODE", str(tmp_path / "no-such-node"))
    assert check_module("const a = 1;") == ParseResult(False, (NODE_MISSING,))
    with ModuleParser() as parser:
        assert parser.check("const a = 1;") == ParseResult(False, (NODE_MISSING,))


def test_normalize_error_reads_both_headers():
    check_out = (
        "[stdin]:2\nconst a = ;\n          ^\n\n"
        "SyntaxError: Unexpected token ';'\n    at checkSyntax (x)\n\nNode.js v20"
    )
    batch_out = "main.js:2\nconst a = ;\n          ^\n\nSyntaxError: Unexpected token ';'\n    at new Module (y)"
    assert normalize_error(check_out, "main.js") == normalize_error(batch_out, "main.js")


# --- workspaces ------------------------------------------------------------------------------------------


@needs_node
def test_score_workspace_and_batch_give_identical_results(tmp_path: Path):
    task = make_task(
        tmp_path / "tasks",
        "demo",
        {
            "skill": "xb-build-app",
            "template": "templates/basic",
            "edit_file": "main.js",
            "expected_imports": ["xrblocks"],
            "expected_apis": ["xb.init", "enableHands"],
            "forbidden_patterns": ["SpatialPanel"],
        },
    )
    bodies = [
        "import * as xb from 'xrblocks';\nxb.init(new xb.Options().enableHands());\n",
        "import * as xb from 'xrblocks';\nnew xb.SpatialPanel();\nxb.init(;\n",
        "const x = 1;\n",
    ]
    workspaces = []
    for i, body in enumerate(bodies):
        ws = tmp_path / f"ws{i}"
        ws.mkdir()
        (ws / "main.js").write_text(body)
        workspaces.append(ws)
    missing = tmp_path / "empty"
    missing.mkdir()
    workspaces.append(missing)
    single = [score_workspace(task, ws) for ws in workspaces]
    assert score_many([(task, ws) for ws in workspaces]) == single
    assert single[0]["composite"] == 1.0
    assert single[1]["parse_ok"] == 0.0 and single[1]["forbidden_violations"] == ["SpatialPanel"]
    assert single[3] == {"task": "demo", "error": f"missing {missing / 'main.js'}"}
    assert json.dumps(single)  # plain JSON
