"""`trellis keys`, `trellis plans` and `trellis credits` against the real databases."""

from __future__ import annotations

import uuid

import httpx
import pytest

from app.localdb.stack import Stack
from tests.app.cli.test_cli import trellis
from tests.graphql_client import GraphQLClient
from tests.helpers import rows

pytestmark = pytest.mark.integration


def tenant_name() -> str:
    return f"cli-{uuid.uuid4().hex[:8]}"


def test_keys_create_list_revoke(stack: Stack, http: httpx.Client) -> None:
    tenant = tenant_name()
    created = trellis(
        "keys", "create", "--tenant", tenant, "--scopes", "search,answer",
        "--content-scope", "org:acme", "--expires", "30d", "--name", "reader",
        env=stack.env(),
    )  # fmt: skip
    assert created.returncode == 0, created.stderr
    secret = created.stdout.strip()
    client = GraphQLClient(http, secret)
    assert client.data("{ collections { name } }") == {"collections": []}
    assert client.error_code('mutation { createCollection(name: "x") { id } }') == "FORBIDDEN"
    listed = trellis("keys", "list", "--tenant", tenant, env=stack.env())
    [line] = listed.stdout.splitlines()
    key_id, state, prefix, scopes, content, name = line.split()
    assert (state, scopes, content, name) == ("active", "search,answer", "org:acme", "reader")
    assert secret.startswith(prefix.rstrip("…")) and secret not in listed.stdout
    revoked = trellis("keys", "revoke", key_id, env=stack.env())
    assert revoked.stdout.strip() == f"revoked {key_id}"
    assert client.error_code("{ collections { name } }") == "UNAUTHENTICATED"
    assert trellis("keys", "list", "--tenant", tenant, env=stack.env()).stdout.split()[1] == (
        "revoked"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["keys", "create", "--tenant", "t", "--scopes", "root"], "scopes must be some of"),
        (["keys", "create", "--tenant", "t", "--expires", "soon"], "--expires 'soon' must be"),
        (["keys", "create", "--tenant", "t", "--expires", "2020-01-01"], "must be in the future"),
        (["keys", "create", "--tenant", "t", "--content-scope", "a b"], "content scope 'a b'"),
        (["keys", "list", "--tenant", "nobody-here"], "no tenant 'nobody-here'"),
        (["keys", "revoke", "not-a-key"], "no API key not-a-key"),
        (["keys", "revoke", str(uuid.UUID(int=0))], "no API key"),
        (["plans", "set", "--tenant", "development", "--plan", "gold"], "no plan 'gold'"),
        (["plans", "set", "--tenant", "nobody-here", "--plan", "team"], "no tenant"),
        (["credits", "add", "--tenant", "development", "lots"], "credits must be a number"),
        (["credits", "add", "--tenant", "development", "NaN"], "credits must be a number"),
    ],
)
def test_bad_access_commands_fail_with_one_line(
    stack: Stack, args: list[str], message: str
) -> None:
    result = trellis(*args, env=stack.env())
    assert result.returncode == 2, result.stdout
    assert result.stderr.startswith("trellis: error: ") and message in result.stderr
    assert result.stderr.count("\n") == 1


def test_plans_and_credits(stack: Stack) -> None:
    tenant = tenant_name()
    assert trellis("keys", "create", "--tenant", tenant, env=stack.env()).returncode == 0
    listed = trellis("plans", "list", env=stack.env()).stdout
    assert [line.split()[0] for line in listed.splitlines()][:4] == [
        "developer",
        "enterprise",
        "starter",
        "team",
    ]
    assert trellis("plans", "set", "--tenant", tenant, "--plan", "team", env=stack.env()).stdout
    added = trellis("credits", "add", "--tenant", tenant, "12.5", env=stack.env())
    assert added.stdout.strip() == f"{tenant} balance 12.5000"
    taken = trellis("credits", "add", "--tenant", tenant, "-2.5", env=stack.env())
    assert taken.stdout.strip() == f"{tenant} balance 10.0000"
    [(plan, credits)] = rows(stack, "SELECT plan, credits FROM tenants WHERE name = %s", tenant)
    assert (plan, float(credits)) == ("team", 10.0)
