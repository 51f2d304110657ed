"""`trellis run --llm local`: a real llama.cpp server, offered as the LLM provider."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from app.cli.local_llm import local_llm
from app.localdb import llamacpp
from app.localdb.stack import Stack
from app.settings import Settings
from tests.app.cli.test_cli import trellis

PROVIDER = ("TRELLIS_LLM_URL", "TRELLIS_LLM_MODELS", "TRELLIS_LLM_API_KEY")


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """local_llm names the provider in this process's environment; put it back after."""
    for name in PROVIDER:
        monkeypatch.delenv(name, raising=False)
    yield


@pytest.mark.skipif(llamacpp.missing() is not None, reason=str(llamacpp.missing()))
def test_the_local_model_is_served_and_named_as_the_provider(clean_env: None, stack: Stack) -> None:
    settings = Settings.from_env(stack.env())
    with local_llm(settings) as name:
        configured = Settings.from_env().answers.llm
        assert name == llamacpp.MODEL_NAME and configured.models == (name,)
        assert configured.url is not None and configured.api_key == "local"
        listed = httpx.get(f"{configured.url}/models", timeout=10).json()
        assert listed["data"][0]["id"].endswith(".gguf")


def test_a_gguf_setting_naming_no_file_is_one_line(stack: Stack) -> None:
    env = {**stack.env(), "TRELLIS_LOCAL_LLM_GGUF": "/nowhere/model.gguf"}
    result = trellis("run", "--llm", "local", env=env)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "trellis: error: TRELLIS_LOCAL_LLM_GGUF names no file: /nowhere/model.gguf"
    ]


def test_an_unknown_llm_choice_is_refused(stack: Stack) -> None:
    result = trellis("run", "--llm", "cloud", env=stack.env())
    assert result.returncode == 2 and "'cloud' is not one of 'none', 'local'" in result.stderr
