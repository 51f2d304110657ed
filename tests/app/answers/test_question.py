"""Reading what a question asks for, in English, Hebrew and Japanese."""

from __future__ import annotations

import pytest

from app.answers.question import AnswerType, Prefer, read_question


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Who directed the film?", AnswerType.PERSON),
        ("When did she die?", AnswerType.DATE),
        ("Where was he born?", AnswerType.PLACE),
        ("How many days of leave are there?", AnswerType.NUMBER),
        ("Is the policy in force?", AnswerType.YES_NO),
        ("What does the policy cover?", AnswerType.ANY),
        ("מי היה מפקד האירוע?", AnswerType.PERSON),
        ("כמה ימי חופשה יש?", AnswerType.NUMBER),
        ("有給休暇は何日ですか？", AnswerType.NUMBER),
        ("担当者は誰ですか？", AnswerType.PERSON),
        ("Which county is the depot in?", AnswerType.PLACE),
        ("What documentary series did the studio release?", AnswerType.WORK),
        ("Which war ended the treaty?", AnswerType.EVENT),
        ("What nationality is the director of the film?", AnswerType.NATIONALITY),
        ("What citizen was the author of the novel?", AnswerType.NATIONALITY),
        ("Which citizenship does the painter hold?", AnswerType.NATIONALITY),
        ("Where did her father study?", AnswerType.ORGANISATION),
        ("Where does the director of the film work at?", AnswerType.ORGANISATION),
        ("Where is the company that she worked for based?", AnswerType.PLACE),
        ("Which country is the depot in?", AnswerType.PLACE),
        ("The album is by which country music star?", AnswerType.PERSON),
        ("Which country singer was born in 1950?", AnswerType.PERSON),
        ("What is the birthday of the actor who played the king?", AnswerType.DATE),
        ("What is the birthplace of the senator who chaired it?", AnswerType.PLACE),
        ("Which champion did he defeat in 1990?", AnswerType.PERSON),
        ("What retailer in the mall is based in Poole?", AnswerType.ORGANISATION),
    ],
)
def test_the_answer_type(text: str, expected: AnswerType) -> None:
    assert read_question(text).answer_type is expected


def test_the_head_noun_of_a_what_phrase_is_its_last_known_noun() -> None:
    question = read_question("Which American film director hosted the awards in 2002?")
    assert question.answer_type is AnswerType.PERSON and question.head == "director"
    assert read_question("The depot is located in what county?").head == "county"
    named = read_question("What is the name of the fight song of the university?")
    assert named.answer_type is AnswerType.WORK and named.head == "song"


@pytest.mark.parametrize(
    ("text", "head", "kind"),
    [
        # the word before a determiner was a verb, whatever it is
        ("What fanzine interviewed the bassist of the band?", "fanzine", AnswerType.ENTITY),
        # a hyphenated compound by its known part
        (
            "What British singer-songwriter hosted the Young Awards?",
            "songwriter",
            AnswerType.PERSON,
        ),
        # a number modifies the noun, never heads it
        ("In what 1997 film did Ivo Marsh star?", "film", AnswerType.WORK),
        # a group of things is a class of them, no organisation; a group alone is one
        ("To what group of plants does Aster Vale belong?", "group", AnswerType.ENTITY),
        ("What group released the album Blue?", "group", AnswerType.ORGANISATION),
        ("Which member of the band wrote Blue?", "member", AnswerType.PERSON),
        # a verb in the past tense after the noun ends the phrase; a modifier before it not
        ("Which parody series featured American actor Ivo Marsh?", "series", AnswerType.WORK),
        ("Which songwriting duo composed music for Blue?", "duo", AnswerType.ENTITY),
        ("Which American animated series starred Ivo Marsh?", "series", AnswerType.WORK),
        ("What ground-based armed force was defeated at Nanchang?", "force", AnswerType.ENTITY),
        ("What Hawaiian surfer born 18 October 1992 won the Pro?", "surfer", AnswerType.ENTITY),
        ("What English essayist best known for Blue wrote Red?", "essayist", AnswerType.PERSON),
        (
            "Which telenovela broadcast by Telefe starred Ivo Marsh?",
            "telenovela",
            AnswerType.ENTITY,
        ),
        # a noun in the word pages define such a thing with: a movie is a film
        ("What movie did Ivo Marsh direct in 2004?", "film", AnswerType.WORK),
        ("Which movies did Ivo Marsh direct?", "film", AnswerType.WORK),
    ],
)
def test_a_what_phrase_ends_where_its_noun_does(text: str, head: str, kind: AnswerType) -> None:
    question = read_question(text)
    assert (question.head, question.answer_type) == (head, kind)


