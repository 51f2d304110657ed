"""Chunks follow sentence boundaries, respect sections, and dense windows fit the model."""

from __future__ import annotations

import pytest

from app.models.minilm import MAX_TOKENS, MiniLM
from ingest import chunking

SENTENCE = "The supplier shall deliver the goods within ten working days. "


@pytest.fixture(scope="module")
def count() -> chunking.TokenCounter:
    model = MiniLM()
    return lambda texts: [n - 2 for n in model.token_counts(texts)]


def test_main_chunks_end_on_sentences_and_stay_near_size() -> None:
    text = SENTENCE * 80
    chunks = chunking.main_chunks(text, chunking.sentence_units(text), [])
    assert all(c.end - c.start <= chunking.MAIN_CHARS for c in chunks)
    assert all(text[c.start : c.end].endswith(".") for c in chunks)
    assert min(c.end - c.start for c in chunks[:-1]) > chunking.MAIN_CHARS * 0.8


def test_main_chunks_break_at_section_starts() -> None:
    text = SENTENCE * 10 + "\nSection 2 Returns\n" + SENTENCE * 5
    start = text.index("Section 2")
    chunks = chunking.main_chunks(text, chunking.sentence_units(text), [start])
    assert any(c.start == start for c in chunks)


def test_dense_windows_never_exceed_the_token_limit(count: chunking.TokenCounter) -> None:
    texts = [
        SENTENCE * 30,
        "契約の解除について説明します。" * 200,
        "x" * 5000,
        "supercalifragilistic " * 300,
    ]
    for text in texts:
        windows = chunking.small_windows(text, chunking.sentence_units(text), count, 200)
        pieces = [text[w.start : w.end] for w in windows]
        assert max(count(pieces)) <= 200
        assert all(len(p) <= chunking.SMALL_CHARS for p in pieces)
        covered = "".join(pieces).replace(" ", "")
        assert covered == text.replace(" ", "")  # nothing dropped
    assert MAX_TOKENS == 256


def test_windows_link_to_the_main_chunks_they_overlap() -> None:
    text = SENTENCE * 60
    units = chunking.sentence_units(text)
    mains = chunking.main_chunks(text, units, [])
    windows = chunking.large_windows(text, units)
    links = chunking.link(windows, mains)
    for window, linked in zip(windows, links, strict=True):
        assert linked and all(window.overlaps(mains[i]) for i in linked)
