"""Occupations by the broader ones they are kinds of, as English uses the words: a guitarist
is a musician, a novelist a writer, a film director a filmmaker, a professor a teacher. A
passage names the narrow one ("an American singer, songwriter and guitarist"); a question
asks of the broad one ("Are A and B both musicians?"). General English, read by the
analyzer; no corpus's list.
"""

from __future__ import annotations

from ingest.analyzer import analyze

_BROADER = {
    "musician": (
        "singer songwriter guitarist drummer bassist pianist keyboardist violinist cellist"
        " organist saxophonist trumpeter vocalist rapper composer"
    ),
    "writer": "author novelist poet playwright essayist screenwriter lyricist",
    "filmmaker": "director screenwriter",
    "teacher": "professor lecturer educator tutor",
}
_NARROWER = {
    broad: frozenset(analyze(narrow))
    for broad_word, narrow in _BROADER.items()
    for broad in analyze(broad_word)
}


def broader_held(terms: frozenset[str], wanted: frozenset[str]) -> frozenset[str]:
    """The wanted terms that name an occupation one of `terms` is a kind of."""
    return frozenset(w for w in wanted if _NARROWER.get(w, frozenset()) & terms)
