"""Values read in a sentence: a person's name with the territory of their title, a place
with the places that qualify it unless it is what the question's head noun asks for."""

from __future__ import annotations

import pytest

from app.answers.evidence import count_of, in_sentence, nearness, values
from app.answers.question import AnswerType, Question, read_question
from ingest.extraction import Named
from retrieval.sentences import sentences
from tests.app.answers.test_related import passages


@pytest.mark.parametrize(
    ("text", "person", "expected"),
    [
        (
            "He was the son of Prince George, Duke of Kent, and Marina.",
            "Prince George",
            "Prince George, Duke of Kent",
        ),
        ("His mother was Eleanor of Arborea.", "Eleanor", "Eleanor of Arborea"),
        ("He was the son of Ivo Marsh, a painter of Leeds.", "Ivo Marsh", "Ivo Marsh"),
    ],
)
def test_a_person_s_name_holds_the_territory_of_their_title(
    text: str, person: str, expected: str
) -> None:
    (sentence,) = passages({"Page": text})
    start = text.index(person)
    sentence.entities_read([Named(person, "PERSON", start, start + len(person))])
    found = values(sentence, read_question("Who is his parent?"), AnswerType.PERSON)
    assert [v.text for v in found] == [expected]


def test_people_after_commas_are_a_list_not_one_name() -> None:
    text = "The film stars Ann Lee, Bo Marsh, Cy Dale and Di Fay."
    (sentence,) = passages({"Film": text})
    people = ("Ann Lee", "Bo Marsh", "Cy Dale", "Di Fay")
    sentence.entities_read(
        [Named(p, "PERSON", text.index(p), text.index(p) + len(p)) for p in people]
    )
    found = values(sentence, read_question("Who starred in it with Ann Lee?"), AnswerType.PERSON)
    assert [v.text for v in found] == ["Bo Marsh", "Cy Dale", "Di Fay"]


def test_a_bracket_after_a_name_speaks_of_that_name_alone() -> None:
    text = (
        "Its members are Ann Lee (vocals, guitar), Bo Marsh (guitar, backing vocals), Cy Dale"
        " (bass, backing vocals) and Di Fay (drums)."
    )
    (sentence,) = passages({"Band": text})
    people = ("Ann Lee", "Bo Marsh", "Cy Dale", "Di Fay")
    sentence.entities_read(
        [Named(p, "PERSON", text.index(p), text.index(p) + len(p)) for p in people]
    )
    found = values(
        sentence, read_question("Who was the main vocal of the band?"), AnswerType.PERSON
    )
    assert found[0].text == "Ann Lee"


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("In what county is the Elm Mall?", "Fairfax County"),
        ("Where is the Elm Mall?", "Fairfax County, Virginia"),
    ],
)
def test_a_place_that_names_the_head_noun_stands_without_its_qualifiers(
    question: str, expected: str
) -> None:
    text = "The Elm Mall is a shopping mall in Fairfax County, Virginia."
    (sentence,) = passages({"Elm Mall": text}, places=("Fairfax County", "Virginia"))
    found = values(sentence, read_question(question), AnswerType.PLACE)
    assert found[0].text == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What county is the Elm School in?", "Elmshire"),
        ("What district is the Elm School in?", "North Elmshire"),
    ],
)
def test_a_place_set_after_its_kind_and_of_is_named_as_that_kind(
    question: str, expected: str
) -> None:
    """ "the county of Elmshire" names a county; "the District of North Elmshire" a
    district, though "Elmshire" is in its name."""
    text = "Elmby is a town in the District of North Elmshire and county of Elmshire."
    (sentence,) = passages({"Elmby": text})
    at = (text.index("North Elmshire"), text.rindex("Elmshire"))
    names = [("North Elmshire", at[0]), ("Elmshire", at[1])]
    sentence.entities_read([Named(n, "GPE", a, a + len(n)) for n, a in names])
    found = values(sentence, read_question(question), AnswerType.PLACE)
    assert found[0].text == expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [("In what city is the Oak Mall?", "Reston"), ("Where is the Oak Mall?", "Reston, Virginia")],
)
def test_a_place_asked_for_by_its_kind_stands_without_the_places_around_it(
    question: str, expected: str
) -> None:
    text = "The Oak Mall is a shopping mall in Reston, Virginia."
    (sentence,) = passages({"Oak Mall": text}, places=("Reston", "Virginia"))
    found = values(sentence, read_question(question), AnswerType.PLACE)
    assert found[0].text == expected


