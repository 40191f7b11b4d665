"""The FIXED static score of one generated workspace (the upstream `score_proto.py` semantics).

For the task's `edit_file` with raw text `src`:

- `import_match`: share of `expected_imports` found as substrings of `src` (a comment counts);
- `api_match`: share of `expected_apis` found as substrings of `strip_comments(src)`: `//` and
  `/* */` comments removed, string, template and regex literals kept;
- `forbidden_violations`: the `forbidden_patterns` whose regex matches `strip_comments(src)`;
  `forbidden_clean` is 1.0 when there are none, else 0.0. Upstream matched comments too, which
  penalised a file for quoting the contract's own rule ("Never call requestAnimationFrame
  yourself") in a comment; a rule is about code, so comments are left out as for `api_match`;
- `parse_ok`: 1.0 when the file parses as an ECMAScript module. Node 20's `node --check main.js`
  is not used: it exits 0 for a file with an `import` statement *and* a syntax error (module-syntax
  detection swallows the error), so the file is checked with `node --input-type=module --check`
  on standard input (one process per file) or, for many files, by `parse_modules.cjs` in one
  process (`vm.SourceTextModule`, the same V8 module parser; never linked or run);
- shares are rounded to 3 places and are 1.0 when nothing is expected; `composite` is the mean of
  `api_match`, `parse_ok`, `forbidden_clean`, plus `import_match` when `expected_imports` is
  non-empty, rounded to 3 places.

`parse_errors` are normalised to one line per error, `"<edit_file>:<line>: SyntaxError: <message>"`,
whichever path produced them, so a batch score is identical to a one-file score. `src_bytes` is the
file's size in bytes (upstream counted characters; they differ only for non-ASCII text).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean
from typing import Any

from xrbench.errors import UserError
from xrbench.guidance.task import DATA_DIR, GuidanceSpec, load_spec

PARSE_SCRIPT = DATA_DIR / "parse_modules.cjs"
NODE_MISSING = "node CLI not available"
SCORE_KEYS = (
    "task",
    "skill",
    "import_match",
    "api_match",
    "forbidden_clean",
    "parse_ok",
    "composite",
    "import_hits",
    "import_total",
    "api_hits",
    "api_total",
    "forbidden_violations",
    "parse_errors",
    "src_bytes",
)
PARSE_TIMEOUT_S = 60.0

# --- comments -------------------------------------------------------------------------------------

# After these a `/` starts a regex literal, not a division (the usual tokenizer heuristic).
_REGEX_AFTER_PUNCT = set("(,=:[!&|?{};+-*%<>~^}")
_REGEX_AFTER_WORDS = frozenset(
    "return typeof case do else in of new delete void throw instanceof yield await".split()  # noqa: SIM905
)
_WORD = re.compile(r"[\w$]+")


def _regex_end(src: str, i: int) -> int | None:
    """End index (after the flags) of a regex literal starting at src[i] == '/', or None."""
    n = len(src)
    j = i + 1
    in_class = False
    while j < n:
        c = src[j]
        if c == "\n":
            return None
        if c == "\\":
            j += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            j += 1
            while j < n and (src[j].isalnum() or src[j] in "_$"):
                j += 1
            return j
        j += 1
    return None


def strip_comments(src: str) -> str:
    """`src` without `//` and `/* */` comments; string, template and regex literals are kept.

    Literals are copied verbatim (a `//` inside `'http://...'` is not a comment). Gesture names and
    similar are passed as strings in XR Blocks, so `'thumbs-up'` in a call is real usage, while
    `// detect a thumbs up` is prose. Unlike upstream's scanner, regex literals are recognised
    (with the usual previous-token heuristic), so a quote inside one cannot hide a comment.
    """
    out: list[str] = []
    i, n = 0, len(src)
    last = ""  # the last significant token: a word or one punctuation character
    while i < n:
        c = src[i]
        nxt = src[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":
            while i < n and src[i] != "\n":
                i += 1
        elif c == "/" and nxt == "*":
            end = src.find("*/", i + 2)
            i = n if end < 0 else end + 2
        elif c in "'\"`":
            j = i + 1
            while j < n:
                if src[j] == "\\":
                    j += 2
                    continue
                if src[j] == c:
                    j += 1
                    break
                j += 1
            out.append(src[i:j])
            i, last = j, c
        elif c == "/" and (last == "" or last in _REGEX_AFTER_PUNCT or last in _REGEX_AFTER_WORDS):
            end = _regex_end(src, i)
            if end is None:
                out.append(c)
                i, last = i + 1, c
            else:
                out.append(src[i:end])
                i, last = end, "/regex/"
        elif c.isalnum() or c in "_$":
            m = _WORD.match(src, i)
            word = m.group() if m else c
            out.append(word)
            i, last = i + len(word), word
        else:
            out.append(c)
            if not c.isspace():
                last = c
            i += 1
    return "".join(out)


# --- module parsing ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ParseResult:
    ok: bool
    errors: tuple[str, ...] = ()


_LOCATION = re.compile(r"^(?:\[stdin\]|.*?):(\d+)$")
_HEADER = re.compile(r"^([A-Za-z]*Error): (.*)$")


def normalize_error(text: str, name: str) -> tuple[str, ...]:
    """One line, `"<name>:<line>: <ErrorType>: <message>"`, from Node's error output (either path)."""
    lines = [ln.rstrip() for ln in text.strip().splitlines()]
    line_no = None
    if lines:
        m = _LOCATION.match(lines[0])
        if m:
            line_no = m.group(1)
    for ln in lines:
        h = _HEADER.match(ln)
        if h:
            where = f"{name}:{line_no}" if line_no else name
            return (f"{where}: {h.group(1)}: {h.group(2)}",)
    # Not a syntax error report (a crash, a signal): keep the meaningful lines.
    kept = [ln for ln in lines if ln.strip() and not ln.lstrip().startswith("at ") and not ln.startswith("Node.js v")]
    return tuple(kept[:5]) or (f"{name}: node failed without a message",)


