"""Executors: run independent units of work (trials) on this machine or on a Ray cluster.

An `Executor` maps a picklable function over picklable items and yields `(item, result)` pairs
as they finish (in completion order). `make_executor("local" | "ray", ...)` picks one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, TypeVar

from xrbench.errors import UserError

T = TypeVar("T")
R = TypeVar("R")


class Executor(Protocol):
    """Runs `fn(item)` for every item; yields `(item, result)` as each finishes."""

    name: str

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[T, R]]: ...


def make_executor(name: str, *, workers: int | None = None, address: str | None = None, **options: Any) -> Executor:
    """`local` (a pool of `workers` threads) or `ray` (a Ray cluster at `address`, or a local one)."""
    if name == "local":
        from xrbench.exec.local import LocalExecutor

        return LocalExecutor(workers)
    if name == "ray":
        from xrbench.exec.ray_exec import RayExecutor

        return RayExecutor(address=address, **options)
    raise UserError(f"--executor {name!r}: choose local or ray")
