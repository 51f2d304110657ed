"""Entity resolution: normalised names, declared aliases, unambiguous surnames."""

from __future__ import annotations

from ingest.mentions import Mention
from ingest.resolution import normalise, resolve


def mention(text: str, doc: str, group: str = "ORG", occurrence: int = 0) -> Mention:
    start = -1
    for _ in range(occurrence + 1):
        start = doc.index(text, start + 1)
    return Mention(text, group, group, start, start + len(text), 0)


def test_normalise() -> None:
    assert normalise("The  Beatles") == "beatles"
    assert normalise("Apple's") == "apple"
    assert normalise("ＩＢＭ") == "ibm"
    assert normalise(" (Acme Corp.) ") == "acme corp"


def test_declared_alias_merges() -> None:
    doc = "International Business Machines (IBM) grew. IBM hired staff."
    mentions = [
        mention("International Business Machines", doc),
        mention("IBM", doc, occurrence=0),
        mention("IBM", doc, occurrence=1),
    ]
    entities, owner = resolve(doc, mentions)
    assert owner == [0, 0, 0] and len(entities) == 1
    assert sorted([entities[0].name, *entities[0].aliases]) == [
        "IBM",
        "International Business Machines",
    ]


def test_surname_alone_joins_the_one_full_name() -> None:
    doc = "Grace Hopper wrote compilers. Later Hopper retired."
    mentions = [mention("Grace Hopper", doc, "PERSON"), mention("Hopper", doc, "PERSON", 1)]
    entities, owner = resolve(doc, mentions)
    assert owner == [0, 0] and entities[0].name == "Grace Hopper"


def test_ambiguous_surname_stays_apart() -> None:
    doc = "Anna Smith and John Smith met. Smith left."
    mentions = [
        mention("Anna Smith", doc, "PERSON"),
        mention("John Smith", doc, "PERSON"),
        mention("Smith", doc, "PERSON", 2),
    ]
    _, owner = resolve(doc, mentions)
    assert len(set(owner)) == 3


def test_incompatible_types_are_separate_entities() -> None:
    doc = "Jordan visited Jordan."
    mentions = [
        Mention("Jordan", "PERSON", "PERSON", 0, 6, 0),
        Mention("Jordan", "GPE", "PLACE", 15, 21, 0),
    ]
    entities, owner = resolve(doc, mentions)
    assert owner == [0, 1] and {e.group for e in entities} == {"PERSON", "PLACE"}


def test_display_names_drop_markup() -> None:
    doc = "# Master Services Agreement\n\nThe Master Services Agreement applies."
    mentions = [Mention("# Master Services Agreement", "LAW", "LAW", 0, 27, 0)]
    entities, _ = resolve(doc, mentions)
    assert entities[0].name == "Master Services Agreement"
