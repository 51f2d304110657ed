"""An OpenAI-compatible chat provider: POST {url}/chat/completions with `stream: true` and
`stream_options.include_usage`, read as server-sent events up to `data: [DONE]`.

A 429 or 5xx, or a refused connection, is retried with backoff before the first token;
once text has arrived, a failure ends the stream with ChatProviderError.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx

from app.models.chat import ChatMessage, ChatProviderError, ChatText, ChatUsage

RETRY_STATUS = frozenset({429, 500, 502, 503, 504})
ATTEMPTS = 3
BACKOFF_SECONDS = 0.25


class OpenAIChat:
    def __init__(self, url: str, api_key: str, timeout: float = 60.0) -> None:
        self._client = httpx.AsyncClient(
            base_url=url.rstrip("/"),
            headers={"Authorization": f"Bearer {api_key}"},
            timeout=httpx.Timeout(timeout, connect=10.0),
        )

    async def close(self) -> None:
        await self._client.aclose()

    async def stream(
        self, model: str, messages: list[ChatMessage]
    ) -> AsyncIterator[ChatText | ChatUsage]:
        body = {
            "model": model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "stream": True,
            "stream_options": {"include_usage": True},
            "temperature": 0,
        }
        for attempt in range(ATTEMPTS):
            retry = attempt < ATTEMPTS - 1
            async for item in self._attempt(body, retry):
                if item is None:
                    break
                yield item
            else:
                return
            await asyncio.sleep(BACKOFF_SECONDS * 2**attempt)

    async def _attempt(
        self, body: dict[str, Any], retry: bool
    ) -> AsyncIterator[ChatText | ChatUsage | None]:
        """The stream's items; one None (and nothing else) when this attempt should be
        retried."""
        started = False
        try:
            async with self._client.stream("POST", "/chat/completions", json=body) as response:
                if response.status_code in RETRY_STATUS and retry:
                    yield None
                    return
                _check(response)
                async for item in _events(response):
                    started = started or isinstance(item, ChatText)
                    yield item
        except httpx.TransportError as error:
            if retry and not started:
                yield None
                return
            where = "mid-answer" if started else "before answering"
            raise ChatProviderError(f"the chat provider failed {where}: {error!r}") from None


def _check(response: httpx.Response) -> None:
    if response.status_code != 200:
        raise ChatProviderError(f"the chat provider answered HTTP {response.status_code}")


async def _events(response: httpx.Response) -> AsyncIterator[ChatText | ChatUsage]:
    async for line in response.aiter_lines():
        if not line.startswith("data:"):
            continue
        data = line[5:].strip()
        if data == "[DONE]":
            return
        for item in _items(json.loads(data)):
            yield item
    raise ChatProviderError("the chat provider's stream ended without [DONE]")


def _items(chunk: dict[str, Any]) -> list[ChatText | ChatUsage]:
    items: list[ChatText | ChatUsage] = []
    for choice in chunk.get("choices") or []:
        text = (choice.get("delta") or {}).get("content")
        if text:
            items.append(ChatText(text))
    usage = chunk.get("usage")
    if usage:
        items.append(
            ChatUsage(int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0)))
        )
    return items
