"""The answer's HTML: escaped, markers as links, direction, and <bdi> in right-to-left text."""

from __future__ import annotations

from app.answers.html import render


def test_left_to_right_text_is_escaped_with_links() -> None:
    html = render("a <b> & c [[SRC:0002]] d [[SRC:0009]]", "en", "LTR", {"SRC:0002": 1})
    assert html == (
        '<p dir="ltr" lang="en">a &lt;b&gt; &amp; c '
        '<a class="source" href="#SRC:0002" data-ref="SRC:0002">[1]</a> d </p>'
    )


def test_numbers_dates_codes_and_latin_runs_are_isolated_in_rtl() -> None:
    html = render("ב־3 במרץ 2026 דווח INC-2041 על ידי Priya Natarajan.", "he", "RTL", {})
    assert html.startswith('<p dir="rtl" lang="he">')
    assert "<bdi>3</bdi>" in html and "<bdi>2026</bdi>" in html
    assert "<bdi>INC-2041</bdi>" in html and "<bdi>Priya Natarajan</bdi>." in html
