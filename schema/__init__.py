"""The GraphQL schema: thin types and resolvers over the services in `app`."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

import strawberry
from graphql import GraphQLError
from strawberry.extensions import (
    AddValidationRules,
    DisableIntrospection,
    MaxAliasesLimiter,
    ParserCache,
    QueryDepthLimiter,
    SchemaExtension,
    ValidationCache,
)
from strawberry.types import ExecutionContext

from app.settings import ServingSettings, Settings
from schema.admission import Admitted
from schema.cost import QueryCost
from schema.deadlines import Deadlines
from schema.errors import ErrorCodes
from schema.mutation import Mutation
from schema.nul_bytes import NoNulBytes
from schema.query import Query
from schema.subscription import Subscription
from schema.token_limit import TokenLimit


class _Schema(strawberry.Schema):
    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        """Nothing logged here: Strawberry logs every error with its whole document, so each
        refused bomb wrote kilobytes at ERROR. The unexpected ones are logged where they are
        coded (schema/errors.py); a client's mistakes are answered, not logged."""


def build_schema(settings: Settings | None = None) -> strawberry.Schema:
    """The schema with its request limits: the defaults unless settings are given."""
    settings = settings or Settings.from_env({})
    return _Schema(
        query=Query,
        mutation=Mutation,
        subscription=Subscription,
        extensions=_extensions(
            settings.serving,
            max(settings.answers.budget_seconds, settings.answers.high_budget_seconds),
        ),
    )


MAX_TOKENS = 5000  # a request's operation text, counted as the parser counts

# Distinct operation texts whose parse and validation are kept: clients send a few texts,
# their values in variables. Bounded, so unique texts only cycle the cache.
DOCUMENT_CACHE_SIZE = 256
# Longer texts are parsed afresh: the cache's memory stays bounded (a client's operation
# is a few hundred characters), and a token bomb is not parsed twice (here, then again by
# Strawberry to answer its error).
CACHED_TEXT_CHARS = 10_000


def _extensions(
    serving: ServingSettings, answer_seconds: float
) -> list[Callable[[], SchemaExtension]]:
    """Factories: an extension holds one request's state, so each request gets its own."""
    limits: list[Callable[[], SchemaExtension]] = [
        lambda: QueryCost(serving.cost),
        NoNulBytes,
        Admitted,
        lambda: Deadlines(serving.deadlines, answer_seconds),
        lambda: TokenLimit(max_tokens=MAX_TOKENS),
    ]
    return [*limits, *_validation(serving.introspection), ErrorCodes]


def _validation(introspection: bool) -> list[Callable[[], SchemaExtension]]:
    """The depth and alias limits, and introspection when it is off, as validation rules,
    with the parse and the validation of a text cached: they were a sixth of a search's CPU
    in the server. The rule classes are made once, here: the validation cache's key holds
    them, and a limiter made per request brings classes of its own, so it never hit."""
    rules = [
        *QueryDepthLimiter(max_depth=12).validation_rules,
        *MaxAliasesLimiter(max_alias_count=30).validation_rules,
        *([] if introspection else DisableIntrospection().validation_rules),
    ]
    return [
        lambda: AddValidationRules(rules),
        lambda: _CachedParse(maxsize=DOCUMENT_CACHE_SIZE),
        lambda: _CachedValidation(maxsize=DOCUMENT_CACHE_SIZE),
    ]


class _CachedParse(ParserCache):
    """Strawberry's parse cache, leaving a text it cannot parse to Strawberry's own parse:
    raised from here, the syntax error (a token bomb) reached the client with no code."""

    def on_parse(self) -> Iterator[None]:
        context = self.execution_context
        unparsed = context.graphql_document is None  # TokenLimit may have refused it
        if unparsed and context.query and len(context.query) <= CACHED_TEXT_CHARS:
            # A text that does not parse is parsed again by Strawberry, which answers it.
            with contextlib.suppress(GraphQLError):
                context.graphql_document = self.cached_parse_document(
                    context.query, **context.parse_options
                )
        yield


class _CachedValidation(ValidationCache):
    """Strawberry's validation cache, skipped as Strawberry's own validation is when an
    earlier extension has refused the request (its cost, a NUL byte): that refusal stands."""

    def on_validate(self) -> Iterator[None]:
        if self.execution_context.pre_execution_errors is None:
            yield from super().on_validate()
        else:
            yield


schema = build_schema()
