"""The operation a GraphQL request runs, and its root fields, read from its parsed document."""

from __future__ import annotations

from graphql import DocumentNode, FieldNode, OperationDefinitionNode, OperationType
from strawberry.types import ExecutionContext

FRAGMENTS = "(a fragment)"  # a root selection that is not a plain field
INGEST_FIELDS = frozenset({"ingestDocuments", "ingestRecords"})  # the ingest mutations


def chosen_operation(document: DocumentNode, name: str | None) -> OperationDefinitionNode | None:
    """The operation named, or the only one; None when there is no such single operation."""
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if name is not None:
        operations = [o for o in operations if o.name is not None and o.name.value == name]
    return operations[0] if len(operations) == 1 else None


def operation_of(context: ExecutionContext) -> OperationDefinitionNode | None:
    """The operation a parsed request runs; None before parsing or without a single one."""
    document = context.graphql_document
    return None if document is None else chosen_operation(document, context.operation_name)


def ingests_only(operation: OperationDefinitionNode) -> bool:
    """A mutation whose every root field ingests."""
    return operation.operation == OperationType.MUTATION and root_fields(operation) <= INGEST_FIELDS


def root_fields(operation: OperationDefinitionNode) -> set[str]:
    selections = operation.selection_set.selections
    return {s.name.value if isinstance(s, FieldNode) else FRAGMENTS for s in selections}
