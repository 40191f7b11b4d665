"""Cost model, metrics, lift and dataset validation on a hand-checked tiny dataset."""

from __future__ import annotations

import json
import math
import shutil

import pytest

from xrbench.context.catalog import Catalog
from xrbench.context.cost import MenuCostModel, MenuCostParams, load_cost_params, menu_order_by_use
from xrbench.context.dataset import Dataset
from xrbench.context.evaluate import EvalConfig, evaluate
from xrbench.context.lift import dominant, lift_analysis
from xrbench.context.methods.registry import create_method
from xrbench.context.metrics import normalize_suggestions, retrieval_metrics
from xrbench.context.simulate import DATA_DIR
from xrbench.errors import ValidationError


@pytest.fixture
def ds(tiny_dir):
    return Dataset.load(tiny_dir)


@pytest.fixture(scope="module")
def bundled_ds():
    return Dataset.load(DATA_DIR)


def test_graph_distances(ds):
    cat = ds.catalog
    assert cat.nav("recipes.cook_recipe") == 3
    assert cat.nav("music.view_album") == 2
    assert cat.dist("music.browse_music", "music.view_now_playing") == 2
    assert math.isinf(cat.dist("music.view_now_playing", "music.browse_music"))


def test_manual_and_assisted_cost_by_hand(ds):
    # The constant special case (every app found at the same cost) with back = app_scan.
    cost = MenuCostModel(ds.catalog, MenuCostParams(app_scan_step=0.0, back=1.0))
    targets = ["recipes.open_section", "recipes.view_recipe", "clock.set_timer", "music.view_now_playing"]
    assert cost.manual(targets) == pytest.approx(9.0)
    s = ["recipes.browse_recipes", "music.view_now_playing", "clock.open_section"]
    # H = {now playing}; A: open_section via back (1), view_recipe via 1 step, set_timer via 1 step.
    assert cost.assisted(targets, s) == pytest.approx(0.3 + 1 + 1 + 1)
    assert cost.breakdown(targets, s)["H"] == ["music.view_now_playing"]
    t2 = ["music.view_now_playing", "recipes.cook_recipe"]
    assert cost.manual(t2) == pytest.approx(7.0)
    # A: now playing at min(2 steps, back + 1) = 2; M: cook = open_menu + app_scan + 3.
    assert cost.assisted(t2, ["music.browse_music"]) == pytest.approx(0.1 + 2 + 5)
    assert cost.manual([]) == 0.0
    assert cost.assisted(t2, []) == pytest.approx(cost.manual(t2))


def test_app_scan_depends_on_the_apps_place_in_the_menu(ds):
    # Menu: music, recipes, clock (catalog order); each app above adds app_scan_step (0.1).
    cost = MenuCostModel(ds.catalog)
    assert [cost.app_scan(f) for f in ("music.open_section", "recipes.open_section", "clock.open_section")] == (
        pytest.approx([1.0, 1.1, 1.2])
    )
    assert cost.manual(["clock.set_timer"]) == pytest.approx(1.0 + 1.2 + 1)
    # A launcher sorted by use puts the most used app first.
    by_use = MenuCostModel(ds.catalog, menu_order=["clock", "music"])
    assert by_use.menu_order == ["clock", "music", "recipes"] and by_use.app_scan("clock.set_timer") == 1.0
    assert menu_order_by_use(ds.scenarios, ds.catalog) == ["music", "recipes", "clock"]


def test_a_same_app_adjustment_is_cheaper_than_the_manual_path_it_replaces(bundled_ds):
    # With default parameters, for every same-app target of relational retrieval's suggestions.
    cost = MenuCostModel(bundled_ds.catalog, menu_order=menu_order_by_use(bundled_ds.scenarios, bundled_ds.catalog))
    result = evaluate(bundled_ds, create_method("relational"), "relational", cost, EvalConfig("initial"))
    adjusted = [
        (f, rec["suggestions"])
        for rec in result["records"]
        for f in cost.breakdown(rec["targets"], rec["suggestions"])["A"]
    ]
    assert len(adjusted) > 50
    assert all(0 < cost.adjustment(f, s) < cost.app_scan(f) + cost.catalog.nav(f) for f, s in adjusted)


