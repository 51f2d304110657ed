"""Checking an answer request: bad input is BAD_USER_INPUT naming the field."""

from __future__ import annotations

from app.answers.request import AnswerRequest
from app.errors import ErrorCode, TrellisError
from app.limits import check_range

MAX_QUERY = 2000
MAX_COLLECTIONS = 5
MAX_TOP_K = 50
MAX_MESSAGES = 20
MAX_MESSAGE = 8000
MAX_ATTACHMENTS = 5  # a message's


def check_request(request: AnswerRequest) -> None:
    query = request.query
    if not query.strip() or len(query) > MAX_QUERY:
        raise _bad("query", f"query must be 1 to {MAX_QUERY} characters and not blank")
    check_range("collections", len(request.search.collections), 1, MAX_COLLECTIONS)
    check_range("topK", request.search.top_k, 1, MAX_TOP_K)
    check_range("history", len(request.history), 0, MAX_MESSAGES)
    for index, message in enumerate(request.history):
        if not message.content.strip() or len(message.content) > MAX_MESSAGE:
            raise _bad(
                f"history[{index}].content",
                f"a message must be 1 to {MAX_MESSAGE} characters and not blank",
            )
        _check_attachments(index, message.attachments)


def _check_attachments(index: int, attachments: tuple[str, ...]) -> None:
    check_range(f"history[{index}].attachments", len(attachments), 0, MAX_ATTACHMENTS)
    for number, text in enumerate(attachments):
        if not text.strip() or len(text) > MAX_MESSAGE:
            raise _bad(
                f"history[{index}].attachments[{number}]",
                f"an attachment must be 1 to {MAX_MESSAGE} characters and not blank",
            )


def _bad(field: str, message: str) -> TrellisError:
    return TrellisError(ErrorCode.BAD_USER_INPUT, message, field=field)
