"""Importers that turn external context-usage data into ContextXR datasets (`Dataset`).

Two sources are supported; both return a `Dataset` whose `meta` records the provenance
(`name`, `source`, `synthetic: false`, the input files and import counts) and which the caller
writes with `Dataset.save(out_dir)`.

MineXR (`import_minexr`)
------------------------
The MineXR release (Cho et al., "MineXR: Mining Personalized Extended Reality Interfaces",
CHI 2024; github.com/Augmented-Perception-Lab/MineXR, README "Dataset" section, the Data Viewer's
`LayoutManager.cs` and the annotator's `App.js`) ships these files:

* `widgets.csv`: one row per widget, identified by `anchorId`; `pId`, `envId` and `taskId` give
  the participant, environment and task it was created for; further annotation columns
  (`appName`, `screenDesc`, `widgetDesc`, `uiTypes`, `appCategory`, `widgetImagePath`, ...).
  The annotator exported it by writing every value as `JSON.stringify(value)` with each `,`
  replaced by `;`, joined by `,` (so strings appear as `"text"`, lists as `["a";"b"]`, booleans
  as `true`). Columns are therefore read by header name, never by position, and each cell is
  decoded: a JSON string literal is unquoted (`"\\"text\\""` -> `text`); a standard CSV-quoted
  cell (`"[1.0; 2.0]"`, or `"text"` re-quoted with doubled quotes) is unquoted too. A line is
  first split on `,` (exact for the exporter's output, which never has a comma inside a value);
  when that does not give the header's field count, the line is parsed as standard CSV. One
  record per line.
* `layouts.json` (the README also calls it `layout.json`): an object keyed by
  `"{participantID}_{environment}_{task}"` (e.g. `"P01_CoffeeShop_ChatWithFriends"`), each value
  an object mapping the widget id (= `anchorId`) to its 4x4 world transform. Each layout is one
  scenario; its id is the key, and user/environment/task come from the widgets' `pId`, `envId`,
  `taskId` in `widgets.csv`, which must spell the key (`{pId}_{envId}_{taskId}`).
* `interaction_history.csv`: add/update/delete records of every widget, identified by
  `widget_id` (= `anchorId`). The README names only `widget_id` and the transform; the capture
  app (`ViewController+Firestore.swift`) stores `anchorId`, `worldTransform`, `timestamp` (Unix
  seconds) and `action` (`add`/`update`/`delete`) per record, so the time and action columns are
  resolved by header from the aliases in `MineXRColumns` (default `timestamp`/`time`/`ts` and
  `action`/`event`/`type`; the action column is optional). A widget's place on the timeline is
  the time of its first `add` record (its first record of any kind when it has no `add`);
  widgets of a layout without any history record follow the timed ones in layout order, and
  ties keep layout order. Times are Unix seconds or ISO-8601.
* The facet annotation file (MineXR++ layer, not part of the MineXR release): a CSV with header
  `anchorId,facet_ids`, the facet ids `;`-separated, read with the same cell decoding.

Within a scenario the facets follow the widgets' timeline; facets annotated on the same widget
keep their annotation order, and a facet already placed earlier is not repeated. Layout widgets
without an annotation row (or with an empty `facet_ids`) are skipped and counted in
`meta["import"]`; layouts left without any facet are dropped and counted. Unknown facet ids,
annotations of unknown widgets, layout widgets missing from `widgets.csv`, contexts that do not
match the layout key and unreadable times are errors, each reported as one line naming the file,
the line (or layout) and the field. The column aliases are configurable through `MineXRColumns`.

Generic CSV (`import_csv`)
--------------------------
Any CSV with one row per use of an item: the caller names the user, task, environment, item and
time columns, optionally a scenario/session column and extra context columns. Without a scenario
column a scenario is a distinct (user, task, environment, extras...) combination. Rows are
ordered by time (numeric, or ISO-8601 with naive times taken as UTC; one kind per file; without a
time column, file order), ties keep file order, and an item used again in the same scenario is
counted, not repeated. The delimiter is sniffed from the header (comma, tab, semicolon, bar)
unless given, a UTF-8 byte-order mark is dropped, other encodings are named, and a missing column
is reported with the header that was read. Likely mapping mistakes are warnings. With a
catalog every item must be one of its facet ids; without one `flat_catalog` builds a catalog in
which each item is a facet of the app named by its prefix before the first `.` (app `items` for
items without a `.`), and each app gets an entry facet `<app>.open_section` ("Open Section") that
opens every other facet, so the navigation and search cost model still applies.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from xrbench.context.catalog import Catalog
from xrbench.context.dataset import REQUIRED_COLUMNS, Dataset, Scenario
from xrbench.errors import Problem, ValidationError

__all__ = [
    "ENTRY_KEY",
    "FLAT_APP",
    "MineXRColumns",
    "decode_cell",
    "flat_catalog",
    "flat_facet_id",
    "import_csv",
    "import_minexr",
    "parse_time",
]

ENTRY_KEY = "open_section"
FLAT_APP = "items"
PLACE_ACTIONS = frozenset({"add"})


@dataclass(frozen=True)
class MineXRColumns:
    """Header names accepted for each field of the MineXR files (first match wins).

    Names are matched exactly first, then case-insensitively.
    """

    anchor: tuple[str, ...] = ("anchorId", "anchor_id", "widget_id", "widgetId")
    participant: tuple[str, ...] = ("pId", "participantId", "participant_id", "participant")
    environment: tuple[str, ...] = ("envId", "environment", "env")
    task: tuple[str, ...] = ("taskId", "task")
    history_widget: tuple[str, ...] = ("widget_id", "anchorId", "anchor_id", "widgetId")
    history_time: tuple[str, ...] = ("timestamp", "time", "ts")
    history_action: tuple[str, ...] = ("action", "event", "type")
    annotation_anchor: tuple[str, ...] = ("anchorId", "anchor_id", "widget_id", "widgetId")
    annotation_facets: tuple[str, ...] = ("facet_ids", "facets", "facet_id")


# -- shared helpers -----------------------------------------------------------------------


def decode_cell(raw: str) -> str:
    """Decode one MineXR CSV cell to plain text.

    A JSON string literal (`"text"`, `"say \\"hi\\""`) is unquoted; a standard CSV-quoted cell
    (quotes inside doubled) is unquoted, then decoded once more since re-saved MineXR files wrap
    the JSON text in CSV quotes. Anything else (numbers, `true`, `["a";"b"]`) is returned stripped.
    """
    s = raw.strip()
    for _ in range(2):
        if len(s) < 2 or s[0] != '"' or s[-1] != '"':
            break
        try:
            value = json.loads(s)
        except json.JSONDecodeError:
            s = s[1:-1].replace('""', '"').strip()
            continue
        s = str(value).strip()
    return s


def parse_time(text: str) -> tuple[str, float] | None:
    """Parse a time value: ("number", value) or ("iso", Unix seconds); None when neither.

    Naive ISO-8601 times are taken as UTC so the order does not depend on the machine's zone.
    """
    s = text.strip()
    try:
        value = float(s)
    except ValueError:
        pass
    else:
        return ("number", value) if math.isfinite(value) else None
    try:
        when = datetime.fromisoformat(s)
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return ("iso", when.timestamp())


_TIME_KINDS = {"number": "a number", "iso": "an ISO-8601 time"}


def _read_text(path: Path, problems: list[Problem], encoding: str = "utf-8") -> str | None:
    """The file's text (a UTF-8 byte-order mark dropped), or None with the reason in `problems`."""
    name = str(path)
    codec = "utf-8-sig" if encoding.lower().replace("_", "-") in ("utf-8", "utf8") else encoding
    try:
        return path.read_text(encoding=codec)
    except LookupError:
        problems.append(Problem(name, "", "--encoding", f"unknown encoding {encoding!r}"))
    except FileNotFoundError:
        problems.append(Problem(name, "", "", "file not found"))
    except IsADirectoryError:
        problems.append(Problem(name, "", "", "is a directory, expected a file"))
    except UnicodeDecodeError as e:
        problems.append(
            Problem(
                name, "", "", f"not {encoding} text (byte {e.start}); name its encoding with --encoding, e.g. latin-1"
            )
        )
    except OSError as e:
        problems.append(Problem(name, "", "", f"cannot read: {e.strerror}"))
    return None


