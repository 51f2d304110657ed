"""A BERT encoder forward pass in numpy, float32 throughout, dense layers as 2-D products."""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import NDArray
from threadpoolctl import ThreadpoolController

Matrix = NDArray[np.float32]
_LAYER_NORM_EPS = np.float32(1e-12)
_ONE = np.float32(1.0)
_HALF = np.float32(0.5)
_GELU_SCALE = np.float32(np.sqrt(2.0 / np.pi))
_GELU_CUBIC = np.float32(0.044715)


@dataclass(frozen=True)
class Layer:
    qkv_w: Matrix  # (hidden, 3*hidden): query, key and value fused into one product
    qkv_b: Matrix
    out_w: Matrix
    out_b: Matrix
    norm1: tuple[Matrix, Matrix]
    up_w: Matrix
    up_b: Matrix
    down_w: Matrix
    down_b: Matrix
    norm2: tuple[Matrix, Matrix]


@dataclass(frozen=True)
class _Layout:
    """Where a padded batch's real tokens are: the dense layers run on those rows only, and
    attention alone sees the (batch, tokens) shape."""

    batch: int
    tokens: int
    real: NDArray[np.intp]  # indexes of real tokens among batch * tokens rows
    bias: Matrix  # attention's additive mask: 0 for real keys, -1e9 for padding

    def padded(self, rows: Matrix) -> Matrix:
        out = np.zeros((self.batch * self.tokens, rows.shape[1]), dtype=np.float32)
        out[self.real] = rows
        return out


@dataclass(frozen=True)
class Bert:
    word: Matrix
    position: Matrix
    token_type: Matrix
    embed_norm: tuple[Matrix, Matrix]
    layers: list[Layer]
    heads: int

    def encode(
        self,
        ids: NDArray[np.int64],
        mask: NDArray[np.float32],
        type_ids: NDArray[np.int64] | None = None,
    ) -> Matrix:
        """Hidden states (batch, tokens, hidden) for padded token ids and their 0/1 mask,
        zero at padding. Padding never passes through a dense layer: a batch of sentences of
        mixed length is about half padding once padded to its longest. Token types default
        to 0 (one text); a pair of texts marks its second with 1."""
        batch, tokens = ids.shape
        bias = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :].astype(np.float32)
        layout = _Layout(batch, tokens, np.flatnonzero(mask.reshape(-1)), bias)
        types = self.token_type[0] if type_ids is None else self.token_type[type_ids]
        x = self.word[ids] + self.position[:tokens][None, :, :] + types
        x = layer_norm(x.reshape(batch * tokens, -1)[layout.real], self.embed_norm)
        for layer in self.layers:
            x = self._layer(layer, x, layout)
        return layout.padded(x).reshape(batch, tokens, -1)

    def _layer(self, layer: Layer, x: Matrix, layout: _Layout) -> Matrix:
        context = self._attention(x @ layer.qkv_w + layer.qkv_b, layout)
        x = layer_norm(x + context @ layer.out_w + layer.out_b, layer.norm1)
        hidden = gelu(x @ layer.up_w + layer.up_b)
        return layer_norm(x + hidden @ layer.down_w + layer.down_b, layer.norm2)

    def _attention(self, qkv: Matrix, layout: _Layout) -> Matrix:
        """Attention over the padded layout; the real tokens' rows of its output."""
        batch, tokens = layout.batch, layout.tokens
        size = qkv.shape[1] // 3 // self.heads
        shaped = layout.padded(qkv).reshape(batch, tokens, 3, self.heads, size)
        q, k, v = shaped.transpose(2, 0, 3, 1, 4)
        scores = (q @ k.transpose(0, 1, 3, 2)) * np.float32(1.0 / np.sqrt(size)) + layout.bias
        scores -= scores.max(axis=-1, keepdims=True)
        np.exp(scores, out=scores)
        scores /= scores.sum(axis=-1, keepdims=True)
        context = (scores @ v).transpose(0, 2, 1, 3)
        rows: Matrix = np.ascontiguousarray(context).reshape(batch * tokens, -1)[layout.real]
        return rows


def layer_norm(x: Matrix, weights: tuple[Matrix, Matrix]) -> Matrix:
    mean = x.mean(axis=-1, keepdims=True)
    centered = x - mean
    variance = (centered * centered).mean(axis=-1, keepdims=True)
    normed: Matrix = centered / np.sqrt(variance + _LAYER_NORM_EPS)
    return normed * weights[0] + weights[1]


def gelu(x: Matrix) -> Matrix:
    """GELU, tanh form, in place. Within 5e-4 of the exact erf form BERT was trained with;
    embeddings stay at cosine >= 0.99999 to the reference, and it is ~10x cheaper in numpy.
    """
    out = x * x
    out *= _GELU_CUBIC
    out += _ONE
    out *= x
    out *= _GELU_SCALE
    np.tanh(out, out=out)
    out += _ONE
    out *= x
    out *= _HALF
    return out


def load_bert(tensors: dict[str, NDArray[np.float32]], layers: int, heads: int) -> Bert:
    def get(name: str) -> Matrix:
        return np.ascontiguousarray(tensors[name], dtype=np.float32)

    def linear_t(name: str) -> Matrix:
        return np.ascontiguousarray(get(name + ".weight").T)

    def norm(name: str) -> tuple[Matrix, Matrix]:
        return get(name + ".weight"), get(name + ".bias")

    def layer(i: int) -> Layer:
        p = f"encoder.layer.{i}."
        attn = p + "attention.self."
        return Layer(
            qkv_w=np.concatenate([linear_t(attn + n) for n in ("query", "key", "value")], axis=1),
            qkv_b=np.concatenate([get(attn + n + ".bias") for n in ("query", "key", "value")]),
            out_w=linear_t(p + "attention.output.dense"),
            out_b=get(p + "attention.output.dense.bias"),
            norm1=norm(p + "attention.output.LayerNorm"),
            up_w=linear_t(p + "intermediate.dense"),
            up_b=get(p + "intermediate.dense.bias"),
            down_w=linear_t(p + "output.dense"),
            down_b=get(p + "output.dense.bias"),
            norm2=norm(p + "output.LayerNorm"),
        )

    return Bert(
        word=get("embeddings.word_embeddings.weight"),
        position=get("embeddings.position_embeddings.weight"),
        token_type=get("embeddings.token_type_embeddings.weight"),
        embed_norm=norm("embeddings.LayerNorm"),
        layers=[layer(i) for i in range(layers)],
        heads=heads,
    )


def one_blas_thread() -> AbstractContextManager[object]:
    """numpy's BLAS held to one thread while it lasts (process-wide, for milliseconds). On
    two cores a request's own work beside the model (the databases, the event loop, other
    requests) gains more from the second core than one product does; a second BLAS thread
    spinning beside busy cores slowed the model several times over."""
    limited: AbstractContextManager[object] = _blas().limit(limits=1, user_api="blas")
    return limited


@cache
def _blas() -> ThreadpoolController:
    """Built once: it inspects the native libraries loaded, numpy's BLAS among them."""
    return ThreadpoolController()
