"""Quotes checked against the canonical text of their spans, read back from the store."""

from __future__ import annotations

from dataclasses import dataclass, replace

from app.answers.results import Draft, Quote
from app.answers.verification import quote_matches
from app.collections.spans import SpanRequest, Spans
from app.tenancy.auth import Tenant


@dataclass(frozen=True)
class CheckedQuotes:
    draft: Draft  # only verified quotes left in it
    checked: int


async def verify_quotes(spans: Spans, tenant: Tenant, draft: Draft) -> CheckedQuotes:
    quotes = [*draft.support, *draft.context, *draft.other_side]
    if not quotes:
        return CheckedQuotes(draft, 0)
    requests = [
        SpanRequest(str(q.span.document_id), q.span.unit, q.span.start, q.span.end) for q in quotes
    ]
    texts = await spans.read(tenant, requests)
    good = {id(q) for q, t in zip(quotes, texts, strict=True) if quote_matches(q, t.text)}
    checked = replace(
        draft,
        support=_kept(draft.support, good),
        context=_kept(draft.context, good),
        other_side=_kept(draft.other_side, good),
    )
    return CheckedQuotes(checked, len(quotes))


def _kept(quotes: list[Quote], good: set[int]) -> list[Quote]:
    return [replace(q, verified=True) for q in quotes if id(q) in good]
