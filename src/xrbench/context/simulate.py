"""Context simulator: MineXR-shaped synthetic usage data.

Users have personal favourite facets and a personal taste over task facets; tasks and
environments have their own typical facets (`data/context/profiles.json`). Each scenario is one
user in one (task, environment) context. Its facets are drawn without replacement from the
mixture

    p(f) = w_user * U_user(f) + w_task * T_task(f) * taste_user(f) + w_env * E_env(f)

and ordered as a person would place them: task facets first in their typical order, then
environment facets, then personal extras, with a little noise, and within one app a shallower
facet (e.g. the app's Open Section) before a deeper one. The defaults give MineXR's size: 31
users, 109 scenarios, about 695 placements, 4 environments. Every draw comes from one seeded RNG.
"""

from __future__ import annotations

import math
import random
from dataclasses import asdict, dataclass
from pathlib import Path

from xrbench.context.catalog import Catalog
from xrbench.context.dataset import Dataset, Scenario
from xrbench.errors import Problem, ValidationError
from xrbench.store.read import read_json

DATA_DIR = Path(__file__).resolve().parent.parent / "data" / "context"


@dataclass(frozen=True)
class SimConfig:
    users: int = 31
    scenarios: int = 109
    seed: int = 0
    mean_facets: float = 6.2  # gives ~6.4 placements per scenario after clipping (MineXR: 695 / 109)
    sd_facets: float = 2.2
    min_facets: int = 2
    max_facets: int = 14
    w_user: float = 0.45
    w_task: float = 0.35
    w_env: float = 0.20
    favourite_apps: tuple[int, int] = (3, 5)
    tasks_per_user: tuple[int, int] = (3, 5)
    taste_sigma: float = 0.6
    order_noise: float = 0.8


def load_profiles(path: str | Path | None, catalog: Catalog) -> dict:
    """Load and check `profiles.json` (environments and tasks with their typical facets)."""
    path = Path(path) if path else DATA_DIR / "profiles.json"
    name = str(path)
    data = read_json(path)
    if not isinstance(data, dict):
        raise ValidationError([Problem(name, "", "", "expected a JSON object")])
    problems = []
    for section in ("environments", "tasks"):
        if not isinstance(data.get(section), dict) or not data[section]:
            problems.append(Problem(name, "", section, "missing or empty table"))
    if problems:
        raise ValidationError(problems)
    for section in ("environments", "tasks"):
        for key, prof in data[section].items():
            for i, f in enumerate(prof.get("facets", [])):
                if f not in catalog.facets:
                    problems.append(Problem(name, f"{section}.{key}", f"facets[{i}]", f"unknown facet id {f!r}"))
    for key, prof in data["tasks"].items():
        for env in prof.get("environments", {}):
            if env not in data["environments"]:
                problems.append(Problem(name, f"tasks.{key}", "environments", f"unknown environment {env!r}"))
    if problems:
        raise ValidationError(problems)
    return data


def _rank_weights(facets: list[str]) -> dict[str, float]:
    """Typical facets listed first are more likely: weight 1 / (1 + 0.15 * rank)."""
    return {f: 1.0 / (1.0 + 0.15 * i) for i, f in enumerate(facets)}


def _normalised(weights: dict[str, float]) -> dict[str, float]:
    z = sum(weights.values())
    return {f: w / z for f, w in weights.items()} if z > 0 else {}


def _weighted_choice(rng: random.Random, weights: dict[str, float]) -> str:
    keys = list(weights)
    return rng.choices(keys, weights=[weights[k] for k in keys], k=1)[0]


