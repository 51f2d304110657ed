"""Admission control (app/admission.py, schema/admission.py): a few run, a few wait briefly,
the rest are refused at once with OVERLOADED."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace

import httpx
import pytest
from starlette.applications import Starlette
from starlette.routing import Route

from app.admission import Admission
from app.errors import ErrorCode, TrellisError
from app.settings import AdmissionSettings, Settings
from schema import build_schema
from schema.view import TrellisGraphQL


async def test_a_waiting_request_takes_the_slot_that_frees_and_the_queue_is_bounded() -> None:
    admission = Admission(AdmissionSettings(limit=1, queue=1, wait_seconds=2.0))
    await admission.enter()
    waiting = asyncio.create_task(admission.enter())
    await asyncio.sleep(0.05)
    started = time.perf_counter()
    with pytest.raises(TrellisError) as refused:
        await admission.enter()
    assert time.perf_counter() - started < 0.05  # at once: the queue is full
    assert refused.value.code == ErrorCode.OVERLOADED
    assert refused.value.details["retryAfterSeconds"] == 1
    assert admission.counts().waiting == 1 and admission.counts().running == 1
    admission.leave()
    await waiting
    assert admission.counts().running == 1 and admission.counts().refused == 1
    admission.leave()


async def test_a_request_that_waits_too_long_is_refused() -> None:
    admission = Admission(AdmissionSettings(limit=1, queue=5, wait_seconds=0.1))
    async with admission.slot():
        with pytest.raises(TrellisError) as refused:
            await admission.enter()
    assert "0.1 s" in refused.value.message and admission.counts().running == 0


def _client(admission: Admission) -> httpx.AsyncClient:
    graphql = TrellisGraphQL(build_schema(Settings.from_env({})))
    app = Starlette(routes=[Route("/graphql", graphql, methods=["POST"])])
    app.state.services = SimpleNamespace(admission=admission)  # `__typename` reads nothing
    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")


async def test_over_http_a_refused_query_gets_503_retry_after_and_overloaded() -> None:
    admission = Admission(AdmissionSettings(limit=1, queue=0, wait_seconds=0.0))
    async with _client(admission) as client:
        await admission.enter()
        refused = await client.post("/graphql", json={"query": "{ __typename }"})
        admission.leave()
        served = await client.post("/graphql", json={"query": "{ __typename }"})
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "1"
    [error] = refused.json()["errors"]
    assert error["extensions"] == {"code": "OVERLOADED", "retryAfterSeconds": 1}
    assert served.status_code == 200 and served.json()["data"] == {"__typename": "Query"}
    assert admission.counts().running == 0  # the slot was given back after the query


async def test_ingest_mutations_are_not_counted() -> None:
    admission = Admission(AdmissionSettings(limit=1, queue=0, wait_seconds=0.0))
    mutation = 'mutation { ingestDocuments(collection: "c", documents: []) { job { id } } }'
    async with _client(admission) as client:
        await admission.enter()
        response = await client.post("/graphql", json={"query": mutation})
        admission.leave()
    assert response.status_code == 200  # it ran (and failed: this app has no databases)
    assert response.json()["errors"][0]["extensions"]["code"] != "OVERLOADED"
