"""Foundation benchmarks: clone-to-serving, warm service start, trivial query latency.

Each figure is printed next to a baseline measured in the same run, as a ratio, because
these machines are noisy. Run with `make bench` or `.venv/bin/python -m bench.foundation`.
`--skip-clone` leaves out the slow fresh-clone measurements.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from app.localdb.stack import free_port, local_stack, make_key
from app.settings import PROJECT_ROOT
from bench._timing import median_ms, run, seconds
from schema.serving import running_server


def clone_to_serving(cold: bool) -> float:
    """Seconds from `git clone` to /healthz answering, with caches cold or warm."""
    work = Path(tempfile.mkdtemp(prefix="trellis-bench-clone-"))
    env = {
        **os.environ,
        "TRELLIS_PORT": str(free_port()),
        "NEO4J_BOLT_PORT": str(free_port()),
        "TRELLIS_DATA_DIR": str(work / "data"),
    }
    if cold:
        env["PIP_NO_CACHE_DIR"] = "1"
        env["MAVEN_OPTS"] = f"-Dmaven.repo.local={work / 'm2'}"
    clone = work / "trellis"
    started = time.perf_counter()
    server = None
    try:
        run(["git", "clone", "-q", str(PROJECT_ROOT), str(clone)])
        run(["make", "setup"], cwd=clone, env=env)
        server = subprocess.Popen(
            [str(clone / ".venv/bin/trellis"), "serve"],
            cwd=clone,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        _wait_for(f"http://127.0.0.1:{env['TRELLIS_PORT']}/healthz", server)
        return time.perf_counter() - started
    finally:
        if server is not None:
            server.terminate()
            server.wait(60)
        subprocess.run(
            [str(clone / ".venv/bin/trellis"), "services", "down"],
            env=env,
            check=False,
            capture_output=True,
        )
        shutil.rmtree(work, ignore_errors=True)


def bare_uvicorn_start() -> float:
    """Baseline: a hello-world Starlette app from the existing venv, to first response."""
    port = free_port()
    code = (
        "import uvicorn; from starlette.applications import Starlette;"
        "from starlette.responses import PlainTextResponse; from starlette.routing import Route;"
        "app = Starlette(routes=[Route('/', lambda r: PlainTextResponse('ok'))]);"
        f"uvicorn.run(app, port={port}, log_level='error')"
    )
    started = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-c", code])
    try:
        _wait_for(f"http://127.0.0.1:{port}/", server)
        return time.perf_counter() - started
    finally:
        server.terminate()
        server.wait(30)


def _wait_for(url: str, process: subprocess.Popen[bytes]) -> None:
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode} before {url} answered")
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.05)


def warm_service_start() -> dict[str, float]:
    """Stop both local databases (data kept) and time a restart of each."""
    with local_stack() as stack:
        stack.neo4j.stop()
        stack.postgres.stop()
        return {
            "neo4j": seconds(stack.neo4j.start),
            "postgres": seconds(stack.postgres.start),
            "jvm_baseline": seconds(lambda: run(["java", "-version"])),
        }


def query_latency(repeat: int) -> dict[str, float]:
    with local_stack() as stack, running_server(stack) as url, httpx.Client(base_url=url) as http:
        headers = {"X-API-Key": make_key(stack, "bench")}

        def graphql(query: str) -> None:
            response = http.post("/graphql", json={"query": query}, headers=headers)
            assert response.status_code == 200 and "errors" not in response.json()

        return {
            "healthz_baseline": median_ms(lambda: http.get("/healthz"), repeat),
            "typename": median_ms(lambda: graphql("{ __typename }"), repeat),
            "collections": median_ms(lambda: graphql("{ collections { name } }"), repeat),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--skip-clone", action="store_true")
    parser.add_argument("--repeat", type=int, default=500)
    args = parser.parse_args()
    print("| figure | value | baseline (same run) | ratio |\n|---|---|---|---|")
    latency = query_latency(args.repeat)
    base = latency["healthz_baseline"]
    for name in ("typename", "collections"):
        _row(f"median latency, GraphQL {name} over HTTP", latency[name], base, "ms", "GET /healthz")
    start = warm_service_start()
    for name in ("neo4j", "postgres"):
        _row(f"warm start, {name}", start[name], start["jvm_baseline"], "s", "java -version")
    if not args.skip_clone:
        baseline = bare_uvicorn_start()
        for cold in (True, False):
            label = "first run, cold caches" if cold else "warm caches"
            _row(
                f"fresh clone to serving, {label}",
                clone_to_serving(cold),
                baseline,
                "s",
                "hello-world uvicorn start",
            )


def _row(name: str, value: float, baseline: float, unit: str, baseline_name: str) -> None:
    print(
        f"| {name} | {value:.3g} {unit} | {baseline_name}: {baseline:.3g} {unit} | "
        f"{value / baseline:.2f}x |",
        flush=True,
    )


if __name__ == "__main__":
    main()
