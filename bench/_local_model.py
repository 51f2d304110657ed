"""llama.cpp's server with the local model, for the benchmarks that put a real model behind
Trellis (bench.verification --real, bench.efforts --planner)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from app.localdb import llamacpp
from app.localdb.stack import free_port
from app.settings import Settings

LOG = Path(".data/bench-llama-server.log")


@contextmanager
def local_model_server(tool: str) -> Iterator[tuple[str, str]]:
    """The model of TRELLIS_LOCAL_LLM_GGUF (by default the bundled SmolLM2) served on two
    threads until the block ends: its base URL and the model's name. Exits with a one-line
    message naming `tool` when there is no model to serve."""
    config = Settings.from_env().local_llm
    reason = llamacpp.missing(config.gguf)
    if reason:
        raise SystemExit(f"{tool}: {reason}")
    model = llamacpp.local_model(config.gguf, threads=2, context=config.context)
    with llamacpp.llama_server(model, free_port(), LOG) as url:
        yield url, model.name