def node_binary() -> str | None:
    """The `node` executable (`XRBENCH_NODE` or the one on PATH), or None."""
    return os.environ.get("XRBENCH_NODE") or shutil.which("node")


def check_module(source: str, name: str = "main.js") -> ParseResult:
    """Parse `source` as an ES module with `node --input-type=module --check` (one process)."""
    node = node_binary()
    if node is None:
        return ParseResult(False, (NODE_MISSING,))
    try:
        proc = subprocess.run(
            [node, "--input-type=module", "--check"],
            input=source.encode("utf-8", "surrogatepass"),
            capture_output=True,
            timeout=PARSE_TIMEOUT_S,
        )
    except FileNotFoundError:
        return ParseResult(False, (NODE_MISSING,))
    except subprocess.TimeoutExpired:
        return ParseResult(False, (f"{name}: parse check timed out after {PARSE_TIMEOUT_S:g} s",))
    if proc.returncode == 0:
        return ParseResult(True)
    return ParseResult(False, normalize_error(proc.stderr.decode("utf-8", "replace"), name))


class ModuleParser:
    """One long-lived Node process that parses modules on request (see `parse_modules.cjs`).

    `check_many` sends a batch and reads the answers; results equal `check_module`'s for every
    input (errors the process cannot locate are re-checked with `check_module`). Thread-safe.
    Use as a context manager, or call `close()`.
    """

    def __init__(self) -> None:
        self._proc: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()
        self._unavailable = False

    def __enter__(self) -> ModuleParser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start(self) -> subprocess.Popen[str] | None:
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        node = node_binary()
        if node is None or self._unavailable:
            return None
        try:
            self._proc = subprocess.Popen(
                [node, "--expose-internals", "--experimental-vm-modules", "--no-warnings", str(PARSE_SCRIPT)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                encoding="utf-8",
                errors="surrogatepass",
            )
        except OSError:
            self._unavailable = True
            return None
        return self._proc

    def close(self) -> None:
        """Stop the Node process (idempotent)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin:
                proc.stdin.close()
            proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()

    def _batch(self, items: Sequence[tuple[str, str]]) -> list[dict[str, Any]] | None:
        proc = self._start()
        if proc is None or proc.stdin is None or proc.stdout is None:
            return None
        payload = "".join(json.dumps({"name": n, "source": s}) + "\n" for n, s in items)
        answers: list[dict[str, Any]] = []
        try:
            # Write from a thread: a large batch could fill both pipes and deadlock.
            writer = threading.Thread(target=self._write, args=(proc, payload), daemon=True)
            writer.start()
            for _ in items:
                line = proc.stdout.readline()
                if not line:
                    break
                answers.append(json.loads(line))
            writer.join()
        except (OSError, ValueError):
            answers = []
        if len(answers) != len(items):
            # The process died (an old Node without vm modules exits 3): fall back for good.
            self.close()
            self._unavailable = True
            return None
        return answers

    @staticmethod
    def _write(proc: subprocess.Popen[str], payload: str) -> None:
        try:
            assert proc.stdin is not None
            proc.stdin.write(payload)
            proc.stdin.flush()
        except OSError:
            pass

    def check_many(self, items: Sequence[tuple[str, str]]) -> list[ParseResult]:
        """Parse each `(name, source)` as a module; one Node process for all of them."""
        if not items:
            return []
        if node_binary() is None:
            return [ParseResult(False, (NODE_MISSING,)) for _ in items]
        with self._lock:
            answers = self._batch(items)
        if answers is None:
            return [check_module(src, name) for name, src in items]
        results: list[ParseResult] = []
        for (name, src), ans in zip(items, answers, strict=True):
            if ans.get("ok"):
                results.append(ParseResult(True))
            elif isinstance(ans.get("stack"), str):
                results.append(ParseResult(False, normalize_error(ans["stack"], name)))
            else:
                results.append(check_module(src, name))
        return results

    def check(self, source: str, name: str = "main.js") -> ParseResult:
        """Parse one source through the shared process."""
        return self.check_many([(name, source)])[0]


# --- scores --------------------------------------------------------------------------------------


def _frac(hits: int, total: int) -> float:
    return 1.0 if total == 0 else round(hits / total, 3)


def compile_patterns(spec: GuidanceSpec) -> list[re.Pattern[str]]:
    """The spec's forbidden patterns as regexes; a bad one is a `UserError`."""
    out = []
    for i, p in enumerate(spec.forbidden_patterns):
        try:
            out.append(re.compile(p))
        except re.error as e:
            raise UserError(f"forbidden_patterns[{i}]: invalid regex {p!r}: {e}") from None
    return out


def score_source(
    task_id: str, spec: GuidanceSpec, raw: bytes, parse: ParseResult, *, no_code: bool = False
) -> dict[str, Any]:
    """The FIXED score of one edit file's bytes, given its parse result (pure).

    `no_code`: the reply held no code (`extract.py`); every dimension is 0 and the score says
    `no_code: true`, whatever an empty file would have scored.
    """
    src = raw.decode("utf-8", "replace")
    code = strip_comments(src)
    import_hits = sum(1 for imp in spec.expected_imports if imp in src)
    api_hits = sum(1 for api in spec.expected_apis if api in code)
    violations = [p.pattern for p in compile_patterns(spec) if p.search(code)]
    import_match = _frac(import_hits, len(spec.expected_imports))
    api_match = _frac(api_hits, len(spec.expected_apis))
    forbidden_clean = 1.0 if not violations else 0.0
    parse_ok = 1.0 if parse.ok else 0.0
    if no_code:
        import_match = api_match = forbidden_clean = parse_ok = 0.0
    dims = [api_match, parse_ok, forbidden_clean]
    if spec.expected_imports:
        dims.append(import_match)
    extra = {"no_code": True} if no_code else {}
    return {
        "task": task_id,
        "skill": spec.skill,
        "import_match": import_match,
        "api_match": api_match,
        "forbidden_clean": forbidden_clean,
        "parse_ok": parse_ok,
        "composite": round(fmean(dims), 3),
        "import_hits": import_hits,
        "import_total": len(spec.expected_imports),
        "api_hits": api_hits,
        "api_total": len(spec.expected_apis),
        "forbidden_violations": violations,
        "parse_errors": [] if parse.ok else list(parse.errors),
        "src_bytes": len(raw),
        **extra,
    }


def _missing(task_id: str, edit_path: Path) -> dict[str, Any]:
    return {"task": task_id, "error": f"missing {edit_path}"}


def load_task_spec(task_dir: str | Path) -> GuidanceSpec:
    """The spec of a task directory; problems raise a one-line-per-problem `ValidationError`."""
    from xrbench.errors import ValidationError

    task_dir = Path(task_dir)
    if not task_dir.is_dir():
        raise UserError(f"{task_dir}: not a task directory")
    spec, problems = load_spec(task_dir / "spec.json")
    if spec is None:
        raise ValidationError(problems)
    compile_patterns(spec)
    return spec


def score_workspace(
    task_dir: str | Path,
    workspace: str | Path,
    *,
    spec: GuidanceSpec | None = None,
    task_id: str | None = None,
    parser: ModuleParser | None = None,
) -> dict[str, Any]:
    """Score `workspace/<edit_file>` against the task (what `xrbench guidance score` prints).

    A missing edit file gives `{"task", "error": "missing <path>"}` (upstream's answer). With
    `parser`, the parse check runs in its shared Node process; otherwise in a process of its own.
    """
    task_dir = Path(task_dir)
    spec = spec or load_task_spec(task_dir)
    task_id = task_id or task_dir.name
    edit_path = Path(workspace) / spec.edit_file
    if not edit_path.is_file():
        return _missing(task_id, edit_path)
    raw = edit_path.read_bytes()
    src = raw.decode("utf-8", "replace")
    parse = parser.check(src, spec.edit_file) if parser else check_module(src, spec.edit_file)
    return score_source(task_id, spec, raw, parse)


def score_many(
    items: Iterable[tuple[str | Path, str | Path]],
    *,
    specs: dict[str, GuidanceSpec] | None = None,
    parser: ModuleParser | None = None,
) -> list[dict[str, Any]]:
    """Score many `(task_dir, workspace)` pairs with one Node process for all parse checks.

    Gives exactly what `score_workspace` gives for each pair, in order.
    """
    specs = dict(specs or {})
    pending: list[tuple[int, str, GuidanceSpec, bytes]] = []
    results: list[dict[str, Any] | None] = []
    for task_dir, workspace in items:
        task_dir = Path(task_dir)
        key = str(task_dir)
        if key not in specs:
            specs[key] = load_task_spec(task_dir)
        spec = specs[key]
        edit_path = Path(workspace) / spec.edit_file
        if not edit_path.is_file():
            results.append(_missing(task_dir.name, edit_path))
            continue
        pending.append((len(results), task_dir.name, spec, edit_path.read_bytes()))
        results.append(None)
    own = parser is None
    parser = parser or ModuleParser()
    try:
        parses = parser.check_many([(spec.edit_file, raw.decode("utf-8", "replace")) for _, _, spec, raw in pending])
    finally:
        if own:
            parser.close()
    for (idx, task_id, spec, raw), parse in zip(pending, parses, strict=True):
        results[idx] = score_source(task_id, spec, raw, parse)
    return [r for r in results if r is not None]
