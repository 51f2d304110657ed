"""Embeddings from any OpenAI-compatible HTTP endpoint (POST {url}/embeddings)."""

from __future__ import annotations

import time

import httpx
import numpy as np
from numpy.typing import NDArray

_BATCH = 64
_RETRIES = 3
_RETRY_STATUS = frozenset({429, 500, 502, 503, 504})


class EmbeddingProviderError(Exception):
    pass


class OpenAIEmbeddings:
    max_tokens = None  # the provider's tokenizer is unknown here; windows are sized by chars

    def __init__(
        self,
        url: str,
        model: str,
        api_key: str | None,
        dimension: int | None,
        timeout: float = 60.0,
    ) -> None:
        self.model_id = model
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(base_url=url.rstrip("/"), headers=headers, timeout=timeout)
        self._dimension = dimension

    @property
    def dimension(self) -> int:
        if self._dimension is None:
            self._dimension = int(self._request(["dimension probe"]).shape[1])
        return self._dimension

    def token_counts(self, texts: list[str]) -> list[int]:
        raise EmbeddingProviderError(f"{self.model_id} does not expose its tokenizer")

    def embed(self, texts: list[str], truncate: bool = False) -> NDArray[np.float32]:
        if not texts:
            return np.empty((0, self.dimension), dtype=np.float32)
        parts = [self._request(texts[i : i + _BATCH]) for i in range(0, len(texts), _BATCH)]
        vectors = np.vstack(parts)
        if vectors.shape[1] != self.dimension:
            raise EmbeddingProviderError(
                f"{self.model_id} returned {vectors.shape[1]} dimensions, expected {self.dimension}"
            )
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        result: NDArray[np.float32] = (vectors / np.maximum(norms, 1e-12)).astype(np.float32)
        return result

    def _request(self, texts: list[str]) -> NDArray[np.float32]:
        for attempt in range(_RETRIES + 1):
            try:
                response = self._client.post(
                    "/embeddings", json={"model": self.model_id, "input": texts}
                )
            except httpx.HTTPError as error:
                if attempt == _RETRIES:
                    raise EmbeddingProviderError(
                        f"embeddings provider unreachable: {error}"
                    ) from None
            else:
                if response.status_code not in _RETRY_STATUS or attempt == _RETRIES:
                    return self._vectors(response, len(texts))
            time.sleep(0.5 * 2**attempt)
        raise AssertionError("unreachable")

    def _vectors(self, response: httpx.Response, expected: int) -> NDArray[np.float32]:
        if response.status_code != 200:
            raise EmbeddingProviderError(
                f"embeddings provider answered {response.status_code}: {response.text[:200]}"
            )
        try:
            data = sorted(response.json()["data"], key=lambda item: item["index"])
            vectors = np.array([item["embedding"] for item in data], dtype=np.float32)
        except (ValueError, KeyError, TypeError) as error:
            raise EmbeddingProviderError(f"malformed embeddings response: {error}") from None
        if vectors.ndim != 2 or len(vectors) != expected:
            raise EmbeddingProviderError(f"expected {expected} embeddings, got {len(vectors)}")
        return vectors
