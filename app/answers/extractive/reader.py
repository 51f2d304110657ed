"""The span reader: MiniLM fine-tuned on SQuAD v1.1 to point at an answer's first and last
token in a passage read with the question, run in numpy.

Trained by `python -m training.reader.train` (see weights/README.md). Each window of a
passage gives a distribution over where the answer starts and one over where it ends, with
[CLS] standing for "no answer in this window" in both. A span's probability is the product
of its start's and its end's, so it is the model's own estimate that this window holds this
answer; the engine calibrates nothing beyond it (bench/RESULTS.md reports how well it holds).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from safetensors.numpy import load_file
from tokenizers import Tokenizer

from app._recent import Recent
from app.answers.extractive.windows import (
    Window,
    passage_encoding,
    question_ids,
    windows,
)
from app.models._bert import Bert, load_bert, one_blas_thread
from app.models.minilm import bundled_model_dir, load_tokenizer

WEIGHTS = Path(__file__).parent / "weights" / "reader.safetensors"
LANGUAGES = frozenset({"en"})  # what the reader was trained on: English SQuAD
MAX_ANSWER_TOKENS = 30
SPANS_PER_WINDOW = 5
BATCH = 8
THREADS = 2  # the threads a read's batches share (`_logits`)
# (question, passage) pairs whose spans are kept. A research run reads about 35 (its
# passages, its hops, its comparison's sides); a side's pair keeps 50 spans a window, up to
# about 30 KB, so 1,024 pairs could hold 30 MB (bench/RESULTS.md, the soak).
READ_AGAIN = 256
_EDGES = frozenset(" \t\n.,;:!?")


@dataclass(frozen=True)
class Span:
    """A candidate answer: characters start..end of passage `passage`. `probability` is the
    model's for exactly this span, which ranks spans; `confidence` adds every span that
    overlaps it ("Ada Ray" and "Ray" answer alike, and the model spreads its belief over such
    neighbours): the chance that the answer is here, which the engine's thresholds read."""

    passage: int
    start: int
    end: int
    text: str
    probability: float
    confidence: float


# A span without its passage's index: (start, end, text, probability, confidence).
_Found = tuple[int, int, str, float, float]


@dataclass(frozen=True)
class _Head:
    weight: NDArray[np.float32]  # (hidden, 2): start and end
    bias: NDArray[np.float32]


class SpanReader:
    def __init__(self, weights: Path = WEIGHTS) -> None:
        folder = bundled_model_dir()
        tensors = {k: v.astype(np.float32) for k, v in load_file(str(weights)).items()}
        # The word table stayed frozen in training: it is the embedder's own.
        words = load_file(str(folder / "model.safetensors"))["embeddings.word_embeddings.weight"]
        tensors["embeddings.word_embeddings.weight"] = words
        config = json.loads((folder / "config.json").read_text())
        self._bert: Bert = load_bert(
            tensors, layers=config["num_hidden_layers"], heads=config["num_attention_heads"]
        )
        self._head = _Head(
            np.ascontiguousarray(tensors["qa_outputs.weight"].T), tensors["qa_outputs.bias"]
        )
        self._tokenizer: Tokenizer = load_tokenizer(folder)
        self._marks = (_token(self._tokenizer, "[CLS]"), _token(self._tokenizer, "[SEP]"))
        self._known: Recent[tuple[str, str, int], tuple[_Found, ...]] = Recent(READ_AGAIN)

    def read(
        self, question: str, passages: Sequence[str], per_window: int = SPANS_PER_WINDOW
    ) -> list[Span]:
        """The best spans of every window of every passage, most probable first.

        A passage read lately with the same question is not read again: a research run's
        drafts and its answer read what the drafts before them read, and a comparison's sides
        read the same passages with the same side questions. Its spans are the ones read then,
        beside other passages: equal to a fresh read's up to float rounding, since a window's
        padding in its batch can only change the order of a sum's terms. They are kept as
        tuples of plain values, which the cyclic garbage collector does not walk (see
        ingest/memo.py for what a full cache of tracked objects cost).
        """
        keys = [(question, text, per_window) for text in passages]
        known = [self._known.get(key) for key in keys]
        missing = [index for index, spans in enumerate(known) if spans is None]
        fresh = self._fresh(question, [passages[index] for index in missing], per_window)
        for index, spans in zip(missing, fresh, strict=True):
            known[index] = self._known.put(keys[index], spans)
        found = [Span(index, *span) for index, spans in enumerate(known) for span in spans or ()]
        return sorted(found, key=lambda s: -s.probability)

    def forget(self) -> None:
        """Drop every passage's kept spans: a benchmark times each way of answering from a
        reader that has not read its passages yet."""
        self._known.clear()

    def _fresh(
        self, question: str, passages: list[str], per_window: int
    ) -> list[tuple[_Found, ...]]:
        """Each passage's spans, read in one batch of windows."""
        if not passages:
            return []
        asked = question_ids(self._tokenizer, question)
        pieces = [
            (index, window)
            for index, text in enumerate(passages)
            for window in windows(asked, passage_encoding(self._tokenizer, text), *self._marks)
        ]
        with one_blas_thread():
            logits = self._logits([w for _, w in pieces])
        found: list[list[_Found]] = [[] for _ in passages]
        for (index, window), scores in zip(pieces, logits, strict=True):
            found[index] += _spans(window, scores, passages[index], per_window)
        return [tuple(spans) for spans in found]

    def _logits(self, pieces: list[Window]) -> list[NDArray[np.float32]]:
        """Log-probabilities (tokens, 2) of each window's start and end. The windows, by
        length, are cut into batches (`_batches`) that THREADS threads of this read's own
        share. numpy lets go of the interpreter lock in its products, so on a machine that is
        otherwise idle a read runs on both cores (eight passages: about 680 ms on one thread,
        420 on two; bench/RESULTS.md). The threads are the read's own, not a pool's, so an
        answer's batches never queue behind a research run's: the system shares the cores
        between reads as it did when each read had one thread."""
        order = sorted(range(len(pieces)), key=lambda i: len(pieces[i].ids))
        batches = _batches(order)
        with ThreadPoolExecutor(THREADS, thread_name_prefix="reader") as threads:
            scored = list(threads.map(lambda rows: self._batch([pieces[i] for i in rows]), batches))
        out: list[NDArray[np.float32]] = [np.empty((0, 2), np.float32)] * len(pieces)
        for rows, scores in zip(batches, scored, strict=True):
            for row, found in zip(rows, scores, strict=True):
                out[row] = found
        return out

    def _batch(self, pieces: list[Window]) -> list[NDArray[np.float32]]:
        width = max(len(p.ids) for p in pieces)
        ids = np.zeros((len(pieces), width), np.int64)
        types = np.zeros((len(pieces), width), np.int64)
        mask = np.zeros((len(pieces), width), np.float32)
        for row, piece in enumerate(pieces):
            ids[row, : len(piece.ids)] = piece.ids
            types[row, : len(piece.ids)] = piece.type_ids
            mask[row, : len(piece.ids)] = 1.0
        hidden = self._bert.encode(ids, mask, types)
        scores = hidden @ self._head.weight + self._head.bias
        return [_log_softmax(scores[row], piece) for row, piece in enumerate(pieces)]


