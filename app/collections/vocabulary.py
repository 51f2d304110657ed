"""Vocabulary rules: synonym sets and one-way expansions that search applies to queries."""

from __future__ import annotations

from app.collections.service import Collections
from app.errors import ErrorCode, TrellisError
from retrieval.vocabulary import VocabularyRule
from store import vocabulary
from store.pool import Pool
from store.tenants import Tenant

MAX_RULES = 1000
MAX_TERMS = 50  # a rule's terms: each becomes one more alternative in every query it touches
MAX_TERM = 100


class Vocabulary:
    def __init__(self, pool: Pool, collections: Collections) -> None:
        self._pool = pool
        self._collections = collections

    async def replace(
        self, tenant: Tenant, collection: str, rules: list[VocabularyRule]
    ) -> list[VocabularyRule]:
        """Replace the collection's whole rule set."""
        target = await self._collections.get(tenant, collection)
        if len(rules) > MAX_RULES:
            raise TrellisError(
                ErrorCode.BAD_USER_INPUT, f"at most {MAX_RULES} rules", field="rules"
            )
        checked = [check_rule(index, rule) for index, rule in enumerate(rules)]
        async with self._pool.connection() as conn, conn.transaction():
            await vocabulary.replace(conn, tenant.id, target.id, checked)
            return await vocabulary.list_rules(conn, tenant.id, target.id)

    async def rules(self, tenant: Tenant, collection: str) -> list[VocabularyRule]:
        target = await self._collections.get(tenant, collection)
        async with self._pool.connection() as conn:
            return await vocabulary.list_rules(conn, tenant.id, target.id)


def check_rule(index: int, rule: VocabularyRule) -> VocabularyRule:
    terms = [t.strip() for t in rule.terms if t.strip()]
    term = rule.term.strip() if rule.term else None
    if len(terms) > MAX_TERMS:
        raise _bad(index, f"a rule has at most {MAX_TERMS} terms")
    if any(len(t) > MAX_TERM for t in [*terms, term or ""]):
        raise _bad(index, f"terms are at most {MAX_TERM} characters")
    if rule.kind == "SYNONYMS" and (len(set(terms)) < 2 or term is not None):
        raise _bad(index, "SYNONYMS takes two or more distinct terms and no term")
    if rule.kind == "EXPANSION" and (not term or not terms):
        raise _bad(index, "EXPANSION takes a term and one or more expansions")
    return VocabularyRule(rule.kind, term, terms)


def _bad(index: int, message: str) -> TrellisError:
    return TrellisError(
        ErrorCode.BAD_USER_INPUT, f"rule {index}: {message}", field=f"rules[{index}]"
    )
