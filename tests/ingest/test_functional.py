"""Functional relations: a newer value closes the older one's valid time."""

from __future__ import annotations

from ingest.functional import ChainFact, Closure, close_chain, relation_of


def test_each_value_ends_when_the_next_begins() -> None:
    facts = [
        ChainFact("c", "austin", "2021"),
        ChainFact("a", "boston", "2010"),
        ChainFact("b", "denver", "2015-03"),
    ]
    assert close_chain(facts) == {
        "a": Closure("2015-03", "b"),
        "b": Closure("2021", "c"),
        "c": Closure(None, None),
    }


def test_restating_the_same_value_does_not_close_it() -> None:
    facts = [ChainFact("a", "denver", "2015"), ChainFact("b", "denver", "2016")]
    assert close_chain(facts) == {"a": Closure(None, None), "b": Closure(None, None)}


def test_undated_and_simultaneous_facts_stay_open() -> None:
    facts = [
        ChainFact("a", "boston", None),
        ChainFact("b", "denver", "2015"),
        ChainFact("c", "austin", "2015"),
    ]
    assert all(c == Closure(None, None) for c in close_chain(facts).values())


def test_registry_knows_which_side_holds_one_value() -> None:
    ceo = relation_of("ceo of")
    headquarters = relation_of("headquartered in")
    assert ceo is not None and ceo.per == "object"
    assert headquarters is not None and headquarters.per == "subject"
    assert relation_of("acquire") is None
