"""The extractive composer: an answer built only of verbatim sentences of the passages, with
no LLM. Deterministic: the same passages and question give the same answer.

1. The passages' sentences are scored against the question (app/answers/evidence.py).
2. A comparison ("which came first, A or B?") finds a date or number for each side and
   compares them; a property question ("are A and B both …?", "who was also …, A or
   B?") reads each side's own passage for it (app/answers/properties.py). Each side's
   sentence is cited.
3. Otherwise the best sentence answers. When it lacks a value of the type asked for, or the
   question asks about something it does not mention, the composer follows a bridge: an
   entity one of the best sentences names, into a passage about that entity that holds the
   rest (X's passage names the director; the director's passage holds the date). See
   app/answers/bridges.py.
   A "which film …?" question that describes its answer is answered by the film a passage
   of that chain is about: its document's title, when the opening sentence defines it as
   a film (app/answers/subjects.py).
4. A sentence near the answer stating an exception, or another value of the same kind as
   the answer in an equally relevant sentence, goes to `otherSide`; the answer is then not
   settled.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from functools import cached_property

import numpy as np

from app.answers import labels, members
from app.answers.bridges import Hop, best_hop, bridge_passages
from app.answers.composer import ComposeContext
from app.answers.durations import lasted_days
from app.answers.evidence import (
    Evidence,
    Value,
    beside_the_head,
    gather,
    held_terms,
    in_sentence,
    named_in,
    names_the_head,
    passage_overlap,
    score,
    shares_a_term,
    values,
)
from app.answers.properties import Holding, Property, holding, property_of
from app.answers.question import CAPITALISED, LABELS, AnswerType, Comparison, Prefer, Question
from app.answers.related import (
    Pages,
    asked_of,
    asks_for_the_person,
    related_person,
    through_roles,
)
from app.answers.results import Claim, Draft, Quote, Source
from app.answers.shared import (
    Common,
    asks_several,
    common_class,
    common_value,
    defines_as_kind,
    definition_items,
    named_class,
    same_name,
)
from app.answers.subjects import defines_as
from app.answers.verdicts import (
    as_asked,
    days_between,
    middle_name,
    parsed,
    same_kind,
    winner,
    within_brackets,
)
from app.models.embedders import Embedders
from app.search.linking import EntityLinker
from ingest.analyzer import analyze
from ingest.titles import without_qualifier

FLOOR = 0.4  # least term overlap of the best sentence, unless the dense similarity is high
DENSE_FLOOR = (0.25, 0.55)  # overlap and similarity that pass together
PASSAGE_FLOOR = 0.5  # least term overlap of the best passage, all its sentences together
CONTEXT_QUOTES = 2
DENSE_SENTENCES = 8  # sentences embedded, those holding most of the question's terms
SUBJECT_AT = 2  # characters before a document's first name that still make it the subject
NER_SENTENCES = 16  # sentences whose entities are read, besides a comparison's sides
BRIDGE_SENTENCES = 16  # more, of the passages about a bridge those name
EXCEPTION_SHARE = 0.5  # of the answer's question terms an exception must hold too
_EXCEPTION = re.compile(
    r"\b(unless|except|however|but|not|no longer|never)\b"
    r"|אלא אם|למעט|אך |אינו|אינה|ただし|除き|ない",
    re.I,
)
_QUOTES = {"ja": ("「", "」")}
_ARTICLE = re.compile(r"^the\s+", re.I)  # "the USS Essex" may be titled "USS Essex"
_BEFORE_A_COMMA = rf"(?P<run>(?:{CAPITALISED}\s+)*{CAPITALISED}),\s*"
_AFTER_A_COMMA = r",\s*(?P<rest>[^,?]+)"
_ATTRIBUTION = re.compile(rf"\s+by\s+(?:{CAPITALISED}\s+)*{CAPITALISED}$")  # "… by Massenet"
# Answer types a passage's own subject can be: names, not dates or numbers.
SUBJECT_TYPES = frozenset(
    {AnswerType.PERSON, AnswerType.PLACE, AnswerType.ORGANISATION, AnswerType.WORK}
    | {AnswerType.EVENT, AnswerType.ENTITY}
)


class ExtractiveComposer:
    def __init__(self, embedders: Embedders, linker: EntityLinker) -> None:
        self._embedders = embedders
        self._linker = linker

    async def compose(self, context: ComposeContext) -> AsyncIterator[Claim | Draft]:
        draft = await self.draft(context)
        for claim in draft.claims:
            yield claim
        yield draft

    async def draft(self, context: ComposeContext) -> Draft:
        pool = gather(context.sources)
        if not pool:
            return Draft(abstain_reason="NO_CONTEXT")
        context = replace(context, question=_widened(context.question, pool))
        dense = await self._read(context, pool)
        ranked = sorted(pool, key=lambda e: -e.score)
        comparison = context.question.comparison is not None
        if not comparison and not _passes_floor(pool, dense, context.question):
            return _Composition(context, ranked).described_only()
        draft = _Composition(context, ranked).draft()
        return draft if draft.claims else Draft(abstain_reason="NO_CONTEXT", gaps=draft.gaps)

    async def _read(self, context: ComposeContext, pool: list[Evidence]) -> list[float]:
        """Score the sentences: terms, then similarity for the best by terms, then the
        entities of the best (and of the passages their bridges lead to). Returns each
        sentence's similarity."""
        question = context.question
        score(pool, question, [0.0] * len(pool))
        dense = await self._similarities(context, pool)
        score(pool, question, dense)
        await self._read_entities(context, _worth_reading(pool, question))
        score(pool, question, dense)
        if question.comparison is not None and question.comparison.relation is not None:
            await self._read_entities(context, _about_related(pool, question, question.comparison))
            score(pool, question, dense)
        if question.roles:
            await self._read_entities(context, _along_roles(pool, question))
            score(pool, question, dense)
        if question.comparison is None:
            ranked = sorted(pool, key=lambda e: -e.score)
            unread = [e for e in bridge_passages(ranked, question) if not e.read]
            await self._read_entities(context, unread[:BRIDGE_SENTENCES])
            score(pool, question, dense)
        return dense

    async def _read_entities(self, context: ComposeContext, pool: list[Evidence]) -> None:
        """Each sentence's entities: those ingest found in its passage, else the model's."""
        unread = []
        for evidence in pool:
            stored = context.named.get(evidence.source.hit.chunk_id)
            if stored is None:
                unread.append(evidence)
            else:
                evidence.entities_read(in_sentence(stored, evidence.sentence))
        if unread:
            texts = [e.text for e in unread]
            named = await asyncio.to_thread(self._linker.extractor().named, texts)
            for evidence, found in zip(unread, named, strict=True):
                evidence.entities_read(found)

    async def _similarities(self, context: ComposeContext, pool: list[Evidence]) -> list[float]:
        """Each sentence's cosine to the question, for the sentences holding most of its
        terms (the embedding model is the slow step); 0 for the rest."""
        embedder = self._embedders.get(context.embedding_model)
        chosen = sorted(range(len(pool)), key=lambda i: (-pool[i].overlap, i))[:DENSE_SENTENCES]
        texts = [context.question.text, *(pool[i].text for i in chosen)]
        vectors = await asyncio.to_thread(embedder.embed, texts, True)
        similarity = np.asarray(vectors[1:]) @ np.asarray(vectors[0])
        dense = [0.0] * len(pool)
        for index, value in zip(chosen, similarity, strict=True):
            dense[index] = float(value)
        return dense


