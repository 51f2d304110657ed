"""Entities a query names: spaCy's entities in the query, plus any entity of the collection
whose name occurs in the query as whole words (capitalised, where the script has case).

Words inside parentheses qualify the name before them ("Palo Alto (2013 Film)"), as in
titles (see ingest/titles.py): they are never a name on their own, so a title-cased
"Film" or "Song" does not seed the walk from a generic entity.
"""

from __future__ import annotations

import asyncio
import re
import threading
from uuid import UUID

from app._recent import Recent
from ingest._stopwords import ENGLISH as STOPWORDS
from ingest.extraction import Extractor
from ingest.resolution import normalise
from store.arrays import text_array
from store.pool import Conn

MAX_NGRAM = 6
_WORD = re.compile(r"[\w'’&.-]+")
_PIECE = re.compile(r"\w+")
_QUALIFIER = re.compile(r"\([^()]+\)")
_POSSESSIVE = re.compile(r"['’]s?$")
MAX_TITLE_WORDS = 10
RECENT_QUERIES = 2048


class EntityLinker:
    """Has its own spaCy pipeline: the graph worker's is busy with whole batches."""

    def __init__(self, model: str) -> None:
        self._model = model
        self._extractor: Extractor | None = None
        self._lock = threading.Lock()
        # A query asked again skips the pipeline, as its embedding does (QueryVectors).
        self._recent: Recent[str, frozenset[str]] = Recent(RECENT_QUERIES)

    async def link(
        self, conn: Conn, tenant_id: UUID, collection_id: UUID, query: str
    ) -> dict[str, str]:
        """Linked entity id -> the name key it was linked by."""
        keys = await asyncio.to_thread(self._keys, query)
        cursor = await conn.execute(
            "SELECT id::text, key FROM entities WHERE tenant_id = %s AND collection_id = %s"
            " AND key = ANY(%s::text[]) ORDER BY id",
            (tenant_id, collection_id, text_array(sorted(keys))),
        )
        return longest({ident: key for ident, key in await cursor.fetchall()})

    def _keys(self, query: str) -> frozenset[str]:
        found = self._recent.get(query)
        if found is not None:
            return found
        inside = parenthesised(query)
        named = {normalise(m.text) for m in self.extractor().mentions(query) if not inside[m.start]}
        return self._recent.put(query, frozenset(k for k in named | name_candidates(query) if k))

    def extractor(self) -> Extractor:
        """The pipeline, loaded on first use; answers read entity types with it too."""
        with self._lock:
            if self._extractor is None:
                self._extractor = Extractor(self._model)
            return self._extractor


def name_candidates(query: str) -> set[str]:
    """Normalised word n-grams that could be a name: one word at least is capitalised (or in
    a script without case), and a lone word is no stopword. Keys keep the punctuation
    between words ("Gaby: A True Story")."""
    words = _outside_parentheses(query)
    return {
        normalise(query[gram[0].start() : gram[-1].end()])
        for start in range(len(words))
        for gram in _runs(words, start, MAX_NGRAM)
    }


def title_candidates(query: str) -> set[str]:
    """Case-folded word runs that could quote a document's exact title: up to
    MAX_TITLE_WORDS words, one capitalised, with and without a possessive, a following
    "?" or "!", or a parenthesised qualifier ("Palo Alto (2013 Film)")."""
    words = _outside_parentheses(query)
    found = set()
    for start in range(len(words)):
        for gram in _runs(words, start, MAX_TITLE_WORDS):
            found.update(_title_forms(query, gram[0].start(), gram[-1].end()))
    return {" ".join(f.split()).casefold() for f in found if f.strip()}


def _outside_parentheses(query: str) -> list[re.Match[str]]:
    inside = parenthesised(query)
    return [w for w in _WORD.finditer(query) if not inside[w.start()]]


def _runs(words: list[re.Match[str]], start: int, longest: int) -> list[list[re.Match[str]]]:
    """The runs of up to `longest` words from `start` that may be a name."""
    ends = range(start + 1, min(start + longest, len(words)) + 1)
    return [words[start:end] for end in ends if _may_name(words[start:end])]


def _may_name(words: list[re.Match[str]]) -> bool:
    """One word at least is capitalised, and a lone word is no stopword."""
    if len(words) == 1 and words[0].group().lower() in STOPWORDS:
        return False
    return any(_name_like(w.group()) for w in words)


def _title_forms(query: str, start: int, end: int) -> list[str]:
    text, rest = query[start:end], query[end:]
    forms = [text, _POSSESSIVE.sub("", text)]
    if rest[:1] in ("?", "!"):
        forms.append(text + rest[0])
    qualifier = _QUALIFIER.match(rest.lstrip())
    if qualifier is not None:
        forms.append(f"{text} {qualifier.group()}")
    return forms


def parenthesised(text: str) -> list[bool]:
    """For each character, whether it lies inside parentheses."""
    depth, inside = 0, []
    for char in text:
        depth = max(depth - 1, 0) if char == ")" else depth
        inside.append(depth > 0)
        depth += char == "("
    return inside


def _name_like(word: str) -> bool:
    first = word[0]
    return first.isupper() or (first.isalpha() and not first.islower() and not first.isupper())


def longest(names: dict[str, str]) -> dict[str, str]:
    """The entities whose key is not part of a longer linked key: "Andy" goes when "Andy
    Summers" is linked too."""
    keys = set(names.values())
    return {
        ident: key
        for ident, key in names.items()
        if not any(other != key and _contains_words(other, key) for other in keys)
    }


def _contains_words(longer: str, shorter: str) -> bool:
    """Whole words, where an apostrophe also ends a word ("peter" is in "peter's friends")."""
    inner = " ".join(_PIECE.findall(shorter))
    return f" {inner} " in " " + " ".join(_PIECE.findall(longer)) + " "
