"""Suite composition: tasks by type, difficulty and capability (the paper's Figure 3), and how far
the suite is from the seed's scale (`scale_targets`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from xrbench.genxr.task import Capability, Difficulty, FocusArea, SceneName, Task, TaskType


@dataclass(frozen=True)
class SuiteStats:
    """Counts over a task suite. Every table lists all categories, zeros included."""

    total: int
    examples: int  # format examples among `total`
    by_type: dict[TaskType, int]
    by_type_difficulty: dict[TaskType, dict[Difficulty, int]]
    by_capability: dict[Capability, dict[TaskType, int]]  # a task counts once per capability it has
    # task id -> requirements, mutants, valid and blind valid solutions (the proof behind its tests)
    proof: dict[str, dict[str, int]]

    def to_json(self) -> dict:
        """The counts with string keys (for `genxr stats --json`)."""
        return {
            "total": self.total,
            "examples": self.examples,
            "by_type": {t.value: n for t, n in self.by_type.items()},
            "by_type_difficulty": {
                t.value: {d.value: n for d, n in row.items()} for t, row in self.by_type_difficulty.items()
            },
            "by_capability": {c.value: {t.value: n for t, n in row.items()} for c, row in self.by_capability.items()},
            "proof": self.proof,
            "proof_totals": self.proof_totals(),
        }

    def proof_totals(self) -> dict[str, int]:
        """Requirements, mutants, valid and blind solutions over the suite, and tasks with requirements."""
        totals = {key: sum(row[key] for row in self.proof.values()) for key in PROOF_KEYS}
        totals["tasks_with_requirements"] = sum(row["requirements"] > 0 for row in self.proof.values())
        return totals


PROOF_KEYS = ("requirements", "mutants", "valid", "blind")


def suite_stats(tasks: Sequence[Task]) -> SuiteStats:
    """Count `tasks` by type, type x difficulty and capability x type."""
    by_type = {t: 0 for t in TaskType}
    by_td = {t: {d: 0 for d in Difficulty} for t in TaskType}
    by_cap = {c: {t: 0 for t in TaskType} for c in Capability}
    for task in tasks:
        s = task.spec
        by_type[s.type] += 1
        by_td[s.type][s.difficulty] += 1
        for c in set(s.capabilities):
            by_cap[c][s.type] += 1
    return SuiteStats(
        total=len(tasks),
        examples=sum(t.spec.example for t in tasks),
        by_type=by_type,
        by_type_difficulty=by_td,
        by_capability=by_cap,
        proof={
            t.id: {
                "requirements": len(t.spec.requirements),
                "mutants": len(t.mutants),
                "valid": len(t.valid_solutions),
                "blind": sum(s.blind for s in t.valid_solutions),
            }
            for t in tasks
        },
    )


@dataclass(frozen=True)
class Target:
    """One scale target: what is measured, its value now, the goal, and whether it is met."""

    name: str
    value: str
    goal: str
    met: bool

    def to_json(self) -> dict:
        return {"name": self.name, "value": self.value, "goal": self.goal, "met": self.met}


# The seed's suite (112 tasks: 24 SDK-feature, 21 SDK-repair, 67 app; 28 easy, 38 medium, 46 hard),
# and the coverage the suite-scale issue asks on top of it.
TYPE_GOALS = {TaskType.SDK_FEATURE: 24, TaskType.SDK_REPAIR: 21, TaskType.APP: 67}
DIFFICULTY_SHARES = {Difficulty.EASY: 0.25, Difficulty.MEDIUM: 0.34, Difficulty.HARD: 0.41}
SHARE_TOLERANCE = 0.05
PER_CAPABILITY, PER_FOCUS, NON_EMPTY_SCENE, MULTI_SCENE, MULTI_STEP, SUBSYSTEMS = 15, 6, 30, 10, 20, 10


def proven(task: Task) -> bool:
    """Requirements, a mutant for each, two valid solutions and one written blind."""
    s = task.spec
    mutated = {m.requirement for m in task.mutants}
    return (
        bool(s.requirements)
        and all(r.id in mutated for r in s.requirements)
        and len(task.valid_solutions) >= 2
        and any(v.blind for v in task.valid_solutions)
    )


def scale_targets(tasks: Sequence[Task]) -> list[Target]:
    """The suite measured against the seed's size and shape (format examples left out)."""
    suite = [t for t in tasks if not t.spec.example]
    n = len(suite)
    out = [Target("tasks", str(n), ">= 112", n >= 112)]
    for kind, goal in TYPE_GOALS.items():
        k = sum(t.type is kind for t in suite)
        out.append(Target(f"{kind.value} tasks", str(k), f">= {goal}", k >= goal))
    for d, share in DIFFICULTY_SHARES.items():
        k = sum(t.spec.difficulty is d for t in suite)
        now = k / n if n else 0.0
        goal = f"{share:.0%} +- {SHARE_TOLERANCE:.0%}"
        out.append(Target(f"{d.value} share", f"{now:.0%} ({k})", goal, abs(now - share) <= SHARE_TOLERANCE))
    per_cap = {c: sum(c in t.spec.capabilities for t in suite) for c in Capability}
    weakest = min(per_cap, key=lambda c: per_cap[c])
    out.append(
        Target(
            "tasks per capability (fewest)",
            f"{per_cap[weakest]} ({weakest.value})",
            f">= {PER_CAPABILITY}",
            per_cap[weakest] >= PER_CAPABILITY,
        )
    )
    for f in FocusArea:
        k = sum(f in t.spec.focus for t in suite)
        out.append(Target(f"focus: {f.value}", str(k), f">= {PER_FOCUS}", k >= PER_FOCUS))
    k = sum(any(sc != SceneName.EMPTY for sc in t.spec.scenes) for t in suite)
    out.append(Target("tasks in a furnished scene", str(k), f">= {NON_EMPTY_SCENE}", k >= NON_EMPTY_SCENE))
    k = sum(len(t.spec.scenes) >= 2 for t in suite)
    out.append(Target("tasks tested in >= 2 scenes", str(k), f">= {MULTI_SCENE}", k >= MULTI_SCENE))
    k = sum(t.spec.flow_steps >= 3 for t in suite)
    out.append(Target("multi-step flows (flow_steps >= 3)", str(k), f">= {MULTI_STEP}", k >= MULTI_STEP))
    sdk = [t for t in suite if t.type.is_sdk]
    named = {v for t in sdk if t.spec.sdk for v in t.spec.sdk.subsystems}
    unnamed = sum(not (t.spec.sdk and t.spec.sdk.subsystems) for t in sdk)
    out.append(Target("SDK subsystems touched", str(len(named)), f">= {SUBSYSTEMS}", len(named) >= SUBSYSTEMS))
    out.append(Target("SDK tasks naming no subsystem", str(unnamed), "0", unnamed == 0))
    k = sum(proven(t) for t in suite)
    out.append(Target("tasks proven (mutants, 2 valid, 1 blind)", str(k), f"all {n}", k == n))
    return out


