"""Sentences of the retrieved passages as evidence: each with its span in its document, its
terms, its entities, and how well it answers the question.

A sentence scores by the question's content terms it holds (weighted by how rare each is
among the retrieved sentences; a term only its document's title or section holds counts
half: "Incident commander: Priya Natarajan." answers for the report titled INC-2041), by its
dense similarity to the question, and by whether it holds a value of the type the question
asks for. Arithmetic only: the composer supplies
vectors and entities.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from app.answers import members
from app.answers.events import family, units_of, with_families
from app.answers.kinds import named_kinds, set_before, set_beside
from app.answers.question import CAPITALISED_RUN, LABELS, AnswerType, Prefer, Question
from app.answers.results import QuoteSpan, Source
from ingest.analyzer import analyze
from ingest.dates import parse_date
from ingest.extraction import Named
from ingest.memo import memo
from ingest.resolution import without_possessive
from retrieval.sentences import Sentence, sentences

MIN_TERMS = 2  # a sentence with fewer content terms is a label, not evidence
DENSE_WEIGHT = 0.5
TYPE_WEIGHT = 0.3
HEADING_SHARE = 0.5  # what a question term found only in the title or section counts
RANK_WEIGHT = 0.05
PREFIX = 5  # letters two terms share to count as one word family
NUMBER_WINDOW = 20  # characters each side of a number read for the question's terms
CLAUSE_GAP = 3  # words a clause break between a name and a term counts as
# A number and its unit: a Latin or Hebrew word after it, or one CJK character (25日).
# An English number word counts as its number: "three species", "five acts".
NUMBER_WORDS = {
    word: value
    for value, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
        " fifteen sixteen seventeen eighteen nineteen twenty".split()
    )
} | {"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_TIMES = {"once": 1, "twice": 2, "thrice": 3}  # how many times: "he twice won"
NUMBER_WORDS |= _TIMES
_DIGITS = r"\d+(?:[.,]\d+)*"
_COUNT = _DIGITS + r"|\b(?i:" + "|".join(NUMBER_WORDS) + r")\b"
_NUMBER = re.compile(
    rf"(?<![A-Za-z0-9.\-])(?:{_COUNT})"
    r"(?:\s?[A-Za-z\u0590-\u05ff]{1,12}|[\u3040-\u30ff\u4e00-\u9fff])?"
)
# What a quoted name answers besides a work: what a thing is called ("nicknamed "The
# Boz""). Not any name: a song's title in quotes is no language nor heritage.
_NAMING_HEADS = frozenset({"name", "nickname", "title", "alias", "moniker", "pseudonym"})
_QUOTE_MARK = re.compile(r"[\"“”]")
_QUOTED = re.compile(r"[\"“](?P<title>[^\"“”]{1,80})[\"”]")
_QUOTE_JOINS = re.compile(r"^\s*[,;:]|[,;]\s*$|^\s*(?:and|or|as well as)\b")  # between quotes
# A rank ("the 23rd-highest peak") or "one of" many is no amount.
_NO_AMOUNT = re.compile(r"\d+(?:st|nd|rd|th)\b|(?i:one\s+of)\b")
# "a genus of a single species", "the only species in the genus": a count of one, read
# only where two counts are compared, since "only" is no number elsewhere.
_ONE = re.compile(r"\b(?:a|an|the|its)\s+(?P<one>single|only|sole)\b", re.I)
# How often a thing comes out, as times a year: "a monthly magazine", "published weekly".
_FREQUENCIES = {
    "daily": 365,
    "weekly": 52,
    "biweekly": 26,
    "fortnightly": 26,
    "semimonthly": 24,
    "monthly": 12,
    "bimonthly": 6,
    "quarterly": 4,
    "biannual": 2,
    "biannually": 2,
    "semiannual": 2,
    "semiannually": 2,
    "annual": 1,
    "annually": 1,
    "yearly": 1,
}
# Lower case: "Elm Weekly" is a name, and says nothing of how often it comes out.
_FREQUENCY = re.compile(
    r"\b(?:bi|semi)?-?(?:daily|weekly|fortnightly|monthly|quarterly|annual(?:ly)?|yearly)\b"
)
_OFTEN = re.compile(r"\b(?:often|frequently)\b", re.I)
# The heads of "what X?" that a people or a language answers.
_PEOPLES = frozenset(
    "people ethnicity ethnic group tribe nation descent ancestry heritage origin"
    " religion faith denomination party language dialect tongue".split()
)
# A number's scale word: "24 million".
SCALES = {"hundred": 100, "thousand": 1_000, "million": 10**6, "billion": 10**9, "trillion": 10**12}
# A value changed from: "changed from a weekly publication to a monthly one".
_FORMER = re.compile(r"\bfrom\s+(?:(?:a|an|the)\s+)?$", re.I)
_COUNT_WORDS = NUMBER_WORDS | {"single": 1, "only": 1, "sole": 1} | _FREQUENCIES | members.SIZES
# A comparative before the noun it measures: "a higher population", not "higher than".
_MEASURE_NAMED = re.compile(
    r"\b(?i:high|tall|clos|near)(?:er|est)\s+(?!(?:than|to|in|of|from|and|or|at)\b)[a-z]"
)
UNIT_WORDS = 3  # words after a number read for the unit it counts: "two studio albums"
_COUNTED = re.compile(rf"^(?:{_COUNT})")
_DATE = re.compile(
    r"\d{4}年\d{1,2}月\d{1,2}日|\d{4}-\d{2}-\d{2}|\d{1,2}\s?\S{2,12}\s\d{4}|\b\d{4}\b"
)
_HEADING = re.compile(r"^#")
_TERRITORY = re.compile(r"(?:,\s+[A-Z][\w'-]+\s+|\s+)of\s+[A-Z][\w'-]+(?:[\s-][A-Z][\w'-]+)*")
_WORD = re.compile(r"\w+")
# One year's edition of a thing, its year before the name: "the 2010 French Open".
EDITION = re.compile(r"^(?:the\s+)?(?P<year>\d{4}(?:[–-]\d{2,4})?)\s+(?=[A-Z])")
# What only a person does to a work, set before the doer's name.
_ONLY_PEOPLE = re.compile(
    r"\b(?:directed|written|composed|illustrated|painted|sculpted|choreographed)\s+by\s+$"
)
_VERB_BY = 24  # characters before a name that hold "choreographed by "
_PEOPLES_LABELS = frozenset({"NORP", "LANGUAGE"})  # "a Norwegian film": where it is from


@dataclass(frozen=True)
class Value:
    """A typed value inside a sentence: offsets into the sentence's text."""

    text: str
    start: int
    end: int