def _widened(question: Question, pool: list[Evidence]) -> Question:
    """The question with each side of its comparison widened over a comma, when a passage
    names the wider form: a name may hold a comma ("Sir Thomas Wheate, 1st Baronet",
    "Love, Honor and Oh-Baby!"), which the question's parse took for the sides' boundary."""
    comparison = question.comparison
    if comparison is None:
        return question
    texts = list({id(e.source): _about_text(e) for e in pool}.values())  # once a passage
    sides = tuple(_wider_side(question.text, side, texts) for side in comparison.sides)
    sides = _split_at_another_and(question.text, (sides[0], sides[1]), texts)
    if sides == comparison.sides:
        return question
    return replace(question, comparison=replace(comparison, sides=(sides[0], sides[1])))


def _wider_side(text: str, side: str, passages: list[str]) -> str:
    """The side with the capitalised words before a comma in front of it, or with the
    words after a comma behind it, as long as a passage names the result."""
    while (found := re.search(_BEFORE_A_COMMA + re.escape(side), text)) is not None:
        wider = f"{found.group('run')}, {side}"
        if not _named(wider, passages):
            break
        side = wider
    after = re.search(re.escape(side) + _AFTER_A_COMMA, text)
    words = after.group("rest").split() if after else []
    longer = (f"{side}, {' '.join(words[:size])}" for size in range(len(words), 0, -1))
    return next((wider for wider in longer if _named(wider, passages)), side)


def _named(name: str, passages: list[str]) -> bool:
    """Whether a passage (case folded, with its title and section) names the name."""
    return any(name.casefold() in passage for passage in passages)


def _split_at_another_and(
    text: str, sides: tuple[str, str], passages: list[str]
) -> tuple[str, str]:
    """Two sides joined by "and" split at another of their "and"s, when the passages name
    each side so split and not each side as parsed: "The Bears and I and Oceans" names
    "The Bears and I" and "Oceans"."""
    whole = f"{sides[0]} and {sides[1]}"
    if whole not in text or all(_named(side, passages) for side in sides):
        return sides
    splits = ((whole[: m.start()], whole[m.end() :]) for m in re.finditer(" and ", whole))
    return next((s for s in splits if all(_named(side, passages) for side in s)), sides)


def _worth_reading(pool: list[Evidence], question: Question) -> list[Evidence]:
    """The sentences whose entities are read: the best by terms and similarity, and those of
    passages about a side of a comparison. The entity model is the slow step."""
    best = sorted(pool, key=lambda e: -e.score)[:NER_SENTENCES]
    sides = question.comparison.sides if question.comparison else ()
    about = [e for side in sides for e in _naming(pool, side)[:NER_SENTENCES]]
    return list({id(e): e for e in [*best, *about]}.values())


