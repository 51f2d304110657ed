"""What a request body tells: from its first bytes, whether it may still be an ingest
mutation; from all of it, whether it is one.

A body past the small cap may only go on to the ingest cap when its operation ingests. Read
to its end to find out, a hostile 60 MB query took the time of reading and decoding all of
it. Clients send the query before the variables, so its first bytes usually hold the whole
query text: when that text ingests nothing, the body is refused there. A query text that is
itself longer than the small cap is refused too: documents travel as variables, never as
the bulk of the query text.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from graphql import DocumentNode, GraphQLError, OperationDefinitionNode, parse

from schema._operations import chosen_operation, ingests_only

_DECODER = json.JSONDecoder()
_INCOMPLETE = object()  # a member whose value runs past the bytes read


def may_ingest(prefix: bytes, limit: int) -> bool:
    """Whether a body beginning with `prefix` may still be a request that only ingests, its
    query text no longer than `limit` bytes. True when its query text comes after the
    prefix (only the whole body tells then)."""
    text = prefix.decode("utf-8", errors="ignore")
    try:
        for key, value in _members(text):
            if key == "query":
                document = _document(value, limit)
                return document is not None and any(ingests_only(o) for o in _operations(document))
    except ValueError:
        return False  # not a JSON object: no request at all
    return True


def ingests_only_body(body: bytes, limit: int) -> bool:
    """Every root field of the whole request's operation ingests, and its query text fits
    `limit` bytes."""
    try:
        request = json.loads(body)
        document = _document(request["query"], limit)
        name = request.get("operationName")
    except (ValueError, KeyError, TypeError, AttributeError):
        return False
    operation = None if document is None else chosen_operation(document, name)
    return operation is not None and ingests_only(operation)


def _members(text: str) -> Iterator[tuple[str, object]]:
    """The top-level object's members, in order, as far as `text` holds them; the last one
    with the value _INCOMPLETE when it runs past the text's end."""
    at = _after_space(text, 0)
    if not text.startswith("{", at):
        raise ValueError("not a JSON object")
    at = _after_space(text, at + 1)
    while at < len(text) and text[at] != "}":
        try:
            key, at = _DECODER.raw_decode(text, at)
        except json.JSONDecodeError:
            return  # a key cut at the end of the text, or a body that is not JSON
        at = _after_space(text, at)
        if not text.startswith(":", at):
            raise ValueError("no colon after a key")
        try:
            value, at = _DECODER.raw_decode(text, _after_space(text, at + 1))
        except json.JSONDecodeError:
            yield str(key), _INCOMPLETE
            return
        yield str(key), value
        at = _after_space(text, at)
        at = _after_space(text, at + 1) if text.startswith(",", at) else at


def _after_space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


def _document(query: object, limit: int) -> DocumentNode | None:
    """The query text parsed, when it is a string no longer than `limit` bytes."""
    if not isinstance(query, str) or len(query.encode()) > limit:
        return None
    try:
        return parse(query, no_location=True)
    except GraphQLError:
        return None


def _operations(document: DocumentNode) -> list[OperationDefinitionNode]:
    """Every operation of the document: which one runs may be named after the bytes read."""
    return [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
