"""Which part of a model's reply is the app: its largest JavaScript code block.

The reply is parsed as CommonMark (markdown-it-py), so fences are found as a Markdown reader finds
them: a block tagged ```` ```html ```` or ```` ```json ```` is that language, the text between two
blocks is prose, and a fence left open runs to the end of the reply. Of the fenced blocks, those
tagged as JavaScript (`JS_TAGS`) count, and untagged ones whose first line reads as code
(`looks_like_code`). The largest counting block is the app:

- `fenced`: a closed block;
- `unterminated-fence`: no closed block counts, and the largest counting one was cut off (the
  reply ended inside it);
- `raw`: no fence at all, and the reply itself reads as code (a model that forgot the fence);
- `none`: nothing that reads as code (an empty reply, prose, only HTML or JSON blocks). Such a
  reply is `no_code`: it scores 0 on every dimension (see `score.py`).

`upstream_extract` keeps the upstream harness's way (a regex, the largest match of
```` ```(javascript|js|...)?\\s*\\n(.*?)``` ````, else an open fence to the end, else the whole
reply), which takes the prose between two blocks when a non-JavaScript block comes first; the
runner records its result beside ours so the difference can be shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markdown_it import MarkdownIt

JS_TAGS = frozenset({"javascript", "js", "jsx", "mjs", "cjs", "es6", "ecmascript", "typescript", "ts", "tsx", "node"})
FENCED, UNTERMINATED, RAW, NONE = "fenced", "unterminated-fence", "raw", "none"

# The first line of a JavaScript module as models write them.
_CODE_START = re.compile(
    r"""^(?:import\s*[\w*{'"(]|export\s|const\s|let\s|var\s|function[\s*]|async\s+function|class\s"""
    r"""|//|/\*|['"]use strict['"]|document\.|window\.|xb\.)"""
)
_UPSTREAM = re.compile(r"```(?:javascript|js|jsx|mjs|typescript|ts)?\s*\n(.*?)```", re.DOTALL | re.IGNORECASE)
_UPSTREAM_OPEN = re.compile(r"```(?:javascript|js|jsx|mjs|typescript|ts)[ \t]*\n", re.IGNORECASE)
_PARSER = MarkdownIt("commonmark")


@dataclass(frozen=True)
class Extraction:
    """The code taken from a reply and how it was found (`FENCED`, `UNTERMINATED`, `RAW`, `NONE`)."""

    code: str
    how: str

    @property
    def no_code(self) -> bool:
        return self.how == NONE


def looks_like_code(text: str) -> bool:
    """Whether `text` starts (first non-blank line) the way a JavaScript module does."""
    for line in text.splitlines():
        if line.strip():
            return bool(_CODE_START.match(line.strip()))
    return False


def extract(text: str) -> Extraction:
    """The app in a reply (see the module docstring)."""
    lines = text.splitlines()
    blocks: list[tuple[str, bool]] = []  # (content, closed)
    fences = 0
    for token in _PARSER.parse(text):
        if token.type != "fence":
            continue
        fences += 1
        info = token.info.strip().split()
        tag = info[0].lower() if info else ""
        if tag in JS_TAGS or (not tag and looks_like_code(token.content)):
            start, end = token.map or (0, len(lines))
            last = lines[end - 1].strip() if end - 1 > start and end - 1 < len(lines) else ""
            closed = last.startswith(token.markup) and not last.strip(token.markup[0])
            blocks.append((token.content, closed))
    closed_blocks = [content for content, closed in blocks if closed]
    if closed_blocks:
        return Extraction(max(closed_blocks, key=len), FENCED)
    if blocks:
        return Extraction(max((content for content, _ in blocks), key=len), UNTERMINATED)
    if fences == 0 and looks_like_code(text):
        return Extraction(text, RAW)
    return Extraction("", NONE)


def upstream_extract(text: str) -> str:
    """What the upstream harness would take from the reply (see the module docstring)."""
    blocks = _UPSTREAM.findall(text)
    if blocks:
        return max(blocks, key=len)
    opening = _UPSTREAM_OPEN.search(text)
    return text[opening.end() :] if opening else text
