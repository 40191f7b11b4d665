"""The XR tests in this folder are about the app one level up (no `--xr-app` needed)."""

from __future__ import annotations

from pathlib import Path

import pytest

APP = Path(__file__).resolve().parents[1]


@pytest.fixture
def xr_app() -> Path:
    """Ties these tests to Tap to Light (overrides the plugin's `--xr-app`)."""
    return APP


@pytest.fixture
def app(xr):
    """The app one frame in: hands placed, the plant set on its surface."""
    xr.step(1)
    return xr
