"""The GraphQL schema: thin types and resolvers over the services in `app`."""

from __future__ import annotations

import strawberry
from strawberry.extensions import MaxAliasesLimiter, MaxTokensLimiter, QueryDepthLimiter

from schema.errors import ErrorCodes
from schema.mutation import Mutation
from schema.query import Query
from schema.subscription import Subscription


def build_schema() -> strawberry.Schema:
    return strawberry.Schema(
        query=Query,
        mutation=Mutation,
        subscription=Subscription,
        extensions=[
            lambda: QueryDepthLimiter(max_depth=12),
            lambda: MaxAliasesLimiter(max_alias_count=30),
            lambda: MaxTokensLimiter(max_token_count=5000),
            ErrorCodes,
        ],
    )


schema = build_schema()