def test_the_first_question_word_decides_not_a_later_relative_one() -> None:
    """ "who" in "the woman who portrayed" does not make the question ask for a person."""
    question = read_question("What position was held by the woman who portrayed Corliss?")
    assert question.answer_type is AnswerType.ENTITY and question.head == "position"
    assert read_question("In which year was the king who made the honours born?").answer_type is (
        AnswerType.DATE
    )


def test_a_relative_clause_opening_word_is_no_question_word() -> None:
    """Given where the parse found relative clauses, "where" of "the arena where …" and
    "which" of "the university which was founded" name no answer type."""
    arena = "The arena where the team played its home games can seat how many people?"
    assert read_question(arena).answer_type is AnswerType.PLACE
    relative = frozenset({arena.index("where")})
    assert read_question(arena, relative).answer_type is AnswerType.NUMBER
    founded = "He represented the university which was founded in what year?"
    relative = frozenset({founded.index("which")})
    assert read_question(founded).answer_type is AnswerType.ENTITY
    assert read_question(founded, relative).answer_type is AnswerType.DATE


@pytest.mark.parametrize(
    ("text", "head", "kind"),
    [
        (
            "David Huntsinger has worked with this gospel singer born in July?",
            "singer",
            AnswerType.PERSON,
        ),
        (
            "Spaceware is manufactured by this subsidiary, one of twelve?",
            "subsidiary",
            AnswerType.ENTITY,
        ),
        (
            "The Hustle are based in a city with a population of what in 2010?",
            "population",
            AnswerType.NUMBER,
        ),
        (
            "He plays for a team in the autonomous community of what?",
            "community",
            AnswerType.ENTITY,
        ),
    ],
)
def test_a_question_without_a_question_word_asks_by_its_this_or_of_what_phrase(
    text: str, head: str, kind: AnswerType
) -> None:
    question = read_question(text)
    assert (question.head, question.answer_type) == (head, kind)


def test_a_statement_with_this_asks_for_no_type() -> None:
    """Only a question ("…?") asks by "this X"; a request to read about it asks for passages."""
    assert read_question("Tell me about this policy").answer_type is AnswerType.ANY
    assert read_question("Is this policy still in force?").answer_type is AnswerType.YES_NO


def test_a_title_s_own_words_do_not_set_the_direction() -> None:
    """ "First" and "Before" belong to the titles here; what is compared is "later"/"younger"."""
    later = read_question(
        "Which film has the director who was born later, The First Day Of Freedom or Malabimba?"
    ).comparison
    assert later is not None and later.prefer is Prefer.LATER
    younger = read_question(
        "Which film whose director is younger, Before The Bat's Flight Is Done or Agar Tum Na Hote?"
    ).comparison
    assert younger is not None and younger.prefer is Prefer.LATER
    first = read_question("Which film came out first, The Last Stand or After Hours?").comparison
    assert first is not None and first.prefer is Prefer.EARLIER


def test_sides_without_a_comma_are_the_capitalised_names_around_or() -> None:
    question = read_question("who is younger Keith Bostic or Jerry Glanville ?")
    assert question.comparison is not None
    assert question.comparison.sides == ("Keith Bostic", "Jerry Glanville")


