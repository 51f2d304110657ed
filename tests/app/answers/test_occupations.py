"""Occupations by the broader ones they are kinds of."""

from __future__ import annotations

from app.answers.occupations import broader_held
from ingest.analyzer import analyze


def test_a_narrow_occupation_holds_the_broad_one_and_not_the_other_way() -> None:
    def held(text: str, asked: str) -> frozenset[str]:
        return broader_held(frozenset(analyze(text)), frozenset(analyze(asked)))

    assert held("singer and guitarist", "musicians") == frozenset(analyze("musician"))
    assert held("novelist", "writer") == frozenset(analyze("writer"))
    assert held("film director", "filmmakers") == frozenset(analyze("filmmaker"))
    assert held("musician", "guitarist") == frozenset()
    assert held("actor and painter", "musician") == frozenset()
