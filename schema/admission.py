"""Admission of GraphQL operations (app/admission.py): a query or a mutation takes one of the
process's slots for its execution. Refused, it gets OVERLOADED, and over HTTP status 503 with
Retry-After. Ingest mutations are not counted: they wait on the ingest queue (with `wait:
true`, for minutes), which has its own fairness. Of the subscriptions, an answer stream takes
a slot in its resolver for as long as it streams (Strawberry's execution hook ends when the
stream starts); the others mostly wait for events."""

from __future__ import annotations

from collections.abc import AsyncIterator

from graphql import ExecutionResult, GraphQLError, OperationType
from starlette.responses import Response
from strawberry.extensions import SchemaExtension

from app.admission import RETRY_AFTER_SECONDS, Admission
from app.errors import ErrorCode, TrellisError
from schema._operations import ingests_only, operation_of


class Admitted(SchemaExtension):
    """Takes the slot once the operation is valid: a refused document (its depth, its cost)
    never waits for one, and is refused as fast under load as idle."""

    async def on_execute(self) -> AsyncIterator[None]:
        admission = self._admission()
        held = False
        if admission is not None and self._counted():
            try:
                await admission.enter()
                held = True
            except TrellisError as refused:
                self._refuse(refused)
        try:
            yield
        finally:
            if held and admission is not None:
                admission.leave()

    def _admission(self) -> Admission | None:
        context = self.execution_context
        if context.pre_execution_errors:  # already refused (its cost): it will not run
            return None
        services = getattr(context.context, "services", None)
        return getattr(services, "admission", None)

    def _counted(self) -> bool:
        operation = operation_of(self.execution_context)
        if operation is None or operation.operation == OperationType.SUBSCRIPTION:
            return False  # an answer stream holds its slot in its resolver, for its whole life
        return not ingests_only(operation)

    def _refuse(self, refused: TrellisError) -> None:
        """A result set before execution stands in for it: nothing runs."""
        extensions = {**refused.details, "code": ErrorCode.OVERLOADED.value}
        error = GraphQLError(refused.message, extensions=extensions)
        self.execution_context.result = ExecutionResult(data=None, errors=[error])
        response = getattr(self.execution_context.context, "response", None)
        if isinstance(response, Response):
            response.status_code = 503
            response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