def _batches(order: list[int]) -> list[list[int]]:
    """At most BATCH windows each, and at least one batch for each of the THREADS when
    there are windows enough: a question over eight short passages is eight windows, which
    one batch would leave to one core."""
    size = max(1, min(BATCH, -(-len(order) // THREADS)))
    return [order[at : at + size] for at in range(0, len(order), size)]


def _token(tokenizer: Tokenizer, text: str) -> int:
    found = tokenizer.token_to_id(text)
    assert found is not None, f"the tokenizer has no {text}"
    return found


def _log_softmax(scores: NDArray[np.float32], piece: Window) -> NDArray[np.float32]:
    """Over [CLS] and the passage's tokens, as in training."""
    allowed = np.full(scores.shape[0], False)
    allowed[0] = True
    allowed[piece.first : len(piece.ids) - 1] = True
    masked = np.where(allowed[:, None], scores, np.float32(-1e9))
    top = masked.max(axis=0, keepdims=True)
    total = np.log(np.exp(masked - top).sum(axis=0, keepdims=True)) + top
    result: NDArray[np.float32] = (masked - total).astype(np.float32)
    return result


def _spans(window: Window, scores: NDArray[np.float32], text: str, count: int) -> list[_Found]:
    """The window's most probable spans of at most MAX_ANSWER_TOKENS tokens."""
    first, last = window.first, len(window.ids) - 2
    start, end = scores[first : last + 1, 0], scores[first : last + 1, 1]
    joint = start[:, None] + end[None, :]
    size = joint.shape[0]
    offsets = np.arange(size)
    allowed = (offsets[None, :] >= offsets[:, None]) & (
        offsets[None, :] - offsets[:, None] < MAX_ANSWER_TOKENS
    )
    joint = np.where(allowed, joint, -np.inf)
    mass = np.exp(joint)
    best = np.argsort(joint, axis=None)[::-1][:count]
    found = []
    for flat in best:
        i, j = divmod(int(flat), size)
        a, b = _whole_words(text, *window.char_span(first + i, first + j))
        if a == b:
            continue
        overlapping = float(mass[: j + 1, i:].sum())
        found.append((a, b, text[a:b], float(mass[i, j]), min(overlapping, 1.0)))
    return found


def _whole_words(text: str, start: int, end: int) -> tuple[int, int]:
    """The span widened to whole words (a word piece never starts or ends an answer), without
    the punctuation and spaces at its edges ("Colm Hale" of "Colm Hale.")."""
    while start > 0 and text[start - 1].isalnum() and text[start].isalnum():
        start -= 1
    while end < len(text) and text[end - 1].isalnum() and text[end].isalnum():
        end += 1
    while start < end and text[start] in _EDGES:
        start += 1
    while end > start and text[end - 1] in _EDGES:
        end -= 1
    return start, end


@cache
def shared_reader() -> SpanReader:
    """One reader per process: loading it reads 22 MB of weights."""
    return SpanReader()
