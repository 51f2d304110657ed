"""Entities, co-occurrences and typed facts from text with spaCy: no LLM, deterministic.

Runs `nlp.pipe` over main chunks in batches. Text the model does not cover (mostly
non-Latin script) is skipped and reported, not failed. Per-chunk caps bound entity floods.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span

from ingest import descriptions
from ingest.dates import DateValue, parse_date
from ingest.facts import sentence_triples
from ingest.mentions import Mention

TYPE_GROUPS = {
    "PERSON": "PERSON",
    "ORG": "ORG",
    "GPE": "PLACE",
    "LOC": "PLACE",
    "FAC": "PLACE",
    "NORP": "GROUP",
    "PRODUCT": "PRODUCT",
    "EVENT": "EVENT",
    "WORK_OF_ART": "WORK",
    "LAW": "LAW",
    "LANGUAGE": "LANGUAGE",
}
MAX_MENTIONS_PER_CHUNK = 200
MAX_PAIRS_PER_CHUNK = 500
MAX_NAMED_PER_CHUNK = 400
QUERIES_PARSED = 256  # the latest queries' parses, kept
MAX_SENTENCE_TOKENS = 300
_LETTER = re.compile(r"[^\W\d_]")
_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
_WH_TAGS = frozenset({"WDT", "WP", "WP$", "WRB"})


@dataclass(frozen=True)
class Fact:
    subject: int  # mention indexes
    predicate: str
    object: int
    sentence_start: int
    sentence_end: int
    sentence: str
    valid_from: DateValue | None


@dataclass(frozen=True)
class Named:
    """Any entity spaCy finds, dates and numbers included: what an answer's type is read
    from."""

    text: str
    label: str  # spaCy's label: PERSON, DATE, CARDINAL, ...
    start: int
    end: int


@dataclass
class ChunkGraph:
    mentions: list[Mention] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    pairs: list[tuple[int, int]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    # Every entity spaCy found, dates and numbers included, in document offsets: kept so an
    # answer reads a passage's entities without running the model again. None: not read.
    named: list[Named] | None = None


def is_covered(text: str) -> bool:
    """Whether an English model can read `text`: mostly Latin letters."""
    letters = _LETTER.findall(text)
    return bool(letters) and len(_LATIN.findall(text)) >= 0.5 * len(letters)


class Extractor:
    def __init__(self, model: str, batch_size: int = 64) -> None:
        self._nlp: Language = spacy.load(model)
        self._batch_size = batch_size
        # A query is parsed by search to link its entities and by answers to find its
        # relative clauses: once is enough.
        self._parse_query = lru_cache(maxsize=QUERIES_PARSED)(self._nlp)

    def extract(self, chunks: list[tuple[int, str]]) -> list[ChunkGraph]:
        """One graph per (offset, text) chunk, offsets carried into mentions and facts."""
        covered = [i for i, (_, text) in enumerate(chunks) if is_covered(text)]
        graphs = [
            ChunkGraph(notes=["language not covered by the NER model"], named=[]) for _ in chunks
        ]
        docs = self._nlp.pipe((chunks[i][1] for i in covered), batch_size=self._batch_size)
        for index, doc in zip(covered, docs, strict=True):
            graphs[index] = chunk_graph(doc, chunks[index][0])
        return graphs

    def whole_entity_groups(self, texts: list[str]) -> list[str | None]:
        """For each short text, the type group of an entity covering (nearly) all of it."""
        docs = self._nlp.pipe(texts, batch_size=self._batch_size)
        return [_whole_group(doc) for doc in docs]

    def named(self, texts: list[str]) -> list[list[Named]]:
        """Every entity of each text (none for a text the model does not cover)."""
        return self.chunk_named([(0, text) for text in texts])

    def chunk_named(self, chunks: list[tuple[int, str]]) -> list[list[Named]]:
        """Every entity of each (offset, text) chunk, as graph extraction keeps them: in
        document offsets, capped; none for a chunk the model does not cover."""
        found: list[list[Named]] = [[] for _ in chunks]
        covered = [i for i, (_, text) in enumerate(chunks) if is_covered(text)]
        docs = self._nlp.pipe((chunks[i][1] for i in covered), batch_size=self._batch_size)
        for index, doc in zip(covered, docs, strict=True):
            found[index] = _chunk_named(doc, chunks[index][0])
        return found

    def forget_queries(self) -> None:
        """Drop the kept query parses (benchmarks time queries parsed for the first time)."""
        self._parse_query.cache_clear()

    def relative_words(self, text: str) -> frozenset[int]:
        """Where each wh-word that opens a relative clause starts: "where" of "the arena
        where the team played", "who" of "the woman who portrayed". A question word there
        names no answer type. A determiner never opens one: "which" of "Flyboys stars which
        actor …?" asks, though the parse may hang its noun on the clause."""
        if not is_covered(text):
            return frozenset()
        doc = self._parse_query(text)
        return frozenset(
            t.idx for t in doc if t.tag_ in _WH_TAGS and t.head.dep_ == "relcl" and t.dep_ != "det"
        )

    def description(self, text: str, start: int, end: int) -> tuple[int, int] | None:
        """The characters of the description in a question that the name at `start`..`end`
        anchors (ingest/descriptions.py): "the architect of T" of "In which town did the
        architect of T retire?"."""
        if not is_covered(text):
            return None
        return descriptions.description(self._parse_query(text), start, end)

    def mentions(self, text: str) -> list[Mention]:
        """Named entities of a short text (a query), no facts."""
        if not is_covered(text):
            return []
        return chunk_graph(self._parse_query(text), 0).mentions


