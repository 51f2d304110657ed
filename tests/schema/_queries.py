"""Queries built from the schema itself, every string argument filled with one text: the
hostile-string and cross-tenant tests call every query field this way."""

from __future__ import annotations

from graphql import (
    GraphQLEnumType,
    GraphQLField,
    GraphQLInputObjectType,
    GraphQLInputType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLScalarType,
    get_named_type,
    is_leaf_type,
)

from schema import schema

QUERY = schema._schema.query_type
assert QUERY is not None


def is_string(kind: GraphQLInputType) -> bool:
    named = get_named_type(kind)
    return isinstance(named, GraphQLScalarType) and named.name in ("String", "ID")


def takes_text(field: GraphQLField) -> bool:
    """Whether some argument of the field, or of its input object, is a string."""
    return any(
        is_string(a.type) or isinstance(get_named_type(a.type), GraphQLInputObjectType)
        for a in field.args.values()
    )


TEXT_FIELDS = [(name, field) for name, field in sorted(QUERY.fields.items()) if takes_text(field)]


def filled_query(name: str, field: GraphQLField, text: str, depth: int = 1) -> str:
    """`{ name(args) { selection } }`: every string argument `text`, the other required
    ones at their least values, and the scalar fields of the result `depth` levels deep."""
    arguments = ", ".join(
        f"{n}: {literal(a.type, text)}"
        for n, a in field.args.items()
        if is_string(a.type)
        or isinstance(a.type, GraphQLNonNull)
        or isinstance(get_named_type(a.type), GraphQLInputObjectType)
    )
    call = f"{name}({arguments})" if arguments else name
    return f"{{ {call}{selection(field.type, depth)} }}"


def selection(kind: GraphQLOutputType, depth: int) -> str:
    named = get_named_type(kind)
    if is_leaf_type(named):
        return ""
    if not isinstance(named, GraphQLObjectType) or depth < 0:
        return " { __typename }"
    inner = [
        f"{n}{selection(f.type, depth - 1)}"
        for n, f in named.fields.items()
        if not any(isinstance(a.type, GraphQLNonNull) for a in f.args.values())
        and (is_leaf_type(get_named_type(f.type)) or depth > 0)
    ]
    return " { __typename " + " ".join(inner) + " }"


def literal(kind: GraphQLInputType, text: str) -> str:
    """A GraphQL literal of `kind`: `text` wherever a string goes."""
    if isinstance(kind, GraphQLNonNull):
        return literal(kind.of_type, text)
    if isinstance(kind, GraphQLList):
        return f"[{literal(kind.of_type, text)}]"
    if isinstance(kind, GraphQLEnumType):
        return str(next(iter(kind.values)))
    if isinstance(kind, GraphQLInputObjectType):
        fields = [
            f"{n}: {literal(f.type, text)}"
            for n, f in kind.fields.items()
            if is_string(f.type) or isinstance(f.type, GraphQLNonNull)
        ]
        return "{" + ", ".join(fields) + "}"
    assert isinstance(kind, GraphQLScalarType)
    return {"Int": "1", "Float": "1.0", "Boolean": "false"}.get(kind.name) or quoted(text)


def quoted(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in escaped) + '"'
