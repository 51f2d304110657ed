"""A query's keyword terms: the index analyzer's terms, widened by the collection's
vocabulary rules (synonym sets both ways, expansions one way)."""

from __future__ import annotations

from ingest.analyzer import analyze
from retrieval.vocabulary import VocabularyRule


def query_terms(query: str, rules: list[VocabularyRule]) -> list[str]:
    terms = analyze(query)
    present = set(terms)
    added: list[str] = []
    for rule in rules:
        if _applies(rule, present):
            added += [term for t in rule.terms for term in analyze(t)]
    return list(dict.fromkeys(terms + added))


def _applies(rule: VocabularyRule, present: set[str]) -> bool:
    if rule.kind == "SYNONYMS":
        return any(_contains(present, t) for t in rule.terms)
    return rule.term is not None and _contains(present, rule.term)


def _contains(present: set[str], phrase: str) -> bool:
    words = analyze(phrase)
    return bool(words) and all(w in present for w in words)