DELIMITERS = (",", "\t", ";", "|")


def sniff_delimiter(text: str) -> str:
    """The delimiter of a delimited text file: of `DELIMITERS`, the one its first non-blank line
    (the header) contains most often outside quotes; a comma when it has none."""
    header = next((line for line in text.splitlines() if line.strip()), "")
    unquoted = re.sub(r'"[^"]*"', "", header)
    counts = {d: unquoted.count(d) for d in DELIMITERS}
    best = max(DELIMITERS, key=lambda d: counts[d])  # max keeps the first of equals: the comma
    return best if counts[best] else ","


@dataclass
class _Table:
    """A MineXR-style CSV file: decoded header and rows with their line numbers."""

    file: str
    header: list[str]
    header_line: int
    # Each line's decoded cells, or the field count found when it does not match the header.
    rows: list[tuple[int, list[str] | int]] = field(default_factory=list)

    def records(self, problems: list[Problem]) -> Iterator[tuple[int, list[str]]]:
        """The well-formed rows; malformed ones are reported in line order as they are reached."""
        for lineno, cells in self.rows:
            if isinstance(cells, int):
                problems.append(
                    Problem(self.file, f"line {lineno}", "", f"expected {len(self.header)} fields, found {cells}")
                )
            else:
                yield lineno, cells

    def column(self, aliases: Sequence[str], label: str, problems: list[Problem] | None) -> int | None:
        """Index of the first header matching an alias; reports a problem when required and absent."""
        for alias in aliases:
            if alias in self.header:
                return self.header.index(alias)
        lowered = [h.lower() for h in self.header]
        for alias in aliases:
            if alias.lower() in lowered:
                return lowered.index(alias.lower())
        if problems is not None:
            problems.append(
                Problem(
                    self.file,
                    f"line {self.header_line}",
                    "header",
                    f"no {label} column (looked for {', '.join(aliases)})",
                )
            )
        return None


