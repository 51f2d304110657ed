"""Query terms widened by vocabulary rules."""

from __future__ import annotations

from ingest.analyzer import analyze
from retrieval.query_terms import query_terms
from retrieval.vocabulary import VocabularyRule


def test_synonyms_work_both_ways_and_expansions_one_way() -> None:
    rules = [
        VocabularyRule("SYNONYMS", None, ["car", "automobile"]),
        VocabularyRule("EXPANSION", "laptop", ["notebook computer"]),
    ]
    assert set(analyze("automobile")) <= set(query_terms("car rental", rules))
    assert set(analyze("car")) <= set(query_terms("automobile", rules))
    assert set(analyze("notebook computer")) <= set(query_terms("laptop bag", rules))
    assert set(analyze("laptop")).isdisjoint(query_terms("notebook computer", rules))
