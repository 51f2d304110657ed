"""What authentication with principals and permission checks add to a request.

The same GraphQL operations run in-process through the real schema, twice per round:
- checked: every request looks its key up (principal, plan) and counts against the key's
  rate window, as the server does;
- baseline: the principal is resolved once beforehand and no rate window is counted; the
  permission classes still run, so the difference is the per-request database work.

Rounds alternate so both see the same machine noise. Prints each median and the difference.
Run with `.venv/bin/python -m bench.access`.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request

from app.localdb.stack import local_stack, make_key, stack_services
from app.services import Services
from app.tenancy.principal import Principal, Scope
from schema import schema
from schema.context import Context
from store.migrations import migrate

ROUNDS = 400
TRIVIAL = "{ collections { name } }"
SEARCH = (
    'query($c: [String!]!) { search(input: {collections: $c, query: "Who wrote the report?",'
    " mode: KEYWORD, topK: 5}) { hits { rank } } }"
)
NOTES = [
    "Priya Natarajan wrote the incident report for the failover on Tuesday.",
    "The failover moved writes to the standby region within two minutes.",
    "Dana Levi reviewed the report and approved the follow-up actions.",
]


@dataclass
class Preauthenticated(Context):
    """The baseline: a principal resolved once, and no rate window."""

    given: Principal | None = None

    async def authenticate(self, counted_as: Scope | None = None) -> Principal:
        assert self.given is not None
        self._principal = self.given
        return self.given

    async def admit(self) -> None:
        return None


def request_with(key: str) -> Request:
    headers = [(b"x-api-key", key.encode())]
    return Request({"type": "http", "method": "POST", "headers": headers, "path": "/graphql"})


async def execute(context: Context, query: str, variables: dict[str, Any]) -> None:
    result = await schema.execute(query, variable_values=variables, context_value=context)
    assert not result.errors, result.errors


async def compare(
    services: Services, key: str, query: str, variables: dict[str, Any]
) -> tuple[float, float]:
    principal = await Context(services, request_with(key), None).authenticate()
    checked: list[float] = []
    baseline: list[float] = []

    def fresh() -> Context:
        return Context(services, request_with(key), None)

    def given() -> Context:
        return Preauthenticated(services, request_with(key), None, given=principal)

    for index in range(ROUNDS + 20):
        for make, samples in ((fresh, checked), (given, baseline))[:: 1 if index % 2 else -1]:
            started = time.perf_counter()
            await execute(make(), query, variables)
            if index >= 20:
                samples.append((time.perf_counter() - started) * 1000)
    return statistics.median(checked), statistics.median(baseline)


async def prepare(services: Services, key: str) -> str:
    context = Context(services, request_with(key), None)
    await execute(context, 'mutation { createCollection(name: "notes") { id } }', {})
    docs = [{"externalId": f"n{i}", "text": text} for i, text in enumerate(NOTES)]
    await execute(
        Context(services, request_with(key), None),
        'mutation($d: [DocumentInput!]!) { ingestDocuments(collection: "notes",'
        " documents: $d) { job { id } } }",
        {"d": docs},
    )
    await services.worker.drain()  # no background loops run here: index in this process
    return "notes"


def report(name: str, figures: tuple[float, float]) -> None:
    checked, baseline = figures
    print(
        f"{name:<14} checked {checked:7.3f} ms   baseline {baseline:7.3f} ms"
        f"   added {checked - baseline:+.3f} ms ({checked / baseline:.2f}x)"
    )


async def measure(stack: Any, key: str) -> None:
    async with stack_services(stack) as services:
        collection = await prepare(services, key)
        report("trivial query", await compare(services, key, TRIVIAL, {}))
        report("search", await compare(services, key, SEARCH, {"c": [collection]}))


def main() -> None:
    with local_stack() as stack:
        asyncio.run(migrate(stack.endpoints.postgres_url))
        asyncio.run(measure(stack, make_key(stack, "bench-access")))


if __name__ == "__main__":
    main()
