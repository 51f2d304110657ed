"""What answers need from a chat model: messages in, streamed text and usage out."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class ChatMessage:
    role: str  # system, user or assistant
    content: str


@dataclass(frozen=True)
class ChatText:
    text: str


@dataclass(frozen=True)
class ChatUsage:
    prompt_tokens: int
    completion_tokens: int


class ChatProviderError(Exception):
    """The provider failed: unreachable, refusing after retries, or cut off mid-answer."""


class ChatModel(Protocol):
    def stream(
        self, model: str, messages: list[ChatMessage]
    ) -> AsyncIterator[ChatText | ChatUsage]: ...

    async def close(self) -> None: ...
