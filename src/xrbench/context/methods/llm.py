"""Zero-shot and few-shot LLM suggestion with the paper's appendix prompts.

The model sees the scenario (task, environment, any extra factors), the facet catalog with
descriptions, capabilities and facet-graph links, and (few-shot) historical examples drawn only
from other scenarios that match the transfer condition. Replies are JSON; unknown facet ids are
dropped and counted; malformed JSON is retried once with a correction message, then the record
fails (recorded, never a crash). Temperature defaults to 0.2.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence

from xrbench.context.catalog import Catalog
from xrbench.context.dataset import Scenario
from xrbench.context.methods import llm_prompts as P
from xrbench.context.methods.base import Context, SuggestionFailed
from xrbench.llm.base import GenerationSettings, Message

CONDITIONS = {
    "user": (("user",), "User", "examples come from the same user in other contexts"),
    "task": (("task",), "Task", "examples come from other users performing the same task"),
    "env": (("environment",), "Environment", "examples come from other scenarios in the same environment"),
    "user+task": (("user", "task"), "User+Task", "examples come from the same user performing the same task"),
    "user+env": (
        ("user", "environment"),
        "User+Env",
        "examples come from the same user in the same environment",
    ),
    "task+env": (
        ("task", "environment"),
        "Task+Env",
        "examples come from other users with the same task and environment",
    ),
}


class Suggestions(list):
    """A suggestion list that carries per-record details (usage, dropped ids) for the record."""

    def __init__(self, items: Sequence[str], info: dict):
        super().__init__(items)
        self.info = info


def catalog_text(catalog: Catalog) -> str:
    """One line per facet with its app, name, description, capabilities and graph links."""
    lines = []
    for app in catalog.apps:
        for f in app.facets:
            lines.append(
                f"- facet_id={f.id}; app={app.name}; facet_name={f.name}; is_entry_facet={str(f.entry).lower()}; "
                f"linked_facets=[{', '.join(catalog.edges.get(f.id, []))}]; "
                f"capabilities=[{', '.join(f.capabilities)}]; description={f.description}"
            )
    return "\n".join(lines)


def parse_reply(text: str, catalog: Catalog) -> tuple[list[str], list[str]]:
    """Facet ids from a JSON reply (known ids, unknown ids); raises ValueError when not parseable."""
    body = text.strip()
    fence = re.search(r"```(?:json)?\s*\n(.*?)```", body, re.DOTALL)
    if fence:
        body = fence.group(1).strip()
    data = json.loads(body)
    recs = data.get("recommendations") if isinstance(data, dict) else data
    if not isinstance(recs, list):
        raise ValueError("no 'recommendations' list")
    ids = []
    for item in recs:
        fid = item.get("facet_id") if isinstance(item, dict) else item
        if isinstance(fid, str) and fid.strip():
            ids.append(fid.strip())
    known = [f for f in dict.fromkeys(ids) if f in catalog.facets]
    unknown = [f for f in dict.fromkeys(ids) if f not in catalog.facets]
    return known, unknown


class _LLMMethod:
    needs_provider = True
    concurrency = 4
    # The paper's setting; recorded in every result's config.
    settings = GenerationSettings(temperature=0.2, json_output=True)

    def __init__(self, llm=None):
        self.llm = llm

    def fit(self, train: Sequence[Scenario], catalog: Catalog) -> None:
        if self.llm is None:
            from xrbench.llm import resolve_llm

            self.llm = resolve_llm()
        self.catalog = catalog
        if getattr(self, "_catalog_id", None) != id(catalog):
            self._catalog_text = catalog_text(catalog)
            self._catalog_id = id(catalog)

    def _blocks(self, context: Context, history: Sequence[str]) -> dict[str, str]:
        details = "".join(f"{k.replace('_', ' ').capitalize()}: {v}\n" for k, v in context.extra.items())
        history_block = ""
        if history:
            cat = self.catalog
            placed = "\n".join(
                f"{i + 1}. facet_id={f}; app={cat.app_by_id[cat.app_of[f]].name}; "
                f"facet_name={cat.facets[f].name}; relevance=placed"
                for i, f in enumerate(history)
            )
            history_block = P.HISTORY_BLOCK.format(placed=placed)
        return {
            "task": context.task,
            "environment": context.environment,
            "details_block": details,
            "history_block": history_block,
            "catalog_text": self._catalog_text,
        }

    def _ask(self, system: str, user: str, k: int) -> Suggestions:
        messages = [Message("system", system.replace("{top_k}", str(k))), Message("user", user)]
        usage: list[dict] = []
        for attempt in range(2):
            completion = self.llm.complete(messages, self.settings)
            usage.append(completion.usage.to_dict())
            try:
                known, unknown = parse_reply(completion.text, self.catalog)
            except (ValueError, AttributeError) as e:
                error = f"{type(e).__name__}: {e}".splitlines()[0][:200]
                if attempt == 0:
                    messages = [
                        *messages,
                        Message("assistant", completion.text),
                        Message("user", P.RETRY_MESSAGE.format(error=error)),
                    ]
                    continue
                raise SuggestionFailed(f"malformed model reply after retry: {error}", {"usage": usage}) from None
            info = {
                "unknown_ids": unknown,
                "unknown_count": len(unknown),
                "usage": usage,
                "retried": attempt == 1,
            }
            return Suggestions(known, info)
        raise AssertionError("unreachable")


class ZeroShotLLM(_LLMMethod):
    """Predicts facets from the current context and the catalog alone."""

    training = "none"

    def suggest(self, context: Context, history: Sequence[str], k: int) -> list[str]:
        user = P.ZERO_SHOT_USER.format(top_k=k, **self._blocks(context, history))
        return self._ask(P.ZERO_SHOT_SYSTEM, user, k)


class FewShotLLM(_LLMMethod):
    """Adds historical examples from other scenarios matching a transfer condition."""

    training = "others"

    def __init__(self, condition: str = "user", llm=None, max_examples: int = 8, seed: int = 0):
        super().__init__(llm)
        if condition not in CONDITIONS:
            raise ValueError(f"unknown few-shot condition {condition!r}; known: {', '.join(CONDITIONS)}")
        self.condition = condition
        self.max_examples = max_examples
        self.seed = seed

    def _matches(self, context: Context, train: Sequence[Scenario]) -> list[Scenario]:
        factors = CONDITIONS[self.condition][0]
        return [
            s for s in train if s.id != context.scenario_id and all(s.factor(x) == context.factor(x) for x in factors)
        ]

    def eligible(self, context: Context, train: Sequence[Scenario]) -> bool:
        return bool(self._matches(context, train))

    def fit(self, train: Sequence[Scenario], catalog: Catalog) -> None:
        super().fit(train, catalog)
        self.train = list(train)

    def suggest(self, context: Context, history: Sequence[str], k: int) -> list[str]:
        examples = self._matches(context, self.train)
        if len(examples) > self.max_examples:
            examples = random.Random(f"{self.seed}:{context.scenario_id}").sample(examples, self.max_examples)
        cat = self.catalog
        support = "\n\n".join(
            f"Example index: scenario={s.id}\nUser: {s.user}\nTask: {s.task}\nEnvironment: {s.environment}\n"
            "Used facets:\n"
            + "\n".join(f"- {cat.app_by_id[cat.app_of[f]].name} / {cat.facets[f].name} [{f}]" for f in s.facets)
            for s in examples
        )
        _, label, description = CONDITIONS[self.condition]
        user = P.FEW_SHOT_USER.format(
            top_k=k,
            condition_label=label,
            condition_description=description,
            support_block=support,
            **self._blocks(context, history),
        )
        return self._ask(P.FEW_SHOT_SYSTEM, user, k)