@dataclass
class Evidence:
    source: Source
    rank: int  # the source's place in retrieval order, from 0
    sentence: Sentence  # offsets into the hit's text
    offset: int  # where the hit's text starts in its document
    terms: frozenset[str]
    heading: frozenset[str]  # terms of the document's title and the section
    named: list[Named] = field(default_factory=list)  # offsets into the sentence
    read: bool = False  # whether `named` was read (the entity model runs on the best only)
    score: float = 0.0
    overlap: float = 0.0  # the question's weighted terms held, headings counting half
    own: float = 0.0  # held by the sentence itself
    # An Evidence serves one question, so its values of each type are read once.
    found: dict[AnswerType, list[Value]] = field(default_factory=dict, repr=False)

    @property
    def text(self) -> str:
        return self.sentence.text

    def entities_read(self, named: list[Named]) -> None:
        self.named, self.read = named, True
        self.found.clear()

    @property
    def span(self) -> QuoteSpan:
        start = self.offset + self.sentence.start
        end = self.offset + self.sentence.end
        return QuoteSpan(self.source.hit.document.id, "CHARS", start, end)


def in_sentence(named: list[Named], sentence: Sentence) -> list[Named]:
    """A passage's entities (offsets into the passage) that start in the sentence, in offsets
    into it. One that runs past its end is cut there, as the model reading the sentence alone
    would have cut it: "KKR & Co." of a passage the splitter broke after "Co."."""
    found = []
    for entity in named:
        if sentence.start <= entity.start < sentence.end:
            start = entity.start - sentence.start
            text = sentence.text[start : min(entity.end, sentence.end) - sentence.start].rstrip()
            found.append(Named(text, entity.label, start, start + len(text)))
    return found


def gather(sources: list[Source]) -> list[Evidence]:
    found: list[Evidence] = []
    for rank, source in enumerate(sources):
        hit = source.hit
        offset = next((s.start for s in hit.spans if s.unit == "CHARS"), 0)
        heading = frozenset(analyze(f"{hit.document.title} {hit.section or ''}"))
        for sentence in sentences(hit.text):
            terms = with_families(analyze(sentence.text))
            if len(terms) >= MIN_TERMS and not _HEADING.match(sentence.text):
                found.append(Evidence(source, rank, sentence, offset, terms, heading))
    return found


