"""Atomic file writes: write a temporary file in the same directory, then rename over the target.

A reader never sees a half-written file, and an interrupted run leaves either the old file or the
new one, never a truncated one.
"""

from __future__ import annotations

import gzip
import json
import os
import tempfile
from pathlib import Path
from typing import Any


def _umask() -> int:
    """The process's umask, read without changing it (os.umask would, racing other threads)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write `data` to `path` atomically, with the permissions a plain `open` would give (mkstemp's
    temporary file is 0600; results are meant to be read by others, as any file the user writes)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fchmod(f.fileno(), 0o666 & ~_umask())
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: str | Path, obj: Any, indent: int | None = 2, one_line_from: int | None = None) -> None:
    """Write `obj` as JSON, atomically. With `one_line_from`, objects nested that deep (the top is
    depth 0) are written on one line each: a large report whose records are rewritten one at a time
    stays small and its diffs name the records that changed. A path ending in `.gz` is written
    gzip-compressed, byte for byte the same for the same content (no timestamp in the header), so
    a committed report changes only when its content does."""
    text = json.dumps(obj, indent=indent, ensure_ascii=False) if one_line_from is None else _layered(obj, one_line_from)
    data = (text + "\n").encode("utf-8")
    atomic_write_bytes(path, gzip.compress(data, mtime=0) if str(path).endswith(".gz") else data)


def _layered(obj: Any, one_line_from: int, depth: int = 0) -> str:
    if depth >= one_line_from or not isinstance(obj, dict) or not obj:
        return json.dumps(obj, ensure_ascii=False)
    pad = "  " * (depth + 1)
    items = [
        f"{pad}{json.dumps(k, ensure_ascii=False)}: {_layered(v, one_line_from, depth + 1)}" for k, v in obj.items()
    ]
    return "{\n" + ",\n".join(items) + "\n" + "  " * depth + "}"
