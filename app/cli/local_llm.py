"""`trellis run --llm local`: a llama.cpp server beside Trellis, offered in answerModels."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

import click

from app.errors import SettingsError
from app.localdb import llamacpp
from app.localdb.stack import free_port
from app.settings import Settings


@contextmanager
def local_llm(settings: Settings) -> Iterator[str]:
    """The server, started; the settings Trellis reads from then on name it as the LLM
    provider (in the environment, which the server's worker processes inherit). Yields
    the model's name."""
    config = settings.local_llm
    reason = llamacpp.missing(config.gguf)
    if reason:
        raise SettingsError(f"--llm local: {reason}")
    model = llamacpp.local_model(config.gguf, config.threads, config.context)
    log = settings.data_dir / "llama-server.log"
    with llamacpp.llama_server(model, free_port(), log) as url:
        os.environ["TRELLIS_LLM_URL"] = f"{url}/v1"
        os.environ["TRELLIS_LLM_MODELS"] = model.name
        os.environ.setdefault("TRELLIS_LLM_API_KEY", "local")  # llama.cpp checks none
        click.echo(f"local LLM  {model.name} ({model.path.name}, {model.threads} thread(s))"
                   f" at {url}/v1; its log: {log}")  # fmt: skip
        yield model.name
