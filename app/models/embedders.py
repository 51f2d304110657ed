"""The embedding models this Trellis offers, by model id. Each collection is pinned to one."""

from __future__ import annotations

import threading

from app.errors import ErrorCode, TrellisError
from app.models.minilm import DIMENSION as LOCAL_DIMENSION
from app.models.minilm import MODEL_ID as LOCAL_MODEL
from app.models.minilm import MiniLM
from app.models.openai_embeddings import OpenAIEmbeddings
from app.settings import EmbeddingsSettings
from ingest.embedder import Embedder


class Embedders:
    def __init__(self, remote: EmbeddingsSettings) -> None:
        self._remote = remote
        self._loaded: dict[str, Embedder] = {}
        self._lock = threading.Lock()

    def model_ids(self) -> list[str]:
        return [LOCAL_MODEL] + ([self._remote.model] if self._remote.model else [])

    def dimension(self, model_id: str) -> int:
        if model_id == LOCAL_MODEL:
            return LOCAL_DIMENSION
        return self.get(model_id).dimension

    def get(self, model_id: str) -> Embedder:
        """The embedder for `model_id`, loaded once; an unknown id is an error."""
        if model_id not in self.model_ids():
            raise TrellisError(
                ErrorCode.EMBEDDING_PROFILE_MISMATCH,
                f"embedding model {model_id!r} is not available here; "
                f"available: {', '.join(self.model_ids())}",
            )
        with self._lock:
            if model_id not in self._loaded:
                self._loaded[model_id] = self._load(model_id)
            return self._loaded[model_id]

    def warm_up(self) -> None:
        """Load the local model and run it once (a remote one costs a call: not warmed)."""
        self.get(LOCAL_MODEL).embed(["warm-up"], True)

    def _load(self, model_id: str) -> Embedder:
        if model_id == LOCAL_MODEL:
            return MiniLM()
        remote = self._remote
        assert remote.url is not None
        return OpenAIEmbeddings(remote.url, model_id, remote.api_key, remote.dimension)