def test_a_comparison_has_two_sides_and_a_direction() -> None:
    question = read_question("Which film came out first, Blind Shaft or The Mask?")
    assert question.comparison is not None
    assert question.comparison.sides == ("Blind Shaft", "The Mask")
    assert question.comparison.prefer is Prefer.EARLIER
    assert question.comparison.value is AnswerType.DATE
    larger = read_question("Which city is larger, Haifa or Eilat?").comparison
    assert larger is not None and larger.value is AnswerType.NUMBER


def test_content_terms_leave_question_words_out() -> None:
    question = read_question("How many days of annual leave do staff get?")
    assert "day" in question.terms and "how" not in question.terms
    assert question.unit == "day"
    assert read_question("有給休暇は何日ですか？").unit == "日"


def test_a_same_question_is_a_yes_or_no_comparison() -> None:
    question = read_question("Were Scott Derrickson and Ed Wood of the same nationality?")
    assert question.comparison is not None
    assert question.comparison.sides == ("Scott Derrickson", "Ed Wood")
    assert question.comparison.prefer is Prefer.SAME
    assert question.comparison.value is AnswerType.NATIONALITY
    placed = read_question(
        "Are both movies, Naked Tango and Algiers (Film), from the same country?"
    )
    assert placed.comparison is not None and placed.comparison.sides == (
        "Naked Tango",
        "Algiers (Film)",
    )


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Are Elm and Oak located in the same province?", AnswerType.PLACE),
        ("Are the films Elm and Oak by the same director?", AnswerType.PERSON),
        ("Do the operas Elm and Oak have the same number of acts?", AnswerType.NUMBER),
        ("Are the plants Elm and Oak in the same family?", AnswerType.ENTITY),
    ],
)
def test_a_same_question_compares_the_kind_its_noun_names(text: str, value: AnswerType) -> None:
    """Not whether each side has the property "same family": whether their values agree."""
    comparison = read_question(text).comparison
    assert comparison is not None and comparison.prefer is Prefer.SAME
    assert (comparison.sides, comparison.value) == (("Elm", "Oak"), value)


def test_both_and_which_side_questions_ask_about_a_property() -> None:
    both = read_question("Are Local H and For Against both from the United States?")
    assert both.comparison is not None and both.comparison.prefer is Prefer.BOTH
    assert both.comparison.sides == ("Local H", "For Against")
    first = read_question("Are both Cypress and Ajuga genera?").comparison
    assert first is not None and first.sides == ("Cypress", "Ajuga")
    holds = read_question("Who was also an actor, Serri or John Fogerty?").comparison
    assert holds is not None and holds.prefer is Prefer.HOLDS
    assert holds.sides == ("Serri", "John Fogerty")


def test_a_property_asked_of_the_first_side_alone_is_no_part_of_it() -> None:
    """ "Is A a mountain and B a mountain peak?" asks a property of each side in turn."""
    comparison = read_question(
        "Is Aster Vale a mountain and Brome Hill a mountain peak?"
    ).comparison
    assert comparison is not None and comparison.prefer is Prefer.BOTH
    assert comparison.sides == ("Aster Vale", "Brome Hill")


def test_the_opening_verb_and_trailing_words_are_no_part_of_a_side() -> None:
    """ "Was A or B born first?" compares A and B, not "Was A" and "B born first"; "Is the
    A or the B …?" A and B."""
    question = read_question("Was Maren Olsvik or Ivo Marsh born first?")
    assert question.comparison is not None
    assert question.comparison.sides == ("Maren Olsvik", "Ivo Marsh")
    assert question.comparison.prefer is Prefer.EARLIER
    public = read_question("Is Harbour Museum or Blue Lantern older?").comparison
    assert public is not None and public.sides == ("Harbour Museum", "Blue Lantern")
    # nor the article before either name
    counted = read_question("Is the Aster Vale or the Brome Hill the genus of more species?")
    assert counted.comparison is not None
    assert counted.comparison.sides == ("Aster Vale", "Brome Hill")


