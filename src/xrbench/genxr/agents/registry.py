"""Agents by name, plus `module:Class` for user code.

`make_agent(name, args, provider)` builds one inside the worker that runs the trial, so an agent
spec is plain data (it travels to Ray workers). `args` are the `--agent-arg key=value` pairs;
agents that talk to a model (`mini-swe-agent`, or a user class whose constructor takes `llm`)
get an `xrbench.llm.LLM` resolved from `provider` (provider, model, base_url, replay).
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Mapping
from typing import Any

from xrbench.errors import UserError
from xrbench.genxr.agents.base import Agent

AGENTS = ("oracle", "nop", "command", "mini-swe-agent")


def _llm(provider: Mapping[str, Any]) -> Any:
    from xrbench.llm import resolve_llm
    from xrbench.llm.errors import ProviderError

    try:
        return resolve_llm(**{k: v for k, v in provider.items() if v is not None})
    except (ProviderError, FileNotFoundError) as e:  # NotConfigured, a missing replay file, ...
        raise UserError(f"this agent needs a model: {e}") from None


def _user_class(spec: str) -> type:
    module_name, _, attr = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise UserError(f"--agent {spec}: cannot import {module_name}: {e}") from None
    cls = getattr(module, attr, None)
    if cls is None:
        raise UserError(f"--agent {spec}: {module_name} has no {attr}")
    return cls


def make_agent(name: str, args: Mapping[str, str] | None = None, provider: Mapping[str, Any] | None = None) -> Agent:
    """The agent called `name` (see the module docstring); unknown names raise `UserError`."""
    args = dict(args or {})
    provider = dict(provider or {})
    if name == "oracle":
        from xrbench.genxr.agents.simple import OracleAgent

        return OracleAgent()
    if name == "nop":
        from xrbench.genxr.agents.simple import NopAgent

        return NopAgent()
    if name == "command":
        from xrbench.genxr.agents.command import CommandAgent

        if "template" not in args:
            raise UserError("--agent command needs --agent-arg template='my-agent ... {workspace} ...'")
        return CommandAgent(args["template"], env=args.get("env", ""))
    if name == "mini-swe-agent":
        from xrbench.genxr.agents.mini_swe_agent import MiniSweAgent

        unknown = set(args) - {"temperature", "config"}
        if unknown:
            raise UserError(f"--agent-arg {sorted(unknown)[0]}: mini-swe-agent takes temperature and config")
        try:
            temperature = float(args.get("temperature", 0.0))
        except ValueError:
            raise UserError(f"--agent-arg temperature={args['temperature']!r}: not a number") from None
        return MiniSweAgent(_llm(provider), temperature=temperature, config=args.get("config"))
    if ":" in name:
        cls = _user_class(name)
        params = inspect.signature(cls).parameters
        kwargs: dict[str, Any] = dict(args)
        if "llm" in params:
            kwargs["llm"] = _llm(provider)
        agent = cls(**kwargs)
        if not callable(getattr(agent, "run", None)):
            raise UserError(f"--agent {name}: {cls.__name__} has no run(ctx) method")
        return agent
    if name == "mini":
        raise UserError("--agent mini: our own loop was replaced by the real mini-swe-agent: --agent mini-swe-agent")
    raise UserError(f"--agent {name!r}: unknown; choose {', '.join(AGENTS)} or module:Class")