def test_cost_params_file(tmp_path, ds):
    p = tmp_path / "cost.toml"
    p.write_text("[menu]\nopen_menu = 2.0\nscan_item = 0.5\n")
    params = load_cost_params(p)
    assert params == MenuCostParams(open_menu=2.0, scan_item=0.5)
    y = tmp_path / "cost.yaml"
    y.write_text("nav_step: 2\n")
    assert load_cost_params(y).nav_step == 2.0
    bad = tmp_path / "bad.toml"
    bad.write_text("open_menu = -1\nfoo = 2\n")
    with pytest.raises(ValidationError) as e:
        load_cost_params(bad)
    lines = str(e.value).splitlines()
    assert len(lines) == 2 and all(str(bad) in line for line in lines)
    assert any("foo" in line for line in lines) and any("open_menu" in line for line in lines)


def test_retrieval_metrics_by_hand():
    m = retrieval_metrics(["a", "b", "c"], ["a", "c", "d"], 10)
    assert m["hits"] == 2
    assert m["recall"] == pytest.approx(2 / 3)
    assert m["precision"] == pytest.approx(0.2)
    assert m["f1"] == pytest.approx(2 * 0.2 * (2 / 3) / (0.2 + 2 / 3))
    assert m["hit"] == 1.0
    assert m["ndcg"] == pytest.approx(1.5 / (1 + 1 / math.log2(3) + 0.5))
    zero = retrieval_metrics(["x"], ["a"], 10)
    assert zero["f1"] == 0.0 and zero["hit"] == 0.0
    assert normalize_suggestions(["a", "a", "h", "b", "c"], 2, exclude=["h"]) == ["a", "b"]


def test_lift_by_hand(ds):
    result = lift_analysis(ds.scenarios, ("user", "task", "environment", "social"))
    prof = {p["facet_id"]: p for p in result["facets"]}
    timer = prof["clock.set_timer"]
    assert timer["lift"]["task"] == pytest.approx(2.5)
    assert timer["lift"]["environment"] == pytest.approx((2 / 3) / 0.4)
    assert timer["lift"]["user"] == pytest.approx(0.0)
    assert timer["dominant"] == "task"
    playing = prof["music.view_now_playing"]
    assert playing["lift"]["user"] == pytest.approx((2 / 3) / 0.4)
    assert playing["lift"]["environment"] == pytest.approx((2 / 3) / 0.4)
    assert playing["dominant"] == "mixed"
    single = prof["recipes.cook_recipe"]
    assert single["dominant"] == "none" and single["lift"]["user"] is None
    assert sum(result["distribution"].values()) == len(prof)
    assert set(result["distribution"]) == {"user", "task", "environment", "social", "mixed", "none"}
    # The paper's plain ratio P(f|x)/P(f), beside ours: timer in 3 of 6 scenarios, all cooking.
    assert timer["plain"]["task"] == pytest.approx(1.0 / 0.5)
    assert timer["plain"]["user"] == pytest.approx(1.0)  # each of its users used it in 1 of 2 scenarios
    assert timer["plain"]["environment"] == pytest.approx(0.75 / 0.5) and timer["dominant_plain"] == "task"
    # A facet used once looks tied to its one user under the plain ratio; leaving it out says "none".
    assert single["plain"]["user"] == pytest.approx(0.5 / (1 / 6)) and single["dominant_plain"] == "user"
    assert sum(result["distribution_plain"].values()) == len(prof)


def test_dominant_rules():
    assert dominant({"user": 3.0, "task": 2.5, "environment": None}, 3) == "mixed"
    assert dominant({"user": 3.0, "task": 2.0, "environment": None}, 3) == "user"
    assert dominant({"user": 1.0, "task": 0.5, "environment": 0.2}, 3) == "none"
    assert dominant({"user": 5.0, "task": 0.5, "environment": 0.2}, 1) == "none"


def test_scenario_order_and_extra_columns(ds):
    s3 = ds.by_id()["s3"]
    assert s3.facets == ("music.browse_music", "music.view_now_playing")
    s4 = ds.by_id()["s4"]
    assert s4.facets == ("music.open_section", "music.view_now_playing")  # first occurrence kept
    assert ds.extra_columns == ("social",)
    assert ds.by_id()["s2"].extra == {"social": "with others"}


