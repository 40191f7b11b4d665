"""Extraction of the app from a model's reply, in every shape models answer in."""

from __future__ import annotations

import pytest

from xrbench.guidance.extract import FENCED, NONE, RAW, UNTERMINATED, extract, looks_like_code, upstream_extract

APP = "import * as xb from 'xrblocks';\nxb.init(new xb.Options());\n"


@pytest.mark.parametrize(
    ("reply", "code", "how"),
    [
        # An HTML block first: upstream took the prose between the blocks.
        (f"Page:\n```html\n<div></div>\n```\nAnd the code:\n```javascript\n{APP}```\n", APP, FENCED),
        (f'```json\n{{"a": 1}}\n```\n```js\n{APP}```', APP, FENCED),
        (f"```bash\nnpm i xrblocks\n```\n\n```\n{APP}```", APP, FENCED),  # untagged, reads as code
        ("x\n```js\nsmall\n```\n```javascript\nthe larger block\n```", "the larger block\n", FENCED),
        ("```JavaScript\na\n```", "a\n", FENCED),
        (f"~~~mjs\n{APP}~~~\n", APP, FENCED),
        ("````js\nconst fence = '```';\n````\n", "const fence = '```';\n", FENCED),  # a longer fence
        (f"```ts\n{APP}```\n```js\nconst cut = 1", APP, FENCED),  # a closed block beats a cut one
        ("Here:\n```javascript\nconst cut = 1", "const cut = 1", UNTERMINATED),
        (APP, APP, RAW),
        (f"// main.js\n{APP}", f"// main.js\n{APP}", RAW),
        ("", "", NONE),
        ("   \n\n", "", NONE),
        ("Sure! Use xb.init(new xb.Options()) and extend xb.Script.", "", NONE),
        ("Import the module first, then call xb.init().", "", NONE),
        ("```html\n<script type=module>xb.init()</script>\n```", "", NONE),
        ("```\nThis is a note, not code.\n```", "", NONE),
    ],
)
def test_extract_takes_the_largest_javascript_block(reply, code, how):
    got = extract(reply)
    assert (got.code, got.how) == (code, how)
    assert got.no_code is (how == NONE)


def test_upstream_extraction_is_kept_for_comparison():
    reply = f"```html\n<div></div>\n```\nAnd the code:\n```javascript\n{APP}```\n"
    assert upstream_extract(reply) == "And the code:\n"
    assert upstream_extract(f"```js\n{APP}```") == APP == extract(f"```js\n{APP}```").code
    assert upstream_extract("Here:\n```javascript\nconst cut = 1") == "const cut = 1"
    assert upstream_extract("prose only") == "prose only"


def test_looks_like_code():
    assert looks_like_code("\n  import * as THREE from 'three';")
    assert looks_like_code("class A extends xb.Script {}")
    assert not looks_like_code("Import the module.")
    assert not looks_like_code("<!doctype html>")
