"""Checks of a rendered report: every local link resolves, nothing points off the machine, and
(in a real browser) every page loads with no console error, no failed request and no request
that leaves file://.

`broken_links` and `external_references` read the HTML only; `browser_problems` opens each page
in headless Chromium (a Playwright `Browser`, e.g. from `report_browser()`).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

# (tag, attribute) pairs that reference another file.
REFERENCES = {
    ("a", "href"),
    ("img", "src"),
    ("video", "src"),
    ("video", "poster"),
    ("source", "src"),
    ("link", "href"),
    ("script", "src"),
    ("iframe", "src"),
}
VIDEO_TIMEOUT_MS = 15_000


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.refs += [v for k, v in attrs if (tag, k) in REFERENCES and v]


def references(page: Path) -> list[str]:
    """Every file reference (href/src) in an HTML page, as written."""
    parser = _Refs()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.refs


def pages(root: Path) -> list[Path]:
    """Every HTML page under `root`, in a stable order."""
    return sorted(root.rglob("*.html"))


def _local_target(page: Path, ref: str) -> Path | None:
    """The file a relative reference points to, or None for an in-page anchor."""
    url = urlparse(ref)
    if url.scheme or url.netloc:
        return None
    if not url.path:
        return None  # '#section'
    return (page.parent / unquote(url.path)).resolve()


def broken_links(root_or_pages: Path | Iterable[Path]) -> list[str]:
    """'page: ref' for every relative reference whose file does not exist."""
    items = pages(root_or_pages) if isinstance(root_or_pages, Path) else list(root_or_pages)
    out = []
    for page in items:
        for ref in references(page):
            target = _local_target(page, ref)
            if target is not None and not target.exists():
                out.append(f"{page}: {ref}")
    return out


def external_references(root_or_pages: Path | Iterable[Path]) -> list[str]:
    """'page: ref' for every reference with a scheme or host (http:, https:, //, file:, data:, ...)."""
    items = pages(root_or_pages) if isinstance(root_or_pages, Path) else list(root_or_pages)
    out = []
    for page in items:
        for ref in references(page):
            url = urlparse(ref)
            if url.scheme or url.netloc:
                out.append(f"{page}: {ref}")
    return out


def _benign(request: Any) -> bool:
    """A media request the player cancelled itself once it had what `preload` asked for (not a failure:
    a video that really fails to load is caught by its `error` state)."""
    return request.resource_type == "media" and "ERR_ABORTED" in str(request.failure or "")


def _page_problems(context: Any, path: Path) -> list[str]:
    """Load one page in a fresh tab of `context`; what went wrong, as 'page: problem' lines."""
    name = str(path)
    seen: list[str] = []

    def on_console(msg: Any) -> None:
        if msg.type == "error":
            seen.append(f"{name}: console error: {msg.text}")

    def on_request(request: Any) -> None:
        if not request.url.startswith("file://"):
            seen.append(f"{name}: left file://: {request.url}")

    def on_failed(request: Any) -> None:
        if not _benign(request):
            seen.append(f"{name}: request failed: {request.url} ({request.failure})")

    page = context.new_page()
    try:
        page.on("console", on_console)
        page.on("pageerror", lambda e: seen.append(f"{name}: page error: {e}"))
        page.on("request", on_request)
        page.on("requestfailed", on_failed)
        page.goto(path.resolve().as_uri(), wait_until="load")
        page.wait_for_function(
            "() => [...document.querySelectorAll('video')].every(v => v.readyState >= 1 || v.error)",
            timeout=VIDEO_TIMEOUT_MS,
        )
        bad_images = page.evaluate(
            "() => [...document.images].filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)"
        )
        bad_videos = page.evaluate(
            "() => [...document.querySelectorAll('video')].filter(v => v.error).map(v => v.currentSrc || v.src)"
        )
    finally:
        page.close()
    return [
        *seen,
        *(f"{name}: image did not load: {u}" for u in bad_images),
        *(f"{name}: video did not load: {u}" for u in bad_videos),
    ]


def _offline_context(browser: Any, **options: Any) -> Any:
    # A report must work offline: anything that tries the network is recorded and stopped here.
    context = browser.new_context(**options)
    context.route(re.compile(r"^(?!file:)"), lambda route: route.abort())
    return context


def browser_problems(browser: Any, page_files: Iterable[Path]) -> list[str]:
    """Open each page from disk in `browser`; return 'page: problem' for each console error, page
    error, failed request, request outside file://, image that did not decode or video that did not load."""
    context = _offline_context(browser)
    try:
        return [problem for path in page_files for problem in _page_problems(context, path)]
    finally:
        context.close()


@contextlib.contextmanager
def report_browser() -> Iterator[Any]:
    """Headless Chromium (a Playwright `Browser`) that may open file:// pages.

    As root the harness confines Chromium in bubblewrap, where the host's files (and so the report)
    do not exist; a report is the toolkit's own static HTML, not an untrusted app, so it is opened
    without that outer sandbox (every non-file request is still blocked by the callers).
    """
    from xrbench.xrtest.browser import launch_browser, running_as_root

    handle = launch_browser(isolation="off" if running_as_root() else None)
    try:
        yield handle.browser
    finally:
        handle.close()


def screenshot(page_file: Path, out: Path, *, width: int = 1200, height: int = 900) -> Path:
    """Save a PNG of `page_file` as a reader first sees it (the top `width` x `height` pixels),
    opened from disk with the network blocked, as `browser_problems` opens it."""
    with report_browser() as browser:
        context = _offline_context(browser, viewport={"width": width, "height": height}, device_scale_factor=1)
        try:
            page = context.new_page()
            page.goto(page_file.resolve().as_uri(), wait_until="load")
            out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(out))
        finally:
            context.close()
    return out