def _about_related(
    pool: list[Evidence], question: Question, comparison: Comparison
) -> list[Evidence]:
    """The unread sentences about the people the sides name in the comparison's role."""
    assert comparison.relation is not None
    ranked = sorted(pool, key=lambda e: -e.score)
    relation, pages = comparison.relation, Pages.of(ranked)
    people = [
        related_person(_about(ranked, s), relation, question, pages) for s in comparison.sides
    ]
    named = [e for p in people if p for e in _naming(pool, p.person.text)[:NER_SENTENCES]]
    return [e for e in named if not e.read]


def _along_roles(pool: list[Evidence], question: Question) -> list[Evidence]:
    """The unread sentences of the passages of the people the question reaches through,
    as far as the chain goes with the entities read so far."""
    ranked = sorted(pool, key=lambda e: -e.score)
    pages = Pages.of(ranked)
    links = through_roles(question, pages) or []
    people = [pages.own(link.person.text)[:NER_SENTENCES] for link in links]
    return [e for own in people for e in own if not e.read]


def _about(ranked: list[Evidence], side: str) -> list[Evidence]:
    """The sentences of passages about a side: those titled with it first, then those
    naming it, each in score order."""
    return sorted(_naming(ranked, side), key=lambda e: not _titled(e, side))


def _naming(pool: list[Evidence], side: str) -> list[Evidence]:
    """The sentences of passages that name the side in their text, section or title, or
    are titled with it."""
    key = _named_form(pool, side)
    return [e for e in pool if key in _about_text(e) or _titled(e, side)]


def _named_form(pool: list[Evidence], side: str) -> str:
    """The side as the passages name it, case folded: whole, or else its longest leading or
    trailing part of two words or more that one names, since a yes/no question may write a
    property after a name ("Are both A and Neil Jordan American?") and a question's parse
    may leave words before one ("films: Racing Extinction", "Mexican Alejandro Springall")."""
    words = side.split()
    for size in range(len(words), min(2, len(words)) - 1, -1):
        for key in _name_parts(words, size):
            if any(key in _about_text(e) for e in pool):
                return key
    work = _without_attribution(side)
    if work and any(work in _about_text(e) for e in pool):
        return work
    return side.casefold()


def _name_parts(words: list[str], size: int) -> list[str]:
    """The side's leading and trailing runs of `size` words, case folded, those of a name:
    a part does not start or end at a lower-case word ("Ruggero Deodato from" of "Ruggero
    Deodato from Italy" would meet "directed by Ruggero Deodato from a screenplay")."""
    if size == len(words):
        return [" ".join(words).casefold()]
    parts = (words[:size], words[-size:])
    named = [p for p in parts if not p[0][:1].islower() and not p[-1][:1].islower()]
    return [" ".join(p).casefold() for p in named]


def _without_attribution(side: str) -> str | None:
    """A work without its maker, case folded: "manon" for "Manon by Massenet"."""
    found = _ATTRIBUTION.search(side)
    return side[: found.start()].casefold() if found and found.start() else None


def _passes_floor(pool: list[Evidence], dense: list[float], question: Question) -> bool:
    """Enough of the question in one sentence (or some of it in a sentence that is close
    in meaning), or in one passage across its sentences: a long question's terms are spread
    over the passage that answers it."""
    low_overlap, high_similarity = DENSE_FLOOR
    for evidence, similarity in zip(pool, dense, strict=True):
        if evidence.overlap >= FLOOR:
            return True
        if evidence.overlap >= low_overlap and similarity >= high_similarity:
            return True
    return passage_overlap(pool, question) >= PASSAGE_FLOOR


