"""A small corpus whose question takes three hops (club -> founder -> daughter -> birthplace),
among clubs and people that carry the question's words but not its chain: what one search
cannot read whole and retrieval rounds can."""

from __future__ import annotations

from typing import Any

QUESTION = "Where was the daughter of the founder of the Harbor Rowing Club born?"
CHAIN = [
    ("Harbor Rowing Club", "The Harbor Rowing Club was founded in 1921 by Edwin Falk, a"
     " shipbuilder of the old port."),
    ("Edwin Falk", "Edwin Falk was a shipbuilder. His daughter was Marta Halvorsen, who"
     " designed the club's boathouse."),
    ("Marta Halvorsen", "Marta Halvorsen was an architect, born in Kiel in 1905."),
]  # fmt: skip
FOUNDERS = ["Oskar Brandt", "Lena Voss", "Piet Maren", "Ilse Kord", "Jonas Veit", "Ruth Sand"]
CITIES = ["Bremen", "Lübeck", "Rostock", "Emden", "Husum", "Wismar"]


def _distractors() -> list[tuple[str, str]]:
    """Clubs founded by other people, and where other people were born: the question's
    words everywhere, its chain nowhere."""
    docs = []
    for n, (person, city) in enumerate(zip(FOUNDERS, CITIES, strict=True)):
        club = f"{city} Sailing Club"
        docs.append((club, f"The {club} was founded in {1900 + n} by {person}, a merchant."))
        docs.append((person, f"{person} was a merchant, born in {city}. The daughter of"
                     f" {person} founded a rowing school."))  # fmt: skip
    return docs


def club_documents() -> list[dict[str, Any]]:
    return [
        {"externalId": f"d{i}", "title": title, "text": text}
        for i, (title, text) in enumerate([*CHAIN, *_distractors()])
    ]
