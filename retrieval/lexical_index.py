"""An in-memory BM25 index of one collection, with every (term, chunk) score precomputed.

The formula is the one `store/bm25.py` evaluates in SQL (Lucene's variant), so both give
the same ranking; ties go to the smaller chunk id in both. A query adds the score arrays of
its terms into one array over the chunks and keeps the best, as bm25s does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from uuid import UUID

import numpy as np
from numpy.typing import NDArray

K1 = 1.2
B = 0.75


@dataclass(frozen=True)
class TermPostings:
    """One term's chunks (indexes into the chunk list, ascending) and its frequency in each."""

    chunks: NDArray[np.int32]
    tf: NDArray[np.int32]


@dataclass(frozen=True)
class CollectionPostings:
    """A collection's postings as read at one `version` of its statistics."""

    version: int
    chunk_count: int  # the collection's statistics, as the SQL scorer reads them
    avgdl: float
    chunk_ids: list[UUID]  # ascending, so index order is id order
    term_counts: NDArray[np.int32]
    terms: dict[str, TermPostings]


class LexicalIndex:
    def __init__(self, postings: CollectionPostings) -> None:
        self.version = postings.version
        self.chunk_ids = postings.chunk_ids
        self.size = sum(len(p.chunks) for p in postings.terms.values())
        self._scores = _term_scores(postings)

    def top(self, terms: list[str], limit: int) -> list[tuple[int, float]]:
        """The best `limit` chunks (as indexes) for the query terms, repeats ignored."""
        found = [self._scores[t] for t in set(terms) if t in self._scores]
        if not found or limit <= 0:
            return []
        chunks = np.concatenate([c for c, _ in found])
        weights = np.concatenate([w for _, w in found])
        totals: NDArray[np.float64] = np.bincount(
            chunks, weights=weights, minlength=len(self.chunk_ids)
        ).astype(np.float64, copy=False)
        return _best(totals, limit)

    def document_frequencies(self, terms: list[str]) -> dict[str, int]:
        """How many chunks contain each term; a term no chunk has is left out."""
        return {t: len(self._scores[t][0]) for t in set(terms) if t in self._scores}


def idf(chunk_count: int, document_frequency: int) -> float:
    """BM25's inverse document frequency (Lucene's, as store/bm25.py computes it in SQL)."""
    df = document_frequency
    return math.log(1 + (chunk_count - df + 0.5) / (df + 0.5))


def _term_scores(
    postings: CollectionPostings,
) -> dict[str, tuple[NDArray[np.int32], NDArray[np.float64]]]:
    count = postings.chunk_count
    lengths = postings.term_counts.astype(np.float64)
    norms = K1 * (1 - B + B * lengths / max(postings.avgdl, 1e-9))
    scores = {}
    for term, p in postings.terms.items():
        tf = p.tf.astype(np.float64)
        scores[term] = (p.chunks, idf(count, len(p.chunks)) * tf / (tf + norms[p.chunks]))
    return scores


def _best(totals: NDArray[np.float64], limit: int) -> list[tuple[int, float]]:
    """Highest totals first, ties by index; only chunks that matched some term."""
    matched = np.flatnonzero(totals > 0)
    if len(matched) > limit:
        cut = np.partition(totals[matched], len(matched) - limit)[len(matched) - limit]
        matched = matched[totals[matched] >= cut]
    order = np.lexsort((matched, -totals[matched]))[:limit]
    return [(int(matched[i]), float(totals[matched[i]])) for i in order]
