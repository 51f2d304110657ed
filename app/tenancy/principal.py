"""Who is calling: the tenant, the key, what it may do, what content it may see, its plan."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from uuid import UUID

from store.keys import ActiveKey
from store.tenants import Tenant


class Scope(StrEnum):
    SEARCH = "search"  # search, read spans and documents, entities, paths, themes
    ANSWER = "answer"  # answers (and later research and chat)
    INGEST = "ingest"  # ingest, delete documents, records
    ADMIN = "admin"  # collections, vocabulary, policies, keys, usage
    SENSITIVE_READ = "sensitive:read"  # unmasked sensitive record fields


ALL_SCOPES = tuple(Scope)


@dataclass(frozen=True)
class Plan:
    name: str
    requests_per_minute: int
    monthly_answers: int | None  # None: no cap
    models: tuple[str, ...]  # "*" reaches every model; the default composer is always reached
    credits_per_answer: Decimal
    credits_per_1k_tokens: Decimal

    def reaches(self, model: str, default: str) -> bool:
        return model == default or "*" in self.models or model in self.models


@dataclass(frozen=True)
class Principal:
    tenant: Tenant
    key_id: UUID
    scopes: frozenset[Scope]
    content_scopes: tuple[str, ...]  # empty: every content of the tenant
    plan: Plan

    def may(self, scope: Scope) -> bool:
        return scope in self.scopes

    @classmethod
    def of(cls, key: ActiveKey) -> Principal:
        plan = Plan(
            key.plan,
            key.requests_per_minute,
            key.monthly_answers,
            tuple(key.plan_models),
            key.credits_per_answer,
            key.credits_per_1k_tokens,
        )
        scopes = frozenset(Scope(s) for s in key.scopes if s in _NAMES)
        content = tuple(key.content_scopes)
        tenant = Tenant(key.tenant_id, key.tenant_name, content)
        return cls(tenant, key.id, scopes, content, plan)


_NAMES = {s.value for s in Scope}
