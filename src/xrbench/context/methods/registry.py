"""Suggestion methods by name, plus `module:Class` for user code."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from xrbench.errors import UserError

FEWSHOT_CONDITIONS = ("user", "task", "env", "user+task", "user+env", "task+env")


def _relational(**kw):
    from xrbench.context.methods.relational import RelationalRetrieval

    return RelationalRetrieval(**kw)


def _simple(name: str):
    def make():
        from xrbench.context.methods import simple

        return getattr(simple, name)()

    return make


def _cf():
    from xrbench.context.methods.cf import HybridALS

    return HybridALS()


def _llm(condition: str | None):
    def make():
        from xrbench.context.methods.llm import FewShotLLM, ZeroShotLLM

        return ZeroShotLLM() if condition is None else FewShotLLM(condition)

    return make


METHODS: dict[str, tuple[Callable[[], object], str]] = {
    "manual": (_simple("ManualAccess"), "Manual Access"),
    "popularity": (_simple("GlobalPopularity"), "Global Popularity"),
    "relational": (_relational, "Relational Retrieval"),
    "relational-exact": (lambda: _relational(soft_transfer=False), "Relational Retrieval (exact labels)"),
    "cf": (_cf, "Hybrid CF (implicit ALS)"),
    "oracle": (_simple("Oracle"), "Oracle (upper bound)"),
    "zeroshot-llm": (_llm(None), "Zero-shot LLM"),
    **{f"fewshot-llm-{c}": (_llm(c), f"Few-shot LLM ({c.replace('env', 'environment')})") for c in FEWSHOT_CONDITIONS},
}

# What `context run` evaluates when no --methods are given (LLM methods join when a provider is set).
DEFAULT_METHODS = ("manual", "popularity", "relational", "cf", "oracle")
LLM_METHODS = ("zeroshot-llm", *(f"fewshot-llm-{c}" for c in FEWSHOT_CONDITIONS))


def create_method(name: str) -> object:
    """Instantiate a method by registry name or `module:Class`."""
    if name in METHODS:
        return METHODS[name][0]()
    if ":" in name:
        module_name, _, cls_name = name.partition(":")
        try:
            module = importlib.import_module(module_name)
        except ImportError as e:
            raise UserError(f"--method {name}: cannot import module {module_name!r}: {e}") from None
        cls = getattr(module, cls_name, None)
        if cls is None:
            raise UserError(f"--method {name}: module {module_name!r} has no attribute {cls_name!r}")
        method = cls()
        for attr in ("fit", "suggest"):
            if not callable(getattr(method, attr, None)):
                raise UserError(f"--method {name}: {cls_name} has no {attr}() method")
        return method
    known = ", ".join(METHODS)
    raise UserError(f"unknown method {name!r}; known: {known}; or give module:Class")


def display_name(name: str) -> str:
    return METHODS[name][1] if name in METHODS else name
