"""Parsing: text, Markdown, HTML and PDF into the canonical text offsets refer to."""

from __future__ import annotations

import pytest

from ingest.failures import IngestFailure
from ingest.parsing import HTML, MARKDOWN, PDF, PLAIN, decode_text, parse
from tests.pdf import make_pdf


def test_pdf_keeps_pages_and_their_ranges() -> None:
    raw = make_pdf(
        [
            ["Section 1 Scope", "This policy covers leave."],
            ["Section 2 Carry-over", "Five days carry over."],
        ]
    )
    parsed = parse(PDF, raw)
    assert [p.number for p in parsed.pages] == [1, 2]
    second = parsed.pages[1]
    assert parsed.text[second.start : second.end].startswith("Section 2 Carry-over")
    assert "This policy covers leave." in parsed.text[parsed.pages[0].start : parsed.pages[0].end]


@pytest.mark.parametrize("raw", [b"%PDF-1.4 truncated", b"not a pdf at all", b""])
def test_unreadable_pdf_fails_with_its_code(raw: bytes) -> None:
    with pytest.raises(IngestFailure) as failure:
        parse(PDF, raw)
    assert failure.value.code in ("PARSE_FAILED", "EMPTY_DOCUMENT")


def test_pdf_without_text_is_empty() -> None:
    with pytest.raises(IngestFailure) as failure:
        parse(PDF, make_pdf([[]]))
    assert failure.value.code == "EMPTY_DOCUMENT"


def test_html_becomes_visible_text_with_headings() -> None:
    html = (
        "<html><head><title>Leave</title><script>alert(1)</script></head><body>"
        "<h1>Leave &amp; absence</h1><p>Staff  get\n25 days.</p><h2>Carry-over</h2>"
        "<ul><li>five days</li></ul></body></html>"
    )
    parsed = parse(HTML, html.encode())
    assert "alert" not in parsed.text and "Staff get 25 days." in parsed.text
    assert parsed.title == "Leave"
    assert [(h.level, h.title) for h in parsed.headings] == [
        (1, "Leave & absence"),
        (2, "Carry-over"),
    ]
    for heading in parsed.headings:
        assert parsed.text[heading.start :].startswith(heading.title)


def test_markdown_keeps_source_and_finds_headings() -> None:
    text = "# Title\n\nBody.\n\n## Part two ##\n\nMore."
    parsed = parse(MARKDOWN, text.encode())
    assert parsed.text == text
    assert [(h.level, h.title) for h in parsed.headings] == [(1, "Title"), (2, "Part two")]


def test_line_endings_are_normalised_and_bom_dropped() -> None:
    assert parse(PLAIN, "\ufeffone\r\ntwo\rthree".encode()).text == "one\ntwo\nthree"


@pytest.mark.parametrize("raw", [b"\xff\xfe\x00a", b"abc\x00def", bytes(range(1, 32)) * 4])
def test_binary_or_invalid_utf8_is_refused(raw: bytes) -> None:
    with pytest.raises(IngestFailure) as failure:
        decode_text(raw)
    assert failure.value.code == "INVALID_ENCODING"
