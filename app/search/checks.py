"""Checking a search request and turning its filters into a scope. Bad input is
BAD_USER_INPUT naming the field."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from app.errors import ErrorCode, TrellisError
from app.limits import check_range
from retrieval.request import Filters, Leg, MetadataFilter, Mode, SearchRequest
from store.collections import Collection
from store.scope import RangeFilter, Scope
from store.tenants import Tenant

MAX_QUERY = 2000
MAX_TOP_K = 100
MAX_COLLECTIONS = 10
MAX_FILTERS = 20
MAX_DOCUMENT_IDS = 1000


def check_request(request: SearchRequest) -> None:
    if not request.query.strip() or len(request.query) > MAX_QUERY:
        raise _bad("query", f"query must be 1 to {MAX_QUERY} characters and not blank")
    check_range("topK", request.top_k, 1, MAX_TOP_K)
    check_range("graph.hops", request.hops, 1, 3)
    check_range("collections", len(request.collections), 1, MAX_COLLECTIONS)
    if not request.legs:
        raise _bad("legs", "name at least one leg")
    if request.second_round and request.mode is not Mode.HYBRID:
        raise _bad("graph.secondRound", "a second round runs in HYBRID mode only")
    if request.match_facts and Leg.GRAPH not in request.active_legs():
        raise _bad("graph.matchFacts", "fact matching starts the GRAPH leg's walk; run that leg")
    if request.min_score is not None and request.min_score < 0:
        raise _bad("minScore", "minScore must be 0 or more")
    _check_filters(request.filters)


def scope_of(tenant: Tenant, collection: Collection, filters: Filters) -> Scope:
    equals = {f.key: f.equals for f in filters.metadata if f.equals is not None}
    ranges = tuple(
        RangeFilter(f.key, f.at_least, f.at_most) for f in filters.metadata if f.equals is None
    )
    ids = None if not filters.document_ids else tuple(_uuid(i) for i in filters.document_ids)
    return Scope(
        tenant.id,
        collection.id,
        equals,
        ranges,
        ids,
        filters.created_from,
        filters.created_to,
        tenant.content_scopes,
    )


def _check_filters(filters: Filters) -> None:
    check_range("filters.metadata", len(filters.metadata), 0, MAX_FILTERS)
    check_range("filters.documentIds", len(filters.document_ids), 0, MAX_DOCUMENT_IDS)
    for item in filters.metadata:
        _check_metadata(item)
    for document_id in filters.document_ids:
        _uuid(document_id)
    if filters.created_from and filters.created_to and filters.created_to <= filters.created_from:
        raise _bad("filters.createdTo", "createdTo must be after createdFrom")


def _check_metadata(item: MetadataFilter) -> None:
    field = "filters.metadata"
    if not item.key.strip() or len(item.key) > 200:
        raise _bad(field, "a metadata filter needs a key of 1 to 200 characters")
    ranged = item.at_least is not None or item.at_most is not None
    if (item.equals is None) == (not ranged):
        raise _bad(field, f"filter on {item.key!r}: give either equals or a range")
    bounds = [b for b in (item.at_least, item.at_most) if b is not None]
    if len({_kind(b) for b in bounds}) > 1 or any(_kind(b) == "other" for b in bounds):
        raise _bad(field, f"filter on {item.key!r}: range bounds must both be numbers or text")


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "other"
    if isinstance(value, int | float):
        return "number"
    return "text" if isinstance(value, str) else "other"


def _uuid(value: str) -> UUID:
    try:
        return UUID(value)
    except ValueError:
        raise _bad("filters.documentIds", f"{value!r} is not a document id") from None


def _bad(field: str, message: str) -> TrellisError:
    return TrellisError(ErrorCode.BAD_USER_INPUT, message, field=field)