class _Composition:
    """One draft from ranked evidence."""

    def __init__(self, context: ComposeContext, ranked: list[Evidence]) -> None:
        self.context = context
        self.question = context.question
        self.ranked = ranked
        self.pages = Pages.of(ranked)
        self.draft_ = Draft()

    def draft(self) -> Draft:
        comparison = self.question.comparison
        chain = self._compare(comparison) if comparison else self._kind_elsewhere(self._direct())
        used = [e for e, _ in chain]
        self.draft_.support = [_quote(e) for e in used]
        self.draft_.claims = self._claims(chain)
        self.draft_.context = [_quote(e) for e in self._context(used)]
        self.draft_.other_side = [_quote(e) for e in self._other_side(chain)]
        if self.draft_.other_side:
            self.draft_.settled = False
        return self.draft_

    def described_only(self) -> Draft:
        """Below the quality floor, only the thing the best sentence's page defines as the
        kind asked, which the question described in words of its own ("the 1999 film
        directed by … that was a world-wide success but …"), and as not settled."""
        best = self.ranked[0]
        chain = self._described(best) or self._subject_answer([(best, None)])
        if chain[-1][1] is None:
            return Draft(abstain_reason="NO_CONTEXT")
        self.draft_.support = [_quote(e) for e, _ in chain]
        self.draft_.claims = self._claims(chain)
        self.draft_.settled = False  # the passages hold too little of the question to settle it
        return self.draft_

    def _direct(self) -> list[tuple[Evidence, Value | None]]:
        through = self._through_roles() if self.question.roles else None
        if through is not None:
            return through
        best = self.ranked[0]
        described = self._described(best)
        if described is not None:
            return described
        wanted = self.question.answer_type
        found = self._of_the_kind_first(best, values(best, self.question, wanted))
        hop = None if found and not _missing(best, self.question) else self._hop(bool(found))
        met = _met_at_bridge(hop, found, self.question) if hop and hop.anchor is best else None
        if met is not None:
            return met
        # A name set beside the kind asked ("the series "Charmed"" for "which series") is
        # what was asked for, whatever terms a hop would add.
        if hop is not None and not (found and self._kept_over(hop, best, found[0])):
            return self._subject_answer([(hop.anchor, None), (hop.answer, hop.value)])
        chain = self._subject_answer([(best, found[0] if found else None)])
        if self.question.typed and chain[-1][1] is None:
            self._gap(labels.gap(self.context.language, wanted))
        return chain

    def _kind_elsewhere(
        self, chain: list[tuple[Evidence, Value | None]]
    ) -> list[tuple[Evidence, Value | None]]:
        """When no value was found, or the value is not named as the kind asked and its own
        page does not call it one, another page the question does not name whose opening
        does: "Drifting" ("… is a driving technique") for "what technique?", over "New
        Zealand". Of several, the one whose passage holds most of the question."""
        head, (evidence, value) = self._subject_head(), chain[-1]
        if head is None or (value is not None and self._of_the_kind(evidence, value, head)):
            return chain
        openings = self._kind_openings(head)
        if not openings or not self._displaces(openings, evidence, value):
            return chain
        name = self._unasked_name(openings[0])
        assert name is not None
        kept = [(e, None) for e, _ in chain]
        return [*kept, (openings[0], Value(name, 0, 0))]  # the title, not in the text

    def _displaces(self, openings: list[Evidence], evidence: Evidence, value: Value | None) -> bool:
        """Whether the first page of the kind answers over the chain's end: it is another
        page, and no value was found, or it is the only page of the kind, or it ranks above
        the value's sentence."""
        if openings[0].source is evidence.source:
            return False
        alone = len(openings) == 1 or self._rank(openings[0]) < self._rank(evidence)
        return value is None or alone

    def _rank(self, evidence: Evidence) -> int:
        """Where the evidence's passage first stands among the ranked sentences' passages."""
        return list(self._by_source).index(id(evidence.source))

    def _of_the_kind(self, evidence: Evidence, value: Value, head: str) -> bool:
        return self._named_as_kind(evidence, value) or self._page_defines(value.text, head)

    def _kind_openings(self, head: str) -> list[Evidence]:
        """The opening sentences of the pages the question does not name that define their
        subject as a thing of the kind, those holding most of the question first. A page
        lacking a number the question gives ("what 2017 film?") is no thing it describes."""
        openings = (self._opening(sentences[0].source) for sentences in self._by_source.values())
        named = [o for o in openings if o is not None and self._unasked_name(o)]
        kind = [o for o in named if defines_as_kind(o.text, head)]
        held = {id(o): self._page_terms(o.source) for o in kind}
        numbers = frozenset(t for t in self.question.terms if t.isdigit())
        dated = [o for o in kind if numbers <= held[id(o)]]
        return sorted(dated, key=lambda o: -len(held[id(o)]))

    def _page_terms(self, source: Source) -> frozenset[str]:
        wanted = frozenset(self.question.terms)
        held = (held_terms(e, wanted) for e in self._by_source[id(source)])
        return frozenset().union(*held)

    @cached_property
    def _by_source(self) -> dict[int, list[Evidence]]:
        """The ranked sentences of each passage, passages in the order they first rank."""
        grouped: dict[int, list[Evidence]] = {}
        for evidence in self.ranked:
            grouped.setdefault(id(evidence.source), []).append(evidence)
        return grouped

    def _kept_over(self, hop: Hop, best: Evidence, value: Value) -> bool:
        """Whether the best sentence's value stands over a hop: it is named beside the kind
        asked, or the hop only leaves from it when nothing asks for more than it."""
        if beside_the_head(best, value, self.question):
            return True
        from_it = hop.anchor is best and same_name(hop.bridge.text, value.text)
        return from_it and self.question.head is None

    def _described(self, best: Evidence) -> list[tuple[Evidence, Value | None]] | None:
        """The thing the best sentence opens its document about, when its page calls it a
        thing of the kind asked and the question does not name it: the question described
        it ("which sports series premiered in 1973?" of "X is an American sports television
        series, premiering in January 1973"), and no hop leaves it."""
        head, name = self._subject_head(), self._unasked_name(best)
        if head is None or name is None:
            return None
        if best is not self._opening(best.source) or not defines_as_kind(best.text, head):
            return None
        subject = values(best, self.question, self.question.answer_type)
        if subject and subject[0].start <= SUBJECT_AT:
            return [(best, subject[0])]  # as the text names it, its title in `_as_titled`
        return [(best, Value(name, 0, 0))]  # the title, not in the text

    def _through_roles(self) -> list[tuple[Evidence, Value | None]] | None:
        """The answer read in the own passage of the last person of the question's chain
        of roles ("the father of the director of film X"), or that person, when asked
        for; None when the chain breaks or that passage holds no such value."""
        links = through_roles(self.question, self.pages)
        if not links:
            return None
        chain: list[tuple[Evidence, Value | None]] = [(link.evidence, None) for link in links]
        if asks_for_the_person(self.question):
            return [*chain[:-1], (links[-1].evidence, links[-1].person)]
        found = asked_of(links[-1].person.text, self.question, self.pages)
        return None if found is None else [*chain, found]

    def _subject_answer(
        self, chain: list[tuple[Evidence, Value | None]]
    ) -> list[tuple[Evidence, Value | None]]:
        """For "which film …?", the thing a passage of the chain is about, when its
        document's opening sentence defines it as a film and the question does not name
        it: the question described it. Not when the value found already names it (a
        fuller form of the same name stays as the passage writes it), nor when the value
        is named as of that kind itself ("the Parthian Empire" for "which empire")."""
        head, value = self._subject_head(), chain[-1][1]
        if head is None:
            return chain
        for index in range(len(chain) - 1, -1, -1):
            evidence = chain[index][0]
            name = self._unasked_name(evidence)
            if name is None:
                continue
            if value is not None and self._named_as_asked(name, chain[-1][0], value):
                return chain
            opening = self._opening(evidence.source)
            if opening is not None and _defines(opening.text, head, value):
                kept = chain[:index] + ([] if opening is evidence else [(evidence, None)])
                return [*kept, (opening, Value(name, 0, 0))]  # the title, not in the text
        return chain

    def _of_the_kind_first(self, evidence: Evidence, found: list[Value]) -> list[Value]:
        """The sentence's values with the first one whose own page calls it a thing of the
        kind asked put first ("the USS Essex (CV-9) and "Air Group 4"" for "which aircraft
        carrier?", where the Essex's page opens "… was an aircraft carrier"), unless the
        first is already named as of that kind."""
        head = self._subject_head()
        if head is None or not found or self._named_as_kind(evidence, found[0]):
            return found
        kind = next((v for v in found if self._page_defines(v.text, head)), None)
        return found if kind is None else [kind, *(v for v in found if v is not kind)]

    def _named_as_kind(self, evidence: Evidence, value: Value) -> bool:
        """ "Fairfax County" for "which county", "musician George Harrison" for "which
        musician"."""
        return names_the_head(value, self.question) or beside_the_head(
            evidence, value, self.question
        )

    def _page_defines(self, name: str, head: str) -> bool:
        """Whether the retrieved page titled with the name opens by calling its subject a
        thing of the kind."""
        own = self.pages.own(name) or self.pages.own(_ARTICLE.sub("", name))
        opening = self._opening(own[0].source) if own else None
        return opening is not None and defines_as_kind(opening.text, head)

    def _named_as_asked(self, name: str, holder: Evidence, value: Value) -> bool:
        """Whether the value is the page's own name in another form, or is named as of the
        kind asked itself: "the Parthian Empire", "the band Rush"."""
        return same_name(name, value.text) or self._named_as_kind(holder, value)

    def _subject_head(self) -> str | None:
        """The kind asked for, when a passage's own subject can be the answer."""
        asks_a_name = self.question.answer_type in SUBJECT_TYPES
        return self.question.head if asks_a_name else None

    def _unasked_name(self, evidence: Evidence) -> str | None:
        """The name of the evidence's document, unless the question gives it."""
        name = without_qualifier(_title(evidence))
        return name if name and not _asks_about(self.question, name) else None

    def _opening_of(self, about: list[Evidence]) -> Evidence | None:
        """The opening sentence of the passage best about a side."""
        return self._opening(about[0].source) if about else None

    def _opening(self, source: Source) -> Evidence | None:
        """The first sentence of a source that opens its document."""
        own = [e for e in self._by_source.get(id(source), []) if e.offset == 0]
        return min(own, key=lambda e: e.sentence.start) if own else None

    def _hop(self, has_value: bool) -> Hop | None:
        """A bridge hop, unless the best sentence has the value and the hop has not
        earned its place over it."""
        hop = best_hop(self.ranked, self.question)
        if hop is None or (has_value and not hop.earned) or self._asked_of_itself(hop):
            return None
        return hop

    def _asked_of_itself(self, hop: Hop) -> bool:
        """Whether the hop's value is a thing the question names, by its page's title: the
        hop reached the page of "José Saramago" ("José de Sousa Saramago, … was a writer")
        for "José Saramago and Ivo Andrić were recipients of what award?"."""
        value = hop.value
        return value is not None and _asks_about(self.question, _as_titled(hop.answer, value))

    def _compare(self, comparison: Comparison) -> list[tuple[Evidence, Value | None]]:
        if comparison.prefer in (Prefer.BOTH, Prefer.HOLDS):
            return self._property(comparison)
        if comparison.prefer is Prefer.SHARED:
            return self._shared(comparison)
        links = [self._linked(side, comparison.relation) for side in comparison.sides]
        found = [self._value_of(link, comparison) if link else None for link in links]
        for side, pair in zip(comparison.sides, found, strict=True):
            if pair is None:
                self._gap(labels.side_gap(self.context.language, side))
        present = [p for p in found if p is not None]
        if len(present) == 2 and comparison.prefer is Prefer.SAME:
            same = self._same(present, comparison.value)
            self.draft_.short_answer = labels.label(self.context.language, "yes" if same else "no")
        elif len(present) == 2:
            self.draft_.short_answer = winner(comparison, found)
        elif len(present) == 1 and self._counted_by_one(comparison, found):
            self.draft_.short_answer = comparison.sides[0 if found[0] else 1]
            self.draft_.settled = False
        return [(link[0], None) for link in links if link and link[0]] + present

    def _counted_by_one(
        self, comparison: Comparison, found: list[tuple[Evidence, Value | None] | None]
    ) -> bool:
        """Whether, asked which side has more of a thing counted, one side's passage counts
        it and the other side's own passage (the side without a value) names no such count."""
        if comparison.prefer is not Prefer.MORE or self.question.unit is None:
            return False
        if comparison.relation or comparison.lifespan or comparison.duration:
            return False
        return bool(self._own(comparison.sides[1 if found[0] else 0]))

    def _same(self, present: list[tuple[Evidence, Value | None]], kind: AnswerType) -> bool:
        """Whether the two sides' values agree, each read beside its sentence's others."""
        texts = [value.text if value else "" for _, value in present]
        around = [[v.text for v in values(e, self.question, kind)] for e, _ in present]
        return same_kind(texts[0], texts[1], kind, (around[0], around[1]))

    def _value_of(
        self, link: tuple[Evidence | None, str], comparison: Comparison
    ) -> tuple[Evidence, Value | None] | None:
        """A side's own value, or a related person's, read in their own passage only (its
        opening sentence first): the side's passage has dates of its own."""
        linked, name = link
        if comparison.lifespan:
            return self._lifespan(name)
        if comparison.duration:
            return self._duration(name)
        if comparison.occupations:
            return self._occupations(name)
        if linked is None:
            return self._side(name, comparison.value)
        if comparison.value is AnswerType.PERSON:
            return linked, Value(name, 0, 0)  # "by the same director": the person compared
        own = sorted(self.pages.own(name), key=lambda e: e is not self._opening(e.source))
        return self._first_value(own, comparison.value)

    def _lifespan(self, side: str) -> tuple[Evidence, Value | None] | None:
        """The days a side lived: between the earliest and latest dates of a sentence about
        it that holds both ends of a life ("(4 May 1920 – 2 June 1990)"), those in its first
        brackets when they hold two: "(30 August 1650 – 11 June 1724) … beatified in 1765"."""

        def lived(evidence: Evidence) -> int | None:
            found = values(evidence, self.question, AnswerType.DATE)
            return days_between([v.text for v in within_brackets(evidence.text, found)])

        return self._days(side, lived)

    def _duration(self, side: str) -> tuple[Evidence, Value | None] | None:
        """The days a side lasted, from the first sentence about it that gives a span of
        dates or a length."""
        return self._days(side, lambda evidence: lasted_days(evidence.text))

    def _days(
        self, side: str, read: Callable[[Evidence], int | None]
    ) -> tuple[Evidence, Value | None] | None:
        """The first sentence about a side that `read` finds a number of days in."""
        for evidence in self._about_side(side):
            days = read(evidence)
            if days is not None:
                return evidence, Value(str(days), 0, 0)  # a count, not in the text
        return None

    def _occupations(self, side: str) -> tuple[Evidence, Value | None] | None:
        """How many occupations the opening sentence of a side's passage defines it by:
        "an American screenwriter, director and producer" three."""
        opening = self._opening_of(self._about_side(side))
        count = len(definition_items(opening.text)) if opening is not None else 0
        return (opening, Value(str(count), 0, 0)) if opening and count else None  # a count

    def _linked(self, side: str, relation: str | None) -> tuple[Evidence | None, str] | None:
        """Whose value stands for the side: the side itself, or the person its passages
        name in the comparison's role, with the sentence that names them."""
        if relation is None:
            return None, side
        found = related_person(self._about_side(side), relation, self.question, self.pages)
        return None if found is None else (found.evidence, found.person.text)

    def _property(self, comparison: Comparison) -> list[tuple[Evidence, Value | None]]:
        """Whether both sides have the question's property, or which one has it."""
        named = [_named_form(self.ranked, side) for side in comparison.sides]
        wanted = property_of(self.question, (named[0], named[1]), self.ranked)
        found = [self._holding(side, wanted) for side in comparison.sides]
        for side, held in zip(comparison.sides, found, strict=True):
            if held is None:
                self._gap(labels.side_gap(self.context.language, side))
        if found[0] is None or found[1] is None:
            return [(h.evidence, None) for h in found if h is not None]
        a, b = found[0], found[1]
        if comparison.prefer is Prefer.BOTH:
            both = a.holds and b.holds
            self.draft_.short_answer = labels.label(self.context.language, "yes" if both else "no")
        elif a.strength != b.strength:
            self.draft_.short_answer = comparison.sides[0 if a.strength > b.strength else 1]
        return [(a.evidence, None), (b.evidence, None)]

    def _holding(self, side: str, wanted: Property) -> Holding | None:
        """The sentence about the side that holds most of the property: of its own passage
        when the side has one, since another page's sentence that names it may say the
        property of something else it names ("produced by Tom Reed and written by …");
        else of any passage that names it."""
        own = holding(self._own(side), wanted)
        return own or holding(self._about_side(side), wanted)

    def _shared(self, comparison: Comparison) -> list[tuple[Evidence, Value | None]]:
        """What the two sides have in common: for a named type (a city, a company) a value
        both sides' passages hold, otherwise the class both openings define them as."""
        a, b = (self._about_side(side) for side in comparison.sides)
        typed = comparison.value in LABELS and comparison.value is not AnswerType.ENTITY
        found = self._common_value(a, b, comparison.value) if typed else self._common_class(a, b)
        if found is None:
            self._gap(labels.gap(self.context.language, self.question.answer_type))
            return []
        self.draft_.short_answer = found.text
        first, second = found.evidence
        chain: list[tuple[Evidence, Value | None]] = [(first, None)]
        return chain if second is first else [*chain, (second, None)]

    def _common_value(
        self, a: list[Evidence], b: list[Evidence], kind: AnswerType
    ) -> Common | None:
        """A value of the kind both sides' passages hold; for a place, else the people both
        are of, which names its country: "Armenian", asked their country of ancestry."""
        found = common_value((a, b), self.question, kind)
        if found is None and kind is AnswerType.PLACE:
            return common_value((a, b), self.question, AnswerType.NATIONALITY)
        return found

    def _common_class(self, a: list[Evidence], b: list[Evidence]) -> Common | None:
        """The class both sides' opening sentences define them as; else the class one
        side's opening shares with a later sentence of the other's passage ("He was also
        one of the most widely read writers of popular science"), in the opening's words;
        else a class of two words or more one opening defines and the other names."""
        first, second = self._opening_of(a), self._opening_of(b)
        if first is None or second is None:
            return None
        several = asks_several(self.question)
        found = common_class(first.text, second.text, several)
        if found:
            return Common(found, (first, second))
        for opening, other in ((first, second), (second, first)):
            for later in self._later_sentences(other):
                found = common_class(opening.text, later.text, several)
                if found:
                    pair = (opening, later) if opening is first else (later, opening)
                    return Common(found, pair)
        found = named_class(first.text, second.text) or named_class(second.text, first.text)
        return Common(found, (first, second)) if found else None

    def _later_sentences(self, opening: Evidence) -> list[Evidence]:
        """The retrieved sentences of the opening's passage after it."""
        return [e for e in self._by_source[id(opening.source)] if e is not opening]

    def _own(self, side: str) -> list[Evidence]:
        """The sentences of the side's own passage, by the name the passages give it."""
        return self.pages.own(_named_form(self.ranked, side))

    def _about_side(self, side: str) -> list[Evidence]:
        return _about(self.ranked, side)

    def _side(self, side: str, wanted: AnswerType) -> tuple[Evidence, Value | None] | None:
        """The best sentence with a value for `side`: one that names the side itself first,
        else one of a passage about it (naming it in its text, section or title)."""
        key = side.casefold()
        about = self._about_side(side)

        # A passage titled with the side is about it, its opening first, which dates the
        # thing itself ("a 2013 film") where a later sentence may date another ("a prequel
        # to the 1939 film"), then in its own order, which turns to other things later;
        # then a sentence that names it.
        def order(e: Evidence) -> tuple[bool, bool, bool, int]:
            titled = _titled(e, side)
            return (
                not titled,
                key not in e.text.casefold(),
                titled and e is not self._opening(e.source),
                e.offset + e.sentence.start if titled else 0,
            )

        about.sort(key=order)
        if self.question.unit == members.UNIT:  # another band's line-up may name this one
            about = [e for e in about if _titled(e, side)]
        return self._first_value(about, wanted)

    def _first_value(
        self, about: list[Evidence], wanted: AnswerType
    ) -> tuple[Evidence, Value | None] | None:
        """The first sentence with a value of the wanted kind (one that parses as such)."""
        for evidence in about:
            found = values(evidence, self.question, wanted)
            same = self.question.comparison and self.question.comparison.prefer is Prefer.SAME
            if found and (same or parsed(found[0], wanted) is not None):
                return evidence, found[0]
        return None

    def _claims(self, chain: list[tuple[Evidence, Value | None]]) -> list[Claim]:
        """One claim per sentence of the chain. The short answer leads the claim whose
        sentence holds it; a comparison's verdict leads the first and cites every side."""
        short = self.draft_.short_answer
        direct = self.question.comparison is None
        last = chain[-1] if chain else None
        if direct and short is None and last is not None and last[1] is not None:
            short = self.draft_.short_answer = self._short(last[0], last[1])
        leading = len(chain) - 1 if direct else 0
        claims = []
        for index, (evidence, _) in enumerate(chain):
            refs = [evidence.source.ref]
            if index == leading and not direct:
                refs = list(dict.fromkeys(e.source.ref for e, _ in chain))
            lead = f"{short} — " if short and index == leading else ""
            markers = " ".join(f"[[{ref}]]" for ref in refs)
            text = f"{lead}{_quoted(evidence.text, self.context.language)} {markers}"
            claims.append(Claim(text, tuple(refs)))
        return claims

    def _short(self, evidence: Evidence, value: Value) -> str:
        """The value as the question asks for it."""
        middle = middle_name(evidence.text, value, self.question)
        return middle or as_asked(_as_titled(evidence, value), self.question)

    def _context(self, used: list[Evidence]) -> list[Evidence]:
        seen = {(e.source.ref, e.sentence.start) for e in used}
        others = [e for e in self.ranked if (e.source.ref, e.sentence.start) not in seen]
        return [e for e in others if e.overlap > 0][:CONTEXT_QUOTES]

    def _other_side(self, chain: list[tuple[Evidence, Value | None]]) -> list[Evidence]:
        """Exceptions stated next to the answer, and rival values of the answer's kind in
        sentences as relevant as the answer's."""
        if not chain:
            return []
        answer, value = chain[-1]
        found = [
            e
            for e in self.ranked
            if _near(e, answer)
            and _EXCEPTION.search(e.text)
            and e.own > 0
            and e.own >= EXCEPTION_SHARE * answer.own
        ]
        if value is not None and self.question.comparison is None:
            found += self._rivals(answer, value)
        return list({(e.source.ref, e.sentence.start): e for e in found}.values())

    def _rivals(self, answer: Evidence, value: Value) -> list[Evidence]:
        wanted = self.question.answer_type
        rivals = []
        for other in self.ranked:
            if other is answer or other.overlap < answer.overlap:
                continue
            texts = {v.text.casefold() for v in values(other, self.question, wanted)}
            if texts and value.text.casefold() not in texts:
                rivals.append(other)
        return rivals

    def _gap(self, text: str) -> None:
        self.draft_.gaps.append(text)
        self.draft_.settled = False


