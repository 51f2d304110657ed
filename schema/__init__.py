"""The GraphQL schema: thin types and resolvers over the services in `app`."""

from __future__ import annotations

from collections.abc import Callable

import strawberry
from graphql import GraphQLError
from strawberry.extensions import (
    DisableIntrospection,
    MaxAliasesLimiter,
    MaxTokensLimiter,
    QueryDepthLimiter,
    SchemaExtension,
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
        extensions=_extensions(settings.serving, settings.answers.budget_seconds),
    )


def _extensions(
    serving: ServingSettings, answer_seconds: float
) -> list[Callable[[], SchemaExtension]]:
    """Factories: an extension holds one request's state, so each request gets its own."""
    limits: list[Callable[[], SchemaExtension]] = [
        lambda: QueryCost(serving.cost),
        NoNulBytes,
        Admitted,
        lambda: Deadlines(serving.deadlines, answer_seconds),
        lambda: QueryDepthLimiter(max_depth=12),
        lambda: MaxAliasesLimiter(max_alias_count=30),
        lambda: MaxTokensLimiter(max_token_count=5000),
    ]
    hidden: list[Callable[[], SchemaExtension]] = (
        [] if serving.introspection else [DisableIntrospection]
    )
    return [*limits, *hidden, ErrorCodes]


schema = build_schema()
