"""Kill the graph worker mid-batch; after a restart the graph equals an uninterrupted run's."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.localdb.stack import Stack, local_stack
from tests import corpus
from tests.graph_helpers import counts, graphed
from tests.helpers import rows

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def quiet_stack() -> Iterator[Stack]:
    """No server here: nothing projects the outbox unless the test runs a worker."""
    with local_stack() as stack:
        yield stack


def trellis(stack: Stack, *args: str) -> subprocess.Popen[bytes]:
    command = [str(Path(sys.executable).parent / "trellis"), *args]
    return subprocess.Popen(
        command,
        env={**os.environ, **stack.env()},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def test_killed_graph_worker_resumes_to_the_same_graph(quiet_stack: Stack, tmp_path: Path) -> None:
    passages = corpus.passages(150)
    source = tmp_path / "passages.jsonl"
    source.write_text(
        "".join(
            json.dumps({"id": p["title"], "title": p["title"], "text": p["text"]}) + "\n"
            for p in passages
        )
    )
    for name in ("interrupted", "uninterrupted"):
        ingest = trellis(
            quiet_stack, "ingest", str(source), "--collection", name, "--create", "--no-graph"
        )
        assert ingest.wait(300) == 0, ingest.stderr.read() if ingest.stderr else ""
    worker = trellis(quiet_stack, "graph", "sync")
    _wait_for_first_batch(quiet_stack, worker)
    worker.send_signal(signal.SIGKILL)
    worker.wait(30)
    assert graphed(quiet_stack, "interrupted") < len(passages), "killed too late to test"
    _sync_until_empty(quiet_stack)
    assert graphed(quiet_stack, "interrupted") == graphed(quiet_stack, "uninterrupted") == 150
    assert counts(quiet_stack, "interrupted") == counts(quiet_stack, "uninterrupted")


def _wait_for_first_batch(stack: Stack, worker: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 300
    while graphed(stack, "interrupted") == 0:
        assert worker.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)


def _sync_until_empty(stack: Stack) -> None:
    """Restart the worker until the outbox is empty (a dying backend may hold a few rows)."""
    deadline = time.monotonic() + 300
    pending = "SELECT count(*) FROM graph_outbox WHERE done_at IS NULL"
    while rows(stack, pending) != [(0,)]:
        assert time.monotonic() < deadline, "the outbox never drained"
        assert trellis(stack, "graph", "sync").wait(300) == 0