def simulate(config: SimConfig = SimConfig(), catalog: Catalog | None = None, profiles: dict | None = None) -> Dataset:
    """Generate a synthetic dataset; identical for identical config, catalog and profiles."""
    if config.users < 1 or config.scenarios < 1:
        raise ValidationError([Problem("simulate", "", "users/scenarios", "must be at least 1")])
    catalog = catalog or Catalog.load(DATA_DIR / "catalog.json")
    profiles = profiles or load_profiles(None, catalog)
    rng = random.Random(config.seed)
    tasks = sorted(profiles["tasks"])
    envs = sorted(profiles["environments"])
    task_w = {t: _rank_weights(profiles["tasks"][t]["facets"]) for t in tasks}
    env_w = {e: _rank_weights(profiles["environments"][e]["facets"]) for e in envs}

    # Apps that the profiles mention are the everyday ones: favourites lean towards them.
    mentioned: dict[str, float] = {}
    for w in (*task_w.values(), *env_w.values()):
        for f in w:
            mentioned[catalog.app_of[f]] = mentioned.get(catalog.app_of[f], 0.0) + 1.0
    app_pop = {a.id: 1.0 + mentioned.get(a.id, 0.0) for a in catalog.apps}

    width = max(2, len(str(config.users)))
    users = []
    for u in range(config.users):
        uid = f"P{u + 1:0{width}d}"
        favourites: dict[str, float] = {}
        n_apps = rng.randint(*config.favourite_apps)
        pool = dict(app_pop)
        for _ in range(min(n_apps, len(pool))):
            app = _weighted_choice(rng, pool)
            del pool[app]
            facets = catalog.app_facets(app)
            # Shallow facets are the usual thing to pin; the entry is the most common one.
            depth_w = {f: 1.0 / (1 + catalog.nav(f)) ** 1.5 for f in facets}
            for _ in range(rng.randint(1, min(3, len(facets)))):
                f = _weighted_choice(rng, {k: v for k, v in depth_w.items() if k not in favourites} or depth_w)
                favourites[f] = rng.uniform(0.5, 1.5)
        n_tasks = min(rng.randint(*config.tasks_per_user), len(tasks))
        preferred = rng.sample(tasks, n_tasks)
        taste = {f: math.exp(rng.gauss(0.0, config.taste_sigma)) for w in task_w.values() for f in w}
        users.append((uid, _normalised(favourites), preferred, taste))

    # Every user gets at least one scenario; the rest are spread round-robin in a shuffled order.
    owners = [i % config.users for i in range(config.scenarios)]
    rng.shuffle(owners)
    used_tasks: dict[int, list[str]] = {}
    sid_width = max(3, len(str(config.scenarios)))
    scenarios = []
    for n, ui in enumerate(owners):
        uid, fav, preferred, taste = users[ui]
        fresh = [t for t in preferred if t not in used_tasks.get(ui, [])] or preferred
        task = rng.choice(fresh)
        used_tasks.setdefault(ui, []).append(task)
        env_pref = profiles["tasks"][task].get("environments") or {e: 1.0 for e in envs}
        env = _weighted_choice(rng, env_pref)
        components = {
            "task": _normalised({f: w * taste.get(f, 1.0) for f, w in task_w[task].items()}),
            "environment": _normalised(env_w[env]),
            "user": fav,
        }
        mix = {"user": config.w_user, "task": config.w_task, "environment": config.w_env}
        prob: dict[str, float] = {}
        source: dict[str, tuple[float, str]] = {}
        for comp, dist in components.items():
            for f, p in dist.items():
                contribution = mix[comp] * p
                prob[f] = prob.get(f, 0.0) + contribution
                if contribution > source.get(f, (0.0, ""))[0]:
                    source[f] = (contribution, comp)
        size = round(rng.gauss(config.mean_facets, config.sd_facets))
        size = max(config.min_facets, min(config.max_facets, size, len(prob)))
        chosen: list[str] = []
        remaining = dict(prob)
        for _ in range(size):
            f = _weighted_choice(rng, remaining)
            chosen.append(f)
            del remaining[f]
        scenarios.append(
            Scenario(
                f"S{n + 1:0{sid_width}d}",
                uid,
                task,
                env,
                _placement_order(chosen, source, task_w[task], env_w[env], catalog, rng, config),
            )
        )
    meta = {
        "name": "xrbench-synthetic-minexr",
        "synthetic": True,
        "description": "Synthetic MineXR-shaped usage data from `xrbench context simulate`; not real user data.",
        "generator": {"command": "xrbench context simulate", "config": asdict(config)},
    }
    return Dataset(catalog, scenarios, meta=meta)


def _placement_order(chosen, source, task_rank, env_rank, catalog, rng, config) -> tuple[str, ...]:
    priority = {"task": 0.0, "environment": 1.5, "user": 3.0}
    key = {}
    for f in chosen:
        comp = source[f][1]
        rank = list(task_rank).index(f) if comp == "task" and f in task_rank else 0
        if comp == "environment" and f in env_rank:
            rank = list(env_rank).index(f)
        key[f] = priority[comp] + 0.1 * rank + rng.gauss(0.0, config.order_noise)
    order = sorted(chosen, key=lambda f: key[f])
    # Within one app, open the shallower facet first (people pin the app, then go deeper).
    by_app: dict[str, list[int]] = {}
    for i, f in enumerate(order):
        by_app.setdefault(catalog.app_of[f], []).append(i)
    result = list(order)
    for positions in by_app.values():
        facets = sorted((result[i] for i in positions), key=lambda f: (catalog.nav(f), order.index(f)))
        for i, f in zip(positions, facets, strict=True):
            result[i] = f
    return tuple(result)
