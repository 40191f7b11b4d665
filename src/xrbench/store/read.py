"""Reading input files with user-facing errors (file and line), never a traceback."""

from __future__ import annotations

import gzip
import json
import zlib
from pathlib import Path
from typing import Any

from xrbench.errors import Problem, ValidationError


def read_json(path: str | Path) -> Any:
    """Parse a JSON file (gzip-compressed when its name ends in `.gz`); a missing file, a broken
    archive or bad JSON is a one-line `ValidationError`."""
    name = str(path)
    try:
        data = Path(path).read_bytes()
        return json.loads(gzip.decompress(data) if name.endswith(".gz") else data.decode("utf-8"))
    except (gzip.BadGzipFile, EOFError, zlib.error) as e:
        raise ValidationError([Problem(name, "", "", f"not a readable gzip file ({e})")]) from None
    except FileNotFoundError:
        raise ValidationError([Problem(name, "", "", "file not found")]) from None
    except UnicodeDecodeError as e:
        raise ValidationError([Problem(name, "", "", f"not UTF-8 text ({e.reason})")]) from None
    except json.JSONDecodeError as e:
        raise ValidationError([Problem(name, f"line {e.lineno}", "", f"invalid JSON: {e.msg}")]) from None
