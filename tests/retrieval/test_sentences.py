"""Sentences with offsets: every sentence is its passage's text at its offsets."""

from __future__ import annotations

from retrieval.sentences import sentences

REPORT = """# Report INC-1

Severity: SEV-2. Date: 3 March 2026.

Summary
Writes failed for 2 minutes and
11 seconds; 412 requests failed. Nobody was paged!

- 09:14 Volume detached.
- 09:16 Replica promoted.
"""


def test_offsets_give_back_the_text() -> None:
    found = sentences(REPORT)
    assert all(REPORT[s.start : s.end] == s.text for s in found)


def test_boundaries() -> None:
    texts = [s.text for s in sentences(REPORT)]
    assert texts == [
        "# Report INC-1",
        "Severity: SEV-2.",
        "Date: 3 March 2026.",
        "Summary",
        "Writes failed for 2 minutes and\n11 seconds; 412 requests failed.",
        "Nobody was paged!",
        "- 09:14 Volume detached.",
        "- 09:16 Replica promoted.",
    ]


def test_japanese_and_hebrew_punctuation() -> None:
    assert [s.text for s in sentences("第1条 適用する。第2条 契約する。")] == [
        "第1条 適用する。",
        "第2条 契約する。",
    ]
    assert len(sentences("סעיף 3 כל עובד צובר 25 ימים. סעיף 4 ניתן להעביר.")) == 2


def test_initials_and_titles_do_not_end_a_sentence() -> None:
    text = (
        "It was directed by Albert S. Rogell in St. Louis. Dr. Hale wrote it. It won."
        " Jon Waters Jr. (born 1946) saw it."
    )
    assert [s.text for s in sentences(text)] == [
        "It was directed by Albert S. Rogell in St. Louis.",
        "Dr. Hale wrote it.",
        "It won.",
        "Jon Waters Jr. (born 1946) saw it.",
    ]


def test_died_before_a_month_carries_the_sentence_on() -> None:
    """ "d. March 28, 2003" closes a life's brackets; "d." before a surname does not."""
    text = "Lu Elsbett (born 1913 – d. March 28, 2003) was an inventor. Ann d. Mayfield went."
    assert [s.text for s in sentences(text)] == [
        "Lu Elsbett (born 1913 – d. March 28, 2003) was an inventor.",
        "Ann d.",
        "Mayfield went.",
    ]


def test_lower_case_abbreviations_do_not_end_a_sentence() -> None:
    text = "Ann Vale (b. 1901 – d. 1993) was a painter, fl. 1920s. So it is. 1994 came."
    assert [s.text for s in sentences(text)] == [
        "Ann Vale (b. 1901 – d. 1993) was a painter, fl. 1920s.",
        "So it is.",
        "1994 came.",
    ]


def test_number_volume_and_opus_before_a_number_do_not_end_a_sentence() -> None:
    text = "Her best ranking was World No. 7 in 2013. Vol. 2 and Op. 27 came later. No. It did not."
    assert [s.text for s in sentences(text)] == [
        "Her best ranking was World No. 7 in 2013.",
        "Vol. 2 and Op. 27 came later.",
        "No.",
        "It did not.",
    ]


def test_a_period_before_a_lower_case_word_ends_no_sentence() -> None:
    """An abbreviation's period: "the U.S. state of", "e.g. a song"."""
    text = "Vale is a county in the U.S. state of Ohio, e.g. a quiet one. Its seat is Ross."
    assert [s.text for s in sentences(text)] == [
        "Vale is a county in the U.S. state of Ohio, e.g. a quiet one.",
        "Its seat is Ross.",
    ]


def test_a_mark_before_a_comma_ends_no_sentence() -> None:
    text = 'Outrage! , "the official board game", was created in 1992. Players move.'
    assert [s.text for s in sentences(text)] == [
        'Outrage! , "the official board game", was created in 1992.',
        "Players move.",
    ]


def test_a_title_s_own_mark_before_a_bracket_ends_no_sentence() -> None:
    """ "Arise! (German: …) is a film": the title's exclamation mark; a period before a
    bracket still ends one."""
    text = "Tabitha, Arise! (German: Tabea, stehe auf!) is a 1922 film. (Lost) Sets by Jack."
    assert [s.text for s in sentences(text)] == [
        "Tabitha, Arise! (German: Tabea, stehe auf!) is a 1922 film.",
        "(Lost) Sets by Jack.",
    ]
