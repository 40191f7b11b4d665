"""What pins a result: checksums of input folders and the versions a run used (for lock.json)."""

from __future__ import annotations

import hashlib
import platform
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from xrbench import __version__


def tree_sha256(root: Path, ignore: Iterable[str] = ("__pycache__",)) -> str:
    """sha256 over the files under `root` (relative paths and contents); parts named in `ignore` are skipped."""
    skip = set(ignore)
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root)
        if skip.intersection(rel.parts):
            continue
        h.update(rel.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def environment_info() -> dict[str, Any]:
    """Toolkit, Python and platform versions, and the pinned web dependencies found."""
    try:
        from xrbench.xrtest.webdeps import find_web_deps

        web: dict[str, str] = dict(find_web_deps().versions)
    except Exception as e:  # recorded, not fatal: what needs the web deps reports it itself
        web = {"error": str(e)}
    return {
        "xrbench": __version__,
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "web_dependencies": web,
    }