def test_only_is_no_number_outside_a_comparison_of_counts() -> None:
    (sentence,) = passages({"Elm Mall": "It is the only mall in the county with 90 stores."})
    found = values(
        sentence, read_question("How many stores does Elm Mall have?"), AnswerType.NUMBER
    )
    assert [v.text for v in found] == ["90 stores"]


def test_a_rank_is_no_amount() -> None:
    """ "the 23rd-highest peak" ranks the peak; its height is the amount compared."""
    text = "Nanda Devi is the 23rd-highest peak in the world; Nanda Devi is 7,816 metres high."
    (sentence,) = passages({"Nanda Devi": text})
    question = read_question("Which mountain is higher, Nanda Devi or Broad Peak?")
    assert [v.text for v in values(sentence, question, AnswerType.NUMBER)] == ["7,816 metres"]


def test_a_title_in_quotes_is_a_work_before_the_names_around_it() -> None:
    """The channel is nearer the question's words; the quoted title is the show."""
    text = 'Alfie Allen played Theon Greyjoy in the HBO series "Game of Thrones".'
    (sentence,) = passages({"Alfie Allen": text})
    start = text.index("HBO")
    sentence.entities_read([Named("HBO", "ORG", start, start + 3)])
    question = read_question("Alfie Allen played Theon Greyjoy on which show?")
    found = values(sentence, question, AnswerType.WORK)
    assert [v.text for v in found] == ["Game of Thrones", "HBO"]


def test_a_nickname_in_quotes_answers_for_a_name() -> None:
    text = 'Brian Bosworth, nicknamed "The Boz," is an American former linebacker.'
    (sentence,) = passages({"Brian Bosworth": text})
    start = text.index("American")
    sentence.entities_read([Named("American", "NORP", start, start + 8)])
    question = read_question("What is the nickname of the linebacker Brian Bosworth?")
    assert question.answer_type is AnswerType.ENTITY
    assert values(sentence, question, AnswerType.ENTITY)[0].text == "The Boz"


def test_a_quoted_title_answers_no_other_kind_of_name() -> None:
    """A song's title in quotes is no language."""
    text = 'Suresh Peters sang "Urvasi Urvasi", a Tamil song.'
    (sentence,) = passages({"Suresh Peters": text})
    start = text.index("Tamil")
    sentence.entities_read([Named("Tamil", "LANGUAGE", start, start + 5)])
    question = read_question("In which language did Suresh Peters sing?")
    assert [v.text for v in values(sentence, question, AnswerType.ENTITY)] == ["Tamil"]


def test_words_between_two_quoted_titles_are_no_title() -> None:
    text = 'She voiced "Rugrats", "Drawn Together", and "Teen Titans Go!" on television.'
    (sentence,) = passages({"Tara Strong": text})
    found = values(sentence, read_question("Which show did she voice?"), AnswerType.WORK)
    assert {v.text for v in found} == {"Rugrats", "Drawn Together", "Teen Titans Go!"}


def test_how_often_a_thing_comes_out_is_compared_as_times_a_year() -> None:
    question = read_question("Which magazine is published more often, Elm Weekly or Oak?")
    oak, elm = passages(
        {"Oak": "Oak is a bi-weekly magazine.", "Elm Weekly": "Elm Weekly is a monthly."}
    )
    assert [v.text for v in values(oak, question, AnswerType.NUMBER)] == ["bi-weekly"]
    assert [v.text for v in values(elm, question, AnswerType.NUMBER)] == ["monthly"]
    assert [count_of(t) for t in ("bi-weekly", "monthly", "quarterly")] == [26.0, 12.0, 4.0]


