"""Pre-flight checks of answers in cost order: permission, allowance, rate, balance. A request
refused at one step touches no later counter and runs no search. Usage is metered after."""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from app.localdb.stack import Stack, make_key
from app.tenancy.keys import KeyRequest
from tests.graphql_client import GraphQLClient
from tests.helpers import ingest, new_collection, rows

pytestmark = pytest.mark.integration

NOTE = "The lighthouse at Varne Point was built in 1841 by the engineer Maud Calloway."
ASK = "query($i: AnswerInput!) { answer(input: $i) { text usage { credits recordedAt } } }"
USAGE = (
    "query($f: DateTime!, $t: DateTime!, $g: UsageGroup!) { usage(from: $f, to: $t,"
    " groupBy: $g) { group requests credits passagesRead } }"
)


class Tenant:
    """A tenant on a plan of its own, with an admin key and an answer-only key."""

    def __init__(self, http: httpx.Client, stack: Stack, **plan: Any) -> None:
        self.stack, self.name, self.plan = stack, f"pf-{uuid.uuid4().hex[:8]}", plan_name()
        add_plan(stack, self.plan, **plan)
        self.admin = GraphQLClient(http, make_key(stack, self.name))
        self.collection = new_collection(self.admin)
        ingest(self.admin, self.collection, {"externalId": "note", "text": NOTE})
        rows(
            stack, "UPDATE tenants SET plan = %s WHERE name = %s RETURNING 1", self.plan, self.name
        )
        self.asker = GraphQLClient(http, make_key(stack, self.name, KeyRequest(("answer",))))

    def ask(self, client: GraphQLClient | None = None) -> dict[str, Any]:
        question = {"collections": [self.collection], "query": "Who built the lighthouse?"}
        return (client or self.asker).post(ASK, i=question)

    def counters(self) -> tuple[int, int, int]:
        """Usage rows, searches logged, requests in the current rate window (all keys)."""
        [(used, searched, window)] = rows(
            self.stack,
            "SELECT (SELECT count(*) FROM usage_events u WHERE u.tenant_id = t.id),"
            " (SELECT count(*) FROM search_logs s WHERE s.tenant_id = t.id),"
            " (SELECT coalesce(sum(w.requests), 0) FROM rate_windows w JOIN api_keys k"
            "  ON k.id = w.key_id WHERE k.tenant_id = t.id"
            "  AND w.window_start = date_trunc('minute', now()))"
            " FROM tenants t WHERE t.name = %s",
            self.name,
        )
        return int(used), int(searched), int(window)

    def fill_rate_window(self) -> None:
        rows(
            self.stack,
            "INSERT INTO rate_windows (key_id, window_start, requests)"
            " SELECT k.id, date_trunc('minute', now()), p.requests_per_minute FROM api_keys k"
            " JOIN tenants t ON t.id = k.tenant_id JOIN plans p ON p.name = t.plan"
            " WHERE t.name = %s ON CONFLICT (key_id) DO UPDATE SET"
            " window_start = EXCLUDED.window_start, requests = EXCLUDED.requests RETURNING 1",
            self.name,
        )


def plan_name() -> str:
    return f"test-{uuid.uuid4().hex[:8]}"


def add_plan(stack: Stack, name: str, **plan: Any) -> None:
    values = {"monthly_answers": None, "requests_per_minute": 600, "credits_per_answer": 0}
    values.update(plan)
    rows(
        stack,
        "INSERT INTO plans (name, monthly_answers, requests_per_minute, models,"
        " credits_per_answer) VALUES (%s, %s, %s, '{}', %s) RETURNING 1",
        name,
        values["monthly_answers"],
        values["requests_per_minute"],
        values["credits_per_answer"],
    )


def code(body: dict[str, Any]) -> str:
    assert body["data"] is None, body
    value: str = body["errors"][0]["extensions"]["code"]
    return value


def away_from_the_minute_edge() -> None:
    """Rate windows turn over each minute; keep a check and its counters in one window."""
    second = datetime.now(UTC).second
    if second >= 55:
        time.sleep(61 - second)


def test_each_refusal_leaves_the_later_counters_untouched(http: httpx.Client, stack: Stack) -> None:
    tenant = Tenant(http, stack, monthly_answers=0, requests_per_minute=5, credits_per_answer=1)
    away_from_the_minute_edge()
    before = tenant.counters()
    searcher = GraphQLClient(http, make_key(stack, tenant.name, KeyRequest(("search",))))
    assert code(tenant.ask(searcher)) == "FORBIDDEN"
    assert tenant.counters() == before  # no rate count, no search, no usage
    assert code(tenant.ask()) == "ALLOWANCE_EXCEEDED"
    assert tenant.counters() == before


