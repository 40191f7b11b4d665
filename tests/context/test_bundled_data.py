"""Sanity checks for the bundled ContextXR facet catalog and context-simulator profiles."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import xrbench
from xrbench.context.catalog import Catalog

DATA_DIR = Path(xrbench.__file__).parent / "data" / "context"
ENVIRONMENTS = {"office", "living room", "kitchen", "coffee shop"}
SNAKE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.load(DATA_DIR / "catalog.json")


@pytest.fixture(scope="module")
def profiles() -> dict:
    return json.loads((DATA_DIR / "profiles.json").read_text(encoding="utf-8"))


def test_catalog_size(catalog: Catalog) -> None:
    assert len(catalog.apps) >= 40
    assert len(catalog.facets) >= 250
    assert catalog.n_capabilities >= 900


def test_every_app_has_open_section_entry(catalog: Catalog) -> None:
    for app in catalog.apps:
        entries = [f for f in app.facets if f.entry]
        assert len(entries) == 1, app.id
        assert entries[0].id == f"{app.id}.open_section"
        assert entries[0].name == "Open Section"
        assert catalog.entry_of[app.id] == entries[0].id


def test_facet_graphs_have_depth(catalog: Catalog) -> None:
    depths = {fid: catalog.nav(fid) for fid in catalog.facets}
    assert max(depths.values()) >= 3
    # Depths 1, 2 and 3 all occur, and every facet is reachable (Catalog.load checks it too).
    assert {1, 2, 3} <= set(depths.values())


def test_names_and_descriptions(catalog: Catalog) -> None:
    for fid, facet in catalog.facets.items():
        words = facet.name.split()
        assert len(words) >= 2, fid
        assert words[0][0].isupper(), fid
        assert facet.description.strip(), fid
        assert facet.description.endswith("."), fid
        assert facet.capabilities, fid
        for cap in facet.capabilities:
            assert SNAKE.match(cap), (fid, cap)


def test_profiles_reference_known_facets_and_environments(catalog: Catalog, profiles: dict) -> None:
    assert set(profiles["environments"]) == ENVIRONMENTS
    for env, spec in profiles["environments"].items():
        assert spec["description"].strip(), env
        assert spec["facets"], env
        unknown = [f for f in spec["facets"] if f not in catalog.facets]
        assert not unknown, (env, unknown)
    tasks = profiles["tasks"]
    assert len(tasks) >= 10
    for task, spec in tasks.items():
        assert spec["description"].strip(), task
        assert set(spec["environments"]) <= ENVIRONMENTS, task
        assert sum(spec["environments"].values()) == pytest.approx(1.0, abs=1e-6), task
        assert all(w >= 0 for w in spec["environments"].values()), task
        assert spec["facets"], task
        unknown = [f for f in spec["facets"] if f not in catalog.facets]
        assert not unknown, (task, unknown)


def test_profiles_include_core_tasks(profiles: dict) -> None:
    for task in ("cooking", "focus work", "chatting with friends", "relaxing"):
        assert task in profiles["tasks"]
