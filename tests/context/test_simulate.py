"""The context simulator: MineXR's size by default, deterministic, tunable."""

from __future__ import annotations

from dataclasses import replace

from xrbench.context.dataset import Dataset
from xrbench.context.lift import lift_analysis
from xrbench.context.simulate import DATA_DIR, SimConfig, simulate


def test_defaults_match_minexr_shape():
    ds = simulate()
    assert len({s.user for s in ds.scenarios}) == 31
    assert len(ds.scenarios) == 109
    assert 600 <= ds.n_events <= 800
    assert {s.environment for s in ds.scenarios} == {"office", "living room", "kitchen", "coffee shop"}
    assert len({s.task for s in ds.scenarios}) >= 10
    assert ds.synthetic


def test_bundled_dataset_is_the_simulator_default(tmp_path):
    """The committed events.csv is exactly what `context simulate` with defaults writes."""
    simulate().save(tmp_path)
    assert (tmp_path / "events.csv").read_bytes() == (DATA_DIR / "events.csv").read_bytes()
    bundled = Dataset.load(DATA_DIR)
    assert bundled.synthetic and "synthetic" in bundled.meta["description"].lower()


def test_seed_changes_data_and_mix_changes_lift():
    a, b = simulate(SimConfig(seed=1)), simulate(SimConfig(seed=2))
    assert [s.facets for s in a.scenarios] != [s.facets for s in b.scenarios]
    user_heavy = simulate(replace(SimConfig(), w_user=0.9, w_task=0.05, w_env=0.05))
    task_heavy = simulate(replace(SimConfig(), w_user=0.05, w_task=0.9, w_env=0.05))
    du = lift_analysis(user_heavy.scenarios)["distribution"]
    dt = lift_analysis(task_heavy.scenarios)["distribution"]
    assert du["user"] > dt["user"]
    assert dt["task"] > du["task"]


def test_placement_order_puts_shallow_facets_first_within_an_app():
    ds = simulate()
    cat = ds.catalog
    for s in ds.scenarios:
        seen: dict[str, int] = {}
        for f in s.facets:
            app = cat.app_of[f]
            assert cat.nav(f) >= seen.get(app, 0)
            seen[app] = cat.nav(f)
