"""The OpenAI-compatible chat client against a local server that streams like one."""

from __future__ import annotations

import asyncio

import pytest

from app.localdb.scripted_llm import Reply, scripted_llm
from app.localdb.stack import free_port
from app.models.chat import ChatMessage, ChatProviderError, ChatText, ChatUsage
from app.models.openai_chat import OpenAIChat

HELLO = [ChatMessage("user", "hello")]


def collect(url: str, model: str = "m") -> list[ChatText | ChatUsage]:
    async def run() -> list[ChatText | ChatUsage]:
        chat = OpenAIChat(url, "key", timeout=10)
        try:
            return [item async for item in chat.stream(model, HELLO)]
        finally:
            await chat.close()

    return asyncio.run(run())


def test_text_streams_then_usage() -> None:
    with scripted_llm(Reply(["Hel", "lo."], usage=(7, 2))) as server:
        items = collect(server.url)
    assert [i.text for i in items if isinstance(i, ChatText)] == ["Hel", "lo."]
    assert items[-1] == ChatUsage(7, 2)
    body = server.requests[0]["body"]
    assert server.requests[0]["path"] == "/v1/chat/completions"
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
    assert body["messages"] == [{"role": "user", "content": "hello"}]


def test_a_429_is_retried_before_the_first_token() -> None:
    with scripted_llm(Reply(status=429), Reply(status=503), Reply(["ok."])) as server:
        items = collect(server.url)
    assert [i.text for i in items if isinstance(i, ChatText)] == ["ok."]
    assert len(server.requests) == 3


def test_refusing_every_attempt_is_an_error() -> None:
    with scripted_llm(Reply(status=500)) as server, pytest.raises(ChatProviderError, match="500"):
        collect(server.url)


def test_a_break_mid_stream_is_an_error() -> None:
    reply = Reply(["one. ", "two."], cut_after=1)
    with (
        scripted_llm(reply) as server,
        pytest.raises(ChatProviderError, match=r"mid-answer|without"),
    ):
        collect(server.url)


def test_a_slow_first_token_still_arrives() -> None:
    with scripted_llm(Reply(["late."], first_delay=1.0)) as server:
        items = collect(server.url)
    assert ChatText("late.") in items


def test_an_unreachable_provider_is_an_error() -> None:
    with pytest.raises(ChatProviderError, match="before answering"):
        collect(f"http://127.0.0.1:{free_port()}/v1")
