"""A small encyclopaedia written for the tests: titled passages about films, composers,
rivers, athletes and bands, with shared names, dates and places, so BM25, the keyword index
and the graph have real variety to work on without any outside data."""

from __future__ import annotations

FIRST = ["Anna", "Boris", "Clara", "Dmitri", "Elena", "Felix", "Greta", "Hugo", "Irene", "Jonas"]
LAST = ["Albrecht", "Brennan", "Castell", "Dunmore", "Ekholm", "Fairweather", "Grunwald"]
PLACES = ["Leipzig", "Boston", "Lyon", "Turin", "Bergen", "Cork", "Graz", "Porto", "Ghent"]
COUNTRIES = ["Germany", "France", "Italy", "Norway", "Ireland", "Austria", "Portugal"]
WORDS = ["Silver", "Quiet", "Northern", "Broken", "Golden", "Hidden", "Last", "Winter"]
THINGS = ["Harbour", "Garden", "Road", "Lantern", "Bridge", "Season", "Letter", "Orchard"]


def person(i: int) -> str:
    return f"{FIRST[i % len(FIRST)]} {LAST[(i * 3) % len(LAST)]}"


def work(i: int) -> str:
    return f"The {WORDS[i % len(WORDS)]} {THINGS[(i * 5) % len(THINGS)]}"


def _film(i: int) -> tuple[str, str]:
    title = f"{work(i)} ({1950 + i % 60} film)"
    return title, (
        f"{work(i)} is a {1950 + i % 60} drama film directed by {person(i)}. It was shot in "
        f"{PLACES[i % len(PLACES)]} and stars {person(i + 4)}. The film premiered at a festival "
        f"in {COUNTRIES[i % len(COUNTRIES)]} and won an award for its score."
    )


def _composer(i: int) -> tuple[str, str]:
    name = person(i + 1)
    return f"{name} (composer)", (
        f"{name} was a composer born in {PLACES[(i + 2) % len(PLACES)]} in {1820 + i % 90}. "
        f"He wrote three symphonies and the opera {work(i + 2)}. The composer died in "
        f"{PLACES[(i + 5) % len(PLACES)]} in {1880 + i % 90} after a long illness."
    )


def _river(i: int) -> tuple[str, str]:
    name = f"{THINGS[i % len(THINGS)]}bach"
    country = COUNTRIES[i % len(COUNTRIES)]
    return name, (
        f"The {name} is a river in {country}. It rises near {PLACES[i % len(PLACES)]} and "
        f"flows for {40 + i % 200} kilometres before it joins a larger river. Its valley is "
        f"known for vineyards, mills and a bridge built in {1600 + i % 300}."
    )


def _athlete(i: int) -> tuple[str, str]:
    name = person(i + 2)
    return f"{name} (American football)", (
        f"{name} is a retired American football player born {1940 + i % 50} in "
        f"{PLACES[(i + 1) % len(PLACES)]}. He played as a linebacker for eleven seasons and "
        f"later coached at a college in {PLACES[(i + 3) % len(PLACES)]}."
    )


def _album(i: int) -> tuple[str, str]:
    band = f"The {THINGS[(i + 1) % len(THINGS)]}s"
    return f"{work(i + 3)} (album)", (
        f"{work(i + 3)} is the {['first', 'second', 'third'][i % 3]} studio album released by "
        f"the band {band} in {1965 + i % 55}. It was recorded in {PLACES[i % len(PLACES)]} and "
        f"produced by {person(i + 5)}; the band toured {COUNTRIES[i % len(COUNTRIES)]} after it."
    )


_KINDS = (_film, _composer, _river, _athlete, _album)
# Asides of different lengths, so no two passages score exactly alike by construction.
_ASIDES = [
    "Critics praised it.",
    "Local newspapers covered the story at length for several weeks.",
    "A museum now keeps the original papers.",
    "Little else is recorded.",
    "Historians still argue about the dates, the sources and the people involved.",
    "A plaque marks the spot.",
    "Several letters from that period survive in a private collection near the coast.",
]


def passages(count: int) -> list[dict[str, str]]:
    """`count` titled passages, the same every run; titles are unique."""
    found: list[dict[str, str]] = []
    seen: set[str] = set()
    i = 0
    while len(found) < count:
        title, text = _KINDS[i % len(_KINDS)](i // len(_KINDS))
        asides = [_ASIDES[(i * k) % len(_ASIDES)] for k in range(1, 2 + i % 3)]
        text = " ".join([text, *asides])
        i += 1
        if title in seen:
            title = f"{title} ({i})"
        seen.add(title)
        found.append({"title": title, "text": text})
    return found
