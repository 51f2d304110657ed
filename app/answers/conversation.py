"""A follow-up as a standalone query. The client sends the history; nothing is stored.

"When was she born?" after a turn about Priya Natarajan becomes "When was Priya Natarajan
born?": a pronoun is replaced by the newest entity of a fitting type named in the last
messages. Pronouns are read in English, the language the entity model covers; another
follow-up is searched as asked.
"""

from __future__ import annotations

import re

from app.answers.request import Message
from app.answers.verification import MARKER
from app.search.checks import MAX_QUERY
from ingest.extraction import Extractor, Named

CONTEXT_MESSAGES = 5
_PERSON = frozenset({"PERSON"})
_THING = frozenset({"ORG", "GPE", "LOC", "FAC", "WORK_OF_ART", "EVENT", "PRODUCT", "LAW"})
_PRONOUNS: dict[str, tuple[frozenset[str], bool]] = {  # pronoun -> fitting labels, possessive
    "he": (_PERSON, False),
    "she": (_PERSON, False),
    "him": (_PERSON, False),
    "his": (_PERSON, True),
    "her": (_PERSON, True),
    "it": (_THING, False),
    "its": (_THING, True),
    "they": (_PERSON | _THING, False),
    "them": (_PERSON | _THING, False),
    "their": (_PERSON | _THING, True),
}
_WORD = re.compile(r"\b(" + "|".join(_PRONOUNS) + r")\b", re.I)


def standalone(query: str, history: tuple[Message, ...], extractor: Extractor) -> str:
    pronoun = _WORD.search(query)
    if pronoun is None or not history:
        return query
    labels, possessive = _PRONOUNS[pronoun.group(1).lower()]
    entity = _newest(history[-CONTEXT_MESSAGES:], labels, extractor)
    if entity is None:
        return query
    name = f"{entity}'s" if possessive else entity
    return query[: pronoun.start()] + name + query[pronoun.end() :]


def retrieval_query(question: str, history: tuple[Message, ...]) -> str:
    """What the answer searches: the standalone question, then the texts attached to the last
    messages, newest first, up to the longest query a search takes. An attachment is often
    what the question is about ("is this clause allowed?"), so its words find the passages
    the question alone would not; the composer still answers the question."""
    attached = [a for m in reversed(history[-CONTEXT_MESSAGES:]) for a in m.attachments]
    query = " ".join([question, *(" ".join(a.split()) for a in attached)])
    if len(query) <= MAX_QUERY:
        return query
    return query[: MAX_QUERY + 1].rsplit(" ", 1)[0]  # whole words


def _newest(
    messages: tuple[Message, ...], labels: frozenset[str], extractor: Extractor
) -> str | None:
    texts = [MARKER.sub("", m.content) for m in messages]
    for found in reversed(extractor.named(texts)):
        fitting = [n for n in found if n.label in labels]
        if fitting:
            return _most_named(fitting)
    return None


def _most_named(found: list[Named]) -> str:
    """The entity named most often in the message; the first named among equals."""
    counts: dict[str, int] = {}
    for n in found:
        counts[n.text] = counts.get(n.text, 0) + 1
    return max(counts, key=lambda text: counts[text])
