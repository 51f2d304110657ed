"""Grounded answers with no LLM on SQuAD (single-hop), 2WikiMultiHopQA and HotpotQA: the
span reader against the hand-written composer it replaced, in one run.

Run with `make bench-answers` or `.venv/bin/python -m bench.answers [--dataset NAME]
[--questions N] [--keep DIR] [--engine reader|rules]`. Each question is answered through the
answers service's stream (the generator `answerStream` serves), topK 8, by
bench/_answer_dump.py: in this process for the reader, and for the replaced composer in a
git worktree of its last commit (made on first use under .data/composer-rules), on the same kept
databases. Reported per dataset and engine, by question type:

- `shortAnswer` exact match and token F1 (SQuAD normalisation, best over the gold answer's
  aliases where the set gives them);
- wrong: the share of questions with a non-empty short answer of F1 < 0.5; empty: with none;
- containment: the share of `brief.answer` texts that contain the gold answer;
- verbatim quotes (checked against corpus.json, independently of Trellis), citation
  precision (cited sources that are gold passages);
- p50 / p95 of time to sources, to the first delta and to the whole answer, beside the
  same query through `search` alone, timed right after each answer;
- F1 of every best span: the reader's short answers with no floor (the same as F1 for the
  replaced composer, which has none);
- for the reader, calibration: its confidence against whether its best span is right
  (F1 >= 0.5), as a reliability table and the expected calibration error. The reader runs
  with no short-answer floor, so every best span is graded; the figures "as served" apply
  the floor (TRELLIS_ANSWER_SHORT_FLOOR's default) afterwards, as the server does.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import string
import subprocess
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.answers.extractive.confidence import SHORT_FLOOR
from app.answers.extractive.reader import shared_reader
from app.models.minilm import MiniLM
from app.settings import PROJECT_ROOT
from bench import _answer_dump
from bench._timing import p50_p95
from bench.ingestion import load
from bench.quality import questions

DATASETS = ("squad", "2wiki", "hotpotqa")
ENGINES = ("reader", "rules")
# The last commit of the hand-written composer (also tagged composer-rules where tags travel).
RULES_COMMIT = "5d711ae30a8cca405a5786aff769c6afafe2456b"
BINS = 10


def normalise(text: str) -> str:
    """SQuAD's answer normalisation."""
    text = text.lower()
    text = "".join(ch for ch in text if ch not in set(string.punctuation))
    text = re.sub(r"\b(a|an|the)\b", " ", text)
    return " ".join(text.split())


def f1(prediction: str, gold: str) -> float:
    ours, theirs = normalise(prediction).split(), normalise(gold).split()
    common = sum((Counter(ours) & Counter(theirs)).values())
    if not ours or not theirs or common == 0:
        return float(ours == theirs)
    precision, recall = common / len(ours), common / len(theirs)
    return 2 * precision * recall / (precision + recall)


@dataclass
class Tally:
    em: list[float] = field(default_factory=list)
    f1: list[float] = field(default_factory=list)
    f1_every: list[float] = field(default_factory=list)  # of every best span, floor or not
    wrong: list[float] = field(default_factory=list)
    empty: list[float] = field(default_factory=list)
    contained: list[float] = field(default_factory=list)

    def extend(self, other: Tally) -> None:
        for key in vars(self):
            getattr(self, key).extend(getattr(other, key))


@dataclass
class Figures:
    by_type: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    graded: list[tuple[float, bool]] = field(default_factory=list)  # confidence, best span right
    quotes: int = 0
    verbatim: int = 0
    cited: int = 0
    cited_gold: int = 0
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))


def golds(item: dict[str, Any]) -> list[str]:
    return [item["answer"], *item.get("answer_aliases", [])]


def served(row: dict[str, Any]) -> tuple[str, str]:
    """The short answer and the answer text as the server gives them: a reader's span below
    the floor is no short answer, and does not lead the answer."""
    short, answer = row["short"] or "", row["answer"]
    if short and row["confidence"] is not None and row["confidence"] < SHORT_FLOOR:
        answer = answer.removeprefix(f"{short} — ")
        short = ""
    return short, answer


