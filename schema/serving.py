"""Serving the app in a background thread: the tests' and benchmarks' real HTTP server."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from app.localdb.stack import Stack, free_port
from app.settings import Settings
from schema.asgi import create_app


@contextmanager
def running_server(stack: Stack, settings: Settings | None = None) -> Iterator[str]:
    """Serve the app with uvicorn in a thread, with the stack's settings unless others are
    given; yields its base URL."""
    port = free_port()
    app = create_app(settings or stack.settings, stack.endpoints)
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws="websockets-sansio",
        lifespan="on",
        timeout_keep_alive=stack.settings.keep_alive_seconds,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
