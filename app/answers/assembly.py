"""The finished answer from its verified parts: text, HTML, brief, sources in the order
asked for, abstention, usage and the verification tally."""

from __future__ import annotations

import time
from dataclasses import dataclass

from app.answers import labels
from app.answers.html import render
from app.answers.language import Language
from app.answers.quotes import CheckedQuotes
from app.answers.request import EXTRACTIVE, AnswerRequest, ClaimPolicy, SourcesMode
from app.answers.results import (
    Answer,
    Brief,
    Claim,
    ClaimStatus,
    Draft,
    Source,
    Usage,
    Verification,
)
from app.answers.verification import MARKER


@dataclass(frozen=True)
class AnswerParts:
    request: AnswerRequest
    language: Language
    policy: ClaimPolicy
    sources: list[Source]
    claims: list[Claim]  # verified, in order, removed ones included
    quotes: CheckedQuotes
    query_used: str
    degraded: bool
    missing_legs: list[str]
    started: float
    first_delta: float | None


def assemble(parts: AnswerParts) -> Answer:
    draft = parts.quotes.draft
    reason = _abstain_reason(parts, draft)
    shown = [] if reason else [c for c in parts.claims if c.status is not ClaimStatus.REMOVED]
    text = " ".join(c.text for c in shown) or labels.label(
        parts.language.code, reason or "NO_CONTEXT"
    )
    cited = frozenset(r for c in shown for r in c.refs)
    sources = _sources(parts.request.sources, parts.sources, cited)
    if parts.request.sources is SourcesMode.NONE:
        text = " ".join(MARKER.sub("", text).split())
    numbers = {s.ref: i + 1 for i, s in enumerate(sources)}
    return Answer(
        text=text,
        html=render(text, parts.language.code, parts.language.direction, numbers),
        language=parts.language.code,
        direction=parts.language.direction,
        brief=_brief(text, draft, reason),
        claims=parts.claims,
        sources=sources,
        cited=cited,
        abstained=reason is not None,
        abstain_reason=reason,
        query_used=parts.query_used,
        degraded=parts.degraded,
        missing_legs=parts.missing_legs,
        usage=_usage(parts, draft),
        verification=_verification(parts),
    )


def _abstain_reason(parts: AnswerParts, draft: Draft) -> str | None:
    if draft.abstain_reason is not None:
        return draft.abstain_reason
    unsupported = any(c.status is not ClaimStatus.SUPPORTED for c in parts.claims)
    if parts.policy is ClaimPolicy.ABSTAIN and unsupported:
        return "UNSUPPORTED_CLAIM"
    if not any(c.status is not ClaimStatus.REMOVED for c in parts.claims):
        return "UNSUPPORTED_CLAIM" if parts.claims else "NO_CONTEXT"
    return None


def _sources(mode: SourcesMode, sources: list[Source], cited: frozenset[str]) -> list[Source]:
    if mode is SourcesMode.NONE:
        return []
    first = [s for s in sources if s.ref in cited]
    return (
        first if mode is SourcesMode.CITED else first + [s for s in sources if s.ref not in cited]
    )


def _brief(text: str, draft: Draft, reason: str | None) -> Brief:
    if reason is not None:
        return Brief(text, None, None, False, [], [], [], draft.gaps)
    return Brief(
        answer=text,
        short_answer=draft.short_answer,
        confidence=draft.confidence,
        settled=draft.settled,
        support=draft.support,
        context=draft.context,
        other_side=draft.other_side,
        gaps=draft.gaps,
    )


def _usage(parts: AnswerParts, draft: Draft) -> Usage:
    now = time.perf_counter()
    first = parts.first_delta
    return Usage(
        model=parts.request.model or EXTRACTIVE,
        prompt_tokens=draft.prompt_tokens,
        completion_tokens=draft.completion_tokens,
        passages_read=len(parts.sources),
        time_to_first_delta_ms=(first - parts.started) * 1000 if first else None,
        latency_ms=(now - parts.started) * 1000,
    )


def _verification(parts: AnswerParts) -> Verification:
    statuses = [c.status for c in parts.claims]
    quotes = parts.quotes.draft
    return Verification(
        policy=parts.policy,
        quotes_checked=parts.quotes.checked,
        quotes_verified=len(quotes.support) + len(quotes.context) + len(quotes.other_side),
        claims_checked=len(statuses),
        claims_supported=statuses.count(ClaimStatus.SUPPORTED),
        claims_caveated=statuses.count(ClaimStatus.CAVEATED),
        claims_removed=statuses.count(ClaimStatus.REMOVED),
        claims_repaired=sum(c.repaired for c in parts.claims),
    )