def _asks_about(question: Question, name: str) -> bool:
    return named_in(name, question.text.casefold())


def _met_at_bridge(
    hop: Hop, best_values: list[Value], question: Question
) -> list[tuple[Evidence, Value | None]] | None:
    """The bridge itself, when it is the best sentence's own value and the hop reads it
    again in the passage of another thing the question names: the question's two halves
    meet at it ("an album by which star, with the single Y?": the album's page and the
    single's both name the singer). Named as the fuller of the two sentences names it."""
    named_page = without_qualifier(_title(hop.answer))
    if not named_page or not _asks_about(question, named_page):
        return None
    if not any(same_name(v.text, hop.bridge.text) for v in best_values):
        return None
    fuller = [n for n in hop.answer.named if hop.bridge.text in n.text and "," not in n.text]
    if fuller and len(fuller[0].text) > len(hop.bridge.text):
        return [
            (hop.anchor, None),
            (hop.answer, Value(fuller[0].text, fuller[0].start, fuller[0].end)),
        ]
    bridge = Value(hop.bridge.text, hop.bridge.start, hop.bridge.end)
    return [(hop.answer, None), (hop.anchor, bridge)]  # the value leads the last claim


def _defines(opening: str, head: str, value: Value | None) -> bool:
    """Whether a page's opening calls its subject a thing of the kind asked: by its own
    noun phrases when the chain has found a value already ("an American stage and film
    actor" is no film, over "The Deer Hunter"), else by its first words."""
    if value is not None:
        return defines_as_kind(opening, head)
    return defines_as(opening, head)