def test_rate_then_balance(http: httpx.Client, stack: Stack) -> None:
    tenant = Tenant(http, stack, requests_per_minute=5, credits_per_answer=1)
    away_from_the_minute_edge()
    tenant.fill_rate_window()
    used, searched, window = tenant.counters()
    body = tenant.ask()
    assert code(body) == "RATE_LIMITED"
    assert 1 <= body["errors"][0]["extensions"]["retryAfterSeconds"] <= 60
    assert tenant.counters() == (used, searched, window)
    rows(stack, "DELETE FROM rate_windows RETURNING 1")
    assert code(tenant.ask()) == "INSUFFICIENT_BALANCE"
    assert tenant.counters()[:2] == (used, searched)  # counted against the rate, nothing else


def test_a_paid_answer_is_metered_and_reported_exactly(http: httpx.Client, stack: Stack) -> None:
    tenant = Tenant(http, stack, credits_per_answer=1.5)
    rows(stack, "UPDATE tenants SET credits = 2 WHERE name = %s RETURNING 1", tenant.name)
    body = tenant.ask()
    usage = body["data"]["answer"]["usage"]
    assert usage["credits"] == 1.5 and usage["recordedAt"]
    [(credits, complete, passages, balance)] = rows(
        stack,
        "SELECT u.credits, u.complete, u.passages_read, t.credits FROM usage_events u"
        " JOIN tenants t ON t.id = u.tenant_id WHERE t.name = %s",
        tenant.name,
    )
    assert (float(credits), complete, float(balance)) == (1.5, True, 0.5)
    assert passages >= 1
    assert code(tenant.ask()) == "INSUFFICIENT_BALANCE"  # 0.5 left, 1.5 needed


def test_usage_sums_by_day_key_and_model(http: httpx.Client, stack: Stack) -> None:
    tenant = Tenant(http, stack, credits_per_answer=0)
    for _ in range(2):
        assert "errors" not in tenant.ask()
    now = datetime.now(UTC)
    span = {"f": (now - timedelta(days=1)).isoformat(), "t": (now + timedelta(hours=1)).isoformat()}
    by_model = tenant.admin.data(USAGE, g="MODEL", **span)["usage"]
    assert [(u["group"], u["requests"]) for u in by_model] == [("extractive", 2)]
    by_day = tenant.admin.data(USAGE, g="DAY", **span)["usage"]
    assert [u["requests"] for u in by_day] == [2] and by_day[0]["group"] == now.date().isoformat()
    [by_key] = tenant.admin.data(USAGE, g="KEY", **span)["usage"]
    assert by_key["requests"] == 2
    keys = tenant.admin.data("{ apiKeys { id scopes } }")["apiKeys"]
    assert by_key["group"] == next(k["id"] for k in keys if k["scopes"] == ["answer"])


@pytest.mark.parametrize(
    ("span", "field"),
    [
        ({"f": "2026-02-01T00:00:00Z", "t": "2026-01-01T00:00:00Z"}, "to"),
        ({"f": "2020-01-01T00:00:00Z", "t": "2026-01-01T00:00:00Z"}, "to"),
        ({"f": "yesterday", "t": "2026-01-01T00:00:00Z"}, "from"),
    ],
)
def test_bad_usage_span_names_the_field(
    gql: GraphQLClient, span: dict[str, str], field: str
) -> None:
    body = gql.post(USAGE, g="DAY", **span)
    extensions = body["errors"][0]["extensions"]
    assert extensions["code"] == "BAD_USER_INPUT"
    assert extensions["field"] == field


def test_non_model_requests_count_against_the_rate_ceiling(
    http: httpx.Client, stack: Stack
) -> None:
    tenant = Tenant(http, stack, requests_per_minute=3)
    away_from_the_minute_edge()
    rows(stack, "DELETE FROM rate_windows RETURNING 1")
    client = GraphQLClient(http, make_key(stack, tenant.name, KeyRequest(("search",))))
    for _ in range(3):
        assert client.data("{ collections { name } }")
    body = client.post("{ collections { name } }")
    assert code(body) == "RATE_LIMITED"
    assert body["errors"][0]["extensions"]["retryAfterSeconds"] >= 1