def _split_line(line: str, width: int) -> list[str]:
    parts = line.split(",")
    if len(parts) == width:
        return parts
    try:
        parsed = next(csv.reader([line]), [])
    except csv.Error:
        return parts
    return parsed if len(parsed) == width else parts


def _read_minexr_csv(path: Path, problems: list[Problem]) -> _Table | None:
    text = _read_text(path, problems)
    if text is None:
        return None
    name = str(path)
    table: _Table | None = None
    # Split on "\n" only: str.splitlines() would also break at U+2028 etc., which JSON leaves raw.
    for lineno, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        if table is None:
            header = [decode_cell(c) for c in line.split(",")]
            table = _Table(name, header, lineno)
            continue
        cells = _split_line(line, len(table.header))
        ok = len(cells) == len(table.header)
        table.rows.append((lineno, [decode_cell(c) for c in cells] if ok else len(cells)))
    if table is None:
        problems.append(Problem(name, "line 1", "", "empty file: expected a header row"))
    return table


class _TimeKind:
    """Remembers the first time kind seen in a file so a mix of kinds is reported."""

    def __init__(self) -> None:
        self.kind: str | None = None
        self.line = 0

    def check(self, file: str, lineno: int, column: str, text: str, problems: list[Problem]) -> float | None:
        parsed = parse_time(text)
        if parsed is None:
            problems.append(Problem(file, f"line {lineno}", column, f"{text!r} is not a number or an ISO-8601 time"))
            return None
        kind, value = parsed
        if self.kind is None:
            self.kind, self.line = kind, lineno
        elif kind != self.kind:
            problems.append(
                Problem(
                    file,
                    f"line {lineno}",
                    column,
                    f"{text!r} is {_TIME_KINDS[kind]} but line {self.line} has {_TIME_KINDS[self.kind]};"
                    " use one kind of time per file",
                )
            )
            return None
        return value


def _ordered_unique(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(items))


# -- MineXR ---------------------------------------------------------------------------------


