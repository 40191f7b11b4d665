"""Shared plumbing of the HTML report: the Jinja2 environment, value formatting, relative links.

Every page is a static file that works opened from disk (file://): links are relative to the
page's own folder, nothing is fetched from the network, and no page needs JavaScript.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from xrbench import __version__
from xrbench.store.atomic import atomic_write_text

TEMPLATES = Path(__file__).parent / "templates"
CSS_FILE = "style.css"
DASH = "–"


def fmt_num(value: Any, digits: int = 3) -> str:
    """A number for a table cell: floats with `digits` decimals, None as a dash."""
    if value is None:
        return DASH
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def fmt_ci(pair: Any, digits: int = 3) -> str:
    """A confidence interval `[lo, hi]`, or a dash."""
    if not isinstance(pair, list | tuple) or len(pair) != 2 or None in pair:
        return DASH
    return f"[{pair[0]:.{digits}f}, {pair[1]:.{digits}f}]"


def fmt_seconds(value: Any) -> str:
    """Seconds as '4.2 s' or '3 min 05 s'."""
    if not isinstance(value, int | float):
        return DASH
    if value < 60:
        return f"{value:.1f} s"
    minutes, seconds = divmod(round(value), 60)
    return f"{minutes} min {seconds:02d} s"


def compact_json(value: Any, limit: int = 300) -> str:
    """A one-line JSON rendering, cut at `limit` characters."""
    text = json.dumps(value, default=str, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def cell(value: Any) -> str:
    """Any value as table-cell text: numbers formatted, lists joined, dicts as compact JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(v, str | int | float) for v in value):
        return ", ".join(fmt_num(v) for v in value)
    if isinstance(value, dict | list):
        return compact_json(value)
    return fmt_num(value)


def flatten(data: Mapping[str, Any], depth: int = 1, prefix: str = "") -> dict[str, Any]:
    """Nested dicts to dotted keys, `depth` levels down; deeper values are kept as they are."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping) and depth > 0 and value:
            out.update(flatten(value, depth - 1, f"{name}."))
        else:
            out[name] = value
    return out


def href(target: str | Path, page_dir: str | Path) -> str:
    """The relative URL of `target` as seen from a page in `page_dir` (path segments percent-encoded)."""
    rel = os.path.relpath(os.path.abspath(target), os.path.abspath(page_dir))
    return "/".join(quote(part) for part in Path(rel).as_posix().split("/"))


def read_json(path: Path) -> tuple[Any, str | None]:
    """(data, None), or (None, why) when the file is missing or unreadable: a report never crashes on one."""
    if not path.is_file():
        return None, f"{path.name} missing"
    try:
        return json.loads(path.read_text(encoding="utf-8")), None
    except (OSError, ValueError) as e:
        return None, f"{path.name} unreadable: {str(e).splitlines()[0] if str(e) else type(e).__name__}"


def read_text_tail(path: Path, limit: int = 20_000) -> str | None:
    """The last `limit` characters of a text file, or None when it does not exist."""
    if not path.is_file():
        return None
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return text if len(text) <= limit else "…" + text[-limit:]


@cache
def environment() -> Environment:
    """The report's Jinja2 environment (autoescaped; undefined names are errors, not blanks)."""
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=select_autoescape(["html"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(num=fmt_num, ci=fmt_ci, seconds=fmt_seconds, cell=cell, compact=compact_json)
    env.globals["version"] = __version__
    return env


def write_page(out: Path, template: str, *, css: Path, **context: Any) -> Path:
    """Render `template` into `out`; `css` is the stylesheet the page links to (relatively)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    html = environment().get_template(template).render(css=href(css, out.parent), **context)
    atomic_write_text(out, html)
    return out


def install_css(out_dir: Path) -> Path:
    """Copy the report's one stylesheet into `out_dir`; returns its path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    dest = out_dir / CSS_FILE
    shutil.copyfile(TEMPLATES / CSS_FILE, dest)
    return dest
