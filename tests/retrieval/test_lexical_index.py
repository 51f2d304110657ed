from __future__ import annotations

import uuid

import numpy as np

from retrieval.lexical_index import CollectionPostings, LexicalIndex, TermPostings


def _index(terms: dict[str, tuple[list[int], list[int]]], lengths: list[int]) -> LexicalIndex:
    return LexicalIndex(
        CollectionPostings(
            version=3,
            chunk_count=len(lengths),
            avgdl=sum(lengths) / len(lengths),
            chunk_ids=sorted(uuid.uuid4() for _ in lengths),
            term_counts=np.array(lengths, dtype=np.int32),
            terms={
                t: TermPostings(np.array(c, dtype=np.int32), np.array(f, dtype=np.int32))
                for t, (c, f) in terms.items()
            },
        )
    )


def test_scores_are_lucene_bm25() -> None:
    index = _index({"a": ([0, 2], [1, 3])}, [4, 4, 4])
    idf = np.log(1 + (3 - 2 + 0.5) / (2 + 0.5))
    assert index.top(["a"], 5) == [(2, idf * 3 / (3 + 1.2)), (0, idf * 1 / (1 + 1.2))]


def test_ties_go_to_the_smaller_index_and_limit_cuts() -> None:
    index = _index({"a": ([1, 2, 3], [1, 1, 1])}, [2, 2, 2, 2])
    assert [i for i, _ in index.top(["a"], 2)] == [1, 2]


def test_terms_add_up_and_repeats_count_once() -> None:
    index = _index({"a": ([0, 1], [1, 1]), "b": ([1], [1])}, [2, 2])
    assert index.top(["a", "b", "b"], 5)[0][0] == 1
    assert index.top(["b"], 5) == index.top(["b", "b"], 5)


def test_unknown_terms_and_empty_limits_find_nothing() -> None:
    index = _index({"a": ([0], [1])}, [1])
    assert index.top(["zzz"], 5) == [] and index.top(["a"], 0) == [] and index.top([], 3) == []
    assert index.size == 1 and index.version == 3
