"""The numpy MiniLM matches sentence-transformers' reference embeddings."""

from __future__ import annotations

import json

import numpy as np
import pytest

from app.models.minilm import DIMENSION, MAX_TOKENS, MiniLM, TextTooLong
from app.settings import PROJECT_ROOT

REFERENCE = PROJECT_ROOT / "tests" / "fixtures" / "minilm_reference.json"


@pytest.fixture(scope="module")
def model() -> MiniLM:
    return MiniLM()


def test_matches_reference_embeddings(model: MiniLM) -> None:
    reference = json.loads(REFERENCE.read_text())
    texts = [item["text"] for item in reference["items"]]
    expected = np.array([item["embedding"] for item in reference["items"]], dtype=np.float32)
    got = model.embed(texts, truncate=True)
    cosine = (got * expected).sum(axis=1) / np.linalg.norm(expected, axis=1)
    assert got.dtype == np.float32 and got.shape == (len(texts), DIMENSION)
    assert cosine.min() >= 0.9999, cosine


def test_rows_keep_input_order_and_unit_length(model: MiniLM) -> None:
    texts = ["a much longer sentence about contracts and clauses", "short", "medium length text"]
    together = model.embed(texts)
    one_by_one = np.vstack([model.embed([text]) for text in texts])
    assert np.allclose(together, one_by_one, atol=1e-5)
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)


def test_over_long_text_is_refused_not_truncated(model: MiniLM) -> None:
    text = "word " * 400
    assert model.token_counts([text])[0] > MAX_TOKENS
    with pytest.raises(TextTooLong, match="limit is 256"):
        model.embed(["fine", text])
    assert model.embed([text], truncate=True).shape == (1, DIMENSION)


def test_empty_batch(model: MiniLM) -> None:
    assert model.embed([]).shape == (0, DIMENSION)
