"""Reliability under hostile input and load (issue 50), against `trellis serve` as a user runs
it, on the 2Wiki corpus (6,119 passages), kept in `.data/bench/2wiki`.

Run with `.venv/bin/python -m bench.reliability [--keep DIR] [--seconds 60] [--clients 50]`
(`--only-hostile`: the bombs and the body; `--only-load`; `--only-fresh`)
(`make bench-reliability`). Reported:

- **bombs**: each hostile query sent 20 times: its code and how long its refusal took, and
  the p95 of five other clients' searches meanwhile against their p95 just before (the
  baseline, same run, after 10 s of warming up);
- **the 60 MB body**: the time from sending its headers to the 413, declared by
  Content-Length and sent chunked, written in 64 KiB blocks as curl and httpx write (in 1 MiB
  blocks the client's own writes delayed the answer it read by 100-200 ms, even for 2 MB);
- **a new collection's speed**: KEYWORD searches of a new 300-passage collection (HotpotQA
  passages) in the database that holds 2Wiki, right after its ingest job finished (a second
  pass: the first warms pages and parses), against the same searches after a manual ANALYZE
  (the baseline, same run); the collection is deleted afterwards;
- **soak** (`--soak SECONDS`, 600 for the figure, alone): mixed traffic against one process, five
  clients searching, two asking for answers and one ingesting a document every two seconds
  into a collection of its own: the server's resident memory and its Postgres connections
  after a minute (the baseline) and at the end;
- **load**: `clients` concurrent clients of HYBRID searches (topK 5, the dataset's questions
  in turn) for `seconds`, against one process and then `TRELLIS_WORKERS=2`: searches a
  second, the p50/p95 of admitted searches, OVERLOADED refusals, errors, degraded results.
  A refused client waits the Retry-After it is given, as it is asked to. The CPU time the
  run took, split between the server, Postgres, Neo4j and the benchmark's clients, is
  divided by the searches served (refusals' own cost included).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg

from app.localdb.stack import Stack, local_stack, make_key, stack_services
from app.services import Services
from bench._cpu import CpuSeconds, cpu_now
from bench._serving import CREATE, INGEST, Searches, Tally, client, served
from bench._timing import p50_p95
from bench.ingestion import load as load_corpus
from bench.ingestion import submit_corpus
from bench.quality import ensure_corpus, questions
from retrieval.request import Mode, SearchRequest
from store.statistics import SEARCHED
from store.tenants import Tenant, ensure_tenant

DATASET = "2wiki"
OTHERS = 5  # clients searching while the bombs land


def nested_neighbours(levels: int, first: int) -> str:
    inner = "name"
    for _ in range(levels):
        inner = f"neighbours(first: {first}) {{ entity {{ {inner} }} }}"
    entities = f'entities(collection: "{DATASET}", query: "film", first: 1)'
    return f"{{ {entities} {{ entity {{ {inner} }} }} }}"


BOMBS = {
    "depth (14 levels)": nested_neighbours(14, 1),
    "aliases (40)": "{ " + " ".join(f"a{n}: health {{ ok }}" for n in range(40)) + " }",
    "fragment cycle": "{ ...A } fragment A on Query { ...B health { ok } }"
    " fragment B on Query { ...A }",
    "cost (documents of 100 entities)": f'{{ entities(collection: "{DATASET}", query: "film",'
    " first: 100) { entity { documents(first: 100) { edges { node { id } } } } } }",
    "nested neighbours (the issue's)": nested_neighbours(3, 100),
    "tokens (6,000)": "{ " + " ".join("health { ok }" for _ in range(1500)) + " }",
}


async def load(url: str, key: str, asked: list[str], clients: int, seconds: float) -> Tally:
    tally = Tally()
    async with client(url, key, clients) as http:
        until = time.monotonic() + seconds
        searches = Searches(http, DATASET, asked)
        await asyncio.gather(*(searches.loop(n * 7, until, tally) for n in range(clients)))
    return tally


async def bombs(url: str, key: str, asked: list[str]) -> list[dict[str, Any]]:
    """Each bomb 20 times while OTHERS clients search; their p95 against a quiet baseline."""
    rows = []
    async with client(url, key, OTHERS + 2) as http:
        searches = Searches(http, DATASET, asked)
        await _during(searches, Tally(), asyncio.sleep(10))  # warm: pages, plans
        quiet = Tally()
        await _during(searches, quiet, asyncio.sleep(10))
        for name, query in BOMBS.items():
            meanwhile, refusals = Tally(), Tally()
            await _during(searches, meanwhile, _throw(http, query, refusals))
            rows.append(_bomb_row(name, refusals, meanwhile, quiet))
    return rows


async def _during(searches: Searches, tally: Tally, attack: Any) -> None:
    until = time.monotonic() + 3600
    others = [asyncio.create_task(searches.loop(n * 11, until, tally)) for n in range(OTHERS)]
    await attack
    for task in others:
        task.cancel()
    await asyncio.gather(*others, return_exceptions=True)


async def _throw(client: httpx.AsyncClient, query: str, refusals: Tally) -> None:
    for _ in range(20):
        started = time.perf_counter()
        response = await client.post("/graphql", json={"query": query})
        refusals.ms.append((time.perf_counter() - started) * 1000)
        errors = response.json().get("errors") or [{}]
        refusals.codes[errors[0].get("extensions", {}).get("code", "none")] += 1
        await asyncio.sleep(0.1)


def _bomb_row(name: str, refusals: Tally, meanwhile: Tally, quiet: Tally) -> dict[str, Any]:
    return {
        "bomb": name,
        "codes": dict(refusals.codes),
        "refusal p50 ms": statistics.median(refusals.ms),
        "refusal max ms": max(refusals.ms),
        "others p95 ms": p50_p95(meanwhile.ms)[1],
        "others p95, quiet": p50_p95(quiet.ms)[1],
    }


async def big_body(url: str, key: str, chunked: bool) -> tuple[int, float]:
    """The status and milliseconds from the first byte sent to the response, for 60 MB."""
    host, port = url.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    size = 60 * 1024 * 1024
    length = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
    head = f"POST /graphql HTTP/1.1\r\nHost: {host}\r\nX-API-Key: {key}\r\n"
    head += f"Content-Type: application/json\r\n{length}\r\n\r\n"
    started = time.perf_counter()
    writer.write(head.encode())
    sending = asyncio.create_task(_send_body(writer, size, chunked))
    status = await reader.readline()
    elapsed = (time.perf_counter() - started) * 1000
    sending.cancel()
    writer.close()
    return int(status.split()[1]), elapsed


BLOCK = 64 * 1024  # bytes the client writes at a time


async def _send_body(writer: asyncio.StreamWriter, size: int, chunked: bool) -> None:
    """One query text of `size` bytes (never closed: it is refused long before)."""
    blocks = (
        b'{"query": "' + b"x" * (BLOCK - 11) if i == 0 else b"x" * BLOCK
        for i in range(size // BLOCK)
    )
    try:
        for block in blocks:
            writer.write(f"{len(block):x}\r\n".encode() + block + b"\r\n" if chunked else block)
            await writer.drain()
        if chunked:
            writer.write(b"0\r\n\r\n")
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        return


def report_fresh(ingested: float, analyzed: float) -> None:
    print(f"\n- a new {FRESH}-passage collection, KEYWORD p50: {ingested:.1f} ms right after its")
    print(f"  ingest, {analyzed:.1f} ms after a manual ANALYZE ({ingested / analyzed:.2f}x)")


def report_load(workers: int, tally: Tally, seconds: float, spent: CpuSeconds) -> None:
    ok = len(tally.ms)
    served = ("ok", "degraded", "OVERLOADED")
    others = {k: v for k, v in tally.codes.items() if k not in served}
    p50, p95 = p50_p95(tally.ms)
    print(
        f"| {workers} | {ok / seconds:.1f} | {p50:.0f} / "
        f"{p95:.0f} | {tally.codes['OVERLOADED']} | {sum(others.values())} "
        f"{others or ''} | {tally.degraded} | {spent.per(ok)} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--keep", type=Path, default=Path(".data/bench"))
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--only-fresh", action="store_true", help="the new collection only")
    parser.add_argument("--only-load", action="store_true", help="the load only")
    parser.add_argument("--only-hostile", action="store_true", help="the bombs and body only")
    parser.add_argument("--soak", type=float, default=0.0, help="seconds of mixed traffic")
    args = parser.parse_args()
    with local_stack(keep_in=args.keep / DATASET) as stack:
        asyncio.run(ready_corpus(stack))
        if args.soak:
            soak(stack, make_key(stack, "bench"), args.soak)
            return
        if args.only_hostile:
            hostile(stack, make_key(stack, "bench"))
            return
        if args.only_load:
            loads(stack, make_key(stack, "bench"), args.clients, args.seconds)
            return
        report_fresh(*asyncio.run(fresh_collection(stack)))
        if not args.only_fresh:
            key = make_key(stack, "bench")
            hostile(stack, key)
            loads(stack, key, args.clients, args.seconds)


def hostile(stack: Stack, key: str) -> None:
    """The bombs and the 60 MB body, against one process."""
    asked = [q["question"] for q in questions(DATASET, None)]
    with served(stack, 1) as (url, _):
        print("\n### bombs, each sent 20 times while 5 other clients search\n")
        for row in asyncio.run(bombs(url, key, asked)):
            print(row, flush=True)
        for chunked in (False, True):
            sent = [asyncio.run(big_body(url, key, chunked)) for _ in range(5)]
            statuses = sorted({status for status, _ in sent})
            ms = statistics.median(ms for _, ms in sent)
            how = "chunked" if chunked else "declared"
            print(f"- 60 MB body, {how}: status {statuses}, median {ms:.0f} ms of 5")


def loads(stack: Stack, key: str, clients: int, seconds: float) -> None:
    asked = [q["question"] for q in questions(DATASET, None)]
    print(f"\n### load: {clients} clients, {seconds:g} s of HYBRID searches\n")
    print(
        "| processes | searches/s | admitted p50 / p95 ms | OVERLOADED | errors | degraded"
        " | CPU ms a search |"
    )
    print("|---|---|---|---|---|---|---|")
    for workers in (1, 2):
        with served(stack, workers) as (url, pid):
            before = cpu_now(pid)
            tally = asyncio.run(load(url, key, asked, clients, seconds))
            spent = cpu_now(pid) - before
        report_load(workers, tally, seconds, spent)


ANSWER = "query($i: AnswerInput!) { answer(input: $i) { text } }"


def soak(stack: Stack, key: str, seconds: float) -> None:
    """Mixed traffic for `seconds`; memory and connections after a minute and at the end."""
    asked = [q["question"] for q in questions(DATASET, None)]
    with served(stack, 1) as (url, pid):
        readings = asyncio.run(_soak(url, key, asked, seconds, pid, stack))
    (rss0, conns0), (rss1, conns1) = readings
    print(f"\n### soak: {seconds:g} s of mixed search, answer and ingest, one process\n")
    print(
        f"- resident memory: {rss0:.0f} MB after a minute, {rss1:.0f} MB at the end"
        f" ({(rss1 / rss0 - 1) * 100:+.1f}%)"
    )
    print(f"- Postgres connections of the server: {conns0} after a minute, {conns1} at the end")


async def _soak(
    url: str, key: str, asked: list[str], seconds: float, pid: int, stack: Stack
) -> list[tuple[float, int]]:
    tally, until = Tally(), time.monotonic() + seconds
    async with client(url, key, 10) as http:
        name = f"soak-{int(time.time())}"
        await http.post("/graphql", json={"query": CREATE, "variables": {"n": name}})
        searches = Searches(http, DATASET, asked)
        work = [searches.loop(n * 13, until, tally) for n in range(5)]
        work += [_answer_loop(http, asked, n * 17, until) for n in range(2)]
        work.append(_ingest_loop(http, name, until))
        readings = asyncio.create_task(_read_twice(pid, stack, seconds))
        await asyncio.gather(*work)
        return await readings


async def _answer_loop(
    client: httpx.AsyncClient, asked: list[str], offset: int, until: float
) -> None:
    turn = offset
    while time.monotonic() < until:
        question = asked[turn % len(asked)]
        variables = {"i": {"collections": [DATASET], "query": question}}
        await client.post("/graphql", json={"query": ANSWER, "variables": variables})
        turn += 1


async def _ingest_loop(client: httpx.AsyncClient, name: str, until: float) -> None:
    turn = 0
    while time.monotonic() < until:
        text = f"Ledger entry {turn}: the barge Merrow{turn} carried tin to Dunmere."
        docs = [{"externalId": f"entry-{turn % 50}", "text": text}]  # rewrites as it goes
        await client.post(
            "/graphql", json={"query": INGEST, "variables": {"c": name, "docs": docs}}
        )
        turn += 1
        await asyncio.sleep(2)


async def _read_twice(pid: int, stack: Stack, seconds: float) -> list[tuple[float, int]]:
    await asyncio.sleep(60)
    first = await _reading(pid, stack)
    await asyncio.sleep(max(0.0, seconds - 65))
    return [first, await _reading(pid, stack)]


async def _reading(pid: int, stack: Stack) -> tuple[float, int]:
    status = Path(f"/proc/{pid}/status").read_text()
    rss = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS"))
    async with await psycopg.AsyncConnection.connect(stack.endpoints.postgres_url) as conn:
        cursor = await conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'trellis'"
        )
        row = await cursor.fetchone()
    return rss / 1024, int(row[0]) if row else 0


FRESH = 300  # passages of the new collection


async def fresh_collection(stack: Stack) -> tuple[float, float]:
    """KEYWORD p50 ms on a new collection right after its ingest, then after ANALYZE."""
    async with stack_services(stack) as services:
        async with services.pool.connection() as conn:
            tenant = await ensure_tenant(conn, "bench")
        name = f"fresh-{int(time.time())}"
        await submit_corpus(services, load_corpus(FRESH, "hotpotqa"), name)
        await services.worker.drain()
        asked = [q["question"] for q in questions("hotpotqa", 40)]
        try:
            await _keyword_p50(services, tenant, name, asked)  # warm: pages, parses
            after_ingest = await _keyword_p50(services, tenant, name, asked)
            async with services.pool.connection() as conn:
                await conn.execute(f"ANALYZE {SEARCHED}")
                await conn.commit()
            return after_ingest, await _keyword_p50(services, tenant, name, asked)
        finally:
            await services.documents.delete_collection(tenant, name)


async def _keyword_p50(services: Services, tenant: Tenant, name: str, asked: list[str]) -> float:
    times = []
    for question in asked:
        started = time.perf_counter()
        await services.search.search(tenant, SearchRequest((name,), question, Mode.KEYWORD, 5))
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


async def ready_corpus(stack: Stack) -> None:
    async with stack_services(stack) as services:
        await ensure_corpus(services, DATASET)


if __name__ == "__main__":
    main()
