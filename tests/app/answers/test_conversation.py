"""Follow-ups become standalone queries from the entities of the last turns."""

from __future__ import annotations

from functools import cache

from app.answers.conversation import retrieval_query, standalone
from app.answers.request import Message, Role
from app.search.checks import MAX_QUERY
from app.settings import Settings
from ingest.extraction import Extractor

HISTORY = (
    Message(Role.USER, "Who was the incident commander of INC-2041?"),
    Message(Role.ASSISTANT, "Priya Natarajan led it [[SRC:0001]]."),
)


@cache
def extractor() -> Extractor:
    return Extractor(Settings.from_env({}).spacy_model)


def test_a_pronoun_becomes_the_newest_fitting_entity() -> None:
    assert (
        standalone("When did she join?", HISTORY, extractor()) == "When did Priya Natarajan join?"
    )
    assert (
        standalone("What was her role?", HISTORY, extractor()) == "What was Priya Natarajan's role?"
    )


def test_a_question_without_a_pronoun_or_history_is_kept() -> None:
    assert standalone("Who owns the runbook?", HISTORY, extractor()) == "Who owns the runbook?"
    assert standalone("When did she join?", (), extractor()) == "When did she join?"


def test_the_last_messages_attachments_are_searched_with_the_question() -> None:
    history = (
        Message(Role.USER, "Old draft.", ("text of an old draft",)),
        *[Message(Role.USER, f"Turn {n}.") for n in range(4)],
        Message(Role.USER, "Here is the clause.", ("Card numbers  are kept\nin plain text.",)),
    )
    query = retrieval_query("Is this allowed?", history)
    assert query == "Is this allowed? Card numbers are kept in plain text."  # the 6th is out
    assert retrieval_query("Is this allowed?", HISTORY) == "Is this allowed?"


def test_a_long_attachment_is_cut_at_a_word_within_the_longest_query() -> None:
    history = (Message(Role.USER, "See this.", ("word " * 1000,)),)
    query = retrieval_query("Summarise it.", history)
    assert len(query) <= MAX_QUERY and query.endswith("word")
