"""ContextXR datasets: a directory with `catalog.json` and `events.csv`.

`events.csv` has one row per facet a user placed in a scenario, with the required columns
`scenario_id,user,task,environment,step,facet_id` (any order). Extra columns are further context
factors. An optional `meta.json` describes provenance (e.g. that the data is synthetic).
"""

from __future__ import annotations

import csv
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from xrbench.context.catalog import Catalog
from xrbench.errors import Problem, ValidationError
from xrbench.store.read import read_json

REQUIRED_COLUMNS = ("scenario_id", "user", "task", "environment", "step", "facet_id")
FACTORS = ("user", "task", "environment")


@dataclass(frozen=True)
class Scenario:
    """One scenario: a user's facets in one (task, environment) context, in placement order."""

    id: str
    user: str
    task: str
    environment: str
    facets: tuple[str, ...]
    extra: dict[str, str] = field(default_factory=dict, hash=False, compare=False)

    def factor(self, name: str) -> str:
        if name in FACTORS:
            return getattr(self, name)
        return self.extra.get(name, "")


@dataclass
class Dataset:
    """A validated dataset: catalog plus scenarios (in file order of first appearance)."""

    catalog: Catalog
    scenarios: list[Scenario]
    path: Path | None = None
    meta: dict = field(default_factory=dict)
    extra_columns: tuple[str, ...] = ()

    @property
    def synthetic(self) -> bool:
        return bool(self.meta.get("synthetic"))

    @property
    def name(self) -> str:
        return self.meta.get("name") or (self.path.name if self.path else "dataset")

    def by_id(self) -> dict[str, Scenario]:
        return {s.id: s for s in self.scenarios}

    @property
    def n_events(self) -> int:
        return sum(len(s.facets) for s in self.scenarios)

    def checksum(self) -> str:
        """SHA-256 over the dataset's files, for provenance."""
        h = hashlib.sha256()
        if self.path:
            for name in ("catalog.json", "events.csv"):
                h.update((self.path / name).read_bytes())
        return h.hexdigest()

    # -- loading ----------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | Path) -> Dataset:
        """Load and validate a dataset directory; every problem is reported as one line."""
        path = Path(path)
        if not path.is_dir():
            raise ValidationError([Problem(str(path), "", "", "dataset directory not found")])
        catalog = Catalog.load(path / "catalog.json")
        scenarios, extra = read_events(path / "events.csv", catalog)
        meta_path = path / "meta.json"
        meta = read_json(meta_path) if meta_path.exists() else {}
        return cls(catalog, scenarios, path=path, meta=meta, extra_columns=extra)

    def save(self, path: str | Path) -> None:
        """Write `catalog.json`, `events.csv` (and `meta.json` when set) atomically."""
        from xrbench.store.atomic import atomic_write_text

        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path / "catalog.json", json.dumps(self.catalog.to_dict(), indent=1) + "\n")
        atomic_write_text(path / "events.csv", events_to_csv(self.scenarios, self.extra_columns))
        if self.meta:
            atomic_write_text(path / "meta.json", json.dumps(self.meta, indent=2) + "\n")
        self.path = path


def events_to_csv(scenarios: list[Scenario], extra_columns: tuple[str, ...] = ()) -> str:
    import io

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([*REQUIRED_COLUMNS, *extra_columns])
    for s in scenarios:
        for step, facet in enumerate(s.facets):
            writer.writerow(
                [
                    s.id,
                    s.user,
                    s.task,
                    s.environment,
                    step,
                    facet,
                    *(s.extra.get(c, "") for c in extra_columns),
                ]
            )
    return buf.getvalue()


def read_events(path: Path, catalog: Catalog) -> tuple[list[Scenario], tuple[str, ...]]:
    """Parse and validate `events.csv` against a catalog."""
    import io

    name = str(path)
    try:
        # utf-8-sig: a byte-order mark (as spreadsheet programs write) is not part of the header.
        text = path.read_bytes().decode("utf-8-sig")
    except FileNotFoundError:
        raise ValidationError([Problem(name, "", "", "file not found")]) from None
    except UnicodeDecodeError as e:
        raise ValidationError(
            [Problem(name, "", "", f"not UTF-8 text (byte {e.start}): events.csv is UTF-8; re-save it as UTF-8")]
        ) from None
    problems: list[Problem] = []
    rows: dict[str, list[tuple[int, int, str]]] = {}
    contexts: dict[str, tuple[tuple[str, ...], int]] = {}
    with io.StringIO(text, newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader, None)
        if header is None:
            raise ValidationError([Problem(name, "line 1", "", "empty file: expected a header row")])
        header = [h.strip() for h in header]
        missing = [c for c in REQUIRED_COLUMNS if c not in header]
        dupes = sorted({h for h in header if header.count(h) > 1})
        if missing:
            found = ", ".join(repr(h) for h in header)
            problems.append(
                Problem(
                    name,
                    "line 1",
                    "header",
                    f"missing required column(s): {', '.join(missing)} (comma-separated header read: {found})",
                )
            )
        if dupes:
            problems.append(Problem(name, "line 1", "header", f"duplicate column(s): {', '.join(dupes)}"))
        if problems:
            raise ValidationError(problems)
        idx = {h: i for i, h in enumerate(header)}
        extra = tuple(h for h in header if h not in REQUIRED_COLUMNS and h)
        ctx_cols = ("user", "task", "environment", *extra)
        for lineno, row in enumerate(reader, start=2):
            if not row or all(not c.strip() for c in row):
                continue
            if len(row) != len(header):
                problems.append(Problem(name, f"line {lineno}", "", f"expected {len(header)} fields, found {len(row)}"))
                continue
            get = {h: row[i].strip() for h, i in idx.items()}
            bad = False
            for col in ("scenario_id", "user", "task", "environment", "facet_id"):
                if not get[col]:
                    problems.append(Problem(name, f"line {lineno}", col, "empty value"))
                    bad = True
            try:
                step = int(get["step"])
            except ValueError:
                problems.append(Problem(name, f"line {lineno}", "step", f"{get['step']!r} is not an integer"))
                bad = True
            if get["facet_id"] and get["facet_id"] not in catalog.facets:
                problems.append(Problem(name, f"line {lineno}", "facet_id", f"unknown facet id {get['facet_id']!r}"))
                bad = True
            if bad:
                continue
            sid = get["scenario_id"]
            ctx = tuple(get[c] for c in ctx_cols)
            if sid in contexts and contexts[sid][0] != ctx:
                first = contexts[sid][1]
                diff = [c for c, a, b in zip(ctx_cols, contexts[sid][0], ctx, strict=True) if a != b]
                problems.append(
                    Problem(
                        name,
                        f"line {lineno}",
                        diff[0],
                        f"scenario {sid!r} has {diff[0]} {get[diff[0]]!r} here but a different one on line {first}",
                    )
                )
                continue
            contexts.setdefault(sid, (ctx, lineno))
            rows.setdefault(sid, []).append((step, lineno, get["facet_id"]))
    if problems:
        raise ValidationError(problems)
    if not rows:
        raise ValidationError([Problem(name, "", "", "no events")])
    scenarios = []
    for sid, events in rows.items():
        events.sort()
        ordered: list[str] = []
        for _, _, facet in events:
            if facet not in ordered:
                ordered.append(facet)
        ctx = contexts[sid][0]
        scenarios.append(Scenario(sid, ctx[0], ctx[1], ctx[2], tuple(ordered), dict(zip(extra, ctx[3:], strict=True))))
    return scenarios, extra
