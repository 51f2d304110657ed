"""Answers that need two passages, by the extractive composer on a small corpus written for
the purpose: a bridge (the answer sits in the passage of an entity the question never
names), and a property asked of two names (each side's own passage decides)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.localdb.stack import Stack
from tests.app.answers.test_answers import ask
from tests.graph_helpers import graphed_collection
from tests.graphql_client import GraphQLClient

pytestmark = pytest.mark.integration

PAGES = {  # titled by their keys; the markdown headings would serve as well
    "blue-lantern": "# Blue Lantern\n\nBlue Lantern is a 1961 Norwegian drama film directed by"
    " Maren Olsvik and starring Per Aasen. It was shot on the coast near Ålesund.\n",
    "maren-olsvik": "# Maren Olsvik\n\nMaren Olsvik (4 May 1920 – 2 June 1990) was a Norwegian"
    " film director and screenwriter. She was born in Bergen and trained as a painter.\n",
    "per-aasen": "# Per Aasen\n\nPer Aasen (born 12 March 1931 in Trondheim) is a Norwegian"
    " actor of stage and screen.\n",
    "red-lantern": "# Red Lantern\n\nRed Lantern is a 1955 Danish thriller film directed by"
    " Ivo Marsh. The film Red Lantern came out on video in 1998, on one disc with Blue"
    " Lantern.\n",
    "ivo-marsh": "# Ivo Marsh\n\nIvo Marsh (born 1938 in Leeds) was an English director of"
    " thrillers.\n",
    "carla-rossi": "# Carla Rossi\n\nCarla Rossi (born 3 May 1956) is an Italian physicist who"
    " has worked in Italy, in Spain and, since 2000, in France.\n",
    "harbour-museum": "# Harbour Museum\n\nThe Harbour Museum is a maritime museum in Fjordby,"
    " a town in Vestland County. It opened in 1952.\n",
    "fjordby-lighthouse": "# Fjordby Lighthouse\n\nFjordby Lighthouse is a lighthouse on the"
    " headland of Fjordby, Vestland County. It was first lit in 1899.\n",
}


# A film, its director and his parents, apart from the pages above so that their words
# do not compete with those pages' questions.
FAMILY = {
    "grey-harbour": "# Grey Harbour\n\nGrey Harbour is a 1964 British crime film directed by"
    " Tom Hale.\n",
    "tom-hale": "# Tom Hale\n\nTom Hale (1921 – 1999) was an English film director. He was the"
    " son of Olav Hale and Ingrid Dahl.\n",
    "olav-hale": "# Olav Hale\n\nOlav Hale (1890 – 1961) was a Norwegian sailor. He was born in"
    " Stavanger and sailed for forty years.\n",
    "ingrid-dahl": "# Ingrid Dahl\n\nIngrid Dahl (1894 – 1970) was a Norwegian teacher. She was"
    " born in Molde, where she taught for thirty years.\n",
}


# Two bands, one titled with a qualifier, and an album's page that names that one beside
# a size of something else.
BANDS = {
    "elm-street": "# Elm Street (band)\n\nElm Street are an English rock duo from Leeds, formed"
    " in 2009.\n",
    "oak-tree": "# Oak Tree\n\nOak Tree are an English rock band. The band consists of Tom"
    " Baker (vocals), Jack Moore (guitar) and Sam Wood (drums).\n",
    "quiet-hours": "# Quiet Hours\n\nQuiet Hours is a 2012 album by the band Elm Street,"
    " whose members recorded it with a five-piece horn section.\n",
    "night-owls": "# Night Owls\n\nNight Owls are a Welsh folk band from Cardiff.\n",
    "pine-road": "# Pine Road\n\nPine Road is a rock band. It consists of Tom Baker, once of"
    " Night Owls, Jack Moore and Sam Wood.\n",
}


# An album and its single, each naming the singer; an actor's page under his stage name.
MEETINGS = {
    "open-roads": "# Open Roads\n\nOpen Roads is the third studio album by American folk"
    " singer Lena Voss.\n",
    "winter-light": "# Winter Light (song)\n\nWinter Light is a song recorded by American folk"
    " singer Lena Voss featuring Tom Brandt.\n",
    "night-train": "# Night Train (1951 film)\n\nNight Train is a 1951 crime film. The film"
    " stars Carl Brandt and Ida Lund.\n",
    "carl-brandt": "# Carl Brandt\n\nCarl Brandt (born Carl Branting; 3 May 1901 – 1980) was"
    " an American film actor and dancer.\n",
    "harbour-lights": "# Harbour Lights\n\nHarbour Lights is an American sports television"
    " series, premiering in January 1973, that shows sailing races.\n",
    "nine-awards": "# Nine Awards 2005\n\nThe Nine Awards is a ceremony organised by the Fjord"
    " Network. Fjord Network Channel 9 broadcast the ceremony from 7 pm in 2005.\n",
    "rose-garden": "# Rose Garden (band)\n\nRose Garden was a punk band from London. Despite"
    ' never playing live, they were interviewed by a fanzine named "Skum", in which Tim Vale'
    " said he would stay as he was.\n",
    "tim-vale": "# Tim Vale\n\nTim Vale (born John Vallance; 1957 – 1979) was an English"
    " bassist and a member of the Sex Dolls.\n",
    "cold-rain": "# Cold Rain\n\nCold Rain is a song by Canadian rock band Maple Union, released"
    " as the third single from their 1993 album Counterpoint.\n",
}


def collection_of(
    gql: GraphQLClient, stack: Stack, pages: dict[str, str]
) -> tuple[GraphQLClient, str]:
    """A new collection of the pages, titled by their headings, once all are graphed: the
    bridges are found by the graph leg, which a question asked before the graph would
    miss."""
    docs = [
        {
            "externalId": key,
            "title": text.split("\n", 1)[0].removeprefix("# "),
            "text": text,
            "contentType": "text/markdown",
        }
        for key, text in pages.items()
    ]
    return gql, graphed_collection(gql, stack, *docs)


@pytest.fixture(scope="module")
def films(http: httpx.Client, stack: Stack, tenant_key_module: str) -> tuple[GraphQLClient, str]:
    return collection_of(GraphQLClient(http, tenant_key_module), stack, PAGES)


@pytest.fixture(scope="module")
def family(http: httpx.Client, stack: Stack, tenant_key_module: str) -> tuple[GraphQLClient, str]:
    return collection_of(GraphQLClient(http, tenant_key_module), stack, FAMILY)


@pytest.fixture(scope="module")
def bands(http: httpx.Client, stack: Stack, tenant_key_module: str) -> tuple[GraphQLClient, str]:
    return collection_of(GraphQLClient(http, tenant_key_module), stack, BANDS)


@pytest.fixture(scope="module")
def meetings(http: httpx.Client, stack: Stack, tenant_key_module: str) -> tuple[GraphQLClient, str]:
    return collection_of(GraphQLClient(http, tenant_key_module), stack, MEETINGS)


def short(films: tuple[GraphQLClient, str], query: str) -> tuple[str | None, dict[str, Any]]:
    answer = ask(films, query)
    return answer["brief"]["shortAnswer"], answer


def cited_titles(answer: dict[str, Any]) -> set[str]:
    return {s["document"]["title"] for s in answer["sources"] if s["cited"]}


def test_the_answer_is_read_in_the_passage_of_the_bridge(
    films: tuple[GraphQLClient, str],
) -> None:
    found, answer = short(films, "Where was the director of film Blue Lantern born?")
    assert found == "Bergen"
    # the film names her; her page says where
    assert cited_titles(answer) == {"Blue Lantern", "Maren Olsvik"}


def test_the_bridge_is_the_entity_the_question_relates_to(
    films: tuple[GraphQLClient, str],
) -> None:
    """The film's passage names two people; the director, not the actor, is followed."""
    found, _ = short(films, "When did the director of film Blue Lantern die?")
    assert found == "2 June 1990"


