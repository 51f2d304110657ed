"""Title links: the documents the best passages name by title come next."""

from __future__ import annotations

from retrieval.title_links import (
    MAX_LINKS,
    Titled,
    linked_first,
    mentions,
    named_forms,
    title_forms,
)

TITLES = {
    "film": Titled("d-film", "Big Stone Gap (film)"),
    "other": Titled("d-other", "Kingston Morning"),
    "third": Titled("d-third", "Nola (film)"),
    "author": Titled("d-author", "Adriana Trigiani"),
    "author-2": Titled("d-author", "Adriana Trigiani"),
    "magazine": Titled("d-magazine", "December (magazine)"),
}
FILM = "Big Stone Gap is a 2014 romantic comedy written and directed by Adriana Trigiani."


def test_a_named_document_follows_the_best_passages_by_its_best_passage() -> None:
    order = ["film", "other", "third", "magazine", "author", "author-2"]
    texts = {"film": FILM, "other": "A morning in Kingston.", "third": "Nola, in the winter."}
    assert linked_first(order, texts, TITLES) == [
        "film",
        "other",
        "third",
        "author",
        "magazine",
        "author-2",
    ]


def test_the_best_passages_keep_their_places_and_a_document_names_not_itself() -> None:
    order = ["other", "film", "third", "author"]
    texts = {"film": FILM}
    assert linked_first(order, texts, TITLES) == order
    alone = {
        "film": Titled("d-film", "Big Stone Gap (film)"),
        "x": Titled("d-film", "Big Stone Gap"),
    }
    assert linked_first(["film", "a", "b", "x"], {"film": FILM}, alone) == ["film", "a", "b", "x"]


def test_no_more_than_max_links_are_lifted() -> None:
    listed = {f"p{i}": Titled(f"d{i}", f"Person Number{i}") for i in range(MAX_LINKS + 2)}
    page = " and ".join(f"Person Number{i}" for i in range(MAX_LINKS + 2))
    order = ["list", "a", "b", "c", *listed]
    lifted = linked_first(order, {"list": page}, listed)
    assert lifted[3 : 3 + MAX_LINKS] == [f"p{i}" for i in range(MAX_LINKS)]
    assert lifted[3 + MAX_LINKS] == "c"


def names(text: str, title: str) -> bool:
    return bool(named_forms([text], title))


def test_a_title_is_named_whole_in_its_own_case() -> None:
    assert names(FILM, "Adriana Trigiani") and names(FILM, "Big Stone Gap (film)")
    assert not names(FILM, "Adriana Trigianis") and not names(FILM, "Ston")
    assert not names("big stone gap is a town", "Big Stone Gap (film)")
    assert named_forms(["born in Kiss and Tell, a film"], "Kiss and Tell (1945 film)") == {
        "Kiss and Tell"
    }


def test_a_question_names_a_title_in_any_case_where_it_writes_a_capital() -> None:
    asked = "Who scored The Fall Of Tern Island?"
    assert mentions(asked, "The Fall of Tern Island (1961 film)") == [(11, 34)]
    qualified = "Who scored Tern Island (Film)?"
    assert mentions(qualified, "Tern Island (film)") == [(11, 29), (11, 22)]  # longest first
    assert mentions("will they run home?", "Run (film)") == []


def test_a_name_links_one_document() -> None:
    pages = {
        "actor": Titled("d-actor", "Tara Strong"),
        "season": Titled("d-season", "Teen Titans (season 1)"),
        "show": Titled("d-show", "Teen Titans (TV series)"),
        "spin-off": Titled("d-spin-off", "Teen Titans Go! (TV series)"),
    }
    text = 'voice roles in "Teen Titans" and the spin-off "Teen Titans Go!"'
    order = ["actor", "a", "b", "season", "show", "spin-off"]
    assert linked_first(order, {"actor": text}, pages) == [
        "actor",
        "a",
        "b",
        "season",
        "spin-off",
        "show",
    ]


def test_a_name_whose_page_is_among_the_best_passages_links_nothing_more() -> None:
    pages = {
        "actor": Titled("d-actor", "Tara Strong"),
        "show": Titled("d-show", "Teen Titans"),
        "season": Titled("d-season", "Teen Titans (season 1)"),
        "soundtrack": Titled("d-soundtrack", "Alien (soundtrack)"),
        "film": Titled("d-film", "Alien (film)"),
    }
    texts = {"actor": 'roles in "Teen Titans" and in Alien', "soundtrack": "the score of Alien"}
    order = ["actor", "show", "soundtrack", "x", "season", "film"]
    lifted = linked_first(order, texts, pages)
    assert lifted == ["actor", "show", "soundtrack", "film", "x", "season"]


def test_a_title_with_character_references_is_named_as_text_writes_it() -> None:
    assert names("aired on Will & Grace", "Will &amp; Grace")
    assert names("ran Mitchells & Butlers, a company", "Mitchells &amp; Butlers (company)")


def test_small_words_and_prose_titles_link_nothing() -> None:
    assert title_forms("It (novel)") == {"It (novel)"}
    assert title_forms("More") == set() and title_forms("a quiet year") == set()
    assert title_forms("A") == set()
    assert title_forms("Kiss and Tell (1945 film)") == {
        "Kiss and Tell (1945 film)",
        "Kiss and Tell",
    }
