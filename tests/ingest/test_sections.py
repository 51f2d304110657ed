"""The section map recognises headings and named units in several languages."""

from __future__ import annotations

from ingest.parsing import MARKDOWN, parse_text
from ingest.sections import section_at, section_map


def test_markdown_contract_paths_and_ranges() -> None:
    text = (
        "# Agreement\n\nChapter 2 Obligations\n\nSection 2.3 Payment\n\nPay in 30 days.\n\n"
        "4.2.1 Termination\n\nNotice applies.\n\nAppendix A Pricing\n\nFees.\n"
    )
    parsed = parse_text(MARKDOWN, text)
    sections = section_map(parsed.text, parsed.headings)
    paths = [s.path for s in sections]
    assert paths == [
        "Agreement",
        "Chapter 2",
        "Chapter 2 > Section 2.3",
        "Chapter 2 > 4.2.1",
        "Appendix A",
    ]
    payment = sections[2]
    assert text[payment.start : payment.end].startswith("Section 2.3 Payment")
    assert "4.2.1" not in text[payment.start : payment.end]
    assert section_at(sections, text.index("Pay in 30")) == payment


def test_hebrew_units() -> None:
    text = "פרק 1 הגדרות\nטקסט\nסעיף 3 תשלום\nטקסט\nנספח א מחירים\nטקסט\n"
    assert [s.path for s in section_map(text, [])] == ["פרק 1", "פרק 1 > סעיף 3", "נספח א"]


def test_japanese_units() -> None:
    text = "第2章 契約\n本文\n第3条 解除\n本文\n付録 料金表\n"
    sections = section_map(text, [])
    assert [s.label for s in sections] == ["第2章", "第3条", "付録 料金表"]
    assert sections[1].path == "第2章 > 第3条"


def test_numbered_list_items_are_not_sections() -> None:
    text = "Steps:\n1. Call the on-call engineer.\n2. Open an incident, then page the lead.\n"
    assert section_map(text, []) == []


def test_article_clause_schedule() -> None:
    text = "Article 5 Liability\nText.\nClause 5.1 Caps\nText.\nSchedule 2 Services\nText."
    assert [(s.kind, s.label) for s in section_map(text, [])] == [
        ("article", "Article 5"),
        ("clause", "Clause 5.1"),
        ("appendix", "Schedule 2"),
    ]


def test_a_cited_section_at_a_line_start_is_not_a_heading() -> None:
    text = "The renewal failed.\nSection 3.2 of the security policy requires renewal.\n"
    assert section_map(text, []) == []


def test_numbered_clauses_nest_under_their_numbered_section() -> None:
    text = (
        "## Section 2 Annual leave\n\n2.1 Full-time staff accrue 25 days.\n\n2.2 Others pro rata.\n"
    )
    parsed = parse_text(MARKDOWN, text)
    assert [s.path for s in section_map(parsed.text, parsed.headings)] == [
        "Section 2",
        "Section 2 > 2.1",
        "Section 2 > 2.2",
    ]
