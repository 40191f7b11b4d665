"""The sanity agents: `oracle` must score 1 on every task, `nop` 0 (Harbor's release gate)."""

from __future__ import annotations

from xrbench.genxr.agents.base import AgentResult, TrialContext
from xrbench.genxr.workspace import apply_solution


class OracleAgent:
    """Applies the task's first valid reference solution to the workspace."""

    name = "oracle"

    def run(self, ctx: TrialContext) -> AgentResult:
        solutions = ctx.task.valid_solutions
        if not solutions:
            return AgentResult("error", message=f"task {ctx.task.id} has no valid solution")
        apply_solution(solutions[0], ctx.workspace)
        return AgentResult("completed", message=f"applied valid/{solutions[0].name}", tool_usage={"edit": 1})


class NopAgent:
    """Changes nothing: the starting workspace is the candidate."""

    name = "nop"

    def run(self, ctx: TrialContext) -> AgentResult:
        return AgentResult("completed", message="no changes")
