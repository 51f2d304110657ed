"""A cross-encoder reranker over HTTP, in the common `/rerank` shape (Cohere, Jina, vLLM and
TEI-compatible routers): POST {url}/rerank {model, query, documents, top_n} answers
{results: [{index, relevance_score}]}."""

from __future__ import annotations

import httpx

RETRY_STATUS = frozenset({429, 500, 502, 503, 504})


class RerankerError(Exception):
    pass


class Reranker:
    def __init__(self, url: str, model: str, api_key: str | None, timeout: float = 10.0) -> None:
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.AsyncClient(base_url=url.rstrip("/"), headers=headers, timeout=timeout)
        self._model = model

    async def scores(self, query: str, documents: list[str]) -> list[float]:
        """One relevance score per document, in the documents' order."""
        if not documents:
            return []
        body = {"model": self._model, "query": query, "documents": documents}
        response = await self._post({**body, "top_n": len(documents)})
        return _scores(response, len(documents))

    async def _post(self, body: dict[str, object]) -> httpx.Response:
        for attempt in range(2):
            try:
                response = await self._client.post("/rerank", json=body)
            except httpx.HTTPError as error:
                if attempt == 1:
                    raise RerankerError(f"reranker unreachable: {error}") from None
                continue
            if response.status_code not in RETRY_STATUS or attempt == 1:
                return response
        raise AssertionError("unreachable")

    async def close(self) -> None:
        await self._client.aclose()


def _scores(response: httpx.Response, count: int) -> list[float]:
    if response.status_code != 200:
        raise RerankerError(f"reranker answered {response.status_code}: {response.text[:200]}")
    try:
        results = response.json()["results"]
        found = {int(r["index"]): float(r["relevance_score"]) for r in results}
    except (ValueError, KeyError, TypeError) as error:
        raise RerankerError(f"reranker answered an unexpected body: {error}") from None
    if set(found) != set(range(count)):
        raise RerankerError(f"reranker scored {len(found)} of {count} documents")
    return [found[i] for i in range(count)]
