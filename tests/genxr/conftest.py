"""Fixtures of the GenXR tests: small task directories and a writable copy of the example task."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .builders import EXAMPLE_TASK, make_app_task


@pytest.fixture
def app_task(tmp_path) -> Path:
    return make_app_task(tmp_path / "tasks")


@pytest.fixture
def example_copy(tmp_path) -> Path:
    """A writable copy of the bundled example task."""
    dest = tmp_path / "tasks" / EXAMPLE_TASK.name
    shutil.copytree(EXAMPLE_TASK, dest)
    return dest
