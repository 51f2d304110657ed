"""Title links: the documents a search's best passages name by their titles come next.

In a collection of documents about named things (encyclopaedia pages, people, products,
places), a passage names other documents by their titles as a hyperlink would. A multi-hop
question's best passage names the bridge ("... directed by Adriana Trigiani"), whose own page
shares few of the question's words and ranks below distractors that share many. The best
LINKING_PASSAGES passages keep their places; the candidates whose document they name follow
them, in their own order, before the rest.

Only candidates are lifted, never documents the legs did not find: a title that is also a
common word ("December", a magazine) is named everywhere, and is rarely among the query's
candidates. A title is named by itself or, when it reads like a name, without its qualifier
("Kiss and Tell" for "Kiss and Tell (1945 film)"), as whole words in the same case, and as
text writes it ("Will & Grace" for a web page's "Will &amp; Grace"). A name links one
document, as a hyperlink does: the best candidate it names, or none when a best passage is
the page of that very title.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from ingest._stopwords import ENGLISH as STOPWORDS
from ingest.titles import subject_name, title_text

LINKING_PASSAGES = 3  # the best passages whose names lift documents
MAX_LINKS = 3  # documents lifted: a list page names dozens
K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class Titled:
    """A candidate's document and its title."""

    document: Hashable
    title: str


def linked_first(order: Sequence[K], texts: Mapping[K, str], titled: Mapping[K, Titled]) -> list[K]:
    """The order with the best passages first, then the candidates whose document they name
    (each document once, by its best candidate), then the rest."""
    top, rest = list(order[:LINKING_PASSAGES]), list(order[LINKING_PASSAGES:])
    named = [texts[k] for k in top if k in texts]
    own = [titled[k] for k in top if k in titled]
    linked = _linked(rest, named, titled, own)
    return top + linked + [k for k in rest if k not in linked]


def _linked(
    rest: list[K], texts: list[str], titled: Mapping[K, Titled], own: list[Titled]
) -> list[K]:
    """Up to MAX_LINKS candidates, in order, of documents the texts name (and not their own).
    A name links one document, as a hyperlink does: "Teen Titans" lifts the best of the
    pages it names, not every season's, and none when a best passage is the page of that
    very title."""
    linked: list[K] = []
    seen = {t.document for t in own}
    used = {title_text(t.title) for t in own}
    for key in rest:
        if len(linked) == MAX_LINKS:
            break
        document = titled.get(key)
        if document is None or document.document in seen:
            continue
        seen.add(document.document)
        named = named_forms(texts, document.title)
        if named - used:
            linked.append(key)
            used |= named
    return linked


def named_forms(texts: Sequence[str], title: str) -> set[str]:
    """The forms of the title (`title_forms`) the texts name, whole words in the same case.
    A substring test first: most texts do not contain the form at all, and it is far cheaper
    than the pattern's word boundaries."""
    return {f for f in title_forms(title) if any(f in t and _pattern(f).search(t) for t in texts)}


def mentions(text: str, title: str) -> list[tuple[int, int]]:
    """Where a question names the title, longest form first, in any case, since a question
    is typed ("The Return Of X" names "The Return of X"): only where it writes a capital, as
    a name is written, so a title that is a common word is not named by the word."""
    found = []
    for form in sorted(title_forms(title), key=len, reverse=True):
        for match in _pattern(form, re.IGNORECASE).finditer(text):
            if any(char.isupper() for char in match.group()):
                found.append(match.span())
    return found


@lru_cache(maxsize=4096)
def _pattern(form: str, flags: int = 0) -> re.Pattern[str]:
    return re.compile(rf"(?<!\w){re.escape(form)}(?!\w)", flags)


@lru_cache(maxsize=4096)
def title_forms(title: str) -> frozenset[str]:
    """The title, and without its qualifier when that reads like a name; a form must have a
    capital letter and be more than one small word ("It", "More"). Cached: every search
    asks it of each candidate's title."""
    forms = {title_text(title), subject_name(title) or ""}
    return frozenset(f for f in forms if _may_link(f))


def _may_link(form: str) -> bool:
    if not any(char.isupper() for char in form):
        return False
    words = form.split()
    return len(words) > 1 or (len(form) > 1 and form.casefold() not in STOPWORDS)
