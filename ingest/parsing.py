"""Turn submitted bytes into the canonical text that every offset refers to.

Offsets everywhere in Trellis are Unicode code points from 0 into this text. Markdown keeps
its source text; HTML becomes its visible text; PDF pages are joined by blank lines and
their ranges kept, so spans can be given in pages.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field

from ingest._html import html_to_text
from ingest.failures import IngestFailure

PLAIN, MARKDOWN, HTML, PDF = "text/plain", "text/markdown", "text/html", "application/pdf"
SUPPORTED = (PLAIN, MARKDOWN, HTML, PDF)
TEXT_TYPES = (PLAIN, MARKDOWN, HTML)
_ATX_HEADING = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f]")


@dataclass(frozen=True)
class Heading:
    start: int
    level: int
    title: str


@dataclass(frozen=True)
class Page:
    number: int
    start: int
    end: int


@dataclass(frozen=True)
class ParsedText:
    text: str
    headings: list[Heading] = field(default_factory=list)
    pages: list[Page] = field(default_factory=list)
    title: str | None = None


def parse(content_type: str, raw: bytes) -> ParsedText:
    is_pdf = content_type == PDF
    parsed = _parse_pdf(raw) if is_pdf else parse_text(content_type, decode_text(raw))
    if not parsed.text.strip():
        raise IngestFailure("EMPTY_DOCUMENT", "the document has no text")
    return parsed


def parse_text(content_type: str, text: str) -> ParsedText:
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if content_type == HTML:
        body, headings, title = html_to_text(text)
        return ParsedText(body, [Heading(*h) for h in headings], title=title)
    if content_type == MARKDOWN:
        return ParsedText(text, _markdown_headings(text))
    return ParsedText(text)


def decode_text(raw: bytes) -> str:
    """Strict UTF-8; binary data (NULs, many control characters) is refused."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise IngestFailure(
            "INVALID_ENCODING", f"the content is not valid UTF-8 (byte {error.start})"
        ) from None
    check_not_binary(text)
    return text


def check_not_binary(text: str) -> None:
    controls = len(_CONTROL.findall(text[:65536]))
    if "\x00" in text or controls > max(8, len(text[:65536]) // 100):
        raise IngestFailure("INVALID_ENCODING", "the content looks like binary data, not text")


def _markdown_headings(text: str) -> list[Heading]:
    return [
        Heading(m.start(), len(m.group(1)), m.group(2).strip()) for m in _ATX_HEADING.finditer(text)
    ]


def _parse_pdf(raw: bytes) -> ParsedText:
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(io.BytesIO(raw))
        if reader.is_encrypted:
            reader.decrypt("")
        page_texts = [(page.extract_text() or "").replace("\r\n", "\n") for page in reader.pages]
    except (PyPdfError, ValueError, KeyError, TypeError, OSError) as error:
        raise IngestFailure("PARSE_FAILED", f"the PDF could not be read: {error}") from None
    return _join_pages(page_texts)


def _join_pages(page_texts: list[str]) -> ParsedText:
    parts: list[str] = []
    pages: list[Page] = []
    offset = 0
    for number, page_text in enumerate(page_texts, start=1):
        if parts:
            parts.append("\n\n")
            offset += 2
        parts.append(page_text)
        pages.append(Page(number, offset, offset + len(page_text)))
        offset += len(page_text)
    return ParsedText("".join(parts), pages=pages)
