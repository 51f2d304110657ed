"""Document titles as entities of their documents."""

from __future__ import annotations

from ingest.mentions import Mention
from ingest.titles import (
    UNKNOWN_GROUP,
    subject_name,
    title_mention,
    title_subject,
    title_text,
    without_qualifier,
)


def test_a_title_reads_as_a_name_without_its_qualifier() -> None:
    assert subject_name("Bob Jones (actor)") == "Bob Jones"
    assert subject_name("Gaby: A True Story") == "Gaby: A True Story"
    assert subject_name("Battle of the Somme") == "Battle of the Somme"
    assert subject_name("Master agreement") is None
    assert subject_name("") is None
    assert subject_name("A Very Long Title With Far Too Many Words In It") is None


def test_its_type_comes_from_the_documents_own_mentions_first() -> None:
    mentions = [Mention("Bob Jones", "PERSON", "PERSON", 0, 9, 0)]
    assert title_subject("Bob Jones", "ORG", mentions).group == "PERSON"
    assert title_subject("Lisbon", "PLACE", mentions).group == "PLACE"
    assert title_subject("Quokka", None, mentions).group == UNKNOWN_GROUP


def test_the_mention_is_an_empty_span_at_the_chunk_start() -> None:
    mention = title_mention(title_subject("Lisbon", "PLACE", []), 120)
    assert (mention.start, mention.end, mention.label) == (120, 120, "TITLE")


def test_the_subject_is_the_title_without_its_disambiguation() -> None:
    assert without_qualifier("Kiss and Tell (1945 film)") == "Kiss and Tell"
    assert without_qualifier("Picric acid") == "Picric acid"


def test_a_title_from_a_web_page_reads_without_its_character_references() -> None:
    assert title_text("Will &amp; Grace") == "Will & Grace"
    assert title_text("  Tom  &#38; Jerry ") == "Tom & Jerry"
    assert without_qualifier("Mitchells &amp; Butlers (company)") == "Mitchells & Butlers"
    assert subject_name("Will &amp; Grace") == "Will & Grace"
    assert title_text("AT&T Park") == "AT&T Park"