def _copy(tiny_dir, tmp_path):
    d = tmp_path / "ds"
    shutil.copytree(tiny_dir, d)
    return d


def test_events_validation_lines(tiny_dir, tmp_path):
    d = _copy(tiny_dir, tmp_path)
    text = (d / "events.csv").read_text().splitlines()
    text[2] = "s1,P1,cooking,kitchen,x,recipes.view_recipe,alone"
    text[3] = "s1,P1,cooking,kitchen,2,clock.nope,alone"
    text[4] = "s1,P9,cooking,kitchen,3,music.view_now_playing,alone"
    (d / "events.csv").write_text("\n".join(text) + "\n")
    with pytest.raises(ValidationError) as e:
        Dataset.load(d)
    lines = str(e.value).splitlines()
    assert f"{d / 'events.csv'}: line 3: step: 'x' is not an integer" in lines
    assert f"{d / 'events.csv'}: line 4: facet_id: unknown facet id 'clock.nope'" in lines
    assert any(line.startswith(f"{d / 'events.csv'}: line 5: user:") for line in lines)


def test_events_missing_columns(tiny_dir, tmp_path):
    d = _copy(tiny_dir, tmp_path)
    (d / "events.csv").write_text("scenario_id,user,task,step,facet_id\ns1,P1,cooking,0,clock.set_timer\n")
    with pytest.raises(ValidationError, match="missing required column\\(s\\): environment"):
        Dataset.load(d)


def test_catalog_validation_lines(tiny_dir):
    raw = json.loads((tiny_dir / "catalog.json").read_text())
    raw["apps"][0]["facets"][1]["entry"] = True  # two entries
    raw["apps"][1]["facets"][1]["capabilities"].append("open_missing")  # edge to nowhere
    raw["apps"][1]["facets"].append(
        {"id": "recipes.orphan", "name": "Orphan Facet", "description": "x.", "capabilities": []}
    )
    raw["apps"][2]["facets"].append(dict(raw["apps"][2]["facets"][1]))  # duplicate id
    raw["apps"][2]["facets"].append({"id": "clock.x", "name": "", "capabilities": []})
    with pytest.raises(ValidationError) as e:
        Catalog.from_dict(raw, source="catalog.json")
    lines = str(e.value).splitlines()
    assert lines == ["catalog.json: apps[2].facets[3]: name: String should have at least 1 character"]
    del raw["apps"][2]["facets"][3]
    with pytest.raises(ValidationError) as e:
        Catalog.from_dict(raw, source="catalog.json")
    text = str(e.value)
    assert "catalog.json: apps[0]: facets: app 'music' has 2 entry facets" in text
    assert (
        "catalog.json: apps[1].facets[1]: capabilities[2]: 'open_missing' opens missing facet 'recipes.missing'" in text
    )
    assert "catalog.json: apps[1].facets[5]: id: facet 'recipes.orphan' is not reachable" in text
    assert "catalog.json: apps[2].facets[2]: id: duplicate facet id 'clock.set_timer'" in text


def test_the_example_figure_stays_readable_for_a_large_scenario(tmp_path, bundled_ds):
    from PIL import Image

    from xrbench.context.dataset import Scenario
    from xrbench.context.figures import EXAMPLE_ROWS, example_figure, example_scenario

    facets = list(bundled_ds.catalog.facets)[:112]  # a real log had a scenario with 112 facets
    big = Scenario("big", "u", "t", "e", tuple(facets))
    path = example_figure(big, bundled_ds.catalog, {"Method": facets[:10]}, tmp_path / "big.png")
    width, height = Image.open(path).size
    assert height <= 0.42 * 120 * (EXAMPLE_ROWS + 1) + 1.6 * 120 + 10 and width < 1000
    # The default example has 4 to 12 facets when one does, spread over the most apps.
    chosen = example_scenario([big, *bundled_ds.scenarios], bundled_ds.catalog)
    assert 4 <= len(chosen.facets) <= 12
