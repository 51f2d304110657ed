"""No string a request gives may hold U+0000: Postgres text cannot store it, and ingestion
refuses it as binary data. Nor a lone surrogate (U+D800 to U+DFFF), which JSON's escapes
can carry into a variable but which is no text: UTF-8 cannot encode it, so the embedder, the
graph driver and Postgres each failed on it (a search lost two legs and its log). A request
carrying either, in an argument or a variable, is refused before anything runs with
BAD_USER_INPUT naming the argument (or variable), instead of failing deep in a driver.

The documents and records an ingest carries are the exception: each is judged on its own, and
one holding binary data fails alone (INVALID_ENCODING) while the others are ingested."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from graphql import (
    ArgumentNode,
    GraphQLError,
    ListValueNode,
    ObjectValueNode,
    StringValueNode,
    ValueNode,
    VariableNode,
    visit,
)
from graphql.language import Visitor
from strawberry.extensions import SchemaExtension

from app.errors import ErrorCode

NUL = "\x00"
NUL_TEXT = "a NUL character (U+0000)"
SURROGATE_TEXT = "a lone surrogate (U+D800 to U+DFFF)"
JUDGED_PER_ITEM = frozenset({"documents", "records"})  # the ingest mutations' payloads


class NoNulBytes(SchemaExtension):
    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        finder = _Finder()
        if context.graphql_document is not None:
            visit(context.graphql_document, finder)
        variables = {k: v for k, v in (context.variables or {}).items() if k not in finder.exempt}
        found = _in_variables(variables) or finder.found
        if found is not None and not context.pre_execution_errors:
            context.pre_execution_errors = [_refused(*found)]
        yield


def _in_variables(variables: dict[str, Any]) -> tuple[str, str] | None:
    """The first variable holding a string no text may be, and what it holds."""
    for name, value in variables.items():
        what = _unstorable(list(_strings(value)))
        if what is not None:
            return name, what
    return None


def _strings(value: object) -> Iterator[str]:
    """Every string in a variable's value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _unstorable(strings: list[str]) -> str | None:
    """What makes them no text, the NUL named first; None when they are all text."""
    if any(NUL in text for text in strings):
        return NUL_TEXT
    if not all(_encodable(text) for text in strings):
        return SURROGATE_TEXT
    return None


class _Finder(Visitor):
    """The first argument whose literal holds a NUL, and the variables that feed payloads
    judged per item."""

    def __init__(self) -> None:
        super().__init__()
        self.found: tuple[str, str] | None = None
        self.exempt: set[str] = set()

    def enter_argument(self, node: ArgumentNode, *_: object) -> None:
        if node.name.value in JUDGED_PER_ITEM:
            self.exempt |= _variables_in(node.value)
        elif self.found is None and _literal_holds(node.value):
            self.found = node.name.value, NUL_TEXT  # the parser refuses surrogates itself


def _variables_in(node: ValueNode) -> set[str]:
    if isinstance(node, VariableNode):
        return {node.name.value}
    if isinstance(node, ListValueNode):
        return {name for v in node.values for name in _variables_in(v)}
    if isinstance(node, ObjectValueNode):
        return {name for f in node.fields for name in _variables_in(f.value)}
    return set()


def _literal_holds(node: ValueNode) -> bool:
    if isinstance(node, StringValueNode):
        return NUL in node.value
    if isinstance(node, ListValueNode):
        return any(_literal_holds(v) for v in node.values)
    if isinstance(node, ObjectValueNode):
        return any(_literal_holds(f.value) for f in node.fields)
    return False


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _refused(field: str, what: str) -> GraphQLError:
    return GraphQLError(
        f"{field} holds {what}, which no text in Trellis may hold",
        extensions={"code": ErrorCode.BAD_USER_INPUT.value, "field": field},
    )
