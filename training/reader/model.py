"""The reader in JAX for training: MiniLM's encoder and a span head, the same arithmetic as the
numpy forward pass that serves it (app/models/_bert.py), with dropout while training."""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

Params = dict[str, Any]
_EPS = 1e-12


def from_tensors(tensors: dict[str, np.ndarray], layers: int, seed: int) -> tuple[Params, Any]:
    """Trainable parameters (everything but the word embeddings) and the frozen word table.
    The span head starts at random unless the tensors are a trained reader's."""
    def t(name: str) -> jnp.ndarray:
        return jnp.asarray(tensors[name], dtype=jnp.float32)

    def layer(i: int) -> Params:
        p = f"encoder.layer.{i}."
        a = p + "attention.self."
        fused = ("query", "key", "value")
        return {
            "qkv_w": jnp.concatenate([t(a + n + ".weight").T for n in fused], 1),
            "qkv_b": jnp.concatenate([t(a + n + ".bias") for n in fused]),
            "out_w": t(p + "attention.output.dense.weight").T,
            "out_b": t(p + "attention.output.dense.bias"),
            "n1_g": t(p + "attention.output.LayerNorm.weight"),
            "n1_b": t(p + "attention.output.LayerNorm.bias"),
            "up_w": t(p + "intermediate.dense.weight").T,
            "up_b": t(p + "intermediate.dense.bias"),
            "down_w": t(p + "output.dense.weight").T,
            "down_b": t(p + "output.dense.bias"),
            "n2_g": t(p + "output.LayerNorm.weight"),
            "n2_b": t(p + "output.LayerNorm.bias"),
        }

    hidden = tensors["embeddings.word_embeddings.weight"].shape[1]
    key = jax.random.PRNGKey(seed)
    params: Params = {
        "position": t("embeddings.position_embeddings.weight"),
        "token_type": t("embeddings.token_type_embeddings.weight"),
        "en_g": t("embeddings.LayerNorm.weight"),
        "en_b": t("embeddings.LayerNorm.bias"),
        "layers": [layer(i) for i in range(layers)],
        "head_w": jax.random.normal(key, (hidden, 2)) * 0.02,
        "head_b": jnp.zeros((2,)),
    }
    if "qa_outputs.weight" in tensors:  # a trained reader's own head, to train further
        params["head_w"], params["head_b"] = t("qa_outputs.weight").T, t("qa_outputs.bias")
    return params, t("embeddings.word_embeddings.weight")


def _norm(x: jnp.ndarray, g: jnp.ndarray, b: jnp.ndarray) -> jnp.ndarray:
    mean = x.mean(-1, keepdims=True)
    c = x - mean
    return c / jnp.sqrt((c * c).mean(-1, keepdims=True) + _EPS) * g + b


def _gelu(x: jnp.ndarray) -> jnp.ndarray:
    return 0.5 * x * (1.0 + jnp.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x**3)))


def _drop(x: jnp.ndarray, rate: float, key: Any) -> jnp.ndarray:
    if key is None or rate == 0.0:
        return x
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


def logits(params: Params, words: Any, batch: dict[str, Any], heads: int, key: Any = None,
           rate: float = 0.1) -> jnp.ndarray:
    """Start and end logits, (batch, tokens, 2)."""
    ids, types, mask = batch["ids"], batch["types"], batch["mask"]
    b, n = ids.shape
    x = words[ids] + params["position"][:n][None] + params["token_type"][types]
    x = _norm(x, params["en_g"], params["en_b"])
    bias = ((1.0 - mask) * -1e9)[:, None, None, :]
    keys = jax.random.split(key, 2 * len(params["layers"])) if key is not None else None
    for i, layer in enumerate(params["layers"]):
        qkv = (x @ layer["qkv_w"] + layer["qkv_b"]).reshape(b, n, 3, heads, -1)
        q, k, v = qkv.transpose(2, 0, 3, 1, 4)
        scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(q.shape[-1]) + bias
        context = (jax.nn.softmax(scores, -1) @ v).transpose(0, 2, 1, 3).reshape(b, n, -1)
        out = _drop(context @ layer["out_w"] + layer["out_b"], rate,
                    None if keys is None else keys[2 * i])
        x = _norm(x + out, layer["n1_g"], layer["n1_b"])
        up = _gelu(x @ layer["up_w"] + layer["up_b"])
        down = _drop(up @ layer["down_w"] + layer["down_b"], rate,
                     None if keys is None else keys[2 * i + 1])
        x = _norm(x + down, layer["n2_g"], layer["n2_b"])
    return x @ params["head_w"] + params["head_b"]


def loss(params: Params, words: Any, batch: dict[str, Any], heads: int, key: Any) -> jnp.ndarray:
    """Cross-entropy of the start and of the end over the passage tokens and [CLS]."""
    out = logits(params, words, batch, heads, key)
    allowed = batch["types"] * batch["mask"]
    allowed = allowed.at[:, 0].set(1.0)
    out = jnp.where(allowed[:, :, None] > 0, out, -1e9)
    logp = jax.nn.log_softmax(out, axis=1)
    start = jnp.take_along_axis(logp[:, :, 0], batch["start"][:, None], 1)
    end = jnp.take_along_axis(logp[:, :, 1], batch["end"][:, None], 1)
    return -(start + end).mean() / 2.0


def to_tensors(params: Params, heads: int) -> dict[str, np.ndarray]:
    """Back to the encoder's own tensor names (query, key and value apart), float16."""
    def h(x: Any) -> np.ndarray:
        return np.ascontiguousarray(np.asarray(x, dtype=np.float16))

    out = {
        "embeddings.position_embeddings.weight": h(params["position"]),
        "embeddings.token_type_embeddings.weight": h(params["token_type"]),
        "embeddings.LayerNorm.weight": h(params["en_g"]),
        "embeddings.LayerNorm.bias": h(params["en_b"]),
        "qa_outputs.weight": h(params["head_w"].T),
        "qa_outputs.bias": h(params["head_b"]),
    }
    for i, layer in enumerate(params["layers"]):
        p = f"encoder.layer.{i}."
        a = p + "attention.self."
        w = np.asarray(layer["qkv_w"])
        bias = np.asarray(layer["qkv_b"])
        size = w.shape[1] // 3
        for j, name in enumerate(("query", "key", "value")):
            out[a + name + ".weight"] = h(w[:, j * size:(j + 1) * size].T)
            out[a + name + ".bias"] = h(bias[j * size:(j + 1) * size])
        out[p + "attention.output.dense.weight"] = h(layer["out_w"].T)
        out[p + "attention.output.dense.bias"] = h(layer["out_b"])
        out[p + "attention.output.LayerNorm.weight"] = h(layer["n1_g"])
        out[p + "attention.output.LayerNorm.bias"] = h(layer["n1_b"])
        out[p + "intermediate.dense.weight"] = h(layer["up_w"].T)
        out[p + "intermediate.dense.bias"] = h(layer["up_b"])
        out[p + "output.dense.weight"] = h(layer["down_w"].T)
        out[p + "output.dense.bias"] = h(layer["down_b"])
        out[p + "output.LayerNorm.weight"] = h(layer["n2_g"])
        out[p + "output.LayerNorm.bias"] = h(layer["n2_b"])
    return out