def test_a_frequency_changed_from_comes_after_the_one_changed_to() -> None:
    question = read_question("Which magazine is published more often, Elm or Oak?")
    text = "In 2002 Elm changed from a weekly publication to a monthly one."
    (elm,) = passages({"Elm": text})
    assert [v.text for v in values(elm, question, AnswerType.NUMBER)] == ["monthly", "weekly"]


@pytest.mark.parametrize(
    ("question", "first"),
    [
        ("The party held power in Albania until what year?", "1943"),
        ("In what year did the party's rule in Albania end?", "1943"),
        ("In what year did the party take power in Albania?", "1939"),
    ],
)
def test_until_when_asks_for_the_date_that_ends_a_span(question: str, first: str) -> None:
    text = "The party ruled Albania from 1939 until 1943."
    assert _first_date({"Party": text}, ("1939", "1943"), question) == first


@pytest.mark.parametrize(
    ("question", "first"),
    [
        ("When was the band formed?", "1980"),
        ("Which band was founded first, the Elms or the Oaks?", "1980"),
        ("When did the band begin?", "1980"),
        ("When was the band active again?", "2013"),
    ],
)
def test_a_question_of_a_beginning_asks_for_the_date_that_opens_a_span(
    question: str, first: str
) -> None:
    """ "Active from 1980 to 2009" says when the band began; a later year nearer the
    question's words ("2013, the band") does not."""
    text = "The Elms were active from 1980 to 2009, and as of 2013 the band is active again."
    assert _first_date({"Elms": text}, ("1980", "2009", "2013"), question) == first


def _first_date(page: dict[str, str], years: tuple[str, ...], question: str) -> str:
    """The first date read for the question in a one-sentence page, its years read by the
    entity model."""
    (sentence,) = passages(page)
    text = sentence.text
    sentence.entities_read([Named(y, "DATE", text.index(y), text.index(y) + 4) for y in years])
    return values(sentence, read_question(question), AnswerType.DATE)[0].text


@pytest.mark.parametrize(
    ("question", "first"),
    [
        ("The party lost a war that ended when?", "October 1922"),
        ("When did the war finish?", "October 1922"),
        ("When did Tom Vale die?", "October 1922"),
        ("When did the war begin?", "November 1917"),
    ],
)
def test_the_later_end_of_a_span_in_brackets_ends_it_whatever_dates_follow(
    question: str, first: str
) -> None:
    """A span in the first brackets reads as a lifespan; the year after it ("the
    Revolutions of 1917") is no end of it."""
    text = "The Civil War (November 1917 – October 1922) followed the Revolutions of 1917."
    (sentence,) = passages({"Civil War": text})
    dates = ("November 1917", "October 1922", "1917")
    at = [text.index(d) if d != "1917" else text.rindex(d) for d in dates]
    sentence.entities_read(
        [Named(d, "DATE", a, a + len(d)) for d, a in zip(dates, at, strict=True)]
    )
    found = values(sentence, read_question(question), AnswerType.DATE)
    assert found[0].text == first


def test_a_passage_s_entities_are_read_into_its_sentences() -> None:
    """Entities ingest found in the whole passage, shifted into each sentence; one that runs
    past the sentence's end is cut there, as the model reading that sentence would cut it."""
    text = "Maxeda is owned by KKR & Co. L.P. since 2004. It trades in Amsterdam."
    named = [
        Named(part, label, text.index(part), text.index(part) + len(part))
        for part, label in (("KKR & Co. L.P.", "ORG"), ("2004", "DATE"), ("Amsterdam", "GPE"))
    ]
    first, rest, last = sentences(text)  # the splitter breaks after "Co."
    assert [(n.text, n.label) for n in in_sentence(named, first)] == [("KKR & Co.", "ORG")]
    # the name started in the sentence before: only the date is this one's
    assert [(n.text, n.label) for n in in_sentence(named, rest)] == [("2004", "DATE")]
    (place,) = in_sentence(named, last)
    assert last.text[place.start : place.end] == "Amsterdam"


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What position did Ann Lee hold?", ["Chief of Staff"]),
        ("What ethnic group did Ann Lee belong to?", ["Chief of Staff", "Armenian"]),
    ],
)
def test_a_people_answers_only_a_question_about_peoples(question: str, expected: list[str]) -> None:
    text = "Ann Lee, an Armenian lawyer, was Chief of Staff."
    (sentence,) = passages({"Ann Lee": text})
    named = [("Armenian", "NORP"), ("Chief of Staff", "ORG")]
    sentence.entities_read(
        [Named(n, lab, text.index(n), text.index(n) + len(n)) for n, lab in named]
    )
    found = values(sentence, read_question(question), AnswerType.ENTITY)
    assert sorted(v.text for v in found) == sorted(expected)


