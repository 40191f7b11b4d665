"""The local executor: a pool of worker threads.

Trials spend their time in child processes (the agent's commands, the verifier's pytest and its
browser), so threads give real parallelism without pickling anything.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def default_workers() -> int:
    """Half the CPUs, at least 1: each trial runs a browser that wants about a core of its own."""
    return max(1, (os.cpu_count() or 2) // 2)


class LocalExecutor:
    """Runs items on `workers` threads (default: `default_workers()`)."""

    name = "local"

    def __init__(self, workers: int | None = None):
        self.workers = max(1, workers or default_workers())

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[T, R]]:
        if self.workers == 1:
            for item in items:
                yield item, fn(item)
            return
        with ThreadPoolExecutor(max_workers=self.workers) as pool:
            pending: dict[Future[R], T] = {pool.submit(fn, item): item for item in items}
            try:
                while pending:
                    done, _ = wait(pending, return_when=FIRST_COMPLETED)
                    for fut in done:
                        yield pending.pop(fut), fut.result()
            finally:
                for fut in pending:
                    fut.cancel()
