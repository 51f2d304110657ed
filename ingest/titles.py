"""A document's title as an entity of the document.

Entity-centric collections (encyclopaedias, people, product or place pages) name each page's
subject in its title, and the text often calls it something shorter ("Robert Jones (actor)"
opens "Jones was born ..."). The title, without a trailing qualifier in parentheses, becomes
a mention of the subject in every main chunk, so other documents mentioning that name link
to this page. A title that reads like prose (lower-case words) names no entity.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from dataclasses import dataclass

from ingest.mentions import Mention
from ingest.resolution import normalise

TITLE_LABEL = "TITLE"
SUBJECT_WEIGHT = 3  # a title mention's weight on the entity-chunk edge
UNKNOWN_GROUP = "TOPIC"
MAX_WORDS = 8
_QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")
_SMALL_WORDS = frozenset(
    {"of", "the", "a", "an", "and", "in", "on", "for", "de", "la", "von", "van"}
)


@dataclass(frozen=True)
class TitleSubject:
    name: str
    group: str


def title_text(title: str) -> str:
    """The title as text reads it: titles taken from web pages keep HTML character references
    ("Will &amp; Grace"), which no passage names them by."""
    return " ".join(html.unescape(title).split())


def without_qualifier(title: str) -> str:
    """The title without a trailing qualifier in parentheses ("Kiss and Tell (1945 film)")."""
    return _QUALIFIER.sub("", title_text(title)).strip()


def subject_name(title: str) -> str | None:
    """The title without its qualifier, when it reads like a name."""
    name = without_qualifier(title)
    words = name.split()
    if not words or len(words) > MAX_WORDS:
        return None
    named = all(w[0].isupper() or not w[0].isalpha() or w.lower() in _SMALL_WORDS for w in words)
    return name if named and words[0][0].isupper() else None


def title_subject(name: str, tagged: str | None, mentions: list[Mention]) -> TitleSubject:
    """Its type: what the document's own mentions of the name say, else what the tagger
    said of the title alone, else unknown."""
    key = normalise(name)
    groups = Counter(m.group for m in mentions if normalise(m.text) == key)
    if groups:
        return TitleSubject(name, groups.most_common(1)[0][0])
    return TitleSubject(name, tagged or UNKNOWN_GROUP)


def title_mention(subject: TitleSubject, chunk_start: int) -> Mention:
    """An empty span at the chunk's start: the title is not in the text."""
    return Mention(subject.name, TITLE_LABEL, subject.group, chunk_start, chunk_start, -1)
