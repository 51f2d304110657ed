"""What a question asks for, read from its wording: the type of the answer (a person, a
date, a place, a number), and for a comparison its two sides and which value wins.

The cues are the question words of each language (English, Hebrew, Japanese), never the
templates of a dataset. A question without a cue asks for a passage, not a short answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum

from app.answers.events import family
from ingest.analyzer import analyze


class AnswerType(StrEnum):
    PERSON = "PERSON"
    DATE = "DATE"
    PLACE = "PLACE"
    NUMBER = "NUMBER"
    ORGANISATION = "ORGANISATION"
    NATIONALITY = "NATIONALITY"
    WORK = "WORK"  # a film, a book, a song, a series
    EVENT = "EVENT"
    ENTITY = "ENTITY"  # "what X" of an X no type covers: any name but a date or number
    YES_NO = "YES_NO"
    ANY = "ANY"


class Prefer(StrEnum):
    EARLIER = "EARLIER"
    LATER = "LATER"
    MORE = "MORE"
    LESS = "LESS"
    SAME = "SAME"  # a yes or no: do the two sides share the value?
    BOTH = "BOTH"  # a yes or no: does each side have the property the question names?
    HOLDS = "HOLDS"  # which side has the property the question names?
    SHARED = "SHARED"  # what do the two sides have in common?


# spaCy labels that can answer each type.
LABELS: dict[AnswerType, frozenset[str]] = {
    AnswerType.PERSON: frozenset({"PERSON"}),
    AnswerType.DATE: frozenset({"DATE"}),
    AnswerType.PLACE: frozenset({"GPE", "LOC", "FAC"}),
    AnswerType.ORGANISATION: frozenset({"ORG"}),
    AnswerType.NATIONALITY: frozenset({"NORP", "GPE"}),
    AnswerType.WORK: frozenset({"WORK_OF_ART", "PRODUCT", "ORG"}),
    AnswerType.EVENT: frozenset({"EVENT"}),
    AnswerType.ENTITY: frozenset(
        {"PERSON", "ORG", "GPE", "LOC", "FAC", "WORK_OF_ART", "EVENT", "PRODUCT", "NORP", "LAW"}
        | {"LANGUAGE"}
    ),
}

# The head noun of "what X" / "which X" says what X is: general English nouns, by kind.
_KINDS: dict[AnswerType, str] = {
    AnswerType.PERSON: (
        "actor actress artist athlete author bassist boxer captain cartoonist chef coach"
        " comedian composer conductor dancer designer director drummer economist editor"
        " emperor engineer explorer filmmaker footballer founder general guitarist host"
        " illustrator inventor journalist judge king lawyer leader lyricist man manager"
        " mathematician member model monarch musician novelist painter performer person philosopher"
        " photographer physicist pianist pilot player poet politician president priest"
        " prince princess producer professor queen rapper ruler saint scientist screenwriter"
        " sculptor senator singer soldier songwriter star writer woman wrestler"
        " astronaut champion essayist governor heir"
    ),
    AnswerType.PLACE: (
        "airport area borough capital city continent country county district island lake"
        " location mountain municipality nation neighborhood neighbourhood park peninsula"
        " province region river sea state suburb territory town valley village"
        " arena bridge building canal castle cathedral church hotel museum stadium station"
        " venue birthplace hometown headquarters mall palace resort road site square street"
        " track"
    ),
    AnswerType.ORGANISATION: (
        "agency airline band brand business church club college company conference"
        " corporation firm franchise group label league network newspaper organisation"
        " organization party publisher school studio team university army retailer"
        " broadcaster"
    ),
    AnswerType.WORK: (
        "album book comic film game magazine movie musical novel opera painting play poem"
        " programme program series show single sitcom song"
    ),
    AnswerType.EVENT: "battle championship competition election event festival tournament war",
    AnswerType.DATE: "birthday birthdate",
    AnswerType.NUMBER: (
        "age amount capacity count distance height length number population size total weight"
    ),
}
_HEAD_KIND = {noun: kind for kind, nouns in _KINDS.items() for noun in nouns.split()}
# The people a work or a group is related to by their role: "the director of the film".
_ROLES = frozenset(_KINDS[AnswerType.PERSON].split()) - {
    "man",
    "woman",
    "person",
    "member",
    "star",
    "model",
    "general",
    "saint",
    "leader",
}
_KIN = frozenset("father mother husband wife spouse child son daughter brother sister".split())
# "the director of film X" (the nearest the thing last), "X's father's wife" (first).
_ROLE_OF = re.compile(r"\bthe\s+(?P<role>[a-z]+)\s+of\s+(?!(?:what|which|whom?)\b)")
_ROLE_OWNED = re.compile(r"'s\s+(?P<role>[a-z]+)\b")
# Kinship words that name a chain of kin, by their English definitions.
_COMPOUNDS: dict[str, tuple[str, ...]] = {
    "paternal grandfather": ("father", "father"),
    "paternal grandmother": ("father", "mother"),
    "maternal grandfather": ("mother", "father"),
    "maternal grandmother": ("mother", "mother"),
    "father in law": ("spouse", "father"),
    "mother in law": ("spouse", "mother"),
    "son in law": ("child", "husband"),
    "daughter in law": ("child", "wife"),
    "child in law": ("child", "spouse"),
    "stepmother": ("father", "wife"),
    "stepfather": ("mother", "husband"),
}
_COMPOUND_KIN = re.compile(
    r"(?:\bthe\s+|'s\s+)(?P<kin>(?:paternal|maternal)\s+grand(?:father|mother)"
    r"|(?:father|mother|son|daughter|child)-in-law|step(?:mother|father))\b",
    re.I,
)
_ROLE = re.compile(r"\b(?:the|whose|their|its|both)\s+(?P<words>[a-z]+(?:\s+[a-z]+)?)")
_NAME_OF = r"(?:the\s+)?(?:(?:name|title)\s+(?:of|for)\s+(?:the\s+|an?\s+)?)?"
_WH_PHRASE = re.compile(
    rf"\b(?:what|which)(?:['’]s\s+{_NAME_OF}|\s+(?:(?:is|was|are|were)\s+{_NAME_OF}"
    r"|of\s+(?:the\s+)?)?)"
    r"(?P<words>(?:[\w'-]+,?\s+){0,5}[\w'-]+)",
    re.I,
)
# A "what" inside the question that asks where no phrase or cue does: "… manages what
# in the UK?", "… formerly known as what?"
_WHAT = re.compile(
    r"\S\s+what\b", re.I
)  # not the first word: "What does it cover?" asks for a passage
# A quiz's "this X" where a question has no question word: "… worked with this gospel
# singer born in July?"
_THIS_PHRASE = re.compile(r"\bthis\s+(?P<words>(?:[\w'-]+,?\s+){0,5}[\w'-]+)", re.I)
_OF_WHAT = re.compile(
    r"\b(?P<noun>[a-z][\w'-]*)\s+of\s+what\b(?=\s*(?:\?|$|(?:in|on|at|by|for|from|as)\b))",
    re.I,
)
_DETERMINERS = frozenset({"the", "a", "an"})
_DEMONSTRATIVES = frozenset({"these", "those", "this", "that"})
# Past participles not in -ed: "what surfer born in 1992", "what essayist best known for".
PARTICIPLES = frozenset(
    "born known written made held built sold drawn shown given taken broadcast led won".split()
)
_BEFORE_PARTICIPLES = frozenset({"best", "well", "most", "first", "later"})
_PHRASE_ENDS = frozenset(
    "is was are were be been did does do has had have can could will would may might"
    " of in on at to from for by with that which who who's whom whose where when as and or".split()
)

# Nouns that, before "of", ask for a class of the next noun's things, not for a thing of
# their own kind: "what group of plants" asks for "flowering plants", no organisation. A
# definition's "a genus of flowering plants" uses them too (app/answers/shared.py).
CLASS_NOUNS = frozenset("group kind type class family genus species breed variety".split())
_CLASSES = CLASS_NOUNS | {"sort"}
# "What type of sprite?": a kind of the noun, named by the words before it in a sentence.
_KIND_OF = re.compile(
    r"\b(?:what|which|this)\s+(?:kind|type|sort|class|variety)\s+of\s+(?P<noun>[a-z][\w-]*)", re.I
)

_CUES: tuple[tuple[re.Pattern[str], AnswerType], ...] = (
    (
        re.compile(r"\b(how (many|much|long|old|far)|what (number|percentage|amount))\b", re.I),
        AnswerType.NUMBER,
    ),
    (
        re.compile(r"\b(when|(what|which) (year|date|day|month)|(date|year) of)\b", re.I),
        AnswerType.DATE,
    ),
    (re.compile(r"\b(who|whom|whose)\b", re.I), AnswerType.PERSON),
    # "Where did she study?", "Where does he work?": at a school or an employer, not a
    # place; not "where is the company that she worked for", a relative clause's verb.
    (
        re.compile(
            r"\bwhere\s+(?:did|does|do|was|is|were|has|had)\s+"
            r"(?:(?!\b(?:that|who|which|whom)\b)[^?])*?\b(?:stud(?:y|ied|ies)|work(?:s|ed)?"
            r"|teach(?:es)?|taught|educated|graduated?|attend(?:s|ed)?|employed|trained)\b",
            re.I,
        ),
        AnswerType.ORGANISATION,
    ),
    (
        re.compile(r"\b(where|(what|which) (country|city|place|town)|place of)\b", re.I),
        AnswerType.PLACE,
    ),
    (
        re.compile(r"\b(which|what) (company|organi[sz]ation|team|firm)\b", re.I),
        AnswerType.ORGANISATION,
    ),
    (
        re.compile(
            r"\bnationality\b|\b(?:what|which) citizen(?:ship)?\b|\bwhich country\b.*\bfrom\b", re.I
        ),
        AnswerType.NATIONALITY,
    ),
    (
        re.compile(r"^\s*(is|are|was|were|do|does|did|can|could|has|have|had|will)\b", re.I),
        AnswerType.YES_NO,
    ),
    (re.compile(r"כמה"), AnswerType.NUMBER),
    (re.compile(r"מתי|באיזו שנה|באיזה תאריך"), AnswerType.DATE),
    (re.compile(r"(^|\s)(מי|מיהו|מיהי)(\s|$|\?)"), AnswerType.PERSON),
    (re.compile(r"איפה|היכן|לאן"), AnswerType.PLACE),
    (re.compile(r"何[日人件回年歳個本%]|いくつ|どのくらい|何パーセント"), AnswerType.NUMBER),
    (re.compile(r"いつ|何年|何月"), AnswerType.DATE),
    (re.compile(r"誰|だれ|どなた"), AnswerType.PERSON),
    (re.compile(r"どこ"), AnswerType.PLACE),
)
# "Who has written more than 300 papers, A or B?" sets a threshold, which one side holds.
_THRESHOLD = r"(?!\s+than\s+\d)"
# A rank is better the smaller its number: "the best singles ranking" is No. 7 over No. 51.
_RANKING = re.compile(
    r"\b(?:(?P<way>best|better|highest|higher|top|worst|worse|lowest|lower)[\s-]+(?:[\w-]+\s+){0,2}"
    r"(?:rank(?:ing|ed)?|seed(?:ed|ing)?)|(?:rank|seed)(?:ed|s)?\s+(?P<after>higher|better|"
    r"lower|worse))\b",
    re.I,
)
_WORSE = frozenset({"worst", "worse", "lowest", "lower"})
_PREFER: tuple[tuple[re.Pattern[str], Prefer], ...] = (
    # "before retiring to bed" is when a thing is done, not which came first; nor is "the
    # first Russian composer to make a lasting impression", a distinction one side holds.
    (
        re.compile(
            r"\b(first(?!\s+(?:[\w-]+\s+){1,3}to\s)|earlier|earliest|before(?!\s+\w+ing\b)"
            r"|older|oldest|sooner)\b",
            re.I,
        ),
        Prefer.EARLIER,
    ),
    (
        re.compile(
            r"\b(last|later|latest|after|younger|youngest|newer|newest"
            r"|(?:more|most) recent(ly)?)\b",
            re.I,
        ),
        Prefer.LATER,
    ),
    (
        re.compile(
            rf"\b(more{_THRESHOLD}|most|larger|largest|bigger|biggest|higher|highest|longer"
            r"|longest|taller|tallest|greater|greatest|heavier|heaviest|wider|widest|deeper"
            r"|deepest|busier|busiest)\b",
            re.I,
        ),
        Prefer.MORE,
    ),
    (
        re.compile(
            rf"\b(fewer{_THRESHOLD}|less{_THRESHOLD}|least|smaller|smallest|lower|lowest"
            r"|shorter|shortest|narrower|narrowest|shallower|shallowest|closer|closest|nearer"
            r"|nearest)\b",
            re.I,
        ),
        Prefer.LESS,
    ),
    (re.compile(r"קודם|ראשון|מוקדם"), Prefer.EARLIER),
    (re.compile(r"מאוחר|אחרון"), Prefer.LATER),
    (re.compile(r"先に|早い|最初"), Prefer.EARLIER),
    (re.compile(r"後に|遅い|最後"), Prefer.LATER),
)
# Two sides at the end of the question, after a comma, a colon, "between" or "out of".
_AT_THE_END = (
    r"(?:,|:|--|—|\bbetween|\bout of)\s*(?P<a>[^,?]+?),?\s+{joined}\s+(?P<b>[^,?]+?)\s*\??\s*$"
)
_PARTICLE = r"(?:of|the|de|del|der|du|da|la|le|van|von|ul|al|bin|ibn)"
_SIDES = (
    # Set off by commas inside the question: "Which novelist, J. G. Farrell or Louis
    # Aragon, wrote of …?"
    re.compile(r",\s*(?P<a>[^,?]+?)\s+or\s+(?P<b>[^,?]+?)\s*,"),
    # Opening the question: "Between A and B, which filmmaker …?", "In between A and B
    # which one …?"
    re.compile(
        r"^\s*(?:in\s+)?between\s+(?P<a>[^,?]+?)\s+and\s+(?P<b>[^,?]+?)"
        r"\s*(?:,|\s(?=(?:which|who|what)\b))",
        re.I,
    ),
    # "or" splits before "and" does: "Bedknobs and Broomsticks or The Muppet Christmas Carol"
    re.compile(_AT_THE_END.format(joined="or"), re.I),
    re.compile(_AT_THE_END.format(joined="(?:or|and)"), re.I),
    # "Who is younger Keith Bostic or Jerry Glanville?": the capitalised run before "or",
    # with the small words a name holds ("Band of Skulls", "Mahbub ul Haq")
    re.compile(
        rf"(?P<a>(?:[A-Z0-9][\w'.&-]*\s+(?:{_PARTICLE}\s+)?)*?[A-Z0-9][\w'.&-]*)"
        r"\s+or\s+(?:the\s+)?(?P<b>[A-Z0-9][^,?]*?)\s*\?\s*$"
    ),
    re.compile(r"(?P<a>[^\s,]+)\s+או\s+(?P<b>[^\s?]+)"),
    re.compile(r"(?P<a>[^\s、,]+?)(?:と|か)(?P<b>[^\s、,]+?)(?:の|では|は|、|,)"),
)
# "Were A and B of the same nationality?", "Are A and B located in the same country?"
_SAME = re.compile(
    r"^\s*(?:are|were|is|was|do|does|did)\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)\s+same\s+(?P<what>\w+)",
    re.I,
)
_SAME_VALUE = (
    (re.compile(r"nationality|country|countries", re.I), AnswerType.NATIONALITY),
    (re.compile(r"place|city|town|neighbo|location|state|region", re.I), AnswerType.PLACE),
    (re.compile(r"year|date|day", re.I), AnswerType.DATE),
)
# "Are Local H and For Against both from the United States?", "Are both Cypress and Ajuga
# genera?": a yes/no question about two names (capitalised runs) joined by "and".
_PAIR = re.compile(
    r"^\s*(?i:are|were|is|was|do|does|did|can|could|have|has|had)\s+(?:(?i:both)\s+)?"
    r"(?P<a>.+?),?\s+and\s+(?:the\s+)?(?P<b>\"[^\"]+\"|[A-Z0-9][\w'.&-]*"
    r"(?:\s+(?:[A-Z0-9(][\w'.&()-]*|(?:of|the|de|by|in|on|for|and)"
    r"(?=(?:\s+(?:of|the|de|by|in|on|for|and))*\s+[A-Z0-9])))*)"
)
# "What occupation do A and B share?", "A and B are both what?": two names (capitalised
# runs, or quoted) joined by "and", in a question that asks what they have in common.
_SHARED = re.compile(r"\b(?:both|in common|share[sd]?)\b", re.I)
_ONE_OF = re.compile(r"\bwhich (?:one|of)\b", re.I)  # "which of these …": a choice
CAPITALISED = r"[A-Z0-9\u00c0-\u00de][\w'.&!-]*"
CAPITALISED_RUN = re.compile(rf"(?<!\w)(?:{CAPITALISED} )*{CAPITALISED}")  # capitalised words
_NAME = rf"\"[^\"]+\"|{CAPITALISED}(?:\s+(?:(?:of|the|de|in|on)\s+)*{CAPITALISED})*"
_NAMED_PAIR = re.compile(  # a year in brackets after a name is no part of it
    rf"(?P<a>{_NAME})(?:\s+\([^)]*\))?,?\s+and\s+(?:the\s+)?(?P<b>{_NAME})"
)
_BOTH = re.compile(r"^(?i:both)\s+")
_LIFESPAN = re.compile(
    r"\blived\s+(?:a\s+)?(?:long|short)|\b(?:long|short)(?:er|est)\s+li(?:fe|ves)\b", re.I
)
# "Which battle lasted longer?", "Which satellite was operational for longer?".
_DURATION = re.compile(
    r"\b(?:lasted|lasting|operational|in\s+(?:operation|service)|existed|reigned)\b"
    r"[^?,]*?\b(?:long|short)(?:er|est)\b",
    re.I,
)
# "Who has more scope of profession?", "… had more diverse roles?": how many occupations
# each side is defined by. Roles alone may be parts played, so only varied ones count.
_OCCUPATIONS = re.compile(
    r"\b(?:more|most|fewer|less)\b[^,?]*?\b(?:(?:professions?|occupations?|jobs?|careers?)"
    r"|(?:diverse|varied|different)\s+roles)\b",
    re.I,
)
# "Rob Zombie's band White Zombie": the thing is the name after its owner and its kind.
_OWNER = re.compile(r"^(?:[A-Z][\w.-]*\s+){0,3}[A-Z][\w.-]*['’]s\s+(?:[a-z]+\s+){1,2}(?=[A-Z0-9])")
_ARTICLE = re.compile(r"^(?:the|a|an)\s+")  # lower case: "The Mask" keeps its article
_LEADING = re.compile(r"^(?:[a-z]+,?\s+)+")  # "both movies, ", "the drinks "
_TRAILING = re.compile(r"(?:,?\s+[a-z]+)+,?$")  # " have the directors from the"
# "Was Angus Wagner or Juan Carlos Falcón born first?": the verb that opens the question is
# not part of the first side, nor "born first" of the second (lower case, after the name).
_OPENING_VERBS = "is|are|was|were|do|does|did|has|have|had"
_AUXILIARY = re.compile(rf"^(?i:{_OPENING_VERBS})\s+(?:the\s+)?(?=[A-Z0-9])")
# Two lower-case words open a clause, not a name: "…, alongside fellow actors A and B?"
_A_CLAUSE = re.compile(r"[a-z]+\s+[a-z]+\s")
# Lower case only: a title may hold the word ("Dr. Who and the Daleks").
_ASKING = re.compile(r"\b(?:what|which|who|whom|whose|where|when|how)\b")
_NOT_A_SIDE = re.compile(rf"{_ASKING.pattern}|^(?:{_OPENING_VERBS}|can|could|will|would)\b")
# The words of how a question asks, which name nothing asked: its question words, its
# verbs of being and coming, and "also" ("Who was also an actor?" asks for an actor).
_QUESTION_WORDS = frozenset(
    analyze(
        "who whom whose what which when where why how many much long old far first earlier"
        " later last more less or and between did does do was were is are came come also"
        " כמה מי מיהו מתי איפה היכן איזה איזו או קודם"
    )
)
_UNITS = (
    re.compile(r"\bhow (?:many|much)\s+(?:\w+\s+)??(\w+)", re.I),
    # What two counts compare: the last word of the phrase after "more" ("more studio
    # albums, A or B?"), which ends at a comma, a name or a preposition.
    re.compile(
        r"\b(?:more|most|fewer|less|least)\s+(?:[a-z']+\s+)*?([a-z]+)"
        r"(?=\s*[,?:]|\s+(?:or|than|in|of|with|for|on|at|to|by|between|among)\b|\s+[A-Z])"
    ),
    re.compile(r"כמה\s+(\S+)"),
    re.compile(r"何([日人件回年歳個本])"),
)
_NUMEROUS = frozenset(analyze("numerous"))  # compares how many of the thing asked there are
_KANA_ONLY = re.compile(r"^[\u3040-\u309f\u30fc]+$")  # particles and endings: です, すか


@dataclass(frozen=True)
class Comparison:
    sides: tuple[str, str]
    prefer: Prefer
    value: AnswerType  # what is compared: DATE or NUMBER, or for SAME the kind of value
    # Whose value is compared, when not the sides' own: "Which film has the director who
    # was born first, A or B?" compares A's director with B's.
    relation: str | None = None
    lifespan: bool = False  # "Who lived longer?": the days between each side's two dates
    duration: bool = False  # "Which battle lasted longer?": the days each side lasted
    occupations: bool = False  # "Who had more diverse roles?": how many each is defined by


@dataclass(frozen=True)
class Question:
    text: str
    answer_type: AnswerType
    comparison: Comparison | None
    terms: tuple[str, ...]  # content terms: the analyzer's, question words left out
    unit: str | None = None  # what a "how many" counts, as an analyzer term (day, 日)
    head: str | None = None  # the noun of "what X": county, film, director
    # The people between the thing the question names and its answer, nearest the thing
    # first: "Where was the father of the director of film X born?" → (director, father).
    roles: tuple[str, ...] = ()
    kind_of: str | None = None  # the noun of "what type of X", singular: sprite, activist

    @property
    def typed(self) -> bool:
        """Whether it asks for a value of a type (a date, a person), not a passage or a yes."""
        return self.answer_type not in (AnswerType.ANY, AnswerType.YES_NO)


def _head(
    text: str, relative: frozenset[int], pattern: re.Pattern[str] = _WH_PHRASE
) -> tuple[int, str, AnswerType] | None:
    """Where the question's "what X" or "which X" phrase starts, its head noun and the
    noun's kind. The phrase ends at a verb, a preposition or a comma, and before the word a
    determiner follows, which was a verb ("what surfer won the …"); a number heads
    nothing ("what 1969 novel"). Its head is its last noun of a known kind ("which
    American film director hosted", "what singer-songwriter"), else its last word, which
    asks for a name (ENTITY). Such a phrase counts from its end, so that a cue inside it
    ("what nationality") comes first. A relative "which" opens no phrase."""
    found = next((m for m in pattern.finditer(text) if m.start() not in relative), None)
    if found is None:
        return None
    read: list[tuple[str, int, str | None]] = []  # each word: the head so far, its end, kind
    previous = ""
    for word in re.finditer(r"[\w'-]+,?", found.group("words")):
        bare = word.group().rstrip(",").casefold()
        if read and _past_after_noun(bare, previous):
            if previous in _BEFORE_PARTICIPLES:
                read.pop()  # "what essayist best known for …"
            break  # "which duo composed music for …": the noun's verb ends the phrase
        previous = word.group()
        if bare == "of" and read and read[-1][0] in _CLASSES:
            read[-1] = (read[-1][0], read[-1][1], None)  # "what group of plants": a class
        if bare in _PHRASE_ENDS:
            break
        if bare[0].isdigit():
            continue  # a year or a count modifies the noun ("what 1969 novel"), never heads it
        if bare in _DETERMINERS and read:
            read.pop()  # "what singer hosted the …": the word before "the" was a verb
            break
        known = _known_kind(bare) or (read[-1][2] if read else None)
        read.append((_singular(bare), word.end(), known))
        if word.group().endswith(","):
            break
    last, end, known = read[-1] if read else (None, 0, None)
    if known is not None:
        return found.start(), known, _HEAD_KIND[known]
    if last is None:
        return None
    return found.start("words") + end, last, AnswerType.ENTITY


def _past_after_noun(word: str, previous: str) -> bool:
    """Whether a word is a verb in the past tense or a participle after the phrase's noun
    ("which series featured …", "what surfer born in …"), not a modifier before it:
    "which American animated series", "a jet-powered bomber", "a highly decorated officer",
    "a ground-based armed force"."""
    past = word.endswith("ed") and len(word) > 4 and "-" not in word
    if not (past or word in PARTICIPLES):
        return False
    modifier = previous.endswith(("ly", ",")) or "-" in previous or previous in _DEMONSTRATIVES
    return previous.islower() and not modifier


def _of_what(text: str) -> tuple[int, str, AnswerType] | None:
    """ "a population of what in 2010?": a "what" that ends its phrase asks for the noun
    before "of"."""
    found = _OF_WHAT.search(text)
    if found is None:
        return None
    noun = found.group("noun").casefold()
    return None if noun in _PHRASE_ENDS else (found.start(), *_as_head(noun))


def _as_head(noun: str) -> tuple[str, AnswerType]:
    """A noun as the head of what is asked: its known kind, or itself, asking for a name."""
    kind = _known_kind(noun)
    return (kind, _HEAD_KIND[kind]) if kind is not None else (noun, AnswerType.ENTITY)


def _singular(word: str) -> str:
    """A head noun in the singular, in the word pages define such a thing with."""
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    single = word[:-1] if word.endswith("s") and word[:-1] in _HEAD_KIND else word
    return _AS_DEFINED.get(single, single)


_IRREGULAR = {"men": "man", "women": "woman"}
# A head noun as the pages define such a thing: "what movie" asks for what a page calls
# "a 2004 American action film".
_AS_DEFINED = {"movie": "film"}


def _known_kind(word: str) -> str | None:
    """The noun of a known kind a word is: itself or its plural, or for a hyphenated
    compound its last such part ("singer-songwriter")."""
    parts = [word, *reversed(word.split("-"))] if "-" in word else [word]
    return next((_singular(p) for p in parts if _singular(p) in _HEAD_KIND), None)


def _answer_type(text: str, relative: frozenset[int]) -> tuple[AnswerType, str | None]:
    """The type of the question's first question word: a cue, or the kind of the noun of
    "what X"; "who" later in "what position did the woman who…" does not count, nor a
    word that opens a relative clause ("the arena where they played … how many")."""
    starts = [(_cue(pattern, text, relative), i, t) for i, (pattern, t) in enumerate(_CUES)]
    cues = [cue for cue in starts if cue[0] >= 0]
    phrase = _head(text, relative) or _of_what(text)
    if phrase is None and not cues and text.rstrip().endswith("?"):
        phrase = _head(text, relative, _THIS_PHRASE)
    if phrase is not None:
        cues.append((phrase[0], len(_CUES), phrase[2]))
    if not cues:
        return _asking_anyway(text, relative)
    start, _, answer_type = min(cues, key=lambda c: (c[0], c[1]))
    head = phrase[1] if phrase is not None and phrase[0] == start else None
    if phrase is not None and head is not None and _modifies(text, start, head):
        answer_type = phrase[2]
    return answer_type, head


def _modifies(text: str, start: int, head: str) -> bool:
    """Whether the noun after "which" is not the head but describes it: "which country
    music star" asks for a person, "which team captain" too."""
    words = text[start:].split()
    return len(words) > 1 and words[1].casefold() != head.casefold()


def _asking_anyway(text: str, relative: frozenset[int]) -> tuple[AnswerType, str | None]:
    """A question ("…?") that asks by no word outside a relative clause asks by the word
    the parse took for one (", which cyclone had …?", ", who is he?"), else by a "what"
    inside it."""
    if not text.rstrip().endswith("?"):
        return AnswerType.ANY, None
    if relative:
        return _answer_type(text, frozenset())
    return (AnswerType.ENTITY, None) if _WHAT.search(text) else (AnswerType.ANY, None)


def _cue(pattern: re.Pattern[str], text: str, relative: frozenset[int]) -> int:
    """Where the pattern's first match outside a relative clause's opening word starts, or
    -1."""
    return next((m.start() for m in pattern.finditer(text) if m.start() not in relative), -1)


def read_question(text: str, relative: frozenset[int] = frozenset()) -> Question:
    """The question in `text`; `relative` holds where its relative clauses' opening
    wh-words start (`Extractor.relative_words`), which are no question words."""
    answer_type, head = _answer_type(text, relative)
    comparison = _related(_comparison(text, answer_type), text, answer_type, head)
    terms = tuple(dict.fromkeys(family(t) for t in analyze(text) if _is_content(t)))
    roles = () if comparison is not None else _roles(text)
    kind_of = _kind_of(text) if answer_type is AnswerType.ENTITY and head in _CLASSES else None
    unit = _unit(text, head)
    return Question(text, answer_type, comparison, terms, unit, head, roles, kind_of)


def _kind_of(text: str) -> str | None:
    """The noun a "what type of X" question asks the kind of, singular."""
    found = _KIND_OF.search(text)
    if found is None:
        return None
    noun = found.group("noun").casefold()
    return noun[:-1] if noun.endswith("s") and not noun.endswith("ss") else noun


def _comparison(text: str, answer_type: AnswerType) -> Comparison | None:
    same = _same(text) or _both(text, answer_type) or _shared(text, answer_type)
    if same is not None:
        return same
    sides = _sides(text)
    if sides is None:
        return None
    prefer = _preference(text, sides)
    if prefer is None:
        return Comparison(sides, Prefer.HOLDS, AnswerType.ANY)
    if _LIFESPAN.search(text):
        return Comparison(sides, prefer, AnswerType.NUMBER, lifespan=True)
    if _DURATION.search(text):
        return Comparison(sides, prefer, AnswerType.NUMBER, duration=True)
    if _OCCUPATIONS.search(text):
        return Comparison(sides, prefer, AnswerType.NUMBER, occupations=True)
    by_time = prefer in (Prefer.EARLIER, Prefer.LATER) and answer_type is not AnswerType.NUMBER
    return Comparison(sides, prefer, AnswerType.DATE if by_time else AnswerType.NUMBER)


def _preference(text: str, sides: tuple[str, str]) -> Prefer | None:
    """Which value wins, read outside the sides: a title's own words ("The First Day of
    Freedom", "Before the Bat's Flight Is Done") say nothing of what is compared."""
    for side in sides:
        text = text.replace(side, " ")
    ranking = _RANKING.search(text)
    if ranking is not None:
        way = ranking.group("way") or ranking.group("after")
        return Prefer.MORE if way.casefold() in _WORSE else Prefer.LESS
    return next((p for pattern, p in _PREFER if pattern.search(text)), None)


def _both(text: str, answer_type: AnswerType) -> Comparison | None:
    """A yes/no question whether each of two names has a property; lower-case words after
    the first name ask it of that side alone ("Is A a mountain and B a peak?")."""
    found = _PAIR.search(text) if answer_type is AnswerType.YES_NO else None
    if found is None:
        return None
    a, b = (_LEADING.sub("", found.group(k)).strip(' ,"') for k in "ab")
    a = _TRAILING.sub("", a)
    b = re.sub(r"\s+(?:of|the|de)$", "", b)
    return Comparison((a, b), Prefer.BOTH, AnswerType.ANY) if a and b else None


def _related(
    comparison: Comparison | None, text: str, answer_type: AnswerType, head: str | None
) -> Comparison | None:
    """A comparison of dates or values that belong to a person each side names: a noun of
    a person's role after "the", "whose" or "their", outside the sides, that is not what
    the question asks for ("Which director was born first?" compares the sides)."""
    compares = (Prefer.EARLIER, Prefer.LATER, Prefer.SAME)
    if comparison is None or comparison.prefer not in compares:
        return comparison
    if answer_type is AnswerType.PERSON:
        return comparison
    rest = text
    for side in comparison.sides:
        rest = rest.replace(side, " ")
    for found in _ROLE.finditer(rest):
        for word in found.group("words").split():
            noun = word[:-1] if word.endswith("s") and word[:-1] in _ROLES else word
            if noun in _ROLES and noun != head:
                return replace(comparison, relation=noun)
    return comparison


def _roles(text: str) -> tuple[str, ...]:
    """The roles of the people a question reaches through, nearest the thing it names
    first."""
    compound = _COMPOUND_KIN.search(text)
    if compound is not None:
        return _COMPOUNDS[re.sub(r"[\s-]+", " ", compound.group("kin").casefold())]
    owned = [m.group("role") for m in _ROLE_OWNED.finditer(text)]
    of = [m.group("role") for m in _ROLE_OF.finditer(text)][::-1]
    return tuple(r for r in (owned or of) if r in _ROLES or r in _KIN)


def _shared(text: str, answer_type: AnswerType) -> Comparison | None:
    """A question what two named things have in common; the value asked for is the
    question's answer type."""
    if answer_type is AnswerType.YES_NO or not _SHARED.search(text) or _ONE_OF.search(text):
        return None
    found = _NAMED_PAIR.search(text)
    if found is None:
        return None
    a = _ARTICLE.sub("", _BOTH.sub("", found.group("a"))).strip('"')
    b = found.group("b").strip('"')
    return Comparison((a, b), Prefer.SHARED, answer_type) if a and b else None


def _same(text: str) -> Comparison | None:
    """A yes/no question whether two named things share a value of one kind."""
    found = _SAME.search(text)
    if found is None:
        return None
    value = _same_value(found.group("what"))
    a, b = (_TRAILING.sub("", _LEADING.sub("", found.group(k))).strip(" ,") for k in "ab")
    if not a or not b:
        return None
    return Comparison((a, b), Prefer.SAME, value)


def _same_value(what: str) -> AnswerType:
    """The kind of value two things share: "the same country" a nationality, "the same
    province" a place, "the same number of acts" a number, "the same family" a name."""
    value = next((v for pattern, v in _SAME_VALUE if pattern.search(what)), None)
    return value or _as_head(what.casefold())[1]


def _sides(text: str) -> tuple[str, str] | None:
    for pattern in _SIDES:
        found = pattern.search(text)
        if found is not None and _ASKING.search(found.group("b")):
            continue  # "…, Katy Perry, and a ballad by which artist?" asks within it
        a, b = (_ARTICLE.sub("", found.group(k).strip(' "“”')) for k in "ab") if found else ("", "")
        a, b = _AUXILIARY.sub("", a), _TRAILING.sub("", b)
        a, b = _OWNER.sub("", a), _OWNER.sub("", b)
        if a and b and _is_side(a) and _is_side(b):
            return a, b
    return None


def _is_side(text: str) -> bool:
    """A side names a thing: it holds no question word ("… and what other film") and does
    not open with a verb ("has a set of companion books …", "is written") or with two
    lower-case words ("alongside fellow actors A"), as clauses around "and" in a long
    question do."""
    return not _NOT_A_SIDE.search(text) and not _A_CLAUSE.match(text)


def _is_content(term: str) -> bool:
    return term not in _QUESTION_WORDS and not _KANA_ONLY.match(term)


def _unit(text: str, head: str | None) -> str | None:
    """What a count counts: "how many albums", "more studio albums". "Which species is the
    most numerous?" counts the thing asked about."""
    for pattern in _UNITS:
        found = pattern.search(text)
        if found:
            unit = _first_term(found.group(1))
            return _first_term(head) if unit in _NUMEROUS and head else unit
    return None


def _first_term(text: str) -> str | None:
    terms = analyze(text)
    return terms[0] if terms else None
