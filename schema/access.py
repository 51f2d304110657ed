"""GraphQL types of access control: API keys, plans and usage."""

from __future__ import annotations

from datetime import datetime
from enum import Enum

import strawberry

from app.tenancy.keys import CreatedKey, KeyRequest, KeyRow
from app.tenancy.preflight import forbidden
from app.tenancy.principal import ALL_SCOPES, Principal, Scope
from app.tenancy.usage import UsageTotal as UsageRow


@strawberry.type(description="An API key as listed: never its secret.")
class ApiKey:
    id: strawberry.ID
    name: str
    prefix: str = strawberry.field(description="The secret's first characters, to recognise it.")
    scopes: list[str]
    content_scopes: list[str]
    created_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None

    @classmethod
    def of(cls, row: KeyRow) -> ApiKey:
        return cls(
            id=strawberry.ID(str(row.id)),
            name=row.name,
            prefix=row.prefix,
            scopes=list(row.scopes),
            content_scopes=list(row.content_scopes),
            created_at=row.created_at,
            expires_at=row.expires_at,
            revoked_at=row.revoked_at,
        )


@strawberry.type(description="A new key. `secret` is shown here once and never again.")
class CreatedApiKey:
    key: ApiKey
    secret: str

    @classmethod
    def of(cls, created: CreatedKey) -> CreatedApiKey:
        return cls(key=ApiKey.of(created.key), secret=created.secret)


@strawberry.input
class ApiKeyInput:
    name: str = ""
    scopes: list[str] | None = strawberry.field(
        default=None,
        description="Some of search, answer, ingest, admin, sensitive:read; default all"
        " that the calling key holds.",
    )
    content_scopes: list[str] = strawberry.field(
        default_factory=list,
        description="The key sees only content carrying one of these; empty: all content.",
    )
    expires_at: datetime | None = None

    def to_request(self, default_scopes: tuple[str, ...]) -> KeyRequest:
        scopes = default_scopes if self.scopes is None else tuple(self.scopes)
        return KeyRequest(scopes, tuple(self.content_scopes), self.name, self.expires_at)


@strawberry.enum
class UsageGroup(Enum):
    DAY = "DAY"
    KEY = "KEY"
    MODEL = "MODEL"


@strawberry.type(description="Usage summed over one day, key or model.")
class UsageTotal:
    group: str = strawberry.field(description="The day (YYYY-MM-DD, UTC), key id or model.")
    requests: int
    prompt_tokens: int
    completion_tokens: int
    passages_read: int
    credits: float
    incomplete: int = strawberry.field(
        description="Runs whose stream broke off before the end, charged for what they used."
    )

    @classmethod
    def of(cls, row: UsageRow) -> UsageTotal:
        return cls(**{**vars(row), "credits": float(row.credits)})


@strawberry.type(description="One scope of the calling key: held or not, and why not.")
class ScopeGrant:
    scope: str
    granted: bool
    reason: str | None = strawberry.field(
        description="The FORBIDDEN message the API gives a call that needs this scope."
    )

    @classmethod
    def of(cls, principal: Principal, scope: Scope) -> ScopeGrant:
        granted = principal.may(scope)
        return cls(
            scope=scope.value, granted=granted, reason=None if granted else forbidden(scope).message
        )


@strawberry.type(description="The calling key: its tenant, plan, scopes and content scopes.")
class Viewer:
    tenant: str
    key_id: strawberry.ID
    plan: str
    scopes: list[ScopeGrant]
    content_scopes: list[str] = strawberry.field(
        description="The key sees only content carrying one of these; empty: all content."
    )

    @classmethod
    def of(cls, principal: Principal) -> Viewer:
        return cls(
            tenant=principal.tenant.name,
            key_id=strawberry.ID(str(principal.key_id)),
            plan=principal.plan.name,
            scopes=[ScopeGrant.of(principal, scope) for scope in ALL_SCOPES],
            content_scopes=list(principal.content_scopes),
        )
