"""GraphQL types of stateless chat (app/answers/chat.py)."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Annotated

import strawberry

from app.answers import chat
from app.models.chat import ChatMessage, ChatText


@strawberry.enum
class ChatRole(Enum):
    SYSTEM = "system"
    USER = "user"
    ASSISTANT = "assistant"


@strawberry.input(description="One message, oldest first; the last is the user's.")
class ChatMessageInput:
    role: ChatRole
    content: str


@strawberry.input
class ChatInput:
    messages: list[ChatMessageInput] = strawberry.field(
        description="At most TRELLIS_CHAT_MAX_MESSAGES, TRELLIS_CHAT_MAX_CHARS characters in all."
    )
    model: str | None = strawberry.field(
        default=None, description="An LLM model of answerModels; the first by default."
    )

    def to_request(self) -> chat.ChatRequest:
        messages = [ChatMessage(m.role.value, m.content) for m in self.messages]
        return chat.ChatRequest(messages, self.model)


@strawberry.type(description="Completion text, in order; the deltas concatenate to it.")
class ChatDelta:
    text: str


@strawberry.type(description="Last: the model and what the completion used and was charged.")
class ChatDone:
    model: str
    prompt_tokens: int
    completion_tokens: int
    credits: float
    recorded_at: datetime


ChatEvent = Annotated[ChatDelta | ChatDone, strawberry.union("ChatEvent")]


def chat_event_of(event: ChatText | chat.ChatDone) -> ChatDelta | ChatDone:
    if isinstance(event, ChatText):
        return ChatDelta(text=event.text)
    charge = event.charge
    return ChatDone(
        model=event.model,
        prompt_tokens=event.prompt_tokens,
        completion_tokens=event.completion_tokens,
        credits=float(charge.credits),
        recorded_at=charge.recorded_at,
    )