def record(
    figures: Figures, item: dict[str, Any], row: dict[str, Any], corpus: dict[str, str]
) -> None:
    short, answer = served(row)
    best = max(f1(short, g) for g in golds(item))
    tally = figures.by_type[item["type"]]
    tally.em.append(float(any(normalise(short) == normalise(g) for g in golds(item))))
    tally.f1.append(best)
    tally.f1_every.append(max(f1(row["short"] or "", g) for g in golds(item)))
    tally.wrong.append(float(bool(short) and best < 0.5))
    tally.empty.append(float(not short))
    tally.contained.append(float(any(normalise(g) in normalise(answer) for g in golds(item))))
    if row["confidence"] is not None and row["short"]:
        span_f1 = max(f1(row["short"], g) for g in golds(item))
        figures.graded.append((row["confidence"], span_f1 >= 0.5))
    for quote in row["quotes"]:
        figures.quotes += 1
        figures.verbatim += " ".join(quote["text"].split()) in corpus.get(quote["title"], "")
    figures.cited += len(row["cited"])
    figures.cited_gold += sum(t in item["gold_titles"] for t in row["cited"])
    for key in ("to_sources", "first_delta", "total", "search_alone"):
        figures.times[key].append(row[key] if row[key] is not None else row["total"])


def scored(dataset: str, dump: Path, limit: int | None) -> Figures:
    corpus = {p["title"]: " ".join(p["text"].split()) for p in load(None, dataset)}
    rows = {r["id"]: r for r in map(json.loads, dump.read_text().splitlines())}
    figures = Figures()
    for item in questions(dataset, limit):
        record(figures, item, rows[item["_id"]], corpus)
    return figures


def answer_rules(dataset: str, out: Path, keep: Path, limit: int | None) -> None:
    """The replaced composer's answers, from a worktree of its tag."""
    worktree = PROJECT_ROOT / ".data" / "composer-rules"
    if not worktree.exists():
        git = ["git", "-C", str(PROJECT_ROOT), "worktree", "add", "--detach"]
        subprocess.run([*git, str(worktree), RULES_COMMIT], check=True)
        # What the old code finds beside and inside its checkout: the shared sets, and the
        # Neo4j launcher this checkout built.
        (worktree.parent / "shared").symlink_to(PROJECT_ROOT.parent / "shared")
        (worktree / ".cache").symlink_to(PROJECT_ROOT / ".cache")
    # The dump runs as the worktree's own module: run by its path, it would find this
    # folder's modules (bench/graph.py) before the worktree's packages.
    shutil.copy(_answer_dump.__file__, worktree / "bench" / "_answer_dump.py")
    command = [sys.executable, "-m", "bench._answer_dump", dataset, str(out.resolve())]
    command += ["--keep", str(keep.resolve())] + (["--questions", str(limit)] if limit else [])
    env = {**os.environ, "PYTHONPATH": str(worktree)}
    subprocess.run(command, check=True, cwd=worktree, env=env)


def answer_reader(dataset: str, out: Path, keep: Path, limit: int | None) -> None:
    env = {"TRELLIS_ANSWER_SHORT_FLOOR": "0"}
    asyncio.run(_answer_dump.dump(dataset, out, keep, limit, env))


def reader_speed(dataset: str, passages: int = 64) -> None:
    """The reader's milliseconds a passage, each read alone with a question of the set,
    beside the embedder embedding the same passage (both numpy MiniLM, so the ratio is the
    reader's extra cost: the question in the window, and the span search)."""
    texts = [p["text"] for p in load(passages, dataset)]
    asked = [item["question"] for item in questions(dataset, passages)]
    reader, embedder = shared_reader(), MiniLM()
    reader.read(asked[0], texts[:1])
    started = time.perf_counter()
    for question, text in zip(asked, texts, strict=False):
        reader.read(question, [text])
    read_ms = (time.perf_counter() - started) * 1000 / len(texts)
    started = time.perf_counter()
    for text in texts:
        embedder.embed([text], truncate=True)
    embed_ms = (time.perf_counter() - started) * 1000 / len(texts)
    print(
        f"- reader: {read_ms:.1f} ms a passage; the embedder on the same passages "
        f"{embed_ms:.1f} ms ({read_ms / embed_ms:.2f}x)"
    )


