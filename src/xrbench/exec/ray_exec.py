"""The Ray executor: every item becomes a Ray task with CPU and memory requests.

Each item asks for `num_cpus` (default one): a worker node runs as many items at once as it has
cores. An item whose worker died mid-run is run again on another worker (`max_retries`); its
result is yielded once, so nothing is lost or counted twice.

`address` is a running cluster (`ray://host:10001`, or `auto`); without one Ray starts a local
instance on this machine (how the tests run it). Items and results travel by pickle, so the
function must be importable on the workers (it is: xrbench is installed there too).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from xrbench.errors import UserError

T = TypeVar("T")
R = TypeVar("R")


class RayExecutor:
    """See the module docstring. `num_cpus` and `memory_mb` are each task's resource requests."""

    name = "ray"

    def __init__(
        self,
        address: str | None = None,
        *,
        num_cpus: float = 1.0,
        memory_mb: int = 2048,
        max_retries: int = 3,
        **init: Any,
    ):
        try:
            import ray
        except ImportError:
            raise UserError("--executor ray needs the `ray` package (pip install 'ray[default]')") from None
        self._ray = ray
        self.address = address
        self.num_cpus = num_cpus
        self.memory_mb = memory_mb
        self.max_retries = max_retries
        self._init = init
        self._started = False

    def _ensure(self) -> None:
        if self._ray.is_initialized():
            return
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, **self._init}
        if self.address:
            kwargs["address"] = self.address
        self._ray.init(**kwargs)
        self._started = True

    def map(self, fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[T, R]]:
        if not items:
            return
        self._ensure()
        # A task whose worker process died (killed, out of memory, node lost) is run again, up to
        # `max_retries` times; an exception raised by `fn` itself is never retried.
        remote = self._ray.remote(
            num_cpus=self.num_cpus, memory=self.memory_mb * 1024 * 1024, max_retries=self.max_retries
        )(fn)
        refs = {remote.remote(item): item for item in items}
        try:
            while refs:
                done, _ = self._ray.wait(list(refs), num_returns=1)
                for ref in done:
                    yield refs.pop(ref), self._ray.get(ref)
        finally:
            for ref in refs:
                self._ray.cancel(ref, force=True)

    def shutdown(self) -> None:
        """Stop the Ray instance this executor started (a cluster it joined keeps running)."""
        if self._started and self._ray.is_initialized():
            self._ray.shutdown()
            self._started = False