@pytest.mark.parametrize(
    "text",
    [
        "What series, told in first person, has a set of companion books and alien species?",
        'The same man wrote "Street Kings", "Fury" and what other film?',
        "During the siege, which General of Ireland and General of India stormed the castle?",
        # two lower-case words open a clause
        "Who starred in the 1979 film, alongside fellow actors Ivo Marsh and Per Aasen?",
    ],
)
def test_clauses_around_and_are_not_the_sides_of_a_comparison(text: str) -> None:
    """A side names a thing: one that holds a question word, or opens with a verb or two
    lower-case words, is a clause of a long question, which then asks for a value, not a choice."""
    assert read_question(text).comparison is None


def test_a_question_word_inside_a_title_stays_a_side() -> None:
    """Capitalised, "Who" is part of a name, not a question word."""
    question = read_question("Which film came out later, Felices 140 or Dr. Who and the Daleks?")
    assert question.comparison is not None
    assert question.comparison.sides == ("Felices 140", "Dr. Who and the Daleks")


def test_or_splits_the_sides_before_and_does() -> None:
    """A name may hold "and"; the choice is between what stands around "or"."""
    question = read_question(
        "Which film is older, Bedknobs and Broomsticks or The Muppet Christmas Carol?"
    )
    assert question.comparison is not None
    assert question.comparison.sides == ("Bedknobs and Broomsticks", "The Muppet Christmas Carol")


def test_sides_set_off_by_commas_inside_the_question() -> None:
    question = read_question(
        "Which canal, Miami Canal or Dundee Canal, also supplies power and water to mills?"
    )
    assert question.comparison is not None
    assert question.comparison.sides == ("Miami Canal", "Dundee Canal")
    assert question.comparison.prefer is Prefer.HOLDS


@pytest.mark.parametrize(
    ("text", "sides", "value"),
    [
        (
            "What occupation do Chris Menges and Aram Avakian share?",
            ("Chris Menges", "Aram Avakian"),
            AnswerType.ENTITY,
        ),
        (
            "Peter Curtis and Scott Draper are both what?",
            ("Peter Curtis", "Scott Draper"),
            AnswerType.ENTITY,
        ),
        (
            "Both the Harbour Museum and Fjordby Lighthouse are in which county?",
            ("Harbour Museum", "Fjordby Lighthouse"),
            AnswerType.PLACE,
        ),
        (
            '"A Summer in the Cage" and "American Hardcore" are both what kind of film?',
            ("A Summer in the Cage", "American Hardcore"),
            AnswerType.ENTITY,
        ),
        (
            "Which writer wrote both The Ganymede Takeover (1967) and The Man in the High Castle?",
            ("The Ganymede Takeover", "The Man in the High Castle"),
            AnswerType.PERSON,
        ),
    ],
)
def test_a_question_what_two_names_share_asks_for_a_common_value(
    text: str, sides: tuple[str, str], value: AnswerType
) -> None:
    comparison = read_question(text).comparison
    assert comparison is not None and comparison.prefer is Prefer.SHARED
    assert comparison.sides == sides
    assert comparison.value is value


@pytest.mark.parametrize(
    "text",
    [
        "Are both Cypress and Ajuga genera?",  # a yes or no: each has the property
        "Ann Lee and Bo Lund were both singers. Which of these men was a drummer?",
    ],
)
def test_a_yes_or_no_or_a_choice_is_not_a_shared_value(text: str) -> None:
    comparison = read_question(text).comparison
    assert comparison is None or comparison.prefer is not Prefer.SHARED


@pytest.mark.parametrize(
    ("text", "relation"),
    [
        (
            "Which film has the director who was born first, Blue Lantern or Red Lantern?",
            "director",
        ),
        ("Which film whose director is younger, Blue Lantern or Red Lantern?", "director"),
        (
            "Do both films Blue Lantern and Red Lantern have the directors from the same country?",
            "director",
        ),
        ("Which director was born first, Maren Olsvik or Ivo Marsh?", None),  # asked for
        ("Who was born first, Maren Olsvik or Ivo Marsh?", None),
        ("Which band has more members, The Lanterns or The Lamps?", None),
    ],
)
def test_a_comparison_of_the_people_the_sides_name(text: str, relation: str | None) -> None:
    """ "the director who was born first" compares the sides' directors, not the sides."""
    comparison = read_question(text).comparison
    assert comparison is not None and comparison.relation == relation