def import_minexr(
    widgets: str | Path,
    layouts: str | Path,
    history: str | Path,
    annotations: str | Path,
    catalog: Catalog | str | Path,
    *,
    name: str = "minexr",
    columns: MineXRColumns | None = None,
) -> Dataset:
    """Import the MineXR release plus a facet-annotation CSV as a ContextXR dataset.

    Each layout of `layouts.json` becomes one scenario (id = layout key, user = participant,
    task, environment); its facets follow the widgets' first placement in the interaction
    history. Raises `ValidationError` listing every problem found in the input files.
    """
    cols = columns or MineXRColumns()
    cat = catalog if isinstance(catalog, Catalog) else Catalog.load(catalog)
    paths = {
        "widgets": Path(widgets),
        "layouts": Path(layouts),
        "history": Path(history),
        "annotations": Path(annotations),
    }
    problems: list[Problem] = []

    widget_ctx = _minexr_widgets(paths["widgets"], cols, problems)
    layout_list = _minexr_layouts(paths["layouts"], problems)
    placed = _minexr_history(paths["history"], cols, problems)
    notes = _minexr_annotations(paths["annotations"], cols, cat, widget_ctx, problems)
    if widget_ctx is None or layout_list is None or placed is None or notes is None:
        raise ValidationError(problems)

    widgets_file, layouts_file = str(paths["widgets"]), str(paths["layouts"])
    scenarios: list[Scenario] = []
    skipped: list[str] = []
    empty_annotation: list[str] = []
    no_history = 0
    empty_layouts: list[str] = []
    for key, widget_ids in layout_list:
        ctx = _layout_context(key, widget_ids, widget_ctx, widgets_file, layouts_file, problems)
        if ctx is None:
            continue
        timed = []
        for order, wid in enumerate(widget_ids):
            when = placed.get(wid)
            if when is None:
                no_history += 1
            # Widgets without history sort after the timed ones, in layout order.
            timed.append((when is None, when if when is not None else 0.0, order, wid))
        facets: list[str] = []
        for *_, wid in sorted(timed):
            if wid not in notes:
                skipped.append(wid)
            elif not notes[wid]:
                empty_annotation.append(wid)
            else:
                facets.extend(notes[wid])
        ordered = _ordered_unique(facets)
        if not ordered:
            empty_layouts.append(key)
            continue
        pid, env, task = ctx
        scenarios.append(Scenario(key, pid, task, env, ordered))
    if problems:
        raise ValidationError(problems)
    if not scenarios:
        raise ValidationError([Problem(layouts_file, "", "", "no layout has an annotated widget: nothing to import")])
    meta = {
        "name": name,
        "source": "minexr",
        "synthetic": False,
        "files": {**{k: str(p) for k, p in paths.items()}, "catalog": cat.source},
        "import": {
            "layouts": len(layout_list),
            "scenarios": len(scenarios),
            "events": sum(len(s.facets) for s in scenarios),
            "widgets_in_layouts": sum(len(ids) for _, ids in layout_list),
            "skipped_widgets": len(skipped) + len(empty_annotation),
            "skipped_unannotated": skipped,
            "skipped_no_facets": empty_annotation,
            "widgets_without_history": no_history,
            "dropped_empty_layouts": empty_layouts,
        },
    }
    return Dataset(cat, scenarios, meta=meta)


_WidgetIndex = dict[str, list[tuple[int, str, str, str]]]


def _minexr_widgets(path: Path, cols: MineXRColumns, problems: list[Problem]) -> _WidgetIndex | None:
    before = len(problems)
    table = _read_minexr_csv(path, problems)
    if table is None:
        return None
    found = [
        table.column(cols.anchor, "anchor id", problems),
        table.column(cols.participant, "participant", problems),
        table.column(cols.environment, "environment", problems),
        table.column(cols.task, "task", problems),
    ]
    if None in found:
        return None
    idx = [i for i in found if i is not None]
    index: _WidgetIndex = {}
    for lineno, cells in table.records(problems):
        values = [cells[i] for i in idx]
        missing = [table.header[i] for i, v in zip(idx, values, strict=True) if not v]
        for col in missing:
            problems.append(Problem(table.file, f"line {lineno}", col, "empty value"))
        if missing:
            continue
        anchor, pid, env, task = values
        index.setdefault(anchor, []).append((lineno, pid, env, task))
    # With bad rows the index is incomplete: cross-checks against it would only add noise.
    return index if len(problems) == before else None


