"""Recognise errors in argument values (a bad date, a string for an Int) and name the argument.

graphql-core reports them as validation errors on the value node, or as variable
coercion errors on the variable definition; both are the caller's input, not ours.
"""

from __future__ import annotations

from graphql import (
    ArgumentNode,
    DocumentNode,
    GraphQLError,
    Node,
    StringValueNode,
    ValueNode,
    VariableDefinitionNode,
    VariableNode,
    visit,
)
from graphql.language import Visitor
from strawberry.exceptions import StrawberryInputCoercionError


def is_input_error(error: GraphQLError) -> bool:
    node = error.nodes[0] if error.nodes else None
    return isinstance(node, VariableDefinitionNode | ValueNode) or isinstance(
        error, StrawberryInputCoercionError
    )


def argument_of(error: GraphQLError, document: DocumentNode | None) -> str | None:
    """The argument the bad value was given for, when the document says."""
    node = error.nodes[0] if error.nodes else None
    if document is None:
        return None
    if node is None:
        return _quoted_argument(error.message, document)
    finder = _ArgumentFinder(node)
    visit(document, finder)
    if finder.found is None and isinstance(node, VariableDefinitionNode):
        return node.variable.name.value
    return finder.found


class _ArgumentFinder(Visitor):
    def __init__(self, target: Node) -> None:
        super().__init__()
        self.target = target
        self.found: str | None = None
        self._current: list[str] = []

    def enter_argument(self, node: ArgumentNode, *_: object) -> None:
        self._current.append(node.name.value)
        if self.found is None and self._matches(node.value):
            self.found = node.name.value

    def leave_argument(self, *_: object) -> None:
        self._current.pop()

    def enter(self, node: Node, *_: object) -> None:
        if self.found is None and self._current and node is self.target:
            self.found = self._current[-1]

    def _matches(self, value: ValueNode) -> bool:
        target = self.target
        if isinstance(target, VariableDefinitionNode) and isinstance(value, VariableNode):
            return value.name.value == target.variable.name.value
        return value is target


def _quoted_argument(message: str, document: DocumentNode) -> str | None:
    """Scalar parse errors of literals carry no node, only the value: find its argument."""
    finder = _QuotedFinder(message)
    visit(document, finder)
    return finder.found


class _QuotedFinder(Visitor):
    def __init__(self, message: str) -> None:
        super().__init__()
        self.message = message
        self.found: str | None = None

    def enter_argument(self, node: ArgumentNode, *_: object) -> None:
        value = node.value
        quoted = isinstance(value, StringValueNode) and f'"{value.value}"' in self.message
        if self.found is None and quoted:
            self.found = node.name.value