def _whole_group(doc: Doc) -> str | None:
    for ent in doc.ents:
        if ent.label_ in TYPE_GROUPS and len(ent.text) >= 0.8 * len(doc.text.strip()):
            return TYPE_GROUPS[ent.label_]
    return None


def chunk_graph(doc: Doc, offset: int) -> ChunkGraph:
    graph = ChunkGraph()
    sentences = list(doc.sents)
    sentence_of = {t.i: n for n, s in enumerate(sentences) for t in s}
    entity_of: dict[int, int] = {}
    for ent in doc.ents:
        if ent.label_ not in TYPE_GROUPS:
            continue
        if len(graph.mentions) >= MAX_MENTIONS_PER_CHUNK:
            graph.notes.append(f"mention cap of {MAX_MENTIONS_PER_CHUNK} reached")
            break
        for token in ent:
            entity_of[token.i] = len(graph.mentions)
        graph.mentions.append(
            Mention(
                ent.text,
                ent.label_,
                TYPE_GROUPS[ent.label_],
                offset + ent.start_char,
                offset + ent.end_char,
                sentence_of[ent.start],
            )
        )
    graph.pairs = _pairs(graph)
    for sentence in sentences:
        graph.facts += _facts(sentence, entity_of, offset)
    graph.named = _chunk_named(doc, offset)
    return graph


def _chunk_named(doc: Doc, offset: int) -> list[Named]:
    return _named(doc, offset)[:MAX_NAMED_PER_CHUNK]


def _named(doc: Doc, offset: int) -> list[Named]:
    return [Named(e.text, e.label_, offset + e.start_char, offset + e.end_char) for e in doc.ents]


def _pairs(graph: ChunkGraph) -> list[tuple[int, int]]:
    by_sentence: dict[int, list[int]] = {}
    for index, mention in enumerate(graph.mentions):
        by_sentence.setdefault(mention.sentence, []).append(index)
    pairs = [
        (a, b)
        for members in by_sentence.values()
        for i, a in enumerate(members)
        for b in members[i + 1 :]
    ]
    if len(pairs) > MAX_PAIRS_PER_CHUNK:
        graph.notes.append(f"co-occurrence cap of {MAX_PAIRS_PER_CHUNK} pairs reached")
    return pairs[:MAX_PAIRS_PER_CHUNK]


def _facts(sentence: Span, entity_of: dict[int, int], offset: int) -> list[Fact]:
    if len(sentence) > MAX_SENTENCE_TOKENS:
        return []
    triples = sentence_triples(sentence, entity_of)
    if not triples:
        return []
    when = _first_date(sentence)
    start, end = offset + sentence.start_char, offset + sentence.end_char
    text = sentence.text.strip()
    return [Fact(t.subject, t.predicate, t.object, start, end, text, when) for t in triples]


def _first_date(sentence: Span) -> DateValue | None:
    for ent in sentence.ents:
        if ent.label_ == "DATE" and (value := parse_date(ent.text)) is not None:
            return value
    return None