def test_a_count_is_scaled_by_its_number_word() -> None:
    assert [count_of(t) for t in ("24 million", "1.5 billion", "3,677 seats")] == [
        24_000_000.0,
        1_500_000_000.0,
        3_677.0,
    ]


def test_a_number_near_a_word_of_the_question_s_family_is_read() -> None:
    """ "higher" asks for the number next to "highest"."""
    question = read_question("Which peak stands higher, Elm Peak or Oak Peak?")
    text = "Elm Peak is the second highest (7509 metres) of the range, and draws 40 climbers."
    (sentence,) = passages({"Elm Peak": text})
    found = values(sentence, question, AnswerType.NUMBER)
    assert found and found[0].text == "7509 metres"


def test_a_height_is_read_by_its_unit_wherever_the_word_for_it_stands() -> None:
    """ "higher" is answered by "8163 m" thirty characters after "highest"."""
    question = read_question("Which peak stands higher, Elm Peak or Oak Peak?")
    text = "Oak Peak is the eighth highest mountain in the world at 8163 m above sea level."
    (sentence,) = passages({"Oak Peak": text})
    assert [v.text for v in values(sentence, question, AnswerType.NUMBER)] == ["8163 m"]


def test_a_length_is_no_height_where_a_count_is_asked() -> None:
    question = read_question("How many climbers reached Oak Peak?")
    text = "Oak Peak is the eighth highest mountain in the world at 8163 m above sea level."
    (sentence,) = passages({"Oak Peak": text})
    assert values(sentence, question, AnswerType.NUMBER) == []


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which 1970s film was released first, Elm Road or Oak Lane?", ["1970"]),
        ("What year did the 1970 film Elm Road get a sequel?", []),
    ],
)
def test_a_date_the_question_gives_may_be_a_side_s_own_in_a_comparison_of_time(
    question: str, expected: list[str]
) -> None:
    """A comparison of which came first may give the decade both sides are of; a question
    for a date never answers with the one it gives."""
    text = "Elm Road is a 1970 American comedy film."
    (sentence,) = passages({"Elm Road": text})
    sentence.entities_read([Named("1970", "DATE", 14, 18)])
    found = values(sentence, read_question(question), AnswerType.DATE)
    assert [v.text for v in found] == expected


def test_a_distance_is_read_by_its_unit_and_no_other_number_answers_it() -> None:
    question = read_question("Which airport is closer to its town, Elm Field or Oak Field?")
    text = "Elm Field is a public airport with 2 runways five miles (8 km) northwest of Elm."
    (sentence,) = passages({"Elm Field": text})
    found = values(sentence, question, AnswerType.NUMBER)
    assert sorted(v.text for v in found) == ["8 km", "five miles"]


def test_a_comparative_before_the_noun_it_measures_asks_no_height() -> None:
    """ "a higher population" is no height: the number of people answers, not metres."""
    question = read_question("Which town has a higher population, Elm or Oak?")
    text = "Elm has a population of 4,210; its castle, rebuilt in brick and stone, stands at 300 m."
    (sentence,) = passages({"Elm": text})
    assert [v.text for v in values(sentence, question, AnswerType.NUMBER)] == ["4,210"]


