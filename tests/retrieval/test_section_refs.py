"""Section references in queries, in the languages the section map knows."""

from __future__ import annotations

from retrieval.section_refs import section_labels


def test_english_units() -> None:
    labels = section_labels("What does Section 4.2 say about appendix B?")
    assert {"section 4.2", "clause 4.2", "4.2", "appendix b", "annex b"} <= set(labels)
    assert section_labels("chapter 3")[:1] == ["chapter 3"]
    assert "section 7" in section_labels("see § 7.")


def test_hebrew_and_japanese_units() -> None:
    assert "סעיף 12" in section_labels("מה כתוב בסעיף 12")
    assert "第3条" in section_labels("第３条の内容")


def test_no_reference_no_labels() -> None:
    assert section_labels("who founded the company?") == []