def test_a_what_noun_question_asks_for_that_kind_of_name(
    films: tuple[GraphQLClient, str],
) -> None:
    found, _ = short(films, "The Harbour Museum is in which county?")
    assert found == "Vestland County"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Are Maren Olsvik and Ivo Marsh both film directors?", "yes"),
        ("Are Per Aasen and Maren Olsvik both actors?", "no"),
        ("Who also trained as a painter, Ivo Marsh or Maren Olsvik?", "Maren Olsvik"),
        # the property follows the second name, capitalised: the side is what a page names
        ("Are both Per Aasen and Maren Olsvik Norwegian?", "yes"),
        ("Are both Maren Olsvik and Ivo Marsh Norwegian?", "no"),
        # he is a director, but an English one: a people named settles it
        ("Are Maren Olsvik and Ivo Marsh both Norwegian directors?", "no"),
        ("Who was a Norwegian director, Ivo Marsh or Maren Olsvik?", "Maren Olsvik"),
    ],
)
def test_a_property_of_two_names_is_read_in_each_ones_passage(
    films: tuple[GraphQLClient, str], query: str, expected: str
) -> None:
    found, answer = short(films, query)
    assert found == expected
    assert len(cited_titles(answer)) == 2


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Which film was shot on the coast near Ålesund?", "Blue Lantern"),
        ("Which director was born in Bergen and trained as a painter?", "Maren Olsvik"),
    ],
)
def test_a_described_thing_is_the_subject_of_the_passage_that_fits(
    films: tuple[GraphQLClient, str], query: str, expected: str
) -> None:
    """The sentence that fits names no film ("It was shot …"): the answer is what its
    passage is about, because the page's opening sentence calls it a film."""
    found, answer = short(films, query)
    assert found == expected
    assert answer["claims"][-1]["status"] == "SUPPORTED"
    assert expected in cited_titles(answer)


