"""Questions about one document (`documentAnswer`, `documentAnswerStream`): the document's
whole extracted text is the context, with no retrieval step. The answer pipeline is the same
(app/answers/service.py): its checks before a model runs, composers, verification, citations
and metering. The document must be one the key may see, and within the cap: a paged document
of at most TRELLIS_DOCUMENT_ANSWER_MAX_PAGES pages, any other of at most
TRELLIS_DOCUMENT_ANSWER_MAX_CHARS characters."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from uuid import UUID

from app.answers.checks import MAX_TOP_K
from app.answers.request import AnswerRequest, DocumentAnswerRequest
from app.answers.results import Answer, AnswerEvent
from app.answers.service import Answers
from app.errors import ErrorCode, TrellisError
from app.ids import uuid_or_not_found
from app.settings import AnswerSettings
from app.tenancy.auth import Tenant
from app.tenancy.principal import Principal
from retrieval.request import SearchRequest
from store import collections, documents
from store.pool import Pool


@dataclass(frozen=True)
class Extent:
    """What the cap is checked against."""

    characters: int
    pages: int | None  # None: not a paged document


class DocumentAnswers:
    def __init__(self, pool: Pool, answers: Answers, settings: AnswerSettings) -> None:
        self._pool = pool
        self._answers = answers
        self._settings = settings

    async def answer(self, principal: Principal, request: DocumentAnswerRequest) -> Answer:
        return await self._answers.answer(principal, await self._request(principal, request))

    async def stream(
        self, principal: Principal, request: DocumentAnswerRequest
    ) -> AsyncIterator[AnswerEvent]:
        asked = await self._request(principal, request)
        async for event in self._answers.stream(principal, asked):
            yield event

    async def _request(self, principal: Principal, request: DocumentAnswerRequest) -> AnswerRequest:
        """The answer request for the document, once it is found and within the cap."""
        document = uuid_or_not_found(request.document, "document")
        collection, extent = await self._target(principal.tenant, document)
        check_cap(extent, self._settings)
        search = SearchRequest((collection,), request.query, top_k=MAX_TOP_K)
        return AnswerRequest(
            search, request.history, request.sources, request.model, request.language, document
        )

    async def _target(self, tenant: Tenant, document: UUID) -> tuple[str, Extent]:
        """The document's collection name and extent; NOT_FOUND for one the key cannot see."""
        async with self._pool.connection() as conn:
            row = await documents.by_id(conn, tenant, document)
            found = await documents.extents(conn, tenant, [document])
            owner = None if row is None else await collections.by_id(
                conn, tenant.id, row.collection_id
            )  # fmt: skip
        if owner is None or document not in found:
            raise TrellisError(ErrorCode.NOT_FOUND, f"no document {document}", field="document")
        characters, pages = found[document]
        return owner.name, Extent(characters, len(pages) if pages else None)


def check_cap(extent: Extent, settings: AnswerSettings) -> None:
    if extent.pages is not None and extent.pages > settings.document_max_pages:
        most = settings.document_max_pages
        raise _too_long(f"{extent.pages} pages; the most is {most}", pages=extent.pages, limit=most)
    if extent.pages is None and extent.characters > settings.document_max_chars:
        most = settings.document_max_chars
        raise _too_long(
            f"{extent.characters} characters; the most is {most}",
            characters=extent.characters, limit=most,
        )  # fmt: skip


def _too_long(what: str, **details: int) -> TrellisError:
    return TrellisError(
        ErrorCode.DOCUMENT_TOO_LONG,
        f"the document has {what}: ask search-backed `answer` instead",
        field="document",
        **details,
    )
