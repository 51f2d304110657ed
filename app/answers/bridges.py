"""Bridge hops for multi-hop questions: one passage names an entity (the bridge), and a
passage about that entity holds the answer. "Where was the director of film X born?": X's
passage says "directed by D"; D's passage gives the place.

Hops are ranked by the question's terms the two sentences hold together, then whether the
answer's passage is the bridge's own (its title or section starts with the name), then how
close the bridge stands to the question's words in the anchor ("directed by D" for "the
director"), then the two sentences' own scores. Arithmetic on values the composer gives;
no model runs here.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.answers.evidence import (
    Evidence,
    Value,
    held_terms,
    name_pattern,
    nearness,
    related_terms,
    unpossessed,
    values,
)
from app.answers.question import LABELS, AnswerType, Question
from ingest.extraction import Named

ANCHORS = 8  # best sentences read for bridge names
# Names that have passages of their own; not nationalities or languages, which every
# passage shares.
BRIDGE_LABELS = LABELS[AnswerType.ENTITY] - {"NORP", "LANGUAGE"}


@dataclass(frozen=True)
class Hop:
    anchor: Evidence  # names the bridge
    bridge: Named  # in the anchor's offsets
    answer: Evidence  # about the bridge, holds the value
    value: Value | None
    covered: int  # question terms the two sentences hold together
    adds: int  # of those, the ones the anchor lacks
    about: bool  # the answer's passage is the bridge's own
    relation: float  # how near the bridge stands to the question's words in the anchor

    @property
    def key(self) -> tuple[int, bool, float, float]:
        return (self.covered, self.about, self.relation, self.anchor.score + self.answer.score)

    @property
    def earned(self) -> bool:
        """Worth taking over a value the best sentence has: it adds terms, or it follows
        the relation the question names into the bridge's own passage."""
        return self.adds > 0 or (self.about and self.relation > 0)


def bridge_names(anchor: Evidence, question: Question) -> list[Named]:
    """The entities of a sentence the question does not name itself."""
    asked = question.text.casefold()
    return [
        n for n in anchor.named if n.label in BRIDGE_LABELS and unpossessed(n.text) not in asked
    ]


def about(evidence: Evidence, name: str) -> bool:
    """Whether the sentence's passage is the bridge's own: its title or its section
    starts with the name, or the name with its title ("WCSH 6" names the station of the
    page "WCSH")."""
    hit, pattern = evidence.source.hit, name_pattern(name)
    title = hit.document.title
    return any(pattern.match(h or "") for h in (title, hit.section)) or _titled_by(name, title)


def _titled_by(name: str, title: str) -> bool:
    return bool(title) and name_pattern(title).match(name) is not None


def bridge_passages(ranked: list[Evidence], question: Question) -> list[Evidence]:
    """The sentences of passages about a bridge named in the best sentences: where the
    answer of a hop is read from."""
    names = [n.text for a in ranked[:ANCHORS] for n in bridge_names(a, question)]
    return [e for e in ranked if any(about(e, name) for name in names)]


def best_hop(ranked: list[Evidence], question: Question) -> Hop | None:
    hops = [hop for anchor in ranked[:ANCHORS] for hop in _hops(anchor, ranked, question)]
    return max(hops, key=lambda h: h.key, default=None)


def _hops(anchor: Evidence, ranked: list[Evidence], question: Question) -> list[Hop]:
    terms = frozenset(question.terms)
    held = held_terms(anchor, terms)
    # The relation is read off the question's words other than the anchor's subject.
    relational = terms - related_terms(anchor.heading, terms)
    found = []
    for name in bridge_names(anchor, question):
        relation = nearness(anchor, name, relational)
        for other in ranked:
            if not _follows(anchor, other, name):
                continue
            value = _value(other, name, question)
            adds = held_terms(other, terms - held)
            if (question.typed and value is None) or (not question.typed and not adds):
                continue
            own = about(other, name.text)
            found.append(
                Hop(anchor, name, other, value, len(held | adds), len(adds), own, relation)
            )
    return found


def _follows(anchor: Evidence, other: Evidence, name: Named) -> bool:
    """A sentence of another passage that names the bridge or is about it."""
    if other.source.hit.document.id == anchor.source.hit.document.id:
        return False
    found = name_pattern(name.text).search(other.text)
    return found is not None or about(other, name.text)


def _value(other: Evidence, name: Named, question: Question) -> Value | None:
    """The sentence's value of the type asked for, the bridge itself left out."""
    bridge = name.text.casefold()
    found = [
        v
        for v in values(other, question, question.answer_type)
        if v.text.casefold() not in bridge and bridge not in v.text.casefold()
    ]
    return found[0] if found else None
