"""Reading spans back: the text a hit's span points at, in characters, pages or the file.

A request reads at most MAX_SPANS spans, each cut at MAX_SPAN_CHARS characters and all of them
together at MAX_TOTAL_CHARS: a span past the total comes back cut (or empty), flagged
`truncated`. Only the characters returned are read from the database, never whole bodies.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from app.errors import ErrorCode, TrellisError
from app.ids import uuid_or_not_found
from app.limits import check_range
from store import documents
from store.pool import Pool
from store.tenants import Tenant

MAX_SPANS = 50
MAX_SPAN_CHARS = 200_000
MAX_TOTAL_CHARS = 1_000_000

Extents = dict[UUID, tuple[int, list[list[int]] | None]]


@dataclass(frozen=True)
class SpanRequest:
    document_id: str
    unit: str  # CHARS, PAGES, SECONDS or FILE
    start: int = 0
    end: int = 0


@dataclass(frozen=True)
class SpanText:
    request: SpanRequest
    text: str
    truncated: bool = False  # cut at the per-span or per-request character limit


class Spans:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    async def read(self, tenant: Tenant, spans: list[SpanRequest]) -> list[SpanText]:
        check_range("spans", len(spans), 1, MAX_SPANS)
        ids = [uuid_or_not_found(s.document_id, "document") for s in spans]
        async with self._pool.connection() as conn:
            found = await documents.extents(conn, tenant, list(set(ids)))
            ranges = _budgeted(
                [_range(i, s, d, found) for i, (s, d) in enumerate(zip(spans, ids, strict=True))]
            )
            texts = await documents.slices(conn, tenant, [(d, a, b) for d, a, b, _ in ranges])
        return [
            SpanText(span, text, cut)
            for span, text, (_, _, _, cut) in zip(spans, texts, ranges, strict=True)
        ]


def _range(
    index: int, span: SpanRequest, document_id: UUID, found: Extents
) -> tuple[UUID, int, int]:
    """The span's characters, checked against its document."""
    if document_id not in found:
        raise TrellisError(ErrorCode.NOT_FOUND, f"no document {span.document_id}")
    length, pages = found[document_id]
    if span.unit == "FILE":
        return document_id, 0, length
    if span.unit == "CHARS":
        _check(index, 0 <= span.start < span.end <= length, f"0 <= start < end <= {length}")
        return document_id, span.start, span.end
    if span.unit == "PAGES":
        numbers = {n: (s, e) for n, s, e in pages or []}
        ok = bool(numbers) and span.start in numbers and span.end in numbers
        _check(index, ok and span.start <= span.end, "pages the document has, start <= end")
        return document_id, numbers[span.start][0], numbers[span.end][1]
    raise _bad(index, f"unit {span.unit} does not apply to text documents")


def _budgeted(ranges: list[tuple[UUID, int, int]]) -> list[tuple[UUID, int, int, bool]]:
    """Each range cut to its share of what is left, in order."""
    left, cut = MAX_TOTAL_CHARS, []
    for document_id, start, end in ranges:
        size = min(end - start, MAX_SPAN_CHARS, left)
        left -= size
        cut.append((document_id, start, start + size, start + size < end))
    return cut


def _check(index: int, ok: bool, rule: str) -> None:
    if not ok:
        raise _bad(index, f"span out of range: needs {rule}")


def _bad(index: int, message: str) -> TrellisError:
    return TrellisError(ErrorCode.BAD_USER_INPUT, message, field=f"spans[{index}]")
