"""Query coverage: how much of the question the passages chosen so far answer together.

A multi-hop question spreads its words over two passages: "the conference the Vermont
Catamounts compete in, formerly known as what from 1988 to 1996" has the team in one passage
and "formerly known ... 1988 to 1996" in the conference's. A ranking that scores passages one
by one puts the team's other passages second, since they repeat the team's name. Ordering the
head greedily, each next passage gains by the query weight (IDF) it adds to what the passages
already chosen cover, finds the one that answers the rest of the question.

A passage adds coverage only when it is linked to what is asked: its subject (its document's
title) is named by the query or by a passage already chosen. Otherwise any passage that
happens to repeat a relation word ("grandfather") would jump ahead of the bridge the graph
walk found for it, which never repeats that word. A passage without a title links to nothing
and keeps its place.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from retrieval.lexical_index import idf

K = TypeVar("K", bound=Hashable)


@dataclass(frozen=True)
class PassageTerms:
    terms: frozenset[str]  # the analyzed terms of the passage, its title included
    subject: frozenset[str]  # the analyzed terms of its document's title


def query_weights(chunk_count: int, frequencies: Mapping[str, int]) -> dict[str, float]:
    """Each query term's share of the query's IDF weight; terms no passage has weigh 0."""
    raw = {t: idf(chunk_count, df) for t, df in frequencies.items() if df > 0}
    total = sum(raw.values())
    return {t: w / total for t, w in raw.items()} if total > 0 else {}


@dataclass(frozen=True)
class QueryCoverage(Generic[K]):
    """The query's term weights and, per candidate, its terms and subject. The weights'
    terms are the query's terms the collection has, which include every subject term a
    query names (a passage's title is indexed with it)."""

    weights: Mapping[str, float]
    passages: Mapping[K, PassageTerms]

    def gain(self, candidate: K, picked: Sequence[K]) -> float:
        """The query weight the candidate adds to what `picked` covers (0 to 1); 0 when
        its subject is named neither by the query nor by a passage picked."""
        return self.gains(picked)(candidate)

    def gains(self, picked: Sequence[K]) -> Callable[[K], float]:
        """`gain` beside one list of picks, which is read once: MMR asks it of every
        candidate left at each step."""
        covered = {t for k in picked if k in self.passages for t in self.passages[k].terms}
        named = set(self.weights) | covered
        left = [(t, w) for t, w in self.weights.items() if t not in covered]

        def gain(candidate: K) -> float:
            passage = self.passages.get(candidate)
            if passage is None or not passage.subject or not passage.subject <= named:
                return 0.0
            return sum(w for t, w in left if t in passage.terms)

        return gain