def _minexr_layouts(path: Path, problems: list[Problem]) -> list[tuple[str, list[str]]] | None:
    text = _read_text(path, problems)
    if text is None:
        return None
    name = str(path)
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as e:
        problems.append(Problem(name, f"line {e.lineno}", "", f"invalid JSON: {e.msg}"))
        return None
    if not isinstance(raw, dict):
        problems.append(Problem(name, "", "", "expected an object keyed by '{participant}_{environment}_{task}'"))
        return None
    layouts = []
    for key, widgets in raw.items():
        if not isinstance(widgets, dict):
            problems.append(Problem(name, f"layout {key!r}", "", "expected an object mapping widget ids to transforms"))
            continue
        layouts.append((key.strip(), [str(w).strip() for w in widgets]))
    return layouts


def _minexr_history(path: Path, cols: MineXRColumns, problems: list[Problem]) -> dict[str, float] | None:
    table = _read_minexr_csv(path, problems)
    if table is None:
        return None
    wcol = table.column(cols.history_widget, "widget id", problems)
    tcol = table.column(cols.history_time, "time", problems)
    acol = table.column(cols.history_action, "action", None)
    if wcol is None or tcol is None:
        return None
    kinds = _TimeKind()
    # Per widget: (has an "add" record, earliest time among the records that count).
    first: dict[str, tuple[bool, float]] = {}
    for lineno, cells in table.records(problems):
        wid, text = cells[wcol], cells[tcol]
        if not wid:
            problems.append(Problem(table.file, f"line {lineno}", table.header[wcol], "empty value"))
            continue
        if not text:
            problems.append(Problem(table.file, f"line {lineno}", table.header[tcol], "empty value"))
            continue
        when = kinds.check(table.file, lineno, table.header[tcol], text, problems)
        if when is None:
            continue
        is_add = acol is None or cells[acol].lower() in PLACE_ACTIONS
        prev = first.get(wid)
        if prev is None or (is_add and not prev[0]) or (is_add == prev[0] and when < prev[1]):
            first[wid] = (is_add, when)
    return {wid: when for wid, (_, when) in first.items()}


def _minexr_annotations(
    path: Path,
    cols: MineXRColumns,
    catalog: Catalog,
    widgets: _WidgetIndex | None,
    problems: list[Problem],
) -> dict[str, tuple[str, ...]] | None:
    table = _read_minexr_csv(path, problems)
    if table is None:
        return None
    acol = table.column(cols.annotation_anchor, "anchor id", problems)
    fcol = table.column(cols.annotation_facets, "facet ids", problems)
    if acol is None or fcol is None:
        return None
    aname, fname = table.header[acol], table.header[fcol]
    notes: dict[str, tuple[str, ...]] = {}
    first_line: dict[str, int] = {}
    for lineno, cells in table.records(problems):
        anchor = cells[acol]
        where = f"line {lineno}"
        if not anchor:
            problems.append(Problem(table.file, where, aname, "empty value"))
            continue
        if anchor in first_line:
            problems.append(
                Problem(
                    table.file,
                    where,
                    aname,
                    f"widget {anchor!r} is annotated again (first on line {first_line[anchor]})",
                )
            )
            continue
        first_line[anchor] = lineno
        if widgets is not None and anchor not in widgets:
            problems.append(Problem(table.file, where, aname, f"no widget with anchor id {anchor!r} in widgets.csv"))
        ids = [f.strip() for f in cells[fcol].split(";") if f.strip()]
        bad = False
        for fid in ids:
            if fid not in catalog.facets:
                hint = " (facet ids are ';'-separated)" if "," in fid else ""
                problems.append(Problem(table.file, where, fname, f"unknown facet id {fid!r}{hint}"))
                bad = True
        if not bad:
            notes[anchor] = _ordered_unique(ids)
    return notes


