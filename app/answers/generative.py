"""The LLM composer: the same contract as the extractive one with a model behind it.

Text streams in; each claim is handed on as soon as it is complete (its sentence and the
markers after it), so the service can verify it and release it while the model writes.
Quotes the model makes become quotes of the answer only where they occur word for word in a
passage the claim cites.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

from app.answers import prompt
from app.answers.composer import ComposeContext
from app.answers.results import Claim, Draft, Quote, QuoteSpan, Source
from app.answers.verification import complete_end, normalise, quoted_runs, split_claims
from app.errors import ErrorCode, TrellisError
from app.models.chat import ChatModel, ChatProviderError, ChatUsage


class GenerativeComposer:
    def __init__(self, chat: ChatModel, prompt_tokens: int) -> None:
        self._chat = chat
        self._prompt_tokens = prompt_tokens

    async def warm_up(self) -> None:
        """Nothing to load: the model is served elsewhere."""

    async def compose(self, context: ComposeContext) -> AsyncIterator[Claim | Draft]:
        passages = context.sources
        if not context.whole:
            passages = prompt.chosen(context.sources, self._prompt_tokens)
        draft, buffer, claims = Draft(), "", []
        try:
            async for item in self._chat.stream(context.model, prompt.messages(context, passages)):
                if isinstance(item, ChatUsage):
                    draft.prompt_tokens, draft.completion_tokens = (
                        item.prompt_tokens,
                        item.completion_tokens,
                    )
                    continue
                buffer += item.text
                ready, buffer = _complete(buffer)
                for claim in ready:
                    claims.append(claim)
                    yield claim
        except ChatProviderError as error:
            raise TrellisError(ErrorCode.PROVIDER_UNAVAILABLE, str(error)) from None
        for claim in split_claims(buffer):
            claims.append(claim)
            yield claim
        draft.support = _quotes(claims, passages)
        yield draft


def _complete(buffer: str) -> tuple[list[Claim], str]:
    end = complete_end(buffer)
    return (split_claims(buffer[:end]), buffer[end:]) if end else ([], buffer)


def _quotes(claims: list[Claim], passages: list[Source]) -> list[Quote]:
    """Each quoted run of a claim found verbatim in a passage it cites, with its span."""
    by_ref = {s.ref: s for s in passages}
    found = []
    for claim in claims:
        for quoted in quoted_runs(claim.text):
            for ref in claim.refs:
                quote = _located(quoted, by_ref.get(ref))
                if quote is not None:
                    found.append(quote)
                    break
    return found


def _located(quoted: str, source: Source | None) -> Quote | None:
    if source is None:
        return None
    words = normalise(quoted).split(" ")
    found = re.search(r"\s+".join(re.escape(w) for w in words), source.hit.text)
    if found is None:
        return None
    offset = next((s.start for s in source.hit.spans if s.unit == "CHARS"), 0)
    span = QuoteSpan(source.hit.document.id, "CHARS", offset + found.start(), offset + found.end())
    return Quote(source.ref, found.group(), span)