def weights(question: Question, pool: list[Evidence]) -> dict[str, float]:
    """Each content term of the question by its rarity among the retrieved sentences."""
    n = len(pool)
    return {
        t: math.log(1 + (n + 1) / (1 + sum(t in e.terms for e in pool))) for t in question.terms
    }


def overlap(
    terms: frozenset[str], weight: dict[str, float], heading: frozenset[str] = frozenset()
) -> float:
    total = sum(weight.values())
    held = sum(
        w if t in terms else HEADING_SHARE * w for t, w in weight.items() if t in terms | heading
    )
    return held / total if total else 0.0


def passage_overlap(pool: list[Evidence], question: Question) -> float:
    """The largest share of the question's weighted terms that one passage holds across
    its sentences (its title and section counting half)."""
    weight = weights(question, pool)
    terms: dict[str, set[str]] = {}
    headings = {e.source.ref: e.heading for e in pool}
    for evidence in pool:
        terms.setdefault(evidence.source.ref, set()).update(evidence.terms)
    held = (overlap(frozenset(t), weight, headings[ref]) for ref, t in terms.items())
    return max(held, default=0.0)


def score(pool: list[Evidence], question: Question, dense: list[float]) -> None:
    """Score every sentence in place; `dense` is each one's cosine to the question."""
    weight = weights(question, pool)
    for evidence, similarity in zip(pool, dense, strict=True):
        evidence.own = overlap(evidence.terms, weight)
        evidence.overlap = overlap(evidence.terms, weight, evidence.heading)
        typed = _typed(evidence, question)
        evidence.score = (
            evidence.overlap
            + DENSE_WEIGHT * similarity
            + TYPE_WEIGHT * typed
            + RANK_WEIGHT / (1 + evidence.rank)
        )


def _typed(evidence: Evidence, question: Question) -> bool:
    """Whether the sentence holds a value of the type asked for. Any name is too weak a
    sign for ENTITY: there the name must carry the question's head noun."""
    found = values(evidence, question, question.answer_type)
    if question.answer_type is AnswerType.ENTITY:
        head = question.kind_of or question.head
        return head is not None and any(shares_a_term(v.text, head) for v in found)
    return bool(found)


def values(evidence: Evidence, question: Question, wanted: AnswerType) -> list[Value]:
    """Values of the wanted type in the sentence that the question does not itself name,
    best first."""
    if wanted not in evidence.found:
        evidence.found[wanted] = _values(evidence, question, wanted)
    return evidence.found[wanted]


def _values(evidence: Evidence, question: Question, wanted: AnswerType) -> list[Value]:
    if wanted is AnswerType.NUMBER:
        return _numbers(evidence, question)
    if wanted is AnswerType.DATE:
        return _dates(evidence, question)
    labels = _labels(question, wanted)
    if labels is None:
        return []
    asked = question.text.casefold()
    named = [n for n in evidence.named if n.label in labels or _by_a_person(evidence, n, wanted)]
    found = [n for n in named if not named_in(n.text, asked)]
    # Read from the text, not the entity model: quoted titles, kinds ("water sprite").
    read = _quoted_titles(evidence, question, wanted)
    read += _kinds(evidence, question) if wanted is AnswerType.ENTITY else []
    read += _before_the_head(evidence, question, asked) + _numbered(evidence, question, asked)
    whole = _wholes(read + [_whole(evidence, n, question) for n in found])
    if wanted is AnswerType.PLACE and _is_lifespan(evidence):
        return _by_life_event(whole, question)
    terms = frozenset(question.terms)
    return sorted(
        whole,
        key=lambda v: (
            not names_the_head(v, question),
            not beside_the_head(evidence, v, question),
            v not in read,
            -nearness(evidence, v, terms),
        ),
    )


def _numbered(evidence: Evidence, question: Question, asked: str) -> list[Value]:
    """The numbers set right after the kind asked, which English names some things by:
    "44" of "on UHF channel 44" for "on what channel?"; not one the question gives."""
    if question.head is None:
        return []
    given = set(re.findall(r"\d+", asked))
    found = _numbered_after(question.head).finditer(evidence.text)
    numbers = (m for m in found if m.group("number") not in given)
    return [Value(m.group("number"), m.start("number"), m.end("number")) for m in numbers]


@memo(4_096)
def _numbered_after(head: str) -> re.Pattern[str]:
    """A number set right after the noun: read for every sentence of every answer."""
    return re.compile(rf"\b{re.escape(head)}s?\s+(?P<number>\d+)\b", re.I)


