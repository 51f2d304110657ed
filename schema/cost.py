"""A static cost for every operation, computed before it runs: a request over the limit is
refused with QUERY_TOO_COSTLY, naming its cost and the limit, and nothing is executed.

Every field that returns an object costs 1, a scalar nothing, and the expensive root fields
(search, answer, paths, neighbourhood, …) what the settings say. A field that takes a page
size (`first`, `topK`) multiplies what its selections cost by that size, or by its default:
`neighbours(first: 100) { entity { neighbours(first: 100) { … } } }` costs 100 × 100 per
entity at the second level, which is what it would run. Fragments are expanded where they
are spread; a cycle (which validation would refuse anyway) is not followed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from graphql import (
    ArgumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLField,
    GraphQLInputObjectType,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    ObjectFieldNode,
    ObjectValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    ValueNode,
    VariableNode,
    get_named_type,
    is_leaf_type,
)
from strawberry.extensions import SchemaExtension
from strawberry.types import ExecutionContext

from app.errors import ErrorCode
from app.settings import CostSettings
from schema._operations import operation_of

PAGE_SIZES = ("first", "topK")  # the arguments that say how many items a list field returns


@dataclass(frozen=True)
class _Costing:
    schema: GraphQLSchema
    fragments: Mapping[str, FragmentDefinitionNode]
    variables: Mapping[str, Any]
    root_costs: Mapping[str, int]

    def selections(
        self,
        parent: GraphQLObjectType,
        selection_set: SelectionSetNode | None,
        seen: frozenset[str],
    ) -> int:
        return sum(self._selection(parent, s, seen) for s in _selections(selection_set))

    def _selection(self, parent: GraphQLObjectType, node: object, seen: frozenset[str]) -> int:
        if isinstance(node, FieldNode):
            return self._field(parent, node, seen)
        if isinstance(node, InlineFragmentNode):
            return self.selections(self._narrowed(parent, node), node.selection_set, seen)
        if isinstance(node, FragmentSpreadNode) and node.name.value not in seen:
            fragment = self.fragments.get(node.name.value)
            if fragment is not None:
                inner = seen | {node.name.value}
                return self.selections(
                    self._narrowed(parent, fragment), fragment.selection_set, inner
                )
        return 0

    def _field(self, parent: GraphQLObjectType, node: FieldNode, seen: frozenset[str]) -> int:
        definition = parent.fields.get(node.name.value)
        if definition is None:
            return 0
        named = get_named_type(definition.type)
        if is_leaf_type(named):
            return 0
        own = self._own(parent, node.name.value)
        inner = named if isinstance(named, GraphQLObjectType) else parent
        return own + self._page(definition, node) * self.selections(inner, node.selection_set, seen)

    def _own(self, parent: GraphQLObjectType, name: str) -> int:
        roots = (self.schema.query_type, self.schema.mutation_type, self.schema.subscription_type)
        return self.root_costs.get(name, 1) if parent in roots else 1

    def _page(self, definition: GraphQLField, node: FieldNode) -> int:
        """The page size asked for, in the field's arguments or in its input object's fields,
        else the default; what is not a whole number counts 1 (validation refuses it)."""
        sizes = self._defaults(definition) | self._given(node.arguments or ())
        return max([1, *(_whole(sizes.get(name)) for name in PAGE_SIZES)])

    def _defaults(self, definition: GraphQLField) -> dict[str, object]:
        found: dict[str, object] = {}
        for name, argument in definition.args.items():
            kind = get_named_type(argument.type)
            if isinstance(kind, GraphQLInputObjectType):
                found |= {n: f.default_value for n, f in kind.fields.items()}
            found[name] = argument.default_value
        return found

    def _given(self, nodes: Iterable[ArgumentNode | ObjectFieldNode]) -> dict[str, object]:
        found: dict[str, object] = {}
        for node in nodes:
            value = self._value(node.value)
            if isinstance(node.value, ObjectValueNode):
                found |= self._given(node.value.fields)
            elif isinstance(value, Mapping):
                found |= value
            found[node.name.value] = value
        return found

    def _value(self, node: ValueNode) -> object:
        if isinstance(node, IntValueNode):
            return int(node.value)
        if isinstance(node, VariableNode):
            return self.variables.get(node.name.value)
        return None

    def _narrowed(
        self, parent: GraphQLObjectType, node: InlineFragmentNode | FragmentDefinitionNode
    ) -> GraphQLObjectType:
        condition = node.type_condition
        found = self.schema.get_type(condition.name.value) if condition else None
        return found if isinstance(found, GraphQLObjectType) else parent


def _whole(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 1


def _selections(selection_set: SelectionSetNode | None) -> Iterator[object]:
    return iter(selection_set.selections if selection_set else ())


def operation_cost(
    schema: GraphQLSchema,
    operation: OperationDefinitionNode,
    fragments: Mapping[str, FragmentDefinitionNode],
    variables: Mapping[str, Any],
    root_costs: Mapping[str, int],
) -> int:
    root = schema.get_root_type(operation.operation)
    if root is None:
        return 0
    costing = _Costing(schema, fragments, _variables(operation, variables), root_costs)
    return costing.selections(root, operation.selection_set, frozenset())


def root_costs(settings: CostSettings) -> dict[str, int]:
    """What each expensive root field costs on its own."""
    return {
        "search": settings.search,
        "readSpans": settings.search,
        "answer": settings.answer,
        "answerStream": settings.answer,
        "documentAnswer": settings.answer,
        "documentAnswerStream": settings.answer,
        "chat": settings.answer,
        "startResearch": settings.answer,
        "paths": settings.paths,
        "neighborhood": settings.neighborhood,
        "timeline": settings.neighborhood,
        "themes": settings.neighborhood,
    }


class QueryCost(SchemaExtension):
    """Refuses, before validation and execution, an operation that costs more than allowed."""

    def __init__(self, settings: CostSettings) -> None:
        self._settings = settings
        self._roots = root_costs(settings)

    def on_validate(self) -> Iterator[None]:
        cost = _cost_of(self.execution_context, self._roots)
        if cost > self._settings.max_cost:
            # Errors set before validation stand in for its own: nothing runs.
            self.execution_context.pre_execution_errors = [
                _too_costly(cost, self._settings.max_cost)
            ]
        yield


def _cost_of(context: ExecutionContext, roots: Mapping[str, int]) -> int:
    operation = operation_of(context)
    if operation is None or context.graphql_document is None:
        return 0  # validation refuses a request with no single operation to run
    document = context.graphql_document
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    schema = context.schema._schema
    return operation_cost(schema, operation, fragments, context.variables or {}, roots)


def _too_costly(cost: int, limit: int) -> GraphQLError:
    return GraphQLError(
        f"this operation costs {cost}, more than the limit of {limit}: ask for smaller pages"
        " (first, topK) or fewer nested lists",
        extensions={"code": ErrorCode.QUERY_TOO_COSTLY.value, "cost": cost, "limit": limit},
    )


def _variables(operation: OperationDefinitionNode, given: Mapping[str, Any]) -> dict[str, Any]:
    """The variables given, with the operation's integer defaults for those not given."""
    defaults = {
        d.variable.name.value: int(d.default_value.value)
        for d in operation.variable_definitions or ()
        if isinstance(d.default_value, IntValueNode)
    }
    return defaults | dict(given)
