"""The services one running Trellis holds, and the process around them: `running_services`
opens them, runs their background loops (graph projection, the ingest worker, themes) and
closes everything when the server stops."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Coroutine
from dataclasses import dataclass
from typing import Any

import psycopg
from neo4j.exceptions import DriverError
from neo4j.exceptions import Neo4jError as _ServerError
from psycopg_pool import PoolTimeout

from app.admission import Admission, KeySockets
from app.answers.chat import Chat
from app.answers.composer import Composer
from app.answers.document import DocumentAnswers
from app.answers.extractive.engine import ExtractiveComposer
from app.answers.generative import GenerativeComposer
from app.answers.request import EXTRACTIVE
from app.answers.service import Access, Answers
from app.collections.documents import Documents
from app.collections.service import Collections
from app.collections.spans import Spans
from app.collections.vocabulary import Vocabulary
from app.errors import BackendUnavailable
from app.ingestion.submit import Ingestion
from app.ingestion.worker import IngestWorker
from app.knowledge.admin import GraphAdmin
from app.knowledge.entities import Entities
from app.knowledge.fact_vectors import FactVectors
from app.knowledge.projection import GraphProjector, run_projection_loop
from app.knowledge.relationships import Relationships
from app.knowledge.themes import Themes, run_themes_loop
from app.localdb.endpoints import Endpoints, resolve_endpoints
from app.models.chat import ChatModel
from app.models.embedders import Embedders
from app.models.openai_chat import OpenAIChat
from app.models.reranker import Reranker
from app.research.researcher import Researcher
from app.research.service import Research
from app.research.worker import ResearchWorker
from app.search.graph_leg import GraphDiscovery
from app.search.keyword_index import KeywordIndexes
from app.search.legs import HeldCopies
from app.search.linking import EntityLinker
from app.search.logs import SearchLogs
from app.search.mention_graphs import MentionGraphs
from app.search.service import Search
from app.search.vector_copies import VectorCopies
from app.search.warmup import WarmUp
from app.settings import LlmSettings, Settings
from app.tenancy.keys import ApiKeys
from app.tenancy.plans import Plans
from app.tenancy.preflight import Preflight
from app.tenancy.usage import Metering
from graph.constraints import ensure_constraints
from graph.driver import GraphStore, open_graph
from store.migrations import migrate
from store.outbox import RetryPolicy
from store.pool import Pool, open_pool

log = logging.getLogger(__name__)
_NEO4J_FAILURES = (DriverError, _ServerError, OSError)


@dataclass(frozen=True)
class Services:
    settings: Settings
    pool: Pool
    graph: GraphStore
    projector: GraphProjector
    collections: Collections
    embedders: Embedders
    worker: IngestWorker
    ingestion: Ingestion
    documents: Documents
    vocabulary: Vocabulary
    graph_admin: GraphAdmin
    entities: Entities
    relationships: Relationships
    themes: Themes
    discovery: GraphDiscovery
    keyword_index: KeywordIndexes
    mention_graphs: MentionGraphs
    vector_copies: VectorCopies
    search: Search
    spans: Spans
    search_logs: SearchLogs
    answers: Answers
    document_answers: DocumentAnswers
    chat: Chat
    research: Research
    research_worker: ResearchWorker
    keys: ApiKeys
    plans: Plans
    preflight: Preflight
    metering: Metering
    warm_up: WarmUp
    admission: Admission
    sockets: KeySockets

    async def close(self) -> None:
        await self.keyword_index.close()
        await self.mention_graphs.close()
        await self.vector_copies.close()
        await self.search.close()
        await self.answers.close()
        await self.graph.close()
        await self.pool.close()


@contextlib.asynccontextmanager
async def running_services(
    settings: Settings, endpoints: Endpoints | None = None
) -> AsyncIterator[Services]:
    """Open the services (the local databases when no endpoints are given), run their
    background loops while the block runs, then stop the loops and close."""
    if endpoints is None:
        endpoints = await asyncio.to_thread(resolve_endpoints, settings)
    services = await open_services(settings, endpoints)
    tasks = [asyncio.create_task(loop) for loop in _background(services)]
    try:
        yield services
    finally:
        for task in tasks:
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*tasks, return_exceptions=True)
        await services.close()


def _background(services: Services) -> list[Coroutine[Any, Any, None]]:
    return [
        services.warm_up.run(services.search, services.answers),
        run_projection_loop(services.projector),
        services.worker.run_forever(services.projector.wake),
        run_themes_loop(services.themes),
        services.research_worker.run_forever(),
    ]


async def open_services(settings: Settings, endpoints: Endpoints) -> Services:
    """Migrate Postgres, open the pool and the driver, and create graph constraints."""
    timeout = settings.db_timeout_seconds
    try:
        applied = await migrate(endpoints.postgres_url)
        pool = await open_pool(endpoints.postgres_url, settings.postgres.pool_size, timeout)
    except (OSError, psycopg.Error, PoolTimeout) as error:
        raise _startup_failure(error, "postgres") from error
    log.info("postgres ready; %d migration(s) applied", len(applied))
    graph = open_graph(
        endpoints.neo4j_uri,
        settings.neo4j.user,
        settings.neo4j.password,
        settings.neo4j.database,
        timeout,
    )
    try:
        await ensure_constraints(graph)
    except _NEO4J_FAILURES as error:
        await graph.close()
        await pool.close()
        raise _startup_failure(error, "neo4j") from error
    return assemble(settings, pool, graph)


def assemble(settings: Settings, pool: Pool, graph: GraphStore) -> Services:
    queues = settings.queues
    retry = RetryPolicy(queues.graph_max_attempts, queues.graph_retry_seconds)
    embedders = Embedders(settings.embeddings)
    facts = FactVectors(pool, embedders)
    projector = GraphProjector(pool, graph, settings.spacy_model, retry, facts)
    collections = Collections(pool, graph, projector, embedders)
    worker = IngestWorker(pool, embedders, max_bytes=queues.ingest_batch_bytes)
    entities = Entities(pool, graph, collections, settings.graph_max_first)
    mention_graphs = MentionGraphs(pool, settings.mention_graph)
    discovery = GraphDiscovery(graph, pool, mention_graphs)
    keyword_index = KeywordIndexes(pool, settings.keyword_index)
    vector_copies = VectorCopies(pool, settings.vector_copies)
    held = HeldCopies(keyword_index, vector_copies, mention_graphs)
    linker = EntityLinker(settings.spacy_model)
    search = Search(pool, collections, embedders, linker, discovery, held, _reranker(settings))
    spans = Spans(pool)
    access = Access(Preflight(pool), Metering(pool))
    chat = _chat(settings.answers.llm)  # one client for answers and chat; answers close it
    reads = Answering(search, collections, spans, linker)
    answers = _answers(settings, reads, access, chat)
    chatting = Chat(chat, settings.answers, access)
    researcher = Researcher(pool, answers, search, chatting, settings.research)
    models = [m.name for m in answers.models()]
    research_worker = ResearchWorker(pool, researcher, settings.research, models)
    research = Research(pool, answers, collections, research_worker, settings.research)
    return Services(
        settings=settings,
        pool=pool,
        graph=graph,
        projector=projector,
        collections=collections,
        embedders=embedders,
        worker=worker,
        ingestion=Ingestion(pool, collections, worker, settings.max_document_bytes),
        documents=Documents(pool, collections, projector),
        vocabulary=Vocabulary(pool, collections),
        graph_admin=GraphAdmin(pool, graph, collections, projector),
        entities=entities,
        relationships=Relationships(graph, entities),
        themes=Themes(pool, collections, settings.graph_max_first),
        discovery=discovery,
        keyword_index=keyword_index,
        mention_graphs=mention_graphs,
        vector_copies=vector_copies,
        search=search,
        spans=spans,
        search_logs=SearchLogs(pool, collections, settings.graph_max_first),
        answers=answers,
        document_answers=DocumentAnswers(pool, answers, settings.answers),
        chat=chatting,
        research=research,
        research_worker=research_worker,
        keys=ApiKeys(pool),
        plans=Plans(pool),
        preflight=access.preflight,
        metering=access.metering,
        warm_up=WarmUp(),
        admission=Admission(settings.serving.admission),
        sockets=KeySockets(settings.serving.sockets_per_key),
    )


@dataclass(frozen=True)
class Answering:
    """What answers read from."""

    search: Search
    collections: Collections
    spans: Spans
    linker: EntityLinker


def _answers(
    settings: Settings, reads: Answering, access: Access, chat: ChatModel | None
) -> Answers:
    """The extractive composer always; each configured LLM model beside it."""
    config = settings.answers
    composers: dict[str, Composer] = {EXTRACTIVE: ExtractiveComposer(config.short_floor)}
    if chat is not None:
        generative = GenerativeComposer(chat, config.prompt_tokens)
        composers.update({model: generative for model in config.llm.models})
    r = reads
    return Answers(r.search, r.collections, r.spans, r.linker, config, composers, access, chat)


def _chat(config: LlmSettings) -> ChatModel | None:
    if config.url is None or config.api_key is None:
        return None
    return OpenAIChat(config.url, config.api_key)


def _startup_failure(error: Exception, backend: str) -> BackendUnavailable:
    text = str(error).strip()
    reason = text.splitlines()[0] if text else type(error).__name__
    return BackendUnavailable(backend, reason)


def _reranker(settings: Settings) -> Reranker | None:
    config = settings.reranker
    if config.url is None or config.model is None:
        return None
    return Reranker(config.url, config.model, config.api_key)