def test_a_subject_of_another_kind_is_not_the_answer(films: tuple[GraphQLClient, str]) -> None:
    """Her page fits, but it calls her a director, not an actor."""
    found, _ = short(films, "Which actor was born in Bergen and trained as a painter?")
    assert found != "Maren Olsvik"


def test_of_two_dates_the_one_next_to_the_question_s_words_answers(
    films: tuple[GraphQLClient, str],
) -> None:
    """Her birth date comes first in the sentence; "since 2000, in France" answers."""
    found, _ = short(films, "Since what year has the physicist Carla Rossi worked in France?")
    assert found == "2000"


def test_a_side_s_date_is_read_in_its_opening_first(films: tuple[GraphQLClient, str]) -> None:
    """ "came out on video in 1998, … with Blue Lantern" holds more of the question's words;
    the opening dates the film itself."""
    found, _ = short(films, "Which film came out first, Blue Lantern or Red Lantern?")
    assert found == "Red Lantern"


def test_the_same_director_compares_the_two_people(films: tuple[GraphQLClient, str]) -> None:
    found, answer = short(films, "Are Blue Lantern and Red Lantern by the same director?")
    assert found == "no"
    assert {"Blue Lantern", "Red Lantern"} <= cited_titles(answer)


def test_was_a_or_b_born_first_compares_the_two_people(
    films: tuple[GraphQLClient, str],
) -> None:
    """The question's opening verb and its closing words are no part of either name."""
    found, answer = short(films, "Was Maren Olsvik or Ivo Marsh born first?")
    assert found == "Maren Olsvik"
    assert cited_titles(answer) == {"Maren Olsvik", "Ivo Marsh"}


@pytest.mark.parametrize(
    ("query", "expected", "titles"),
    [
        (
            "What occupation do Maren Olsvik and Ivo Marsh share?",
            "director",
            {"Maren Olsvik", "Ivo Marsh"},
        ),
        (
            "Both the Harbour Museum and Fjordby Lighthouse are in which county?",
            "Vestland County",
            {"Harbour Museum", "Fjordby Lighthouse"},
        ),
    ],
)
def test_what_two_names_have_in_common_is_read_in_both_passages(
    films: tuple[GraphQLClient, str], query: str, expected: str, titles: set[str]
) -> None:
    """A class both opening sentences define them as ("film director", "director of
    thrillers"), or a value of the type asked for that both passages hold."""
    found, answer = short(films, query)
    assert found == expected
    assert cited_titles(answer) == titles


def test_a_comparison_of_the_people_the_sides_name_reads_each_one_s_passage(
    films: tuple[GraphQLClient, str],
) -> None:
    """Red Lantern is the older film, but its director was born later (1938, not 1920):
    each film's passage names its director, whose own passage holds the date."""
    query = "Which film has the director who was born later, Blue Lantern or Red Lantern?"
    found, answer = short(films, query)
    assert found == "Red Lantern"
    assert cited_titles(answer) == {"Blue Lantern", "Red Lantern", "Maren Olsvik", "Ivo Marsh"}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("Where was the father of the director of film Grey Harbour born?", "Stavanger"),
        ("Where was the mother of the director of film Grey Harbour born?", "Molde"),
        ("Who is the mother of the director of film Grey Harbour?", "Ingrid Dahl"),
    ],
)
def test_a_chain_of_roles_is_followed_passage_by_passage(
    family: tuple[GraphQLClient, str], query: str, expected: str
) -> None:
    """The film's passage names its director; his names his parents ("the son of A and
    B"), told apart by their own passages' pronouns; the answer is read in the last one's
    passage."""
    found, answer = short(family, query)
    assert found == expected
    assert {"Grey Harbour", "Tom Hale"} <= cited_titles(answer)


