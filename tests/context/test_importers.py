"""Tests for the MineXR and generic CSV importers and their CLI commands."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from xrbench.cli.common import App
from xrbench.cli.context_import import register
from xrbench.context.catalog import Catalog
from xrbench.context.dataset import Dataset
from xrbench.context.importers import (
    MineXRColumns,
    decode_cell,
    flat_catalog,
    flat_facet_id,
    import_csv,
    import_minexr,
    parse_time,
)
from xrbench.errors import ValidationError

FIXTURES = Path(__file__).parent / "fixtures"
MINEXR = FIXTURES / "minexr"
GENERIC = FIXTURES / "generic"

EXPECTED_MINEXR = {
    # First placement: 901 (t=100.25), 903 (110), 902 (120); 904 is unannotated.
    "P01_Kitchen_Cooking": (
        "P01",
        "Cooking",
        "Kitchen",
        ("recipes.view_recipe", "spotify.control_playback", "clock.set_timer"),
    ),
    # 905 has an earlier "update" than 906's "add", but its own "add" comes later.
    "P01_Office_FocusWork": (
        "P01",
        "FocusWork",
        "Office",
        ("messages.browse_conversations", "messages.engage_in_conversation", "spotify.control_playback"),
    ),
    # 910 carries two facets in annotation order; 912 repeats view_recipe.
    "P02_Kitchen_Cooking": (
        "P02",
        "Cooking",
        "Kitchen",
        ("clock.set_timer", "recipes.view_recipe", "recipes.browse_recipes"),
    ),
    # 921 is unannotated; 922 has no history and goes last.
    "P03_CoffeeShop_ChatWithFriends": (
        "P03",
        "ChatWithFriends",
        "CoffeeShop",
        ("messages.engage_in_conversation", "spotify.browse_music"),
    ),
}


def minexr_files(root: Path = MINEXR) -> dict[str, Path]:
    return {
        "widgets": root / "widgets.csv",
        "layouts": root / "layouts.json",
        "history": root / "interaction_history.csv",
        "annotations": root / "annotations.csv",
        "catalog": root / "catalog.json",
    }


@pytest.fixture
def minexr_copy(tmp_path: Path) -> dict[str, Path]:
    """A writable copy of the MineXR fixture."""
    root = tmp_path / "minexr"
    shutil.copytree(MINEXR, root)
    return minexr_files(root)


def run_minexr(files: dict[str, Path], **kwargs) -> Dataset:
    return import_minexr(
        files["widgets"], files["layouts"], files["history"], files["annotations"], files["catalog"], **kwargs
    )


def problems_of(exc: pytest.ExceptionInfo[ValidationError]) -> list[str]:
    return [str(p) for p in exc.value.problems]


def edit_line(path: Path, lineno: int, old: str, new: str) -> None:
    lines = path.read_text(encoding="utf-8").split("\n")
    assert old in lines[lineno - 1]
    lines[lineno - 1] = lines[lineno - 1].replace(old, new)
    path.write_text("\n".join(lines), encoding="utf-8")


# -- cell and time parsing --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('"P01"', "P01"),
        ("918", "918"),
        (' "Kitchen" ', "Kitchen"),
        ('"say \\"hi\\"; ok"', 'say "hi"; ok'),
        ('"[1.0; 2.0]"', "[1.0; 2.0]"),
        ('"""text"""', "text"),
        ('"\\"text\\""', "text"),
        ('"a ""b"" c"', 'a "b" c'),
        ('["a";"b"]', '["a";"b"]'),
        ("true", "true"),
        ("", ""),
    ],
)
def test_decode_cell(raw: str, expected: str) -> None:
    assert decode_cell(raw) == expected


def test_parse_time() -> None:
    assert parse_time("1674000100.25") == ("number", 1674000100.25)
    assert parse_time("2024-03-01T08:00:00Z") == parse_time("2024-03-01T10:00:00+02:00")
    assert parse_time("2024-03-01T08:00:00") == parse_time("2024-03-01T08:00:00+00:00")
    assert parse_time("soon") is None
    assert parse_time("nan") is None


# -- MineXR -------------------------------------------------------------------------------------


def test_minexr_fixture_scenarios_and_order() -> None:
    ds = run_minexr(minexr_files())
    got = {s.id: (s.user, s.task, s.environment, s.facets) for s in ds.scenarios}
    assert got == EXPECTED_MINEXR
    assert [s.id for s in ds.scenarios] == list(EXPECTED_MINEXR)  # layouts.json order
    assert ds.n_events == 11
    assert ds.meta["source"] == "minexr" and ds.meta["synthetic"] is False and ds.meta["name"] == "minexr"
    info = ds.meta["import"]
    assert info["skipped_widgets"] == 3
    assert info["skipped_unannotated"] == ["904", "921"]
    assert info["skipped_no_facets"] == ["930"]
    assert info["dropped_empty_layouts"] == ["P03_LivingRoom_Relaxing"]
    assert info["widgets_without_history"] == 1


def test_minexr_saves_a_loadable_dataset(tmp_path: Path) -> None:
    ds = run_minexr(minexr_files(), name="minexr-fixture")
    ds.save(tmp_path / "out")
    loaded = Dataset.load(tmp_path / "out")
    assert [(s.id, s.user, s.task, s.environment, s.facets) for s in loaded.scenarios] == [
        (s.id, s.user, s.task, s.environment, s.facets) for s in ds.scenarios
    ]
    assert loaded.meta["name"] == "minexr-fixture" and loaded.meta["source"] == "minexr"
    assert not loaded.synthetic


def test_minexr_reads_columns_by_header_not_position(minexr_copy: dict[str, Path]) -> None:
    path = minexr_copy["widgets"]
    lines = [line.split(",") for line in path.read_text().splitlines() if line]
    # Move the context columns to the front; the Messenger row has a quoted comma, so re-split it.
    order = [8, 9, 10, 11, *[i for i in range(22) if i not in (8, 9, 10, 11)]]
    out = []
    for cells in lines:
        if len(cells) == 23:
            cells = [*cells[:2], f"{cells[2]},{cells[3]}", *cells[4:]]
        out.append(",".join(cells[i] for i in order))
    path.write_text("\n".join(out) + "\n")
    ds = run_minexr(minexr_copy)
    assert {s.id: s.facets for s in ds.scenarios} == {k: v[3] for k, v in EXPECTED_MINEXR.items()}


def test_minexr_column_aliases_are_configurable(minexr_copy: dict[str, Path]) -> None:
    hist = minexr_copy["history"]
    hist.write_text(hist.read_text().replace("widget_id,action,timestamp,", "anchor,kind,when,", 1))
    with pytest.raises(ValidationError) as exc:
        run_minexr(minexr_copy)
    assert problems_of(exc) == [
        f"{hist}: line 1: header: no widget id column (looked for widget_id, anchorId, anchor_id, widgetId)",
        f"{hist}: line 1: header: no time column (looked for timestamp, time, ts)",
    ]
    cols = MineXRColumns(history_widget=("anchor",), history_time=("WHEN",), history_action=("kind",))
    ds = run_minexr(minexr_copy, columns=cols)
    assert {s.id: s.facets for s in ds.scenarios} == {k: v[3] for k, v in EXPECTED_MINEXR.items()}


def test_minexr_history_without_action_uses_first_record(minexr_copy: dict[str, Path]) -> None:
    hist = minexr_copy["history"]
    hist.write_text(hist.read_text().replace("widget_id,action,", "widget_id,what,", 1))
    ds = run_minexr(minexr_copy)
    # 905's update (t=3040) now counts, so it precedes 906 (t=3050).
    assert ds.by_id()["P01_Office_FocusWork"].facets == (
        "spotify.control_playback",
        "messages.browse_conversations",
        "messages.engage_in_conversation",
    )


def test_minexr_iso_history_times(minexr_copy: dict[str, Path]) -> None:
    hist = minexr_copy["history"]
    lines = [
        "widget_id,action,timestamp",
        '"901","add","2024-01-18T00:00:03Z"',
        '"903","add","2024-01-18T00:00:01Z"',
        '"902","add","2024-01-18T01:00:02+01:00"',
    ]
    hist.write_text("\n".join(lines) + "\n")
    ds = run_minexr(minexr_copy)
    assert ds.by_id()["P01_Kitchen_Cooking"].facets == (
        "spotify.control_playback",
        "clock.set_timer",
        "recipes.view_recipe",
    )


def test_minexr_unknown_facet_ids_are_errors(minexr_copy: dict[str, Path]) -> None:
    ann = minexr_copy["annotations"]
    edit_line(ann, 3, "clock.set_timer", "clock.set_timer;clock.stopwatch")
    edit_line(
        ann,
        6,
        "906,messages.browse_conversations;messages.engage_in_conversation",
        '906,"messages.browse_conversations,messages.engage_in_conversation"',
    )
    edit_line(ann, 7, "909,", "909,recipes.cook_recipe,")
    with pytest.raises(ValidationError) as exc:
        run_minexr(minexr_copy)
    assert problems_of(exc) == [
        f"{ann}: line 3: facet_ids: unknown facet id 'clock.stopwatch'",
        f"{ann}: line 6: facet_ids: unknown facet id "
        "'messages.browse_conversations,messages.engage_in_conversation' (facet ids are ';'-separated)",
        f"{ann}: line 7: expected 2 fields, found 3",
    ]


def test_minexr_annotation_problems(minexr_copy: dict[str, Path]) -> None:
    ann = minexr_copy["annotations"]
    ann.write_text(ann.read_text() + '"999",clock.set_timer\n901,clock.set_timer\n,clock.set_timer\n')
    with pytest.raises(ValidationError) as exc:
        run_minexr(minexr_copy)
    assert problems_of(exc) == [
        f"{ann}: line 14: anchorId: no widget with anchor id '999' in widgets.csv",
        f"{ann}: line 15: anchorId: widget '901' is annotated again (first on line 2)",
        f"{ann}: line 16: anchorId: empty value",
    ]


def test_minexr_layout_widget_missing_from_widgets_csv(minexr_copy: dict[str, Path]) -> None:
    lay = minexr_copy["layouts"]
    raw = json.loads(lay.read_text())
    raw["P02_Kitchen_Cooking"]["977"] = [[1, 0, 0, 0]] * 4
    lay.write_text(json.dumps(raw))
    with pytest.raises(ValidationError) as exc:
        run_minexr(minexr_copy)
    assert problems_of(exc) == [f"{lay}: layout 'P02_Kitchen_Cooking': 977: widget '977' has no row in widgets.csv"]


def test_minexr_widget_context_must_match_layout_key(minexr_copy: dict[str, Path]) -> None:
    wid = minexr_copy["widgets"]
    edit_line(wid, 9, '"P02","Kitchen"', '"P02","Office"')
    with pytest.raises(ValidationError) as exc:
        run_minexr(minexr_copy)
    assert problems_of(exc) == [
        f"{wid}: line 9: pId/envId/taskId: widget '910' belongs to P02_Office_Cooking here "
        "but is placed in layout 'P02_Kitchen_Cooking'"
    ]


def test_minexr_bad_rows_report_file_line_and_field(minexr_copy: dict[str, Path]) -> None:
    wid, hist = minexr_copy["widgets"], minexr_copy["history"]
    edit_line(wid, 3, '"Clock",', "")
    edit_line(wid, 4, '"P01","Kitchen"', '"","Kitchen"')
    edit_line(hist, 3, "1674000110.0", '"soon"')
    edit_line(hist, 4, "1674000100.25", '"2023-01-18T00:00:00Z"')
    with pytest.raises(ValidationError) as exc:
        run_minexr(minexr_copy)
    assert problems_of(exc) == [
        f"{wid}: line 3: expected 22 fields, found 21",
        f"{wid}: line 4: pId: empty value",
        f"{hist}: line 3: timestamp: 'soon' is not a number or an ISO-8601 time",
        f"{hist}: line 4: timestamp: '2023-01-18T00:00:00Z' is an ISO-8601 time but line 2 has a number;"
        " use one kind of time per file",
    ]


def test_minexr_missing_header_column_and_files(minexr_copy: dict[str, Path]) -> None:
    wid = minexr_copy["widgets"]
    wid.write_text(wid.read_text().replace(",anchorId,", ",anchor,", 1))
    lay = minexr_copy["layouts"]
    lay.write_text('{\n  "P01_Kitchen_Cooking": {\n    "901": [1, 2,]\n  }\n}\n')
    minexr_copy["history"] = minexr_copy["history"].with_name("nope.csv")
    with pytest.raises(ValidationError) as exc:
        run_minexr(minexr_copy)
    assert problems_of(exc) == [
        f"{wid}: line 1: header: no anchor id column (looked for anchorId, anchor_id, widget_id, widgetId)",
        f"{lay}: line 3: invalid JSON: Expecting value",
        f"{minexr_copy['history']}: file not found",
    ]


def test_minexr_layouts_shape_and_key(minexr_copy: dict[str, Path]) -> None:
    lay = minexr_copy["layouts"]
    lay.write_text(json.dumps({"P01_Kitchen_Cooking": ["901"], "justakey": {}}))
    with pytest.raises(ValidationError) as exc:
        run_minexr(minexr_copy)
    assert problems_of(exc) == [
        f"{lay}: layout 'P01_Kitchen_Cooking': expected an object mapping widget ids to transforms",
        f"{lay}: layout 'justakey': key is not '{{participant}}_{{environment}}_{{task}}'",
    ]


def test_minexr_nothing_annotated(minexr_copy: dict[str, Path]) -> None:
    minexr_copy["annotations"].write_text("anchorId,facet_ids\n")
    with pytest.raises(ValidationError, match="no layout has an annotated widget"):
        run_minexr(minexr_copy)


# -- generic CSV ----------------------------------------------------------------------------------


def usage(**kwargs) -> Dataset:
    args = {
        "user_col": "participant",
        "task_col": "activity",
        "env_col": "place",
        "item_col": "feature",
        "time_col": "ts",
    }
    return import_csv(kwargs.pop("path", GENERIC / "usage.csv"), **{**args, **kwargs})


def test_csv_scenarios_by_context_with_extras() -> None:
    ds = usage(extra_cols=["mood"])
    assert [(s.id, s.user, s.task, s.environment, s.extra, s.facets) for s in ds.scenarios] == [
        # timer and recipes.view tie at 10:01 and keep file order; spotify.play's repeat is dropped.
        (
            "P1_cooking_kitchen_calm",
            "P1",
            "cooking",
            "kitchen",
            {"mood": "calm"},
            ("items.timer", "recipes.view", "spotify.play"),
        ),
        # 09:30+02:00 is 07:30Z, before maps.route at 08:00Z.
        (
            "P1_commuting_street_rushed",
            "P1",
            "commuting",
            "street",
            {"mood": "rushed"},
            ("spotify.play", "maps.route"),
        ),
        (
            "P2_cooking_kitchen_calm",
            "P2",
            "cooking",
            "kitchen",
            {"mood": "calm"},
            ("recipes.search", "recipes.view"),
        ),
        ("P1_cooking_kitchen_tired", "P1", "cooking", "kitchen", {"mood": "tired"}, ("items.timer",)),
    ]
    assert ds.extra_columns == ("mood",)
    assert ds.meta["source"] == "csv" and ds.meta["synthetic"] is False and ds.meta["name"] == "usage"
    assert ds.meta["import"]["repeated_items"] == 1 and ds.meta["import"]["catalog"] == "flat"


def test_csv_without_extras_merges_contexts() -> None:
    ds = usage()
    assert [s.id for s in ds.scenarios] == ["P1_cooking_kitchen", "P1_commuting_street", "P2_cooking_kitchen"]
    assert ds.by_id()["P1_cooking_kitchen"].facets == ("items.timer", "recipes.view", "spotify.play")
    assert ds.meta["import"]["repeated_items"] == 2


def test_csv_scenario_column() -> None:
    ds = usage(scenario_col="session", extra_cols=["mood"])
    assert [s.id for s in ds.scenarios] == ["s1", "s2", "s3", "s4"]
    assert ds.by_id()["s4"].extra == {"mood": "tired"}


def test_csv_scenario_context_must_be_consistent(tmp_path: Path) -> None:
    path = tmp_path / "u.csv"
    path.write_text((GENERIC / "usage.csv").read_text().replace("s4,P1,cooking,kitchen", "s1,P1,cooking,garden"))
    with pytest.raises(ValidationError) as exc:
        usage(path=path, scenario_col="session")
    assert problems_of(exc) == [f"{path}: line 10: place: scenario 's1' has place 'garden' here but another on line 2"]


def test_csv_flat_catalog_structure() -> None:
    cat = usage().catalog
    assert [a.id for a in cat.apps] == ["items", "maps", "recipes", "spotify"]
    assert cat.entry_of["recipes"] == "recipes.open_section"
    entry = cat.facets["recipes.open_section"]
    assert entry.name == "Open Section" and entry.entry
    assert entry.capabilities == ["open_search", "open_view"]
    assert cat.nav("recipes.view") == 1 and cat.nav("recipes.open_section") == 0
    assert cat.label("spotify.play") == "Spotify: Play"


def test_flat_catalog_helpers() -> None:
    assert flat_facet_id("maps.route.view") == "maps.route.view"
    assert flat_facet_id("timer") == "items.timer"
    assert flat_facet_id(".x") is None and flat_facet_id("maps.") is None
    cat = flat_catalog(["maps.open_section", "maps.route.view", "maps.search_places"])
    assert [f for f in cat.app_facets("maps")] == [
        "maps.open_section",
        "maps.route.view",
        "maps.search_places",
    ]
    assert cat.nav("maps.route.view") == 1


def test_csv_numeric_time_and_single_items_app() -> None:
    ds = import_csv(
        GENERIC / "plain.csv", user_col="user", task_col="task", env_col="env", item_col="item", time_col="t"
    )
    # Numeric, not lexical, order (9 < 10 < 100); the 2.5 tie keeps file order.
    assert {s.id: s.facets for s in ds.scenarios} == {
        "u1_work_office": ("items.calendar", "items.notes", "items.mail"),
        "u2_work_office": ("items.mail", "items.notes"),
    }
    assert [a.id for a in ds.catalog.apps] == ["items"]


def test_csv_with_catalog(tmp_path: Path) -> None:
    args = {
        "user_col": "user",
        "task_col": "task",
        "env_col": "environment",
        "item_col": "facet",
        "time_col": "time",
        "catalog": MINEXR / "catalog.json",
    }
    ds = import_csv(GENERIC / "facets.csv", **args)
    assert ds.by_id()["P01_Cooking_Kitchen"].facets == (
        "clock.set_timer",
        "spotify.open_section",
        "recipes.view_recipe",
    )
    assert ds.catalog.facets.keys() == Catalog.load(MINEXR / "catalog.json").facets.keys()
    ds.save(tmp_path / "out")
    assert Dataset.load(tmp_path / "out").by_id()["P02_Chatting_CoffeeShop"].facets == (
        "messages.engage_in_conversation",
    )

    bad = tmp_path / "bad.csv"
    bad.write_text((GENERIC / "facets.csv").read_text() + "P02,Chatting,CoffeeShop,spotify.play,2\n")
    with pytest.raises(ValidationError) as exc:
        import_csv(bad, **args)
    assert problems_of(exc) == [f"{bad}: line 6: facet: unknown facet id 'spotify.play'"]


def test_csv_row_problems(tmp_path: Path) -> None:
    path = tmp_path / "u.csv"
    path.write_text(
        "user,task,env,item,t\n"
        "u1,work,office,notes,10\n"
        "u1,,office,notes,11\n"
        "u1,work,office,notes,yesterday\n"
        "u1,work,office,notes,2024-01-01\n"
        "u1,work,office,.notes,12\n"
        "u1,work,office\n"
        "u1,work,office,items.mail,13\n"
        "u1,work,office,mail,14\n"
    )
    with pytest.raises(ValidationError) as exc:
        import_csv(path, user_col="user", task_col="task", env_col="env", item_col="item", time_col="t")
    assert problems_of(exc) == [
        f"{path}: line 3: task: empty value",
        f"{path}: line 4: t: 'yesterday' is not a number or an ISO-8601 time",
        f"{path}: line 5: t: '2024-01-01' is an ISO-8601 time but line 2 has a number; use one kind of time per file",
        f"{path}: line 6: item: item '.notes' has an empty part before or after its first '.'",
        f"{path}: line 7: expected 5 fields, found 3",
        f"{path}: line 9: item: item 'mail' and 'items.mail' (line 8) both become facet 'items.mail'",
    ]


def test_csv_header_and_argument_problems(tmp_path: Path) -> None:
    with pytest.raises(ValidationError) as exc:
        usage(time_col="when", extra_cols=["mood", "weather"])
    f = GENERIC / "usage.csv"
    found = "'session', 'participant', 'activity', 'place', 'mood', 'feature', 'ts'"
    read = f"the header read with delimiter ',' has {found}"
    assert problems_of(exc) == [
        f"{f}: line 1: header: no column 'when' (given by --time-col); {read}",
        f"{f}: line 1: header: no column 'weather' (given by --extra-col); {read}",
    ]
    with pytest.raises(ValidationError) as exc:
        usage(extra_cols=["step"])
    assert problems_of(exc) == [f"{f}: --extra-col: 'step' is a reserved events.csv column name; rename that column"]
    empty = tmp_path / "empty.csv"
    empty.write_text("\n")
    with pytest.raises(ValidationError, match="empty file"):
        usage(path=empty)
    with pytest.raises(ValidationError, match="file not found"):
        usage(path=tmp_path / "missing.csv")


def _facets(ds: Dataset) -> list[tuple[str, tuple[str, ...]]]:
    return [(s.id, s.facets) for s in ds.scenarios]


def test_csv_real_files_tabs_bom_and_other_encodings(tmp_path: Path) -> None:
    text = (GENERIC / "usage.csv").read_text()
    reference = usage(extra_cols=["mood"])
    tabs = tmp_path / "usage.tsv"
    tabs.write_text("\ufeff" + text.replace(",", "\t"), encoding="utf-8")  # tab-separated, with a BOM
    ds = usage(path=tabs, extra_cols=["mood"])
    assert _facets(ds) == _facets(reference) and ds.meta["columns"]["delimiter"] == "\t"
    semi = tmp_path / "usage-latin1.csv"
    semi.write_bytes(text.replace(",", ";").replace("calm", "calmé").encode("latin-1"))
    with pytest.raises(ValidationError) as exc:
        usage(path=semi, extra_cols=["mood"])
    assert problems_of(exc) == [
        f"{semi}: not utf-8 text (byte {text.replace(',', ';').index('calm') + 4}); "
        "name its encoding with --encoding, e.g. latin-1"
    ]
    ds = usage(path=semi, extra_cols=["mood"], encoding="latin-1")
    assert ds.scenarios[0].extra == {"mood": "calmé"} and len(ds.scenarios) == len(reference.scenarios)
    with pytest.raises(ValidationError, match=re.escape("delimiter ',' has 'session\\tparticipant")):
        usage(path=tabs, delimiter=",")


def test_csv_without_a_time_column_keeps_file_order() -> None:
    ds = usage(time_col=None, extra_cols=["mood"])
    # File order: spotify.play came first in s1's rows (the time column would put timer first).
    assert ds.scenarios[0].facets == ("spotify.play", "items.timer", "recipes.view")
    assert ds.meta["columns"]["time"] is None


def test_csv_mapping_mistakes_are_warned_once_each(tmp_path: Path) -> None:
    rows = ["u,t,e,item,when,const"] + [f"u{i % 3},t{i % 2},e{i % 2},x.i{i},2024,c" for i in range(40)]
    f = tmp_path / "odd.csv"
    f.write_text("\n".join(rows) + "\n")
    ds = import_csv(f, user_col="u", task_col="t", env_col="t", item_col="item", time_col="when", extra_cols=["const"])
    assert ds.meta["import"]["warnings"] == [
        f"{f}: column 't' is given for --task-col and --env-col",
        f"{f}: context column 'const' has one value ('c'): it separates nothing",
        f"{f}: item column 'item' has a new value on every row: is it an id, not an item?",
        f"{f}: time column 'when' has 1 distinct values in 40 rows: is it a time?",
    ]
    assert usage().meta["import"]["warnings"] == []


def test_events_csv_with_a_bom_loads_and_other_encodings_fail_in_one_line(tmp_path: Path) -> None:
    ds = usage(extra_cols=["mood"])
    ds.save(tmp_path / "ds")
    events = tmp_path / "ds" / "events.csv"
    events.write_bytes(b"\xef\xbb\xbf" + events.read_bytes())
    assert _facets(Dataset.load(tmp_path / "ds")) == _facets(ds)
    events.write_bytes(events.read_bytes()[3:].replace(b"calm", b"calm\xe9"))
    with pytest.raises(ValidationError) as exc:
        Dataset.load(tmp_path / "ds")
    (line,) = problems_of(exc)
    assert line.startswith(f"{events}: not UTF-8 text (byte ") and "re-save it as UTF-8" in line


def test_csv_roundtrip_with_extras(tmp_path: Path) -> None:
    ds = usage(scenario_col="session", extra_cols=["mood"])
    ds.save(tmp_path / "out")
    loaded = Dataset.load(tmp_path / "out")
    assert [(s.id, s.facets, s.extra) for s in loaded.scenarios] == [(s.id, s.facets, s.extra) for s in ds.scenarios]
    assert loaded.extra_columns == ("mood",)
    assert loaded.catalog.to_dict() == ds.catalog.to_dict()


# -- CLI ------------------------------------------------------------------------------------------


@pytest.fixture
def cli() -> typer.Typer:
    app = App()
    register(app)
    return app


def test_cli_import_minexr(cli: typer.Typer, tmp_path: Path) -> None:
    files = minexr_files()
    out = tmp_path / "ds"
    args = [
        "import-minexr",
        "--widgets",
        files["widgets"],
        "--layouts",
        files["layouts"],
        "--history",
        files["history"],
        "--annotations",
        files["annotations"],
        "--catalog",
        files["catalog"],
        "--out",
        out,
    ]
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == (
        f"{out}: 4 scenarios, 11 events, 3 widgets skipped (no facet annotation), "
        "1 layouts dropped (no annotated widget)"
    )
    assert len(Dataset.load(out).scenarios) == 4
    assert json.loads((out / "meta.json").read_text())["source"] == "minexr"


def test_cli_import_csv(cli: typer.Typer, tmp_path: Path) -> None:
    out = tmp_path / "ds"
    args = [
        "import-csv",
        str(GENERIC / "usage.csv"),
        "--user-col",
        "participant",
        "--task-col",
        "activity",
        "--env-col",
        "place",
        "--item-col",
        "feature",
        "--time-col",
        "ts",
        "--scenario-col",
        "session",
        "--extra-col",
        "mood",
        "--out",
        str(out),
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == (
        f"{out}: 4 scenarios, 8 events, 1 rows skipped (item repeated in its scenario), flat catalog"
    )
    loaded = Dataset.load(out)
    assert loaded.extra_columns == ("mood",) and [s.id for s in loaded.scenarios] == ["s1", "s2", "s3", "s4"]


def test_cli_errors_exit_2_without_traceback(cli: typer.Typer, tmp_path: Path) -> None:
    args = [
        "import-csv",
        str(GENERIC / "usage.csv"),
        "--user-col",
        "who",
        "--task-col",
        "activity",
        "--env-col",
        "place",
        "--item-col",
        "feature",
        "--time-col",
        "ts",
        "--out",
        str(tmp_path / "ds"),
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert (
        result.stderr.strip()
        == f"error: {GENERIC / 'usage.csv'}: line 1: header: no column 'who' (given by --user-col); the header "
        "read with delimiter ',' has 'session', 'participant', 'activity', 'place', 'mood', 'feature', 'ts'"
    )
    assert "Traceback" not in result.output
    assert not (tmp_path / "ds").exists()

    files = minexr_files()
    args = [
        "import-minexr",
        "--widgets",
        files["widgets"],
        "--layouts",
        files["layouts"],
        "--history",
        files["history"],
        "--annotations",
        files["annotations"],
        "--catalog",
        tmp_path / "nope.json",
        "--out",
        tmp_path / "ds",
    ]
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: {tmp_path / 'nope.json'}: file not found"


def test_cli_unwritable_out(cli: typer.Typer, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    args = [
        "import-csv",
        str(GENERIC / "plain.csv"),
        "--user-col",
        "user",
        "--task-col",
        "task",
        "--env-col",
        "env",
        "--item-col",
        "item",
        "--time-col",
        "t",
        "--out",
        str(blocker / "ds"),
    ]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {blocker / 'ds'}: cannot write dataset:")
