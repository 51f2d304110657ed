"""Countries and their provinces by any of their names."""

from __future__ import annotations

from app.answers.countries import countries_in, provinces_in


def test_a_demonym_and_an_abbreviation_name_one_country() -> None:
    assert "united states" in countries_in("an American band") & countries_in("the U.S.")


def test_a_province_is_named_with_its_country() -> None:
    assert provinces_in("Jimo is a district of Qingdao, Shandong.") == {
        "Shandong": frozenset({"china"})
    }
    assert "Pennsylvania" in provinces_in("Pittsburgh, Pennsylvania")


def test_a_country_is_no_province() -> None:
    assert provinces_in("a city in China") == {}


def test_america_names_the_united_states_as_english_uses_it() -> None:
    assert countries_in("a university located in America") == frozenset({"united states"})
    assert countries_in("South America") == frozenset()
