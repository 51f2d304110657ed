"""Which words of a query may name an entity."""

from __future__ import annotations

from app.search.linking import (
    EntityLinker,
    longest,
    name_candidates,
    parenthesised,
    title_candidates,
)
from app.settings import Settings
from ingest.extraction import Extractor
from ingest.mentions import Mention


def test_capitalised_ngrams_keep_their_punctuation() -> None:
    found = name_candidates("Where was the director of Gaby: A True Story born?")
    assert "gaby: a true story" in found
    assert "the director" not in found


def test_a_lone_stopword_is_no_name() -> None:
    assert "the" not in name_candidates("The Heart Of Doreon")
    assert "heart of doreon" in name_candidates("The Heart Of Doreon")  # articles go


def test_scripts_without_case_count_as_names() -> None:
    assert "東京" in name_candidates("東京 は どこ")


def test_only_the_longest_linked_names_seed() -> None:
    linked = {"1": "andy", "2": "andy summers", "3": "aivar kuusmaa", "4": "summers"}
    assert sorted(longest(linked)) == ["2", "3"]


def test_parenthesised_qualifiers_are_no_names() -> None:
    found = name_candidates("Who directed Palo Alto (2013 Film)?")
    assert "palo alto" in found
    assert not {"film", "2013 film", "palo alto (2013 film)"} & found


def test_parentheses_mark_the_characters_inside() -> None:
    assert parenthesised("a (b) c") == [False, False, False, True, False, False, False]
    assert parenthesised("x) (y") == [False, False, False, False, True]


def test_a_possessive_name_contains_the_bare_name() -> None:
    linked = {"1": "peter", "2": "peter's friends", "3": "friendship"}
    assert sorted(longest(linked)) == ["2", "3"]


def test_title_candidates_quote_whole_titles_with_their_qualifiers() -> None:
    found = title_candidates("Who directed Palo Alto (2013 Film) or Do You Believe?")
    assert {"palo alto (2013 film)", "palo alto", "do you believe?", "do you believe"} <= found
    assert "who" not in found and "film" not in found  # a lone stopword, a qualifier word
    assert "lothair ii" in title_candidates("When did Lothair II's mother die?")


class _CountingExtractor:
    def __init__(self, real: Extractor) -> None:
        self.real, self.calls = real, 0

    def mentions(self, text: str) -> list[Mention]:
        self.calls += 1
        return self.real.mentions(text)


def test_a_query_asked_again_is_not_read_again() -> None:
    linker = EntityLinker(Settings.from_env({}).spacy_model)
    counting = _CountingExtractor(linker.extractor())
    linker._extractor = counting  # type: ignore[assignment]
    first = linker._keys("Who founded Harbor Freight Partners?")
    assert linker._keys("Who founded Harbor Freight Partners?") == first
    assert "harbor freight partners" in first and counting.calls == 1
    linker._keys("Who audited Harbor Freight Partners?")
    assert counting.calls == 2