def _before_the_head(evidence: Evidence, question: Question, asked: str) -> list[Value]:
    """The capitalised names set right before the kind asked, which the entity model may
    label nothing: "the Downtown section" for "what section"; not a people's name, which
    says where the thing is from ("a Norwegian film")."""
    head, text = question.head, evidence.text
    if head is None:
        return []
    peoples = [(n.start, n.end) for n in evidence.named if n.label in _PEOPLES_LABELS]
    # from a letter, not a sentence's first word: "17th-busiest" is no name
    runs = (m for m in CAPITALISED_RUN.finditer(text) if m.start() > 0 and m.group()[0].isalpha())
    found = (Value(m.group(), m.start(), m.end()) for m in runs if set_before(text, m.end(), head))
    return [v for v in found if v.text.casefold() not in asked and not _within(v, peoples)]


def _within(value: Value, spans: list[tuple[int, int]]) -> bool:
    return any(start <= value.start and value.end <= end for start, end in spans)


def _by_a_person(evidence: Evidence, named: Named, wanted: AnswerType) -> bool:
    """A name the entity model took for an organisation where only a person can stand:
    "directed by Brad Silberling"."""
    if wanted is not AnswerType.PERSON or named.label != "ORG":
        return False
    window = max(0, named.start - _VERB_BY)
    return _ONLY_PEOPLE.search(evidence.text, window, named.start) is not None


def named_in(name: str, asked: str) -> bool:
    """Whether the question (`asked`, case folded) names the thing, or the thing of which
    the name is one year's edition: "the 2006 FIFA World Player of the Year" where it
    asks of the award."""
    bare = without_possessive(name)
    return bare.casefold() in asked or EDITION.sub("", bare).casefold() in asked


def unpossessed(name: str) -> str:
    """A name as the question would write it, case folded: "Katy Perry's" is Katy Perry."""
    return without_possessive(name).casefold()