def test_more_members_counts_a_size_word_and_the_people_a_band_is_said_to_consist_of(
    bands: tuple[GraphQLClient, str],
) -> None:
    """A duo is two, and Oak Tree's page lists three members. Elm Street's own page, titled
    "Elm Street (band)", is read before the album's, whose five-piece is no band member."""
    found, answer = short(bands, "Which band has more members, Elm Street or Oak Tree?")
    assert found == "Oak Tree"
    assert cited_titles(answer) == {"Elm Street (band)", "Oak Tree"}


def test_more_diverse_roles_counts_the_occupations_each_opening_names(
    films: tuple[GraphQLClient, str],
) -> None:
    """Maren Olsvik is a film director and screenwriter, Ivo Marsh a director only."""
    query = "Who had more diverse roles in film, Ivo Marsh or Maren Olsvik?"
    found, answer = short(films, query)
    assert found == "Maren Olsvik"
    assert cited_titles(answer) == {"Maren Olsvik", "Ivo Marsh"}


def test_another_band_s_line_up_is_no_count_of_a_band_it_names(
    bands: tuple[GraphQLClient, str],
) -> None:
    """Pine Road's three members include one once of Night Owls: that is no count of Night
    Owls, whose own page gives no size. Elm Street, a duo, has more than none counted, and
    the passages do not settle it."""
    found, answer = short(bands, "Which band has more members, Elm Street or Night Owls?")
    assert found == "Elm Street"
    assert answer["brief"]["settled"] is False
    assert "Pine Road" not in cited_titles(answer)


def test_where_two_named_passages_name_one_entity_of_the_type_asked_it_is_the_answer(
    meetings: tuple[GraphQLClient, str],
) -> None:
    """The album's sentence names the singer; the single's names her and a featured
    artist. The question's two halves meet at her, not at the name only the single's has."""
    query = "Open Roads is an album by which folk singer, with the single Winter Light?"
    found, answer = short(meetings, query)
    assert found == "Lena Voss"
    assert cited_titles(answer) == {"Open Roads", "Winter Light (song)"}


def test_a_described_person_is_named_by_their_page_s_title_not_a_birth_name(
    meetings: tuple[GraphQLClient, str],
) -> None:
    """His page calls him an actor and dancer; "born Carl Branting" shares a word with
    the title but is not the name the collection knows him by."""
    query = "Which American film actor and dancer starred in the 1951 film Night Train?"
    found, _ = short(meetings, query)
    assert found == "Carl Brandt"


def test_a_thing_the_best_sentence_opens_its_page_about_is_what_the_question_describes(
    meetings: tuple[GraphQLClient, str],
) -> None:
    """The series' opening sentence fits the question but for the channel, which another
    page names: the question described the series, and no hop leaves it."""
    query = "Channel 9 has broadcast which American sports series that premiered in 1973?"
    found, answer = short(meetings, query)
    assert found == "Harbour Lights"
    assert "Harbour Lights" in cited_titles(answer)


def test_a_name_set_beside_the_noun_asked_answers_and_no_hop_leaves_it(
    meetings: tuple[GraphQLClient, str],
) -> None:
    """The band's page names the fanzine; the bassist's own page adds the question's
    "bassist" but names no fanzine."""
    query = "What was the name of the fanzine that interviewed the bassist of Rose Garden?"
    found, answer = short(meetings, query)
    assert found == "Skum"
    assert "Rose Garden (band)" in cited_titles(answer)


def test_a_value_named_as_the_kind_asked_is_not_replaced_by_its_page_s_subject(
    meetings: tuple[GraphQLClient, str],
) -> None:
    """The song's page is about the song, but names the band as a band."""
    query = "Which Canadian rock band released a song from their 1993 album Counterpoint?"
    found, _ = short(meetings, query)
    assert found == "Maple Union"
