"""A user agent loaded as `module:Class` (`user_agent_example:AppendsLine`) by test_jobs.py."""

from xrbench.genxr.agents import AgentResult, TrialContext


class AppendsLine:
    """Appends one line to main.js: the smallest agent that solves the synthetic test task."""

    name = "appends-line"

    def __init__(self, line: str = "// red-button 0xff0000"):
        self.line = line

    def run(self, ctx: TrialContext) -> AgentResult:
        main = ctx.workspace / "main.js"
        main.write_text(main.read_text() + self.line + "\n")
        return AgentResult("completed", tool_usage={"edit": 1})