@pytest.mark.parametrize(
    ("text", "roles"),
    [
        ("Where was the father of the director of film Blue Lantern born?", ("director", "father")),
        ("When did Lothair II's mother die?", ("mother",)),
        ("Who is Sigrid of Sweden's paternal grandmother?", ("father", "mother")),
        ("Who is the father-in-law of Maren Olsvik?", ("spouse", "father")),
        ("Andrew Jaspan was the co-founder of what media outlet?", ()),  # he is the founder
        ("Ivo Marsh was the director of which film?", ()),
    ],
)
def test_the_roles_a_question_reaches_through(text: str, roles: tuple[str, ...]) -> None:
    """Nearest the named thing first: "the father of the director of X" is X's director's
    father; a compound kin word is its definition."""
    assert read_question(text).roles == roles


def test_a_side_of_a_yes_or_no_pair_may_hold_small_words_between_capitals() -> None:
    """ "Dead by Sunrise" is one name; the composer trims a trailing property ("Neil
    Jordan American") to what the passages name."""
    comparison = read_question("Were Sound Team and Dead by Sunrise both formed before 2010?")
    assert comparison is not None and comparison.comparison is not None
    assert comparison.comparison.sides == ("Sound Team", "Dead by Sunrise")


@pytest.mark.parametrize(
    "text",
    [
        "Who lived longer, Maren Olsvik or Ivo Marsh?",
        "Which playwright lived a longer life, A or B?",
    ],
)
def test_who_lived_longer_compares_lifespans(text: str) -> None:
    comparison = read_question(text).comparison
    assert comparison is not None and comparison.lifespan
    assert comparison.prefer is Prefer.MORE


@pytest.mark.parametrize(
    ("text", "prefer"),
    [
        ("Which battle lasted longer, Battle of Aachen or Battle of Metz?", Prefer.MORE),
        ("Which satellite was operational for longer, Vela 4 or Orsa?", Prefer.MORE),
        ("Which strike lasted a shorter time, the Dock Strike or the Coal Strike?", Prefer.LESS),
    ],
)
def test_which_lasted_longer_compares_durations(text: str, prefer: Prefer) -> None:
    comparison = read_question(text).comparison
    assert comparison is not None and comparison.duration and not comparison.lifespan
    assert comparison.prefer is prefer


def test_who_was_born_first_compares_dates_not_lifespans() -> None:
    comparison = read_question("Who was born first, Maren Olsvik or Ivo Marsh?").comparison
    assert comparison is not None and not comparison.lifespan


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("Which genus has more species, Aster Vale or Brome Hill?", "speci"),
        ("Who has released more studio albums, A Band or B Band?", "album"),
        ("Which band has more members The Futureheads or Marcy Playground?", "member"),
        ("Who has written more than 300 papers, Ann Lee or Ivo Marsh?", None),
        ("Which species is the most numerous, Aster Vale or Brome Hill?", "speci"),
    ],
)
def test_a_comparison_of_counts_names_what_it_counts(text: str, unit: str | None) -> None:
    """The last word of the phrase after "more", up to a comma, a name or "than"; "the
    most numerous" counts the thing asked about."""
    assert read_question(text).unit == unit


@pytest.mark.parametrize(
    ("text", "prefer"),
    [
        ("Which tower is taller, Elm Tower or Oak House?", Prefer.MORE),
        ("Which airport is busier, Elm Field or Oak Field?", Prefer.MORE),
        ("Which river is shallower, the Elm or the Oak?", Prefer.LESS),
        ("Which airport is closer to its town, Elm Field or Oak Field?", Prefer.LESS),
    ],
)
def test_a_comparative_of_measure_compares_numbers(text: str, prefer: Prefer) -> None:
    comparison = read_question(text).comparison
    assert comparison is not None
    assert (comparison.prefer, comparison.value) == (prefer, AnswerType.NUMBER)


