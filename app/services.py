"""The services one running Trellis holds: opened in the lifespan, closed at shutdown."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import psycopg
from neo4j.exceptions import DriverError
from neo4j.exceptions import Neo4jError as _ServerError
from psycopg_pool import PoolTimeout

from app.collections import Collections
from app.discovery import GraphDiscovery
from app.documents import Documents
from app.embedders import Embedders
from app.endpoints import Endpoints
from app.entities import Entities
from app.errors import BackendUnavailable
from app.graph_admin import GraphAdmin
from app.ingest_worker import IngestWorker
from app.ingestion import Ingestion
from app.keyword_index import KeywordIndexes
from app.linking import EntityLinker
from app.projection import GraphProjector
from app.relationships import Relationships
from app.reranker import Reranker
from app.search import Search, SearchLogs
from app.settings import Settings
from app.spans import Spans
from app.themes import Themes
from app.vocabulary import Vocabulary
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
    search: Search
    spans: Spans
    search_logs: SearchLogs

    async def close(self) -> None:
        await self.keyword_index.close()
        await self.search.close()
        await self.graph.close()
        await self.pool.close()


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
    projector = GraphProjector(pool, graph, settings.spacy_model, retry)
    embedders = Embedders(settings.embeddings)
    collections = Collections(pool, graph, projector, embedders)
    worker = IngestWorker(pool, embedders, max_bytes=queues.ingest_batch_bytes)
    entities = Entities(pool, graph, collections, settings.graph_max_first)
    discovery = GraphDiscovery(graph, pool)
    keyword_index = KeywordIndexes(pool, settings.keyword_index)
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
        search=Search(
            pool,
            collections,
            embedders,
            EntityLinker(settings.spacy_model),
            discovery,
            keyword_index,
            _reranker(settings),
        ),
        spans=Spans(pool),
        search_logs=SearchLogs(pool, collections, settings.graph_max_first),
    )


def _startup_failure(error: Exception, backend: str) -> BackendUnavailable:
    text = str(error).strip()
    reason = text.splitlines()[0] if text else type(error).__name__
    return BackendUnavailable(backend, reason)


def _reranker(settings: Settings) -> Reranker | None:
    config = settings.reranker
    if config.url is None or config.model is None:
        return None
    return Reranker(config.url, config.model, config.api_key)
