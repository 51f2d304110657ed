"""Rewrite reader weights saved before `model.to_tensors` made each tensor contiguous.

Until then the query, key and value matrices, cut from the fused product and transposed,
were written in column order under a row-order shape: each was saved as its transpose.
The shipped weights came from a run started before that fix, and were rewritten with

    .venv/bin/python -m training.reader.relayout app/answers/extractive/weights/reader.safetensors

A run of the current training code needs no rewriting.
"""

from __future__ import annotations

import sys

import numpy as np
from safetensors.numpy import load_file, save_file

_FUSED = ("query", "key", "value")


def main() -> None:
    path = sys.argv[1]
    tensors = load_file(path)
    for name in tensors:
        if name.endswith(".weight") and any(f"attention.self.{n}." in name for n in _FUSED):
            tensors[name] = np.ascontiguousarray(tensors[name].T)
    save_file(tensors, path)


if __name__ == "__main__":
    main()