def report(dataset: str, engine: str, figures: Figures) -> None:
    n = sum(len(t.em) for t in figures.by_type.values())
    print(f"\n### {dataset}, {engine} ({n} questions, topK {_answer_dump.TOP_K})\n")
    print("| type | n | EM | F1 | wrong | empty | contains gold | F1, every best span |")
    print("|---|---|---|---|---|---|---|---|")
    everything = Tally()
    for name, tally in sorted(figures.by_type.items()):
        _row(name, tally)
        everything.extend(tally)
    _row("all", everything)
    print(f"\n- verbatim quotes: {_share(figures.verbatim, figures.quotes)} of {figures.quotes}")
    print(f"- citation precision: {_share(figures.cited_gold, figures.cited)} of {figures.cited}")
    _times(figures)
    if figures.graded:
        _calibration(figures.graded)
        reader_speed(dataset)


def _row(name: str, t: Tally) -> None:
    cells = [
        100 * statistics.fmean(v) for v in (t.em, t.f1, t.wrong, t.empty, t.contained, t.f1_every)
    ]
    print(f"| {name} | {len(t.em)} | " + " | ".join(f"{c:.1f}" for c in cells) + " |")


def _times(figures: Figures) -> None:
    base50, base95 = p50_p95(figures.times["search_alone"])
    print(f"- search alone (same run, baseline): p50 {base50:.0f} ms, p95 {base95:.0f} ms")
    for label, key in (
        ("sources", "to_sources"),
        ("first delta", "first_delta"),
        ("whole answer", "total"),
    ):
        p50, p95 = p50_p95(figures.times[key])
        print(
            f"- time to {label}: p50 {p50:.0f} ms ({p50 / base50:.2f}x search), "
            f"p95 {p95:.0f} ms ({p95 / base95:.2f}x search)"
        )


def _calibration(graded: list[tuple[float, bool]]) -> None:
    """Reliability of the reader's confidence in its best span, in ten equal bins."""
    bins: dict[int, list[tuple[float, bool]]] = defaultdict(list)
    for confidence, correct in graded:
        bins[min(int(confidence * BINS), BINS - 1)].append((confidence, correct))
    print("\n| confidence | n | mean confidence | right (F1 >= 0.5) |")
    print("|---|---|---|---|")
    error = 0.0
    for index in sorted(bins):
        items = bins[index]
        mean = statistics.fmean(c for c, _ in items)
        right = statistics.fmean(float(r) for _, r in items)
        error += len(items) / len(graded) * abs(mean - right)
        low = index / BINS
        print(f"| {low:.1f}–{low + 1 / BINS:.1f} | {len(items)} | {mean:.2f} | {right:.2f} |")
    print(f"\n- expected calibration error: {error:.3f} over {len(graded)} best spans")


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dataset", action="append", choices=DATASETS, default=[])
    parser.add_argument("--engine", action="append", choices=ENGINES, default=[])
    parser.add_argument("--questions", type=int, default=None, help="first N questions only")
    parser.add_argument("--keep", type=Path, default=PROJECT_ROOT / ".data" / "bench")
    args = parser.parse_args()
    runs = {"reader": answer_reader, "rules": answer_rules}
    for dataset in args.dataset or DATASETS:
        for engine in args.engine or ENGINES:
            out = args.keep / f"answers-{dataset}-{engine}.jsonl"
            out.parent.mkdir(parents=True, exist_ok=True)
            runs[engine](dataset, out, args.keep, args.questions)
            report(dataset, engine, scored(dataset, out, args.questions))


if __name__ == "__main__":
    main()