def _layout_context(
    key: str,
    widget_ids: list[str],
    index: _WidgetIndex,
    widgets_file: str,
    layouts_file: str,
    problems: list[Problem],
) -> tuple[str, str, str] | None:
    """The layout's (participant, environment, task), checked against each widget's row."""
    ctx: tuple[str, str, str] | None = None
    ok = True
    for wid in widget_ids:
        rows = index.get(wid)
        if not rows:
            problems.append(Problem(layouts_file, f"layout {key!r}", wid, f"widget {wid!r} has no row in widgets.csv"))
            ok = False
            continue
        match = next((r for r in rows if f"{r[1]}_{r[2]}_{r[3]}" == key), None)
        if match is None:
            lineno, pid, env, task = rows[0]
            problems.append(
                Problem(
                    widgets_file,
                    f"line {lineno}",
                    "pId/envId/taskId",
                    f"widget {wid!r} belongs to {pid}_{env}_{task} here but is placed in layout {key!r}",
                )
            )
            ok = False
            continue
        ctx = match[1:]
    if not ok:
        return None
    if ctx is None:
        parts = key.split("_", 2)
        if len(parts) != 3 or not all(parts):
            problems.append(
                Problem(layouts_file, f"layout {key!r}", "", "key is not '{participant}_{environment}_{task}'")
            )
            return None
        ctx = (parts[0], parts[1], parts[2])
    return ctx


# -- generic CSV ----------------------------------------------------------------------------


def flat_facet_id(item: str) -> str | None:
    """Facet id of an item in a flat catalog: the item when it has an `app.` prefix, else
    `items.<item>`; None when the item has an empty app or facet part (e.g. `.x`, `app.`)."""
    if "." in item:
        app, key = item.split(".", 1)
        return item if app and key else None
    return f"{FLAT_APP}.{item}" if item else None


def _title(key: str) -> str:
    words = [w for w in re.split(r"[_.\-\s]+", key) if w]
    return " ".join(w[:1].upper() + w[1:] for w in words) or key


def flat_catalog(facet_ids: Iterable[str], source: str = "flat catalog") -> Catalog:
    """A catalog with one app per facet-id prefix, each with an `<app>.open_section` entry facet
    that opens every other facet of the app. Facet ids must be valid `flat_facet_id` results."""
    by_app: dict[str, set[str]] = {}
    for fid in facet_ids:
        app, key = fid.split(".", 1)
        by_app.setdefault(app, set()).add(key)
    apps = []
    for app in sorted(by_app):
        keys = sorted(by_app[app] - {ENTRY_KEY})
        entry = {
            "id": f"{app}.{ENTRY_KEY}",
            "name": "Open Section",
            "entry": True,
            "description": f"Entry point of {_title(app)}",
            "capabilities": [f"open_{k}" for k in keys],
        }
        facets = [entry] + [{"id": f"{app}.{k}", "name": _title(k), "capabilities": []} for k in keys]
        apps.append({"id": app, "name": _title(app), "category": "", "facets": facets})
    return Catalog.from_dict({"apps": apps}, source=source)


