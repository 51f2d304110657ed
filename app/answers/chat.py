"""Stateless chat: the caller's messages go to the configured LLM and its completion streams
back, for callers who assemble their own context. Nothing is retrieved and nothing is stored
but the usage row; the checks before a model runs and the metering after are the answers'
(app/tenancy/preflight.py, app/tenancy/usage.py), under the answers' time budget."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass

from app.answers.budget import within
from app.answers.prompt import CHARS_PER_TOKEN
from app.answers.service import Access
from app.errors import ErrorCode, TrellisError
from app.models.chat import ChatMessage, ChatModel, ChatProviderError, ChatText, ChatUsage
from app.settings import AnswerSettings
from app.tenancy.preflight import ModelRun
from app.tenancy.principal import Principal, Scope
from app.tenancy.usage import Charge, Consumed

ROLES = frozenset({"system", "user", "assistant"})
SURFACE = "chat"  # its usage rows' surface


@dataclass(frozen=True)
class ChatRequest:
    messages: list[ChatMessage]
    model: str | None = None  # None: the first configured model
    surface: str = SURFACE  # what the usage row names: a research run's planning is its own


@dataclass(frozen=True)
class ChatDone:
    model: str
    prompt_tokens: int
    completion_tokens: int
    charge: Charge


@dataclass
class _Run:
    model: str
    request: ChatRequest
    written: int = 0  # characters streamed so far
    usage: ChatUsage | None = None
    metered: bool = False


class Chat:
    def __init__(self, chat: ChatModel | None, settings: AnswerSettings, access: Access) -> None:
        self._chat = chat
        self._settings = settings
        self._access = access

    def stream(
        self, principal: Principal, request: ChatRequest, budget: float | None = None
    ) -> AsyncIterator[ChatText | ChatDone]:
        """The completion's text as it comes, then ChatDone with its usage; within `budget`
        seconds, or else the answers' budget (a research run's plan gives what is left of
        the run's own)."""
        seconds = self._settings.budget_seconds if budget is None else budget
        return within(self._events(principal, request), seconds, "the completion")

    async def _events(
        self, principal: Principal, request: ChatRequest
    ) -> AsyncGenerator[ChatText | ChatDone, None]:
        check_chat(request, self._settings)
        run = _Run(self._model(request.model), request)
        default = self._settings.llm.models[0]
        await self._access.preflight.before_model(
            principal, ModelRun(Scope.ANSWER, run.model, default)
        )
        try:
            async for delta in self._deltas(run):
                yield delta
            yield await self._done(principal, run)
        finally:
            if not run.metered and (run.written or run.usage):  # broken off: what it used
                await self._meter(principal, run, complete=False)

    def _model(self, asked: str | None) -> str:
        llm = self._settings.llm
        if self._chat is None or not llm.configured:
            raise TrellisError(
                ErrorCode.PROVIDER_NOT_CONFIGURED,
                "chat needs an LLM provider: set TRELLIS_LLM_URL and TRELLIS_LLM_API_KEY",
            )
        model = asked or llm.models[0]
        if model not in llm.models:
            known = ", ".join(llm.models)
            raise TrellisError(
                ErrorCode.BAD_USER_INPUT, f"unknown model {model!r}; use one of {known}",
                field="model",
            )  # fmt: skip
        return model

    async def _deltas(self, run: _Run) -> AsyncIterator[ChatText]:
        assert self._chat is not None
        try:
            async for item in self._chat.stream(run.model, run.request.messages):
                if isinstance(item, ChatText):
                    run.written += len(item.text)
                    yield item
                elif isinstance(item, ChatUsage):
                    run.usage = item
        except ChatProviderError as error:
            raise TrellisError(ErrorCode.PROVIDER_UNAVAILABLE, str(error)) from None

    async def _done(self, principal: Principal, run: _Run) -> ChatDone:
        charge = await self._meter(principal, run, complete=True)
        prompt, completion = _tokens(run)
        return ChatDone(run.model, prompt, completion, charge)

    async def _meter(self, principal: Principal, run: _Run, complete: bool) -> Charge:
        run.metered = True
        consumed = Consumed(run.request.surface, run.model, *_tokens(run), 0, complete, True)
        return await self._access.metering.record(principal, consumed)


def check_chat(request: ChatRequest, settings: AnswerSettings) -> None:
    """Messages within their limits, each with a known role and some content."""
    messages = request.messages
    if not 1 <= len(messages) <= settings.chat_max_messages:
        raise _bad("messages", f"send 1 to {settings.chat_max_messages} messages")
    for index, message in enumerate(messages):
        if message.role not in ROLES:
            raise _bad(f"messages[{index}].role", "a role is SYSTEM, USER or ASSISTANT")
        if not message.content.strip():
            raise _bad(f"messages[{index}].content", "a message needs content")
    total = sum(len(m.content) for m in messages)
    if total > settings.chat_max_chars:
        limit = settings.chat_max_chars
        raise _bad("messages", f"the messages hold {total} characters; the limit is {limit}")
    if messages[-1].role != "user":
        raise _bad(f"messages[{len(messages) - 1}].role", "the last message is the user's")


def _bad(field: str, message: str) -> TrellisError:
    return TrellisError(ErrorCode.BAD_USER_INPUT, message, field=field)


def _tokens(run: _Run) -> tuple[int, int]:
    """The provider's count; estimated from characters when the stream broke off first."""
    if run.usage is not None:
        return run.usage.prompt_tokens, run.usage.completion_tokens
    prompt = sum(len(m.content) for m in run.request.messages) // CHARS_PER_TOKEN + 1
    return prompt, run.written // CHARS_PER_TOKEN + 1
