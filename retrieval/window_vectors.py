"""One collection's window vectors held in memory: the dense leg's exact search, as
store/search.dense_exact evaluates it in SQL.

The best `windows` windows by cosine (the vectors are unit length, so a dot product), each
counting for every main chunk it belongs to, a main chunk scoring its best window's
similarity; ties go to the smaller main chunk id, as the SQL orders them.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import cached_property
from uuid import UUID

import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True)
class WindowVectors:
    version: Hashable  # the collection's statistics' version when the vectors were read
    vectors: NDArray[np.float32]  # one row a window
    mains: list[tuple[UUID, ...]]  # each window's main chunks
    documents: list[UUID]  # each window's document

    @property
    def size(self) -> int:
        """The vectors held."""
        return int(self.vectors.shape[0])

    @property
    def dimensions(self) -> int:
        return int(self.vectors.shape[1])

    def top(self, query: NDArray[np.float32], windows: int, limit: int) -> list[tuple[UUID, float]]:
        """The best `limit` main chunks by their best window among the `windows` nearest."""
        if not self.size or limit <= 0:
            return []
        similarity = self.vectors @ query.astype(np.float32, copy=False)
        nearest = _best(similarity, windows)
        best: dict[UUID, float] = {}
        for window in nearest.tolist():
            score = float(similarity[window])
            for main in self.mains[window]:
                best[main] = max(best.get(main, score), score)
        ranked = sorted(best.items(), key=lambda item: (-item[1], item[0]))
        return ranked[:limit]

    def nearest_windows(self, query: NDArray[np.float32], mains: list[UUID]) -> dict[UUID, int]:
        """For each main chunk held, the row of its window most similar to the query."""
        rows = {m: self._windows_of[m] for m in mains if m in self._windows_of}
        if not rows:
            return {}
        flat = np.fromiter((w for found in rows.values() for w in found), dtype=np.intp)
        similarity = (self.vectors[flat] @ query.astype(np.float32, copy=False)).tolist()
        scored = dict(zip(flat.tolist(), similarity, strict=True))
        return {m: max(found, key=scored.__getitem__) for m, found in rows.items()}

    @cached_property
    def _windows_of(self) -> dict[UUID, list[int]]:
        """Each main chunk's windows, by row."""
        windows: dict[UUID, list[int]] = {}
        for row, mains in enumerate(self.mains):
            for main in mains:
                windows.setdefault(main, []).append(row)
        return windows


def _best(scores: NDArray[np.float32], count: int) -> NDArray[np.intp]:
    if count >= len(scores):
        return np.arange(len(scores))
    return np.argpartition(-scores, count - 1)[:count]
