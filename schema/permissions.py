"""The scope each root field needs, declared in one place: its permission class.

A key without the scope gets FORBIDDEN with `extensions.scope`. Fields that run no model
also count against the key's rate ceiling here; those that run one (answers) leave every
check after permission to the pre-flight checks, which keep the cost order.
"""

from __future__ import annotations

from typing import Any, ClassVar

from strawberry.permission import BasePermission
from strawberry.types.field import StrawberryField

from app.tenancy.preflight import forbidden
from app.tenancy.principal import Scope
from schema.context import Info


class Requires(BasePermission):
    scope: ClassVar[Scope]
    runs_model: ClassVar[bool] = False

    async def has_permission(self, source: Any, info: Info, **kwargs: Any) -> bool:
        principal = await info.context.authenticate(None if self.runs_model else self.scope)
        if not principal.may(self.scope):
            raise forbidden(self.scope)
        if not self.runs_model:
            await info.context.admit()
        return True


class Identified(BasePermission):
    """Any valid key: what a caller may learn about itself needs no scope."""

    async def has_permission(self, source: Any, info: Info, **kwargs: Any) -> bool:
        await info.context.authenticate()
        await info.context.admit()
        return True


class Searching(Requires):
    scope = Scope.SEARCH


class Answering(Requires):
    scope = Scope.ANSWER
    runs_model = True


class FollowingResearch(Requires):
    """Reading, following or cancelling a research run: the answer scope, counted against
    the rate ceiling as any call that runs no model (starting a run is checked as an answer)."""

    scope = Scope.ANSWER


class Ingesting(Requires):
    scope = Scope.INGEST


class Administering(Requires):
    scope = Scope.ADMIN


IDENTIFIED: list[type[BasePermission]] = [Identified]
SEARCH: list[type[BasePermission]] = [Searching]
ANSWER: list[type[BasePermission]] = [Answering]
RESEARCH: list[type[BasePermission]] = [FollowingResearch]
INGEST: list[type[BasePermission]] = [Ingesting]
ADMIN: list[type[BasePermission]] = [Administering]


def scope_of(field: StrawberryField) -> Scope | None:
    """The scope a field declares; None when it declares none."""
    declared = [p.scope for p in field.permission_classes if issubclass(p, Requires)]
    return declared[0] if len(declared) == 1 else None


async def require(info: Info, scope: Scope) -> None:
    """A narrower scope inside a field, such as sensitive:read for unmasked values."""
    if not (await info.context.principal()).may(scope):
        raise forbidden(scope)