def _about_text(evidence: Evidence) -> str:
    hit = evidence.source.hit
    return f"{hit.text}\n{hit.section or ''}\n{hit.document.title}".casefold()


def _as_titled(evidence: Evidence, value: Value) -> str:
    """A value that opens its document as its subject ("John Samuel Waters Jr. (born
    1946) is …") by the name the document is titled with ("John Waters"): the collection's
    own name for the thing, where the opening gives a full or birth name. The title is
    never longer than the name."""
    opens = evidence.offset + evidence.sentence.start == 0 and value.start <= SUBJECT_AT
    name = without_qualifier(_title(evidence))
    if not opens or not name or not shares_a_term(name, value.text):
        return value.text
    # A longer title names something else about the subject: "Assassination of James A.
    # Garfield" opens with "James A. Garfield".
    return name if len(analyze(name)) <= len(analyze(value.text)) else value.text


def _title(evidence: Evidence) -> str:
    return evidence.source.hit.document.title


def _titled(evidence: Evidence, side: str) -> bool:
    """Whether the evidence's passage is titled with the side: as written, or without
    the title's qualifier ("Dracula (plant)") or the side's article ("the Polar Bear")."""
    title = _title(evidence).casefold()
    names = {title, without_qualifier(title)}
    key = side.casefold()
    if key in names or (key.startswith("the ") and key[4:] in names):
        return True
    return _without_attribution(side) in names


def _missing(evidence: Evidence, question: Question) -> frozenset[str]:
    terms = frozenset(question.terms)
    return terms - held_terms(evidence, terms)


def _near(evidence: Evidence, answer: Evidence) -> bool:
    same = evidence.source.ref == answer.source.ref and evidence is not answer
    return same and abs(evidence.sentence.start - answer.sentence.end) < 400


def _quote(evidence: Evidence) -> Quote:
    return Quote(evidence.source.ref, evidence.text, evidence.span)


def _quoted(text: str, language: str) -> str:
    opening, closing = _QUOTES.get(language, ("“", "”"))
    return f"{opening}{' '.join(text.split())}{closing}"
