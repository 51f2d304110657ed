"""GraphQL types for a collection's vocabulary rules."""

from __future__ import annotations

from enum import Enum

import strawberry

from retrieval.vocabulary import VocabularyRule as RuleRow


@strawberry.enum
class VocabularyRuleKind(Enum):
    SYNONYMS = "SYNONYMS"
    EXPANSION = "EXPANSION"


@strawberry.input(description="SYNONYMS: terms that mean the same. EXPANSION: term -> terms.")
class VocabularyRuleInput:
    kind: VocabularyRuleKind
    terms: list[str]
    term: str | None = None


@strawberry.type
class VocabularyRule:
    kind: VocabularyRuleKind
    term: str | None
    terms: list[str]

    @classmethod
    def of(cls, row: RuleRow) -> VocabularyRule:
        return cls(kind=VocabularyRuleKind(row.kind), term=row.term, terms=row.terms)
