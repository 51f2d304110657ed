"""Query coverage: the query weight a passage adds beside the passages before it, when its
subject is linked to what is asked."""

from __future__ import annotations

import pytest

from retrieval.coverage import PassageTerms, QueryCoverage, query_weights
from retrieval.lexical_index import idf


def _passage(terms: str, subject: str) -> PassageTerms:
    return PassageTerms(frozenset(terms.split()), frozenset(subject.split()))


# "The Otters compete in a conference formerly known as what?"
WEIGHTS = {"otter": 0.4, "compet": 0.1, "confer": 0.1, "formerli": 0.2, "known": 0.2}
COVERAGE = QueryCoverage(
    WEIGHTS,
    {
        "team": _passage("otter compet confer harbor vallei", "otter"),
        "conference": _passage("harbor vallei confer formerli known", "harbor vallei confer"),
        "stranger": _passage("confer formerli known", "granit leagu"),
        "untitled": _passage("formerli known", ""),
    },
)


def test_rarer_terms_weigh_more_and_absent_terms_nothing() -> None:
    weights = query_weights(100, {"otter": 1, "known": 50, "missing": 0})
    assert set(weights) == {"otter", "known"}
    assert weights["otter"] > weights["known"]
    assert sum(weights.values()) == pytest.approx(1.0)
    assert idf(100, 1) > idf(100, 50)
    assert query_weights(0, {}) == {}


def test_a_passage_the_query_names_adds_the_terms_nobody_covered() -> None:
    assert COVERAGE.gain("team", []) == pytest.approx(0.6)
    assert COVERAGE.gain("team", ["team"]) == 0.0


def test_a_passage_whose_subject_a_chosen_passage_names_adds_the_rest() -> None:
    assert COVERAGE.gain("conference", []) == 0.0  # "harbor valley" is not asked
    assert COVERAGE.gain("conference", ["team"]) == pytest.approx(0.4)


def test_unlinked_or_untitled_passages_add_nothing() -> None:
    assert COVERAGE.gain("stranger", ["team"]) == 0.0
    assert COVERAGE.gain("untitled", ["team"]) == 0.0
    assert COVERAGE.gain("unknown", ["team"]) == 0.0
