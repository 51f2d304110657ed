"""Reading spans back: the text a hit's span points at, in characters, pages or the file."""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from app.errors import ErrorCode, TrellisError
from app.limits import check_range
from store import documents
from store.pool import Pool
from store.tenants import Tenant

MAX_SPANS = 50
MAX_SPAN_CHARS = 200_000


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


class Spans:
    def __init__(self, pool: Pool) -> None:
        self._pool = pool

    async def read(self, tenant: Tenant, spans: list[SpanRequest]) -> list[SpanText]:
        check_range("spans", len(spans), 1, MAX_SPANS)
        ids = [_document_id(i, s) for i, s in enumerate(spans)]
        async with self._pool.connection() as conn:
            found = await documents.bodies(conn, tenant, list(set(ids)))
        texts = []
        for index, (span, document_id) in enumerate(zip(spans, ids, strict=True)):
            if document_id not in found:
                raise TrellisError(ErrorCode.NOT_FOUND, f"no document {span.document_id}")
            body, pages = found[document_id]
            texts.append(SpanText(span, _slice(index, span, body, pages)))
        return texts


def _slice(index: int, span: SpanRequest, body: str, pages: list[list[int]] | None) -> str:
    if span.unit == "FILE":
        return body[:MAX_SPAN_CHARS]
    if span.unit == "CHARS":
        _check(index, 0 <= span.start < span.end <= len(body), f"0 <= start < end <= {len(body)}")
        return body[span.start : min(span.end, span.start + MAX_SPAN_CHARS)]
    if span.unit == "PAGES":
        numbers = {n: (s, e) for n, s, e in pages or []}
        ok = bool(numbers) and span.start in numbers and span.end in numbers
        _check(index, ok and span.start <= span.end, "pages the document has, start <= end")
        start, end = numbers[span.start][0], numbers[span.end][1]
        return body[start : min(end, start + MAX_SPAN_CHARS)]
    raise _bad(index, f"unit {span.unit} does not apply to text documents")


def _check(index: int, ok: bool, rule: str) -> None:
    if not ok:
        raise _bad(index, f"span out of range: needs {rule}")


def _document_id(index: int, span: SpanRequest) -> UUID:
    try:
        return UUID(span.document_id)
    except ValueError:
        raise TrellisError(ErrorCode.NOT_FOUND, f"no document {span.document_id}") from None


def _bad(index: int, message: str) -> TrellisError:
    return TrellisError(ErrorCode.BAD_USER_INPUT, message, field=f"spans[{index}]")
