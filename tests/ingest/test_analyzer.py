"""The shared analyzer: normalisation, Hebrew, English stemming and stopwords, CJK bigrams."""

from __future__ import annotations

from ingest.analyzer import analyze, trim_hebrew_prefixes


def test_english_is_case_folded_stemmed_and_stopworded() -> None:
    assert analyze("The Contracts were TERMINATED, running ﬁles") == [
        "contract",
        "termin",
        "run",
        "file",
    ]


def test_nfkc_folds_compatibility_forms() -> None:
    assert analyze("ＡＢＣ １２３") == analyze("abc 123") == ["abc", "123"]


def test_hebrew_niqqud_is_removed_and_prefixes_meet_the_bare_form() -> None:
    bare = analyze("משפט")
    for form in ("המשפט", "וְהַמִּשְׁפָּט", "במשפט", "ושהמשפט"):
        assert analyze(form) == bare, form
    assert analyze('צה"ל') == analyze("צה״ל") == ["צהל"]


def test_hebrew_stem_keeps_two_letters() -> None:
    assert trim_hebrew_prefixes("של") == "של"
    assert trim_hebrew_prefixes("ושל") == "של"
    assert all(len(trim_hebrew_prefixes(w)) >= 2 for w in ("בבב", "ומה", "שמש"))


def test_cjk_becomes_bigrams() -> None:
    assert analyze("契約の解除") == ["契約", "約の", "の解", "解除"]
    assert analyze("第3条") == ["第", "3", "条"]
    assert analyze("한국어") == ["한국", "국어"]


def test_mixed_scripts_split_cleanly() -> None:
    assert analyze("Trellis検索API") == ["trelli", "検索", "api"]
