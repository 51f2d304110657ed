"""A small GraphQL-over-HTTP client for tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx


@dataclass
class GraphQLClient:
    http: httpx.Client
    api_key: str | None

    def post(self, query: str, **variables: Any) -> dict[str, Any]:
        headers = {"X-API-Key": self.api_key} if self.api_key is not None else {}
        response = self.http.post(
            "/graphql", json={"query": query, "variables": variables}, headers=headers
        )
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body

    def data(self, query: str, **variables: Any) -> dict[str, Any]:
        body = self.post(query, **variables)
        assert "errors" not in body, body["errors"]
        result: dict[str, Any] = body["data"]
        return result

    def error(self, query: str, **variables: Any) -> dict[str, Any]:
        """The first error of a request that must fail."""
        body = self.post(query, **variables)
        assert body.get("errors"), body
        error: dict[str, Any] = body["errors"][0]
        return error

    def error_code(self, query: str, **variables: Any) -> str:
        code: str = self.error(query, **variables)["extensions"]["code"]
        return code