@pytest.mark.parametrize(
    ("text", "sides"),
    [
        (
            "Between Maren Olsvik and Ivo Marsh, which director was born first?",
            ("Maren Olsvik", "Ivo Marsh"),
        ),
        (
            "In between Blue Lantern and Red Lantern which one is older?",
            ("Blue Lantern", "Red Lantern"),
        ),
        ("Which film is older--Blue Lantern or Red Lantern?", ("Blue Lantern", "Red Lantern")),
        ("Which band has the most members, Elm Trio, or Oak Quartet?", ("Elm Trio", "Oak Quartet")),
        (  # the quote mark that closes a clause before the sides is no part of them
            'Which terrier includes types such as "Small" and "Tall," the Elm Terrier or the'
            " Oak Terrier?",
            ("Elm Terrier", "Oak Terrier"),
        ),
        ('Which came first, "Elm Light" or "Oak Road"', ("Elm Light", "Oak Road")),
        # with no comma, the capitalised run before "or" keeps the small words of a name
        ("Which band has more members Band of Elms or Oak ?", ("Band of Elms", "Oak")),
        ("Who was born first Ivo ul Marsh or Ann Lee?", ("Ivo ul Marsh", "Ann Lee")),
    ],
)
def test_sides_may_open_the_question_or_follow_a_dash_or_a_comma(
    text: str, sides: tuple[str, str]
) -> None:
    comparison = read_question(text).comparison
    assert comparison is not None and comparison.sides == sides


@pytest.mark.parametrize(
    ("text", "sides"),
    [
        ('Are both "Elm Light" and "Vibe" magazines?', ("Elm Light", "Vibe")),
        (
            "Were both the Battle of Elm and the Battle of the Oak River fought in 1862?",
            ("Battle of Elm", "Battle of the Oak River"),
        ),
    ],
)
def test_a_yes_or_no_pair_may_be_quoted_or_follow_the(text: str, sides: tuple[str, str]) -> None:
    comparison = read_question(text).comparison
    assert comparison is not None and comparison.prefer is Prefer.BOTH
    assert comparison.sides == sides


@pytest.mark.parametrize(
    ("text", "occupations"),
    [
        ("Who has more scope of profession, Ann Lee or Ivo Marsh?", True),
        ("Which filmmaker had more diverse roles, Ann Lee or Ivo Marsh?", True),
        ("Who played more roles, Ann Lee or Ivo Marsh?", False),
    ],
)
def test_more_occupations_counts_what_each_side_is_defined_by(text: str, occupations: bool) -> None:
    """Roles alone may be parts played: only varied ones are occupations."""
    comparison = read_question(text).comparison
    assert comparison is not None and comparison.occupations is occupations


@pytest.mark.parametrize(
    ("text", "relative", "expected"),
    [
        ("What's the name of the film starring Ann Lee?", (), (AnswerType.WORK, "film")),
        ("What is the name for the adventure in Elm Trolls?", (), (AnswerType.ENTITY, "adventure")),
        ("Which of the teams that Ann Lee led was sold?", (), (AnswerType.ORGANISATION, "team")),
        ("Which of these talented men was jailed?", (), (AnswerType.PERSON, "man")),
        # the parse took the only question word for a relative clause's
        ("Ohio is named after a signatory, who is he?", (33,), (AnswerType.PERSON, None)),
        ("The civil war ended when?", (20,), (AnswerType.DATE, None)),
        ("Ann Lee manages what in the United Kingdom?", (), (AnswerType.ENTITY, None)),
        ("What does the policy cover?", (), (AnswerType.ANY, None)),
        ("Ann Lee was born in 1937, who is he.", (26,), (AnswerType.ANY, None)),
    ],
)
def test_a_question_asks_by_the_word_it_has(
    text: str, relative: tuple[int, ...], expected: tuple[AnswerType, str | None]
) -> None:
    """ "What's", "the name of" (or "for") and "which of" open a phrase; a question with
    no other question word asks by one the parse took for a relative clause's, else by a
    "what" inside it."""
    question = read_question(text, frozenset(relative))
    assert (question.answer_type, question.head) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Which board game was published most recently, Pirate's Cove or Catan?",
        "Which film is the newest, Elm Street or Oak Tree?",
    ],
)
def test_the_most_recent_is_the_later_date_not_the_larger_number(text: str) -> None:
    comparison = read_question(text).comparison
    assert comparison is not None
    assert (comparison.prefer, comparison.value) == (Prefer.LATER, AnswerType.DATE)


