"""Relational retrieval with soft transfer through the offline MiniLM embeddings."""

from __future__ import annotations

import pytest

from xrbench.context.dataset import Dataset
from xrbench.context.methods.base import Context
from xrbench.context.methods.relational import RelationalRetrieval

pytestmark = pytest.mark.embeddings


def test_unseen_task_label_borrows_from_a_similar_one(tiny_dir):
    ds = Dataset.load(tiny_dir)
    soft = RelationalRetrieval()
    soft.fit(ds.scenarios, ds.catalog)
    exact = RelationalRetrieval(soft_transfer=False)
    exact.fit(ds.scenarios, ds.catalog)
    query = Context("q", "P9", "baking a cake", "garage")
    top_soft = soft.suggest(query, [], 3)
    top_exact = exact.suggest(query, [], 3)
    # "baking a cake" is close to "cooking": the timer and recipes lead; exact matching has only popularity.
    assert "clock.set_timer" in top_soft
    assert any(f.startswith("recipes.") for f in top_soft)
    weights = soft._label_weights("task", "baking a cake")
    assert weights["cooking"] > weights["relaxing"]
    assert top_exact[0] == "music.view_now_playing"  # popularity: in 3 scenarios, first in catalog order


def test_cooccurrence_uses_history(tiny_dir):
    ds = Dataset.load(tiny_dir)
    m = RelationalRetrieval(soft_transfer=False)
    m.fit(ds.scenarios, ds.catalog)
    nxt = m.suggest(Context("q", "P9", "unknown", "unknown"), ["recipes.view_recipe"], 2)
    assert "recipes.view_recipe" not in nxt
    assert nxt[0] in {"recipes.open_section", "clock.set_timer", "music.view_now_playing"}
