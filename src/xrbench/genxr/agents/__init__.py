"""Coding agents for GenXR trials: built-in `oracle`, `nop`, `command`, `mini-swe-agent`, or `module:Class`."""

from xrbench.genxr.agents.base import Agent, AgentLimits, AgentResult, TrialContext
from xrbench.genxr.agents.registry import AGENTS, make_agent

__all__ = ["AGENTS", "Agent", "AgentLimits", "AgentResult", "TrialContext", "make_agent"]
