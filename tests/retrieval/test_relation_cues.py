from __future__ import annotations

from retrieval.relation_cues import CuedPassage, cue_terms

PASSAGE = "Titanic is a 1997 film directed by James Cameron. It stars Leonardo DiCaprio."


def _span(name: str) -> list[tuple[int, int]]:
    start = PASSAGE.index(name)
    return [(start, start + len(name))]


def test_cues_are_the_words_outside_the_linked_names() -> None:
    cues = cue_terms("Where was the director of film Titanic born?", ["titanic"])
    assert cues == {"director", "film", "born"}


def test_the_mention_beside_the_relation_word_is_strongest() -> None:
    cues = cue_terms("Who is the director of Titanic?", ["titanic"])
    passage = CuedPassage(PASSAGE, cues)
    director = passage.strength(_span("James Cameron"))
    actor = passage.strength(_span("Leonardo DiCaprio"))
    assert director > 0 and actor == 0  # "stars" is another sentence's relation


def test_closer_cue_words_count_more() -> None:
    text = "Her husband, the painter John Smith, met the composer Ann Lee."
    cues = cue_terms("Who was her husband?", [])
    passage = CuedPassage(text, cues)
    near = passage.strength([(text.index("John"), text.index("John") + 10)])
    far = passage.strength([(text.index("Ann"), text.index("Ann") + 7)])
    assert near > far


def test_title_mentions_and_empty_cues_score_nothing() -> None:
    assert CuedPassage(PASSAGE, frozenset({"film"})).strength([(0, 0)]) == 0
    assert CuedPassage(PASSAGE, frozenset()).strength(_span("James Cameron")) == 0
