"""The span reader on passages written for it: what it keeps of a passage read with a question."""

from __future__ import annotations

import pytest

from app.answers.extractive import reader as reading
from app.answers.extractive.reader import SpanReader
from app.answers.extractive.windows import Window

FERRY = "The Wend ferry was built in 1902 by Ada Harrow, and it sank in a gale in 1931."
LIGHT = "The Corran light was lit in 1888. Its keeper, Elias Penn, kept it for forty years."
QUAY = "The old quay at Wend was rebuilt in stone after the flood of 1866."


def _windows_read(reader: SpanReader, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the windows the reader puts through the model from now on."""
    counted: list[int] = []
    batch = reader._batch

    def counting(pieces: list[Window]) -> object:
        counted.append(len(pieces))
        return batch(pieces)

    monkeypatch.setattr(reader, "_batch", counting)
    return counted


def test_a_passage_read_again_with_the_same_question_is_not_read_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reader = SpanReader()
    reader.read("Who built the Wend ferry?", [FERRY, LIGHT])
    counted = _windows_read(reader, monkeypatch)
    spans = reader.read("Who built the Wend ferry?", [QUAY, FERRY])
    assert sum(counted) == 1  # the quay's one window; the ferry's spans were kept
    assert spans[0].text == "Ada Harrow" and spans[0].passage == 1
    assert {span.passage for span in spans} == {0, 1}
    reader.read("When did the Wend ferry sink?", [FERRY])
    assert sum(counted) == 2  # another question reads the passage afresh
    reader.forget()
    reader.read("Who built the Wend ferry?", [FERRY])
    assert sum(counted) == 3


def test_kept_spans_are_a_fresh_read_s() -> None:
    """The spans kept from a read beside other passages are the ones a read of these passages
    alone gives, in the same order, up to float rounding."""
    question = "Who kept the Corran light?"
    reader = SpanReader()
    reader.read(question, [FERRY, LIGHT, QUAY])
    kept = reader.read(question, [LIGHT, QUAY])
    fresh = SpanReader().read(question, [LIGHT, QUAY])
    assert [(s.passage, s.start, s.end, s.text) for s in kept] == [
        (s.passage, s.start, s.end, s.text) for s in fresh
    ]
    for a, b in zip(kept, fresh, strict=True):
        assert a.probability == pytest.approx(b.probability, rel=1e-4, abs=1e-9)
        assert a.confidence == pytest.approx(b.confidence, rel=1e-4, abs=1e-9)
    assert kept[0].text == "Elias Penn"


def test_a_read_of_few_windows_is_shared_between_the_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Eight one-window passages are two batches of four, one for each thread, and read
    alike in either batching."""
    question = "Who built the Wend ferry?"
    passages = [FERRY, LIGHT, QUAY, LIGHT + " ", QUAY + " ", FERRY + " ", LIGHT + "  ", QUAY + "  "]
    reader = SpanReader()
    counted = _windows_read(reader, monkeypatch)
    together = reader.read(question, passages)
    assert sorted(counted) == [4, 4]
    reader.forget()
    monkeypatch.setattr(reading, "THREADS", 1)
    alone = reader.read(question, passages)
    assert counted[2:] == [8]
    assert [(s.passage, s.start, s.end) for s in together] == [
        (s.passage, s.start, s.end) for s in alone
    ]
    for a, b in zip(together, alone, strict=True):
        assert a.probability == pytest.approx(b.probability, rel=1e-4, abs=1e-9)


def test_batches_hold_at_most_batch_windows_and_one_batch_leaves_no_thread_idle() -> None:
    assert reading._batches([]) == []
    assert reading._batches([3]) == [[3]]
    assert reading._batches(list(range(3))) == [[0, 1], [2]]
    assert [len(b) for b in reading._batches(list(range(20)))] == [8, 8, 4]
