"""What ingestion needs from an embedding model, local or remote."""

from __future__ import annotations

from typing import Protocol

import numpy as np
from numpy.typing import NDArray


class Embedder(Protocol):
    @property
    def model_id(self) -> str: ...

    @property
    def dimension(self) -> int: ...

    @property
    def max_tokens(self) -> int | None:
        """None when the provider hides its tokenizer; windows are then sized by chars."""

    def embed(self, texts: list[str], truncate: bool = False) -> NDArray[np.float32]: ...

    def token_counts(self, texts: list[str]) -> list[int]: ...
