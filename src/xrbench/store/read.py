"""Reading input files with user-facing errors (file and line), never a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from xrbench.errors import Problem, ValidationError


def read_json(path: str | Path) -> Any:
    """Parse a JSON file; a missing file or bad JSON is a one-line `ValidationError`."""
    name = str(path)
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValidationError([Problem(name, "", "", "file not found")]) from None
    except UnicodeDecodeError as e:
        raise ValidationError([Problem(name, "", "", f"not UTF-8 text ({e.reason})")]) from None
    except json.JSONDecodeError as e:
        raise ValidationError([Problem(name, f"line {e.lineno}", "", f"invalid JSON: {e.msg}")]) from None