def test_twice_is_a_count_and_one_of_many_is_none() -> None:
    question = read_question("Who won more Academy Awards, Ann Lee or Ivo Marsh?")
    text = "Ann Lee, one of the founders of the guild, twice won the Academy Award."
    (sentence,) = passages({"Ann Lee": text})
    found = values(sentence, question, AnswerType.NUMBER)
    assert [(v.text, count_of(v.text)) for v in found] == [("twice won", 2.0)]


def test_a_count_of_times_counts_the_object_of_its_verb() -> None:
    """ "twice won the Academy Award" counts awards, four words on."""
    question = read_question("Who won more academy awards, Ann Lee or Ivo Marsh?")
    text = "Ann Lee had a long career, and she twice won the Academy Award for Best Director."
    (sentence,) = passages({"Ann Lee": text})
    found = values(sentence, question, AnswerType.NUMBER)
    assert [(v.text, count_of(v.text)) for v in found] == [("twice won", 2.0)]


def test_a_side_s_name_is_no_date_of_it() -> None:
    question = read_question("Which incident came first, INC-2041 or INC-2077?")
    text = "INC-2041 was opened on 3 March 2024."
    (sentence,) = passages({"INC-2041": text})
    sentence.entities_read([Named("3 March 2024", "DATE", 23, 35)])
    assert [v.text for v in values(sentence, question, AnswerType.DATE)] == ["3 March 2024"]
    (bare,) = passages({"INC-2077": "INC-2077 followed it."})
    assert values(bare, question, AnswerType.DATE) == []


def test_two_dates_glued_in_the_first_brackets_are_a_life_s_ends() -> None:
    """The entity model reads "14 August 193322 November 2012" as one date no parser
    takes; read from the text, the later of the two is when the person died."""
    text = "Ivo Marsh, AM (14 August 193322 November 2012) was a novelist."
    (sentence,) = passages({"Ivo Marsh": text})
    sentence.entities_read([Named("14 August 193322 November 2012", "DATE", 15, 45)])
    died = values(sentence, read_question("When did Ivo Marsh die?"), AnswerType.DATE)
    assert [v.text for v in died] == ["22 November 2012", "14 August 1933"]


@pytest.mark.parametrize(
    ("text", "question", "expected"),
    [
        ("Jo Hart (died 1980) was a poker player.", "What was the birth date of Jo Hart?", []),
        ("Jo Hart (born 1933) was a poker player.", "When did Jo Hart die?", []),
        ("Jo Hart (born 1933) was a poker player.", "When was Jo Hart born?", ["1933"]),
        ("Jo Hart (died 1980) was in Waking the Dead.", "When was Jo Hart born?", []),
    ],
)
def test_a_date_marked_as_one_end_of_a_life_answers_no_question_of_the_other(
    text: str, question: str, expected: list[str]
) -> None:
    (sentence,) = passages({"Jo Hart": text})
    year = text.index("19")
    sentence.entities_read([Named(text[year : year + 4], "DATE", year, year + 4)])
    found = values(sentence, read_question(question), AnswerType.DATE)
    assert [v.text for v in found] == expected


def test_a_term_in_another_clause_stands_further_from_a_value() -> None:
    text = "She became Electress when she married in 1685, but died young in 1692."
    (sentence,) = passages({"Ada Lind": text})
    sentence.entities_read(
        [Named(y, "DATE", text.index(y), text.index(y) + 4) for y in ("1685", "1692")]
    )
    found = values(
        sentence, read_question("When did the mother of Ivo Marsh die?"), AnswerType.DATE
    )
    assert found[0].text == "1692"


def test_a_name_the_question_gives_is_no_value_in_its_possessive() -> None:
    text = 'He directed videos for Ann Lee\'s "Blue" and Bo Marsh\'s "Red".'
    (sentence,) = passages({"Ivo Marsh": text}, people=("Ann Lee's", "Bo Marsh's"))
    found = values(
        sentence, read_question("Who else did he direct for, with Ann Lee?"), AnswerType.PERSON
    )
    assert [v.text for v in found] == ["Bo Marsh's"]