def import_csv(
    path: str | Path,
    *,
    user_col: str,
    task_col: str,
    env_col: str,
    item_col: str,
    time_col: str | None = None,
    scenario_col: str | None = None,
    extra_cols: Sequence[str] = (),
    catalog: Catalog | str | Path | None = None,
    name: str | None = None,
    delimiter: str | None = None,
    encoding: str = "utf-8",
) -> Dataset:
    """Import a context-usage CSV (one row per item use) as a ContextXR dataset.

    Columns are chosen by header name. Without `time_col` the rows are taken in file order. Without
    `scenario_col` a scenario is a distinct (user, task, environment, extras...) combination.
    Without `catalog` a flat catalog is built (see `flat_catalog`). `delimiter`: default sniffed
    from the header (`sniff_delimiter`: comma, tab, semicolon or bar); `encoding`: of the file
    (a UTF-8 byte-order mark is dropped). Raises `ValidationError` listing every problem with its
    line and column. Likely mapping mistakes (one column in two roles, a time column with few
    distinct values, a context column with one value, an item column with a new value on every
    row) are listed in `meta["import"]["warnings"]`, one line each.
    """
    path = Path(path)
    file = str(path)
    cat = None if catalog is None else catalog if isinstance(catalog, Catalog) else Catalog.load(catalog)
    extras = tuple(dict.fromkeys(c.strip() for c in extra_cols))
    problems: list[Problem] = [
        Problem(file, "", "--extra-col", f"{c!r} is a reserved events.csv column name; rename that column")
        for c in extras
        if c in REQUIRED_COLUMNS
    ]
    text = _read_text(path, problems, encoding)
    if text is None or problems:
        raise ValidationError(problems)
    if delimiter is not None and len(delimiter) != 1:
        raise ValidationError([Problem(file, "", "--delimiter", f"{delimiter!r} is not one character")])
    sep = delimiter or sniff_delimiter(text)

    # StringIO(newline="") splits records only at \r/\n, unlike str.splitlines().
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    header: list[str] | None = None
    header_line = 1
    rows: list[tuple[int, list[str]]] = []
    try:
        while True:
            start = reader.line_num + 1
            row = next(reader, None)
            if row is None:
                break
            if not row or all(not c.strip() for c in row):
                continue
            if header is None:
                header, header_line = [c.strip() for c in row], start
            else:
                rows.append((start, row))
    except csv.Error as e:
        raise ValidationError([Problem(file, f"line {reader.line_num}", "", f"malformed CSV: {e}")]) from None
    if header is None:
        raise ValidationError([Problem(file, "line 1", "", "empty file: expected a header row")])

    roles = {
        "--user-col": user_col,
        "--task-col": task_col,
        "--env-col": env_col,
        "--item-col": item_col,
    }
    if time_col:
        roles["--time-col"] = time_col
    if scenario_col:
        roles["--scenario-col"] = scenario_col
    wanted = [*roles.values(), *extras]
    found = ", ".join(repr(h) for h in header)
    shown = "tab" if sep == "\t" else repr(sep)
    for col in dict.fromkeys(wanted):
        count = header.count(col)
        if count == 0:
            role = next((r for r, c in roles.items() if c == col), "--extra-col")
            problems.append(
                Problem(
                    file,
                    f"line {header_line}",
                    "header",
                    f"no column {col!r} (given by {role}); the header read with delimiter {shown} has {found}",
                )
            )
        elif count > 1:
            problems.append(Problem(file, f"line {header_line}", "header", f"column {col!r} appears {count} times"))
    if problems:
        raise ValidationError(problems)
    idx = {h: i for i, h in enumerate(header)}
    ctx_cols = (user_col, task_col, env_col, *extras)

    kinds = _TimeKind()
    facet_of: dict[str, str] = {}
    item_of: dict[str, tuple[str, int]] = {}
    events: dict[str, list[tuple[float, int, str]]] = {}
    contexts: dict[str, tuple[tuple[str, ...], int]] = {}
    sid_of_key: dict[tuple[str, ...], str] = {}
    for lineno, row in rows:
        where = f"line {lineno}"
        if len(row) != len(header):
            problems.append(Problem(file, where, "", f"expected {len(header)} fields, found {len(row)}"))
            continue
        get = {h: row[i].strip() for h, i in idx.items()}
        bad = False
        for col in dict.fromkeys((*roles.values(),)):
            if not get[col]:
                problems.append(Problem(file, where, col, "empty value"))
                bad = True
        if time_col:
            when = kinds.check(file, lineno, time_col, get[time_col], problems) if get[time_col] else None
        else:
            when = float(lineno)  # file order
        item = get[item_col]
        facet = None
        if item and cat is not None:
            if item in cat.facets:
                facet = item
            else:
                problems.append(Problem(file, where, item_col, f"unknown facet id {item!r}"))
        elif item:
            facet = flat_facet_id(item)
            if facet is None:
                problems.append(
                    Problem(
                        file,
                        where,
                        item_col,
                        f"item {item!r} has an empty part before or after its first '.'",
                    )
                )
            elif facet in item_of and item_of[facet][0] != item:
                other, other_line = item_of[facet]
                problems.append(
                    Problem(
                        file,
                        where,
                        item_col,
                        f"item {item!r} and {other!r} (line {other_line}) both become facet {facet!r}",
                    )
                )
                facet = None
            else:
                item_of.setdefault(facet, (item, lineno))
        if bad or when is None or facet is None:
            continue
        ctx = tuple(get[c] for c in ctx_cols)
        if scenario_col:
            sid = get[scenario_col]
            if sid in contexts and contexts[sid][0] != ctx:
                first_ctx, first_line = contexts[sid]
                col = next(c for c, a, b in zip(ctx_cols, first_ctx, ctx, strict=True) if a != b)
                problems.append(
                    Problem(
                        file,
                        where,
                        col,
                        f"scenario {sid!r} has {col} {get[col]!r} here but another on line {first_line}",
                    )
                )
                continue
        else:
            sid = sid_of_key.get(ctx) or _new_scenario_id(ctx, contexts)
            sid_of_key[ctx] = sid
        contexts.setdefault(sid, (ctx, lineno))
        facet_of[item] = facet
        events.setdefault(sid, []).append((when, lineno, facet))
    if problems:
        raise ValidationError(problems)
    if not events:
        raise ValidationError([Problem(file, "", "", "no events")])
    warnings = _mapping_warnings(file, roles, extras, [(row, idx) for _, row in rows], time_col, item_col, ctx_cols)

    scenarios = []
    repeats = 0
    for sid, evs in events.items():
        ordered = _ordered_unique(f for _, _, f in sorted(evs))
        repeats += len(evs) - len(ordered)
        ctx = contexts[sid][0]
        scenarios.append(Scenario(sid, ctx[0], ctx[1], ctx[2], ordered, dict(zip(extras, ctx[3:], strict=True))))
    if cat is None:
        cat = flat_catalog(facet_of.values(), source=f"flat catalog from {file}")
    meta = {
        "name": name or path.stem,
        "source": "csv",
        "synthetic": False,
        "files": {"events": file, "catalog": None if catalog is None else cat.source},
        "columns": {
            "user": user_col,
            "task": task_col,
            "environment": env_col,
            "item": item_col,
            "time": time_col,
            "scenario": scenario_col,
            "delimiter": sep,
            "encoding": encoding,
            "extra": list(extras),
        },
        "import": {
            "rows": len(rows),
            "scenarios": len(scenarios),
            "events": sum(len(s.facets) for s in scenarios),
            "repeated_items": repeats,
            "catalog": "given" if catalog is not None else "flat",
            "warnings": warnings,
        },
    }
    return Dataset(cat, scenarios, meta=meta, extra_columns=extras)


