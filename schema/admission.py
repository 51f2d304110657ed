"""Admission of GraphQL operations (app/admission.py): a query, a mutation or an answer stream
takes one of the process's slots from validation to the end of execution. Refused, it gets
OVERLOADED, and over HTTP status 503 with Retry-After. Ingest mutations are not counted: they
wait on the ingest queue (with `wait: true`, for minutes), which has its own fairness; nor are
the other subscriptions, which mostly wait for events."""

from __future__ import annotations

from collections.abc import AsyncIterator

from graphql import GraphQLError, OperationType
from starlette.responses import Response
from strawberry.extensions import SchemaExtension

from app.admission import RETRY_AFTER_SECONDS, Admission
from app.errors import ErrorCode, TrellisError
from schema._operations import chosen_operation, root_fields
from schema.body_limit import INGEST_FIELDS

COUNTED_STREAMS = frozenset({"answerStream"})


class Admitted(SchemaExtension):
    def __init__(self) -> None:
        self._held: Admission | None = None

    async def on_operation(self) -> AsyncIterator[None]:
        try:
            yield
        finally:
            if self._held is not None:
                self._held.leave()

    async def on_validate(self) -> AsyncIterator[None]:
        admission = self._admission()
        if admission is not None and self._counted():
            try:
                await admission.enter()
                self._held = admission
            except TrellisError as refused:
                self._refuse(refused)
        yield

    def _admission(self) -> Admission | None:
        context = self.execution_context
        if context.pre_execution_errors:  # already refused (its cost): it will not run
            return None
        services = getattr(context.context, "services", None)
        return getattr(services, "admission", None)

    def _counted(self) -> bool:
        context = self.execution_context
        document = context.graphql_document
        operation = None if document is None else chosen_operation(document, context.operation_name)
        if operation is None:
            return False
        fields = root_fields(operation)
        if operation.operation == OperationType.SUBSCRIPTION:
            return bool(fields & COUNTED_STREAMS)
        return not (operation.operation == OperationType.MUTATION and fields <= INGEST_FIELDS)

    def _refuse(self, refused: TrellisError) -> None:
        extensions = {**refused.details, "code": ErrorCode.OVERLOADED.value}
        self.execution_context.pre_execution_errors = [
            GraphQLError(refused.message, extensions=extensions)
        ]
        response = getattr(self.execution_context.context, "response", None)
        if isinstance(response, Response):
            response.status_code = 503
            response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