TYPE_LABELS = {TaskType.APP: "App generation", TaskType.SDK_FEATURE: "SDK feature", TaskType.SDK_REPAIR: "SDK repair"}
TYPE_COLORS = {TaskType.APP: "#4C72B0", TaskType.SDK_FEATURE: "#DD8452", TaskType.SDK_REPAIR: "#55A868"}


def save_chart(stats: SuiteStats, path: str | Path, *, title: str = "GenXR-Bench task suite") -> Path:
    """Save a two-panel chart: difficulty per task type (stacked) and capability coverage per type."""
    import matplotlib

    matplotlib.use("Agg")  # headless: never needs a display
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.8), gridspec_kw={"width_ratios": [1, 1.6]})

    types = list(TaskType)
    shades = {Difficulty.EASY: 0.45, Difficulty.MEDIUM: 0.7, Difficulty.HARD: 1.0}
    bottoms = [0] * len(types)
    for d in Difficulty:
        values = [stats.by_type_difficulty[t][d] for t in types]
        colors = [TYPE_COLORS[t] for t in types]
        ax1.bar(
            [TYPE_LABELS[t] for t in types],
            values,
            bottom=bottoms,
            color=colors,
            alpha=shades[d],
            edgecolor="white",
            label=d.value,
        )
        for i, v in enumerate(values):
            if v:
                ax1.text(i, bottoms[i] + v / 2, f"{d.value[0].upper()} {v}", ha="center", va="center", fontsize=8)
        bottoms = [b + v for b, v in zip(bottoms, values, strict=True)]
    for i, total in enumerate(bottoms):
        ax1.text(i, total, str(total), ha="center", va="bottom", fontweight="bold")
    ax1.set_ylabel("tasks")
    ax1.set_title("Task types (E/M/H = difficulty)")
    # Room above the tallest bar for its total; whole-number ticks (these are counts).
    ax1.set_ylim(0, max([*bottoms, 1]) * 1.15)
    ax1.yaxis.set_major_locator(MaxNLocator(integer=True))

    caps = sorted(Capability, key=lambda c: -sum(stats.by_capability[c].values()))
    left = [0] * len(caps)
    for t in types:
        values = [stats.by_capability[c][t] for c in caps]
        ax2.barh([c.value for c in caps], values, left=left, color=TYPE_COLORS[t], label=TYPE_LABELS[t])
        left = [a + b for a, b in zip(left, values, strict=True)]
    ax2.invert_yaxis()
    ax2.set_xlim(0, max([*left, 1]) * 1.05)
    ax2.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax2.set_xlabel("tasks (a task may have several capabilities)")
    ax2.set_title("Capability coverage")
    ax2.legend(loc="lower right", fontsize=8)

    note = f" ({stats.examples} format example{'s' if stats.examples != 1 else ''})" if stats.examples else ""
    fig.suptitle(f"{title}: {stats.total} task{'s' if stats.total != 1 else ''}{note}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path
