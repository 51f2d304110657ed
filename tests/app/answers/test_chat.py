"""Stateless chat (app/answers/chat.py): the caller's messages to the LLM, the completion
streamed back over graphql-transport-ws, its usage recorded and nothing else stored."""

from __future__ import annotations

from typing import Any

import pytest

from app.localdb.scripted_llm import Reply, ScriptedLlm
from app.localdb.stack import Stack
from tests.app.answers.test_llm_answers import MODEL, script, served, tenant_on
from tests.graphql_client import GraphQLClient
from tests.graphql_ws import open_ws, subscribe
from tests.helpers import rows

pytestmark = pytest.mark.integration

__all__ = ["served"]  # the module's fixture: a server with the scripted LLM

CHAT = """subscription($input: ChatInput!) { chat(input: $input) {
  __typename ... on ChatDelta { text }
  ... on ChatDone { model promptTokens completionTokens credits recordedAt } } }"""
PIECES = ["The runbook ", "says to rotate ", "the certificate first."]
MESSAGES = [
    {"role": "SYSTEM", "content": "Answer from the notes given."},
    {"role": "USER", "content": "Notes: rotate the certificate first. What comes first?"},
]


def chat(url: str, key: str, **fields: Any) -> list[dict[str, Any]]:
    """The subscription's messages: `next` events, then `complete` or an error."""
    with open_ws(url, {"X-API-Key": key}) as ws:
        ws.recv(timeout=10)  # connection_ack
        return subscribe(ws, CHAT, timeout=30, input={"messages": MESSAGES, **fields})


def events(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m["payload"]["data"]["chat"] for m in messages if m["type"] == "next"]


def error_of(messages: list[dict[str, Any]]) -> dict[str, Any]:
    [error] = [e for m in messages for e in (m.get("payload", {}).get("errors") or [])]
    extensions: dict[str, Any] = error["extensions"]
    return extensions


def test_a_chat_streams_the_completion_then_what_it_used(
    served: tuple[GraphQLClient, ScriptedLlm, str], stack: Stack
) -> None:
    gql, llm, url = served
    team = tenant_on(stack, gql, "team", credits=10)
    script(llm, Reply(PIECES, usage=(40, 12)))
    assert team.api_key is not None
    found = events(chat(url, team.api_key))
    assert "".join(e["text"] for e in found[:-1]) == "".join(PIECES)
    done = found[-1]
    assert done["__typename"] == "ChatDone" and done["model"] == MODEL
    assert (done["promptTokens"], done["completionTokens"]) == (40, 12)
    sent = llm.requests[-1]["body"]
    assert [m["role"] for m in sent["messages"]] == ["system", "user"]
    assert sent["messages"][1]["content"] == MESSAGES[1]["content"]  # nothing retrieved added
    [(surface, credits, complete)] = rows(
        stack,
        "SELECT u.surface, u.credits, u.complete FROM usage_events u"
        " JOIN api_keys k ON k.id = u.key_id WHERE k.key_hash = sha256(%s::bytea)",
        team.api_key,
    )
    assert surface == "chat" and complete and float(credits) == done["credits"] > 0


def test_a_provider_failing_before_any_text_is_unavailable_and_not_charged(
    served: tuple[GraphQLClient, ScriptedLlm, str], stack: Stack
) -> None:
    gql, llm, url = served
    team = tenant_on(stack, gql, "team", credits=10)
    script(llm, *[Reply(status=503)] * 3)  # every attempt
    assert team.api_key is not None
    assert error_of(chat(url, team.api_key))["code"] == "PROVIDER_UNAVAILABLE"
    charged = "SELECT 1 FROM usage_events u JOIN api_keys k ON k.id = u.key_id"
    assert rows(stack, charged + " WHERE k.key_hash = sha256(%s::bytea)", team.api_key) == []


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"messages": []}, "messages"),
        ({"messages": [{"role": "USER", "content": "  "}]}, "messages[0].content"),
        ({"messages": [*MESSAGES, {"role": "ASSISTANT", "content": "ok"}]}, "messages[2].role"),
        ({"messages": [{"role": "USER", "content": "x" * 200_001}]}, "messages"),
        ({"messages": [{"role": "USER", "content": "hi"}] * 101}, "messages"),
        ({"model": "no-such-model"}, "model"),
    ],
)
def test_bad_chat_input_names_its_field(
    served: tuple[GraphQLClient, ScriptedLlm, str],
    tenant_key_module: str,
    fields: dict[str, Any],
    field: str,
) -> None:
    _, llm, url = served
    requests = len(llm.requests)
    extensions = error_of(chat(url, tenant_key_module, **fields))
    assert (extensions["code"], extensions["field"]) == ("BAD_USER_INPUT", field)
    assert len(llm.requests) == requests  # refused before the model


def test_chat_without_a_provider_says_so(base_url: str, tenant_key: str) -> None:
    extensions = error_of(chat(base_url, tenant_key))
    assert extensions["code"] == "PROVIDER_NOT_CONFIGURED"