def _mapping_warnings(
    file: str,
    roles: dict[str, str],
    extras: Sequence[str],
    rows: list[tuple[list[str], dict[str, int]]],
    time_col: str | None,
    item_col: str,
    ctx_cols: Sequence[str],
) -> list[str]:
    """One line per likely mapping mistake; the import still succeeds (see `import_csv`)."""
    out: list[str] = []
    by_column: dict[str, list[str]] = {}
    for role, col in roles.items():
        by_column.setdefault(col, []).append(role)
    for col in extras:
        by_column.setdefault(col, []).append("--extra-col")
    for col, given in by_column.items():
        if len(given) > 1:
            out.append(f"{file}: column {col!r} is given for {' and '.join(given)}")
    n = len(rows)

    def values(col: str) -> set[str]:
        return {row[idx[col]].strip() for row, idx in rows}

    for col in dict.fromkeys(ctx_cols):
        distinct = values(col)
        if n > 1 and len(distinct) == 1:
            out.append(f"{file}: context column {col!r} has one value ({next(iter(distinct))!r}): it separates nothing")
    if n >= 20:
        if len(values(item_col)) == n:
            out.append(f"{file}: item column {item_col!r} has a new value on every row: is it an id, not an item?")
        times = len(values(time_col)) if time_col else n
        if times < 0.05 * n:
            out.append(f"{file}: time column {time_col!r} has {times} distinct values in {n} rows: is it a time?")
    return out


def _new_scenario_id(ctx: tuple[str, ...], taken: dict[str, tuple[tuple[str, ...], int]]) -> str:
    base = "_".join(ctx)
    sid, n = base, 2
    # Joined values can collide ("a_b"+"c" vs "a"+"b_c"); keep ids unique.
    while sid in taken:
        sid, n = f"{base}~{n}", n + 1
    return sid
