"""Follow-ups become standalone queries from the entities of the last turns."""

from __future__ import annotations

from functools import cache

from app.answers.conversation import standalone
from app.answers.request import Message, Role
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