@memo(4_096)
def name_pattern(name: str) -> re.Pattern[str]:
    """The name as whole words, in any case: "Don" is none in "Don't" or "Donna", though
    "Don's" names him."""
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w|['’](?!s\b)\w)", re.I)


def _kinds(evidence: Evidence, question: Question) -> list[Value]:
    """For "what type of sprite?", the kinds of sprite the sentence names: "water sprite"."""
    if question.kind_of is None:
        return []
    asked = question.text.casefold()
    return [Value(*k) for k in named_kinds(evidence.text, question.kind_of, asked)]


def _labels(question: Question, wanted: AnswerType) -> frozenset[str] | None:
    """The entity labels of the wanted type. A people ("American") or a language answers
    "what X?" only where X is such a thing: not "what position", "what kind of magazine"."""
    labels = LABELS.get(wanted)
    head = question.head
    if wanted is not AnswerType.ENTITY or head is None or head.removesuffix("s") in _PEOPLES:
        return labels
    return None if labels is None else labels - _PEOPLES_LABELS


def _quotable(question: Question, wanted: AnswerType) -> bool:
    naming = wanted is AnswerType.ENTITY and question.head in _NAMING_HEADS
    return wanted is AnswerType.WORK or naming


def _quoted_titles(evidence: Evidence, question: Question, wanted: AnswerType) -> list[Value]:
    """The titles a sentence sets in double quotes, as English sets a film's, a song's or a
    show's ("the HBO series "Game of Thrones"") and a nickname: a name, whatever the model
    labelled it. Where the question asks for neither, a title named as the kind it asks
    for: "a fanzine named "SKUM"" for "which fanzine"."""
    asked, quotable = question.text.casefold(), _quotable(question, wanted)
    found = []
    for match in _QUOTED.finditer(evidence.text):
        start = match.start("title")
        title = match.group("title").rstrip(" .,;:")
        if not title or title.casefold() in asked or _QUOTE_JOINS.search(title):
            continue
        value = Value(title, start, start + len(title))
        if quotable or beside_the_head(evidence, value, question):
            found.append(value)
    return found


def _whole(evidence: Evidence, named: Named, question: Question) -> Value:
    """The name with its parts; a name that carries the question's head noun is what was
    asked for as it stands ("Fairfax County" for "what county", not "Fairfax County,
    Virginia"), and so is a place asked for by its kind: "what city?" asks for
    "Summerlin", not the state after it. A person keeps the territory of their name
    whatever it holds."""
    if named.label != "PERSON" and (names_the_head(named, question) or _kind_of_place(question)):
        return _unquoted(Value(named.text, named.start, named.end))
    return _unquoted(_with_parts(evidence.text, named, evidence.named))


def _unquoted(value: Value) -> Value:
    """The name without a quote mark the entity model took from around it: the mark opens
    or closes a title that goes on beyond the name ("novel "Slaughterhouse-Five")."""
    text, start, end = value.text, value.start, value.end
    if len(_QUOTE_MARK.findall(text)) % 2 == 0:
        return value
    if _QUOTE_MARK.match(text):
        return Value(text[1:], start + 1, end)
    return Value(text[:-1], start, end - 1) if _QUOTE_MARK.match(text[-1]) else value


def _kind_of_place(question: Question) -> bool:
    return question.answer_type is AnswerType.PLACE and question.head is not None


def _wholes(found: list[Value]) -> list[Value]:
    """Values in sentence order, without the parts of an earlier one ("Oklahoma" of
    "Oklahoma City, Oklahoma")."""
    kept: list[Value] = []
    for value in sorted(found, key=lambda v: v.start):
        if not any(k.start <= value.start < k.end for k in kept):
            kept.append(value)
    return kept


def _is_lifespan(evidence: Evidence) -> bool:
    """A sentence with a birth and a death: "(21 August 1901 Oklahoma City – 7 April 1988
    Los Angeles)". Its places come in the order of the life."""
    dates = [n for n in evidence.named if n.label == "DATE"]
    ranged = any(_RANGE.search(n.text) for n in dates)
    return ranged or (len(dates) >= 2 and _RANGE.search(evidence.text) is not None)


def nearness(evidence: Evidence, named: Named | Value, terms: frozenset[str]) -> float:
    """How close a name stands to the given terms in the sentence: each word related to
    one of them counts 1 / (1 + the words between). "written by David Weissman" answers
    who wrote, though the director is named first. A bracket set right after the name is
    its own, as near as can be; another name's bracket counts for that name alone; a
    term in another clause stands further off."""
    words = list(_WORD.finditer(evidence.text))
    inside = [i for i, w in enumerate(words) if named.start <= w.start() < named.end]
    if not inside:
        return 0.0
    held = [i for i, w in enumerate(words) if i not in inside and _relates(w.group(), terms)]
    brackets = _brackets(evidence.text, named)
    governed = _after_a_preposition(words, inside[0])

    def between(i: int) -> int | None:
        own = _in_brackets(words[i].start(), brackets)
        if i > inside[-1] and governed and _leads_on(words, i):
            return None  # "… of the United States and headquartered in Manhattan"
        if own is None:
            span = (words[i].end(), named.start) if i < inside[0] else (named.end, words[i].start())
            broken = _CLAUSE_BREAK.search(evidence.text, *span) is not None
            return max(inside[0] - i, i - inside[-1]) - 1 + CLAUSE_GAP * broken
        return 0 if own else None

    gaps = (between(i) for i in held)
    return sum(1 / (1 + gap) for gap in gaps if gap is not None)


def _leads_on(words: list[re.Match[str]], i: int) -> bool:
    """Whether the word at i leads on to what follows it: "headquartered in"."""
    return i + 1 < len(words) and _LEADS_ON.fullmatch(words[i + 1].group()) is not None


def _after_a_preposition(words: list[re.Match[str]], i: int) -> bool:
    """Whether the word at i is governed by a preposition ("of the United States"): an
    object there, not the subject a later verb speaks of ("Ann Lee was born in …")."""
    before = [w.group().casefold() for w in words[max(0, i - 2) : i]]
    if before and before[-1] in ("the", "a", "an"):
        before = before[:-1]
    return bool(before) and _GOVERNS.fullmatch(before[-1]) is not None


_BRACKET = re.compile(r"\([^()]*\)")
# A term followed by one of these speaks of what comes after it, not of a name before it.
_LEADS_ON = re.compile(r"in|at|on|from|by|near|into", re.I)
_GOVERNS = re.compile(r"of|in|at|on|from|by|for|to|with|near|into")
# Another clause: "married in 1685, but died in 1692" dates no death by 1685.
_CLAUSE_BREAK = re.compile(r",\s+(?:but|while|whereas|although|though)\b|;")


def _brackets(text: str, named: Named | Value) -> list[tuple[int, int, bool]]:
    """The sentence's brackets that do not hold the name, each with whether it is the
    name's own: set right after it ("Gary Lightbody (vocals, guitar)"). Another's
    bracket speaks of another thing."""
    return [
        (start, end, start >= named.end and not text[named.end : start].strip())
        for start, end in _bracket_spans(text)
        if not start <= named.start < end
    ]


# Read for every name of a sentence, and the names are sorted by it.
@memo(65_536)
def _bracket_spans(text: str) -> tuple[tuple[int, int], ...]:
    return tuple(match.span() for match in _BRACKET.finditer(text))


def _in_brackets(at: int, brackets: list[tuple[int, int, bool]]) -> bool | None:
    """Whether the offset is in the name's own bracket, in another's, or (None) in none."""
    return next((own for start, end, own in brackets if start <= at < end), None)


def held_terms(evidence: Evidence, wanted: frozenset[str]) -> frozenset[str]:
    """The wanted terms the sentence, its title or its section holds, word families
    counting."""
    return related_terms(evidence.terms | evidence.heading, wanted)


def related_terms(terms: frozenset[str], wanted: frozenset[str]) -> frozenset[str]:
    """The wanted terms that one of `terms` matches or shares its first letters with."""
    return frozenset(w for w in wanted if any(_alike(w, t) for t in terms))


# Both are pure and asked about the same few words again and again: a question's terms
# against every word of its evidence (a million comparisons for 120 questions, profiled).
@memo(65_536)
def _relates(word: str, wanted: frozenset[str]) -> bool:
    return any(_alike(t, w) for t in analyze(word) for w in wanted)


@memo(65_536)
def _alike(a: str, b: str) -> bool:
    """One stem, one event ("died" and "death"), or one word family by its first five
    letters: direct and director, perform and performer (the stemmer keeps agent nouns
    apart)."""
    alike = family(a) == family(b) or b in _unmarked(a) or a in _unmarked(b)
    return alike or (min(len(a), len(b)) >= PREFIX and a[:PREFIX] == b[:PREFIX])


def _unmarked(term: str) -> tuple[str, ...]:
    """The forms a feminine noun has without its ending, as stems: actress → actor,
    hostess → host, princess → princ."""
    if not term.endswith("ess"):
        return ()
    return (term[:-3], term[:-4] + "or") if term.endswith("ress") else (term[:-3],)


def names_the_head(named: Named | Value, question: Question) -> bool:
    """ "Fairfax County" answers "what county" before any other place does."""
    return question.head is not None and shares_a_term(named.text, question.head)


def beside_the_head(evidence: Evidence, named: Named | Value, question: Question) -> bool:
    """ "musician George Harrison" answers "which musician" before any other name does."""
    if question.head is None:
        return False
    place = question.answer_type is AnswerType.PLACE
    text, head = evidence.text, question.head
    return set_beside(text, named.start, head, place) or set_before(text, named.end, head)


def shares_a_term(text: str, other: str) -> bool:
    """Whether two texts share an analyzer term."""
    return bool(set(analyze(other)) & set(analyze(text)))


def _with_parts(text: str, named: Named, everything: list[Named]) -> Value:
    """A place with the places that qualify it after commas: "Montreal, Quebec"; a person
    with the territory of their name or title: "Eleanor of Arborea", "Prince George, Duke
    of Kent"."""
    end = named.end
    # People after commas are a list ("Nicol Williamson, Derek Jacobi"), not one name.
    qualifiers = [] if named.label == "PERSON" else everything
    for other in sorted(qualifiers, key=lambda n: n.start):
        if other.start > end and other.label == named.label and text[end : other.start] == ", ":
            end = other.end
    territory = _TERRITORY.match(text, end) if named.label == "PERSON" else None
    end = territory.end() if territory else end
    return Value(text[named.start : end], named.start, end)


def _numbers(evidence: Evidence, question: Question) -> list[Value]:
    text = evidence.text
    if _compares_frequency(question):
        found = [Value(m.group(), m.start(), m.end()) for m in _FREQUENCY.finditer(text)]
        return sorted(found, key=lambda v: _FORMER.search(text, 0, v.start) is not None)
    asked = set(re.findall(r"\d+", question.text))
    dated = _dated_points(evidence)
    found = [
        Value(m.group().strip(), m.start(), m.end())
        for m in _NUMBER.finditer(text)
        if not set(re.findall(r"\d+", m.group())) & asked
        and not _NO_AMOUNT.match(m.group())
        and not any(start <= m.start() < end for start, end in dated)
    ]
    wanted = frozenset(question.terms)
    measures = _measures(question)

    def near(value: Value) -> int:
        """The question's terms around the number, word families counting ("highest" for
        "higher")."""
        window = text[max(0, value.start - NUMBER_WINDOW) : value.end + NUMBER_WINDOW]
        return len(related_terms(frozenset(analyze(window)), wanted))

    def counts_the_unit(value: Value) -> bool:
        """The unit read with the number ("25日", "two studio") or the words after it."""
        own = _COUNTED.sub("", value.text, count=1)
        # "twice won the Academy Award": a count of times counts its verb's object
        reach = UNIT_WORDS + (2 if value.text.split()[0].casefold() in _TIMES else 0)
        after = " ".join(text[value.end :].split()[: reach - len(own.split())])
        own_units = analyze(own)
        if measures.intersection(own_units):
            return True
        return question.unit is not None and question.unit in [*own_units, *analyze(after)]

    compared = _counts(question)
    if compared:
        found += [Value(m.group("one"), m.start("one"), m.end("one")) for m in _ONE.finditer(text)]
    counting = {v.start: counts_the_unit(v) for v in found}
    ranked = sorted(found, key=lambda v: (not counting[v.start], -near(v)))
    if compared or measures:
        counted = [v for v in ranked if counting[v.start]]
        return counted if counted or question.unit != members.UNIT else _members(evidence)
    return [v for v in ranked if near(v) > 0 or counting[v.start]]


def _dated_points(evidence: Evidence) -> list[tuple[int, int]]:
    """Where the entity model read a date that names a year ("opened in 2000", "May
    1983"): a number there is a point in time, no amount. "18 years" names none."""
    return [(n.start, n.end) for n in evidence.named if n.label == "DATE" and _is_when(n)]


def _members(evidence: Evidence) -> list[Value]:
    """A group's size where a sentence gives no number of members: a word for its size
    ("a duo", "a three-piece"), else the people it introduces as members, a count not in
    the text."""
    stated = [Value(*size) for size in members.sizes(evidence.text)]
    listed = members.listed(evidence.text, evidence.named)
    return stated or ([Value(str(listed), 0, 0)] if listed else [])


def _compares_frequency(question: Question) -> bool:
    """ "Which magazine is published more often, A or B?": a weekly beats a monthly."""
    return _compares_amounts(question) and _OFTEN.search(question.text) is not None


def _compares_amounts(question: Question) -> bool:
    comparison = question.comparison
    return comparison is not None and comparison.prefer in (Prefer.MORE, Prefer.LESS)


def _measures(question: Question) -> frozenset[str]:
    """The units of the measure two amounts are compared by, when the comparative names
    none other: "which stands higher?" is a height, "a higher population" is not."""
    if not _compares_amounts(question) or _MEASURE_NAMED.search(question.text):
        return frozenset()
    return units_of(question.terms)


def _not_dated_by(question: Question) -> str:
    """The words of the question no date of the answer is, case folded: all of them, but
    where it asks which side came first or last only the sides' names ("INC-2041"). A date
    it gives then qualifies both sides ("which 1970s film was released first?"), and a
    side's own date may be that one."""
    comparison = question.comparison
    if comparison is not None and comparison.prefer in (Prefer.EARLIER, Prefer.LATER):
        return " ".join(comparison.sides).casefold()
    return question.text.casefold()


def _counts(question: Question) -> bool:
    """Whether the question compares two counts of a thing it names ("which genus has
    more species"): then only a number of that thing answers for a side."""
    return _compares_amounts(question) and question.unit is not None


def count_of(text: str) -> float | None:
    """The number a value holds, in digits or as an English number word."""
    digits = re.search(_DIGITS, text)
    if digits is not None:
        scale = SCALES.get(text[digits.end() :].strip().casefold(), 1)
        return float(digits.group().replace(",", "")) * scale
    word = text.split()[0].casefold().replace("-", "") if text.split() else ""
    return float(_COUNT_WORDS[word]) if word in _COUNT_WORDS else None


_RANGE = re.compile(r"\s*[–—-]\s*")
# A question asks of a birth or a death in lower case: "Waking the Dead" names a film.
_BIRTH = re.compile(r"\b(born|birth|birthday|birthdate)\b")
_DEATH = re.compile(r"\b(die|died|dies|death|dead|killed)\b")


def _ends_of_a_span(named: Named) -> list[Named]:
    """A date range ("2 February 1886 – 10 August 1960") as its two ends."""
    cut = _RANGE.search(named.text)
    if named.label != "DATE" or cut is None:
        return [named]
    first, second = named.text[: cut.start()], named.text[cut.end() :]
    return [
        Named(first, "DATE", named.start, named.start + len(first)),
        Named(second, "DATE", named.start + cut.end(), named.end),
    ]


# "Until when …?" and "… ended when?" ask for the date that ends a span: "from 1939 until
# 1943", "1848–1859".
_ASKS_END = re.compile(r"\b(?:until|till|end(?:ed|s)?|finish(?:ed|es)?|conclud(?:ed|es))\b", re.I)
_ENDS_A_SPAN = re.compile(r"(?:\b(?:until|till|through|to)|[–—-])\s*$", re.I)
# "When was it formed?" and "Which began first?" ask for the date that opens a span: "active
# from 1980 to 2009", "1848–1859".
_ASKS_START = re.compile(
    r"\b(?:form(?:ed|s|ation)?|found(?:ed|s|ing|ation)?|establish(?:ed|es|ment)?|begin|began"
    r"|begun|beginnings?|start(?:ed|s)?|open(?:ed|s)?|creat(?:ed|es|ion)|launch(?:ed|es)?"
    r"|debut(?:ed|s)?)\b",
    re.I,
)
_OPENS_A_SPAN = re.compile(r"\s*(?:[–—-]|(?:to|until|till|through)\b)", re.I)
_FULL_DATE = re.compile(
    r"\b\d{1,2}\s+[A-Z][a-z]+\.?\s+\d{3,4}\b|\b[A-Z][a-z]+\.?\s+\d{1,2},\s*\d{3,4}\b"
)


def _widened(text: str, value: Value) -> Value:
    """A date the entity model cut short ("August 1960" of "10 August 1960"), whole."""
    for match in _FULL_DATE.finditer(text):
        overlaps = match.start() < value.end and value.start < match.end()
        if overlaps and match.end() - match.start() > value.end - value.start:
            return Value(match.group(), match.start(), match.end())
    return value


def _by_life_event(found: list[Value], question: Question) -> list[Value]:
    """Of a lifespan's two dates, the first two the sentence names, a question about a death
    or an end wants the later one; dates named after them come last still."""
    later = _DEATH.search(question.text) or _ASKS_END.search(question.text)
    return [found[1], found[0], *found[2:]] if later and len(found) > 1 else found


_BORN_BEFORE = re.compile(r"\b(?:born|b\.)\s+(?:(?:c\.|ca\.|circa|in|on)\s+)?$", re.I)
_DIED_BEFORE = re.compile(r"\b(?:died|d\.)\s+(?:(?:c\.|ca\.|circa|in|on)\s+)?$", re.I)


def _of_the_event(text: str, found: list[Value], question: Question) -> list[Value]:
    """Without the dates the sentence marks as the other end of a life, when the question
    asks of one end alone: "(died 1980)" gives no birth date."""
    birth, death = _BIRTH.search(question.text), _DEATH.search(question.text)
    if bool(birth) == bool(death):
        return found
    other = _DIED_BEFORE if birth else _BORN_BEFORE
    return [v for v in found if not other.search(text, max(0, v.start - 16), v.start)]


def _is_when(named: Named) -> bool:
    """A point in time: a date that names its year, or a time of day (not "30 days")."""
    if named.label == "TIME":
        return bool(re.search(r"\d", named.text))
    return named.label == "DATE" and parse_date(named.text) is not None


def _dates(evidence: Evidence, question: Question) -> list[Value]:
    asked = _not_dated_by(question)
    parts = [p for n in evidence.named for p in _ends_of_a_span(n)]
    named = [
        Value(p.text, p.start, p.end)
        for p in parts
        if _is_when(p) and p.text.casefold() not in asked
    ]
    if named:
        found = _of_the_event(evidence.text, [_widened(evidence.text, v) for v in named], question)
        if _is_lifespan(evidence):
            return _by_life_event(found, question)
        terms = frozenset(question.terms)
        ending = _ASKS_END.search(question.text) is not None
        starting = not ending and _ASKS_START.search(question.text) is not None
        return sorted(
            found,
            key=lambda v: (
                ending and not _ENDS_A_SPAN.search(evidence.text, 0, v.start),
                starting and not _OPENS_A_SPAN.match(evidence.text, v.end),
                -nearness(evidence, v, terms),
            ),
        )
    read = [
        Value(m.group(), m.start(), m.end())
        for m in _DATE.finditer(evidence.text)
        if m.group().casefold() not in asked
    ]
    return _by_life_event(read, question) if _life_s_ends(evidence.text, read) else read


def _life_s_ends(text: str, found: list[Value]) -> bool:
    """Whether the two dates read stand in the sentence's first brackets, a life's ends
    whose dash the entity model lost ("(14 August 193322 November 2012)")."""
    return len(found) == 2 and len(in_first_brackets(text, found)) == 2


def in_first_brackets(text: str, found: list[Value]) -> list[Value]:
    """The values inside the text's first brackets."""
    opened = text.find("(")
    closed = text.find(")", opened)
    if opened < 0 or closed < 0:
        return []
    return [v for v in found if opened < v.start and v.end <= closed]
