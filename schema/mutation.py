"""Mutation root."""

from __future__ import annotations

from uuid import UUID

import strawberry

from app.answers.request import ClaimPolicy
from app.ids import uuid_or_not_found
from ingest.records import FieldSpec
from ingest.submission import DocumentSubmission
from retrieval.vocabulary import VocabularyRule as RuleRow
from schema.access import ApiKey, ApiKeyInput, CreatedApiKey
from schema.answers import AnswerClaimPolicy, ResearchInput
from schema.context import Info
from schema.documents import DeleteResult, DocumentInput
from schema.jobs import DocumentOutcome, IngestJob
from schema.permissions import ADMIN, ANSWER, INGEST, RESEARCH
from schema.records import RecordFieldInput, RecordInput, RecordSchema
from schema.research import ResearchRun
from schema.themes import Themes
from schema.types import Collection
from schema.vocabulary import VocabularyRule, VocabularyRuleInput

WAIT_SECONDS = 120.0


@strawberry.type
class IngestResult:
    job: IngestJob
    outcomes: list[DocumentOutcome]


@strawberry.type
class Mutation:
    @strawberry.mutation(
        permission_classes=ANSWER,
        description="Start a research run: a question answered in retrieval rounds, each"
        " seeded with the bridge entities of what was read, then composed from every passage"
        " read. Returns at once, QUEUED; follow it with researchEvents or researchRun. It"
        " searches the collections only: Trellis offers no web search. RATE_LIMITED past"
        " TRELLIS_RESEARCH_MAX_OPEN runs queued or running.",
    )
    async def start_research(self, info: Info, input: ResearchInput) -> ResearchRun:
        principal = await info.context.principal()
        research = info.context.services.research
        return ResearchRun.of(await research.start(principal, input.to_request()))

    @strawberry.mutation(
        permission_classes=RESEARCH,
        description="Stop a queued or running research run; an ended run is returned as it is.",
    )
    async def cancel_research(self, info: Info, id: strawberry.ID) -> ResearchRun:
        principal = await info.context.principal()
        return ResearchRun.of(await info.context.services.research.cancel(principal, str(id)))

    @strawberry.mutation(
        permission_classes=ADMIN, description="Create a collection pinned to one embedding model."
    )
    async def create_collection(
        self, info: Info, name: str, embedding_model: str | None = None
    ) -> Collection:
        tenant = await info.context.tenant()
        created = await info.context.services.collections.create(tenant, name, embedding_model)
        return Collection(row=created)

    @strawberry.mutation(
        permission_classes=ADMIN,
        description="What answers over a collection do with an unsupported claim.",
    )
    async def set_answer_policy(
        self,
        info: Info,
        collection: str,
        claim_policy: AnswerClaimPolicy,  # type: ignore[valid-type]
    ) -> Collection:
        tenant = await info.context.tenant()
        collections = info.context.services.collections
        policy = ClaimPolicy(claim_policy).value
        return Collection(row=await collections.set_answer_policy(tenant, collection, policy))

    @strawberry.mutation(
        permission_classes=ADMIN,
        description="Recompute a collection's themes now, and return them.",
    )
    async def refresh_themes(self, info: Info, collection: str, first: int = 10) -> Themes:
        tenant = await info.context.tenant()
        await info.context.services.themes.refresh(tenant, collection)
        return Themes.of(await info.context.services.themes.get(tenant, collection, first))

    @strawberry.mutation(
        permission_classes=ADMIN, description="Delete a collection and everything in it."
    )
    async def delete_collection(self, info: Info, name: str) -> bool:
        tenant = await info.context.tenant()
        await info.context.services.documents.delete_collection(tenant, name)
        return True

    @strawberry.mutation(
        permission_classes=INGEST,
        description="Queue documents for indexing. With wait, return once the job is done.",
    )
    async def ingest_documents(
        self, info: Info, collection: str, documents: list[DocumentInput], wait: bool = False
    ) -> IngestResult:
        tenant = await info.context.tenant()
        # DocumentInput declares exactly the fields of DocumentSubmission.
        submissions = [DocumentSubmission(**vars(d)) for d in documents]
        job_id = await info.context.services.ingestion.submit_documents(
            tenant, collection, submissions
        )
        return await _result(info, job_id, wait)

    @strawberry.mutation(
        permission_classes=INGEST, description="Remove one document and its whole index."
    )
    async def delete_document(self, info: Info, collection: str, external_id: str) -> DeleteResult:
        tenant = await info.context.tenant()
        removed = await info.context.services.documents.delete(tenant, collection, external_id)
        return DeleteResult(deleted=removed is not None, chunks_removed=removed or 0)

    @strawberry.mutation(
        permission_classes=INGEST, description="Create or replace a typed record schema."
    )
    async def define_record_schema(
        self, info: Info, collection: str, name: str, fields: list[RecordFieldInput]
    ) -> RecordSchema:
        tenant = await info.context.tenant()
        specs = [
            FieldSpec(f.name, f.type.value, f.searchable, f.sensitive, f.required) for f in fields
        ]
        schema = await info.context.services.ingestion.define_record_schema(
            tenant, collection, name, specs
        )
        return RecordSchema.of(schema.id, schema.name, schema.fields)

    @strawberry.mutation(
        permission_classes=INGEST,
        description="Queue typed records; sensitive fields are never indexed.",
    )
    async def ingest_records(
        self,
        info: Info,
        collection: str,
        schema: str,
        records: list[RecordInput],
        wait: bool = False,
    ) -> IngestResult:
        tenant = await info.context.tenant()
        job_id = await info.context.services.ingestion.submit_records(
            tenant, collection, schema, [(r.id, r.fields, r.access_scopes) for r in records]
        )
        return await _result(info, job_id, wait)

    @strawberry.mutation(
        permission_classes=ADMIN,
        description="Replace the collection's synonym and expansion rules.",
    )
    async def set_vocabulary_rules(
        self, info: Info, collection: str, rules: list[VocabularyRuleInput]
    ) -> list[VocabularyRule]:
        tenant = await info.context.tenant()
        rows = [RuleRow(r.kind.value, r.term, list(r.terms)) for r in rules]
        saved = await info.context.services.vocabulary.replace(tenant, collection, rows)
        return [VocabularyRule.of(row) for row in saved]

    @strawberry.mutation(
        permission_classes=ADMIN,
        description="Create an API key for this tenant; its secret is returned only here.",
    )
    async def create_api_key(self, info: Info, input: ApiKeyInput) -> CreatedApiKey:
        principal = await info.context.principal()
        held = tuple(sorted(s.value for s in principal.scopes))
        created = await info.context.services.keys.create_for(principal, input.to_request(held))
        return CreatedApiKey.of(created)

    @strawberry.mutation(
        permission_classes=ADMIN,
        description="Revoke an API key at once, on HTTP and on open WebSockets.",
    )
    async def revoke_api_key(self, info: Info, id: strawberry.ID) -> ApiKey:
        tenant = await info.context.tenant()
        key_id = uuid_or_not_found(str(id), "API key")
        return ApiKey.of(await info.context.services.keys.revoke(key_id, tenant))


async def _result(info: Info, job_id: UUID, wait: bool) -> IngestResult:
    tenant = await info.context.tenant()
    ingestion = info.context.services.ingestion
    summary = await (
        ingestion.wait(tenant, job_id, WAIT_SECONDS) if wait else ingestion.job(tenant, job_id)
    )
    outcomes = await ingestion.outcomes(tenant, job_id)
    return IngestResult(
        job=IngestJob.of(summary), outcomes=[DocumentOutcome.of(row) for row in outcomes]
    )