def test_a_term_that_leads_on_to_a_later_name_is_not_near_an_object_before_it() -> None:
    """ "published by the Jesuits of the United States and headquartered in Manhattan":
    the headquarters are in Manhattan; "Ann Lee was born in Leeds" still speaks of her."""
    text = (
        "Ave is a weekly magazine published by the Jesuits of the United States and"
        " headquartered in midtown Manhattan."
    )
    (sentence,) = passages({"Ave": text}, places=("United States", "Manhattan"))
    found = values(sentence, read_question("Where is Ave headquartered?"), AnswerType.PLACE)
    assert found and found[0].text == "Manhattan"
    (subject,) = passages({"Ann Lee": "Ann Lee was born in Leeds."}, people=("Ann Lee",))
    assert nearness(subject, subject.named[0], frozenset({"born"})) > 0


def test_a_number_the_entity_model_read_as_a_dated_point_is_no_amount() -> None:
    """ "opened in 2000" and "born July 20, 1953" name points in time: no length of a bridge,
    no count of prizes; "18 years" names no year and stays a number."""
    text = "Before the Elm Bridge was opened in 2000, ferries ran; the Elm Bridge runs 8 km."
    (bridge,) = passages({"Elm Bridge": text})
    bridge.entities_read([Named("2000", "DATE", text.index("2000"), text.index("2000") + 4)])
    found = values(bridge, read_question("How long is the Elm Bridge?"), AnswerType.NUMBER)
    assert [v.text for v in found] == ["8 km"]
    asked = read_question("Who has won more prizes, Ann Lee or Ivo Marsh?")
    assert _author_s_numbers(asked) == []
    assert _author_s_numbers(read_question("For how many years did Ann Lee write?")) == ["18 years"]


def _author_s_numbers(question: Question) -> list[str]:
    """An Evidence serves one question, so each question reads a sentence of its own."""
    text = "Ann Lee (born July 20, 1953) is an author who wrote for 18 years."
    (author,) = passages({"Ann Lee": text})
    dates = ("July 20, 1953", "18 years")
    author.entities_read([Named(d, "DATE", text.index(d), text.index(d) + len(d)) for d in dates])
    return [v.text for v in values(author, question, AnswerType.NUMBER)]


def test_a_year_s_edition_of_a_thing_the_question_names_is_no_value() -> None:
    text = "He won the 2005 Ballon d'Or and the 2006 FIFA World Player of the Year."
    (sentence,) = passages({"Ronaldinho": text})
    awards = ("2005 Ballon d'Or", "2006 FIFA World Player of the Year")
    sentence.entities_read(
        [Named(a, "EVENT", text.index(a), text.index(a) + len(a)) for a in awards]
    )
    question = read_question("He won what award in addition to FIFA World Player of the Year?")
    found = values(sentence, question, AnswerType.ENTITY)
    assert [v.text for v in found] == ["2005 Ballon d'Or"]


def test_a_number_set_after_the_kind_asked_names_a_thing_of_that_kind() -> None:
    text = "It broadcasts on UHF channel 44 (or virtual channel 6 via PSIP) from Sebago."
    (sentence,) = passages({"WCSH": text}, places=("Sebago",))
    question = read_question("On what UHF channel is the station broadcast?")
    found = values(sentence, question, question.answer_type)
    assert [v.text for v in found][:2] == ["44", "6"]
    (again,) = passages({"WCSH": text}, places=("Sebago",))  # values are kept per sentence
    since = read_question("On what UHF channel has the station broadcast since 2044?")
    assert [v.text for v in values(again, since, since.answer_type)][:2] == ["44", "6"]


def test_a_name_read_as_an_organisation_where_only_a_person_stands_is_a_person() -> None:
    text = "Red Lantern is a 2004 film directed by Brad Silberling and produced by Elm Films."
    (sentence,) = passages({"Red Lantern": text})
    names = ("Brad Silberling", "Elm Films")
    sentence.entities_read([Named(n, "ORG", text.index(n), text.index(n) + len(n)) for n in names])
    found = values(sentence, read_question("Who made Red Lantern?"), AnswerType.PERSON)
    assert [v.text for v in found] == ["Brad Silberling"]