def test_a_side_named_after_its_owner_and_kind_is_the_name() -> None:
    text = "Which band has released more albums, Elm Street or Ann Lee's band Oak Tree?"
    comparison = read_question(text).comparison
    assert comparison is not None and comparison.sides == ("Elm Street", "Oak Tree")
    for text, side in [
        ("Which film came out first, Schindler's List or The Pianist?", "Schindler's List"),
        (
            'Which came first, "Hey Pa! There\'s a Goat on the Roof" or "Elm"?',
            "Hey Pa! There's a Goat on the Roof",
        ),
    ]:
        kept = read_question(text).comparison
        assert kept is not None and kept.sides[0] == side


def test_before_a_doing_is_when_not_which_came_first() -> None:
    """ "Drunk before retiring to bed" says when; "which came before" compares dates."""
    timed = read_question(
        "Which is traditionally drunk before retiring to bed, Elm Tea or Oak Ale?"
    )
    assert timed.comparison is not None and timed.comparison.prefer is Prefer.HOLDS
    first = read_question("Which came before, Elm Tea or Oak Ale?")
    assert first.comparison is not None and first.comparison.prefer is Prefer.EARLIER


@pytest.mark.parametrize(
    ("query", "prefer"),
    [
        ("Who was the first Welsh poet to win the prize, Ann Lee or Bo Marsh?", Prefer.HOLDS),
        ("Who was the first to fly, Ann Lee or Bo Marsh?", Prefer.EARLIER),
        ("Who was born first, Ann Lee or Bo Marsh?", Prefer.EARLIER),
    ],
)
def test_the_first_of_a_kind_to_do_a_thing_is_a_distinction_not_an_order(
    query: str, prefer: Prefer
) -> None:
    """ "The first Welsh poet to win the prize" is said of one side; "born first" orders."""
    comparison = read_question(query).comparison
    assert comparison is not None and comparison.prefer is prefer


@pytest.mark.parametrize(
    ("query", "prefer"),
    [
        ("Who has written more than 300 papers, Ann Lee or Bo Marsh?", Prefer.HOLDS),
        ("Which genus has fewer than 10 species, Aster Vale or Brome Hill?", Prefer.HOLDS),
        ("Who has written more papers, Ann Lee or Bo Marsh?", Prefer.MORE),
    ],
)
def test_more_than_a_number_is_a_threshold_one_side_holds(query: str, prefer: Prefer) -> None:
    comparison = read_question(query).comparison
    assert comparison is not None and comparison.prefer is prefer


def test_a_list_whose_last_item_holds_the_question_word_is_no_comparison() -> None:
    query = (
        "Ivo Marsh has made videos for Ann Lee, Bo Marsh, and a country ballad by which pop artist?"
    )
    assert read_question(query).comparison is None


@pytest.mark.parametrize(
    ("text", "prefer"),
    [
        ("Who had the best singles ranking, Ann Lee or Bo Marsh?", Prefer.LESS),
        ("Which university is ranked higher, Elm College or Oak College?", Prefer.LESS),
        ("Which club had the higher world ranking, Elm FC or Oak FC?", Prefer.LESS),
        ("Who had the lowest career ranking, Ann Lee or Bo Marsh?", Prefer.MORE),
        ("Which university is highest-ranked, Elm College or Oak College?", Prefer.LESS),
    ],
)
def test_a_better_rank_is_a_smaller_number(text: str, prefer: Prefer) -> None:
    """ "No. 7" ranks above "No. 51": the best ranking is the least number."""
    comparison = read_question(text).comparison
    assert comparison is not None
    assert (comparison.prefer, comparison.value) == (prefer, AnswerType.NUMBER)
