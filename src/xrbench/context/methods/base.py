"""The suggestion-method plug-in point.

A method is any class with `fit(train, catalog)` and `suggest(context, history, k)`; it is found
by registry name (`popularity`, `relational`, ...) or as `module:Class` for user code.

Optional class attributes refine how the evaluator trains it:
- `training = "folds"` (default): fit on the other folds of seeded k-fold CV (scenario level).
- `training = "others"`: fit on every other scenario (leave-one-scenario-out; few-shot LLMs).
- `training = "none"`: no training data (zero-shot, manual access).
- `training = "all"`: fit on everything including the query scenario (the oracle upper bound).
- `eligible(context, train) -> bool`: scenarios for which it returns False are left out of that
  method's evaluation, and the evaluated count is reported (the paper's few-shot conditions).
- `needs_provider = True`: the method calls a model; it is skipped when none is configured.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from xrbench.context.catalog import Catalog
from xrbench.context.dataset import Scenario


@dataclass(frozen=True)
class Context:
    """What a method may know about the query: the context factors, never the targets."""

    scenario_id: str
    user: str
    task: str
    environment: str
    extra: dict[str, str] = field(default_factory=dict, hash=False, compare=False)

    @classmethod
    def of(cls, s: Scenario) -> Context:
        return cls(s.id, s.user, s.task, s.environment, dict(s.extra))

    def factor(self, name: str) -> str:
        if name in ("user", "task", "environment"):
            return getattr(self, name)
        return self.extra.get(name, "")


@runtime_checkable
class SuggestionMethod(Protocol):
    """Fit on training scenarios, then suggest facet ids for a context (best first)."""

    def fit(self, train: Sequence[Scenario], catalog: Catalog) -> None: ...

    def suggest(self, context: Context, history: Sequence[str], k: int) -> list[str]: ...


class SuggestionFailed(Exception):
    """Raised by a method when it cannot produce suggestions for one record (e.g. bad model JSON).

    The evaluator records the failure on that record and carries on.
    """

    def __init__(self, message: str, details: dict | None = None):
        super().__init__(message)
        self.details = details or {}
