"""Grounded answers on 2WikiMultiHopQA and HotpotQA with the extractive composer (no LLM).

Run with `make bench-answers` or `.venv/bin/python -m bench.answers [--dataset NAME]
[--questions N] [--keep DIR]`. Each question is answered through the answers service's
stream (the generator `answerStream` serves), topK 8. Reported per dataset:

- `shortAnswer` exact match and token F1 (SQuAD normalisation), per question type;
- exact match by the page's name: a short answer also counts when the corpus passage
  titled with it opens by naming its subject as the gold answer does ("Helen Hunt" for the
  gold "Helen Elizabeth Hunt", where the page opens "Helen Elizabeth Hunt (born …)"). It
  names the same thing in another form; the plain exact match stays the figure of record;
- containment: the share of `brief.answer` texts that contain the gold answer;
- verbatim: the share of quotes found word for word (whitespace aside) in the corpus
  passage they cite, checked here against corpus.json, independently of Trellis;
- citation precision: the share of cited sources that are gold passages;
- p50 / p95 of time to sources, to the first delta and to the whole answer;
- a baseline in the same run: the first sentence of the top search hit, as the answer;
- a timing baseline in the same run: the same query through `search` alone, timed right
  beside each answer, so the times read as ratios on a noisy machine.

The services warm up first, as a server does before it reports ready (app/search/warmup.py).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import string
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.answers.request import AnswerRequest
from app.answers.results import Answer, AnswerDelta, AnswerDone, AnswerSources
from app.localdb.stack import local_stack, stack_services
from app.services import Services
from app.tenancy.principal import Principal
from bench._timing import p50_p95
from bench.ingestion import load
from bench.quality import ensure_corpus, questions
from ingest.titles import without_qualifier
from retrieval.request import SearchRequest
from retrieval.sentences import sentences
from store.tenants import Tenant

DATASETS = ("2wiki", "hotpotqa")
TOP_K = 8


@dataclass
class Tally:
    em: list[float] = field(default_factory=list)
    em_named: list[float] = field(default_factory=list)  # or as the answer's page names it
    f1: list[float] = field(default_factory=list)
    contained: list[float] = field(default_factory=list)
    baseline_f1: list[float] = field(default_factory=list)
    baseline_contained: list[float] = field(default_factory=list)


@dataclass
class Figures:
    by_type: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))
    quotes: int = 0
    verbatim: int = 0
    cited: int = 0
    cited_gold: int = 0
    to_sources: list[float] = field(default_factory=list)
    to_first_delta: list[float] = field(default_factory=list)
    total: list[float] = field(default_factory=list)
    search_alone: list[float] = field(default_factory=list)


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


# The name a passage opens with: up to its first bracket, comma or verb of being.
_OPENING_NAME = re.compile(r"^(.+?)(?:\s*[(,;]|\s+(?:is|was|are|were)\b)")


@dataclass(frozen=True)
class Corpus:
    passages: dict[str, str]  # by title
    openings: dict[str, str]  # the name each passage opens with, by its normalised title

    @classmethod
    def of(cls, dataset: str) -> Corpus:
        passages = {p["title"]: " ".join(p["text"].split()) for p in load(None, dataset)}
        openings = {}
        for title, text in passages.items():
            found = _OPENING_NAME.match(text)
            key = normalise(without_qualifier(title))
            if found and key not in openings:
                openings[key] = found.group(1)
        return cls(passages, openings)

    def named_as(self, short: str, gold: str) -> bool:
        """Whether the short answer is the gold, or the passage titled with it opens by
        naming its subject as the gold does."""
        opening = self.openings.get(normalise(short), "")
        return normalise(gold) in (normalise(short), normalise(opening))


@dataclass
class Timed:
    answer: Answer
    sources: AnswerSources
    to_sources: float
    to_first_delta: float | None
    total: float


async def answered(services: Services, principal: Principal, collection: str, query: str) -> Timed:
    request = AnswerRequest(SearchRequest((collection,), query, top_k=TOP_K))
    started = time.perf_counter()
    sources_event, to_sources, first = None, 0.0, None
    async for event in services.answers.stream(principal, request):
        elapsed = (time.perf_counter() - started) * 1000
        if isinstance(event, AnswerSources):
            sources_event, to_sources = event, elapsed
        elif isinstance(event, AnswerDelta) and first is None:
            first = elapsed
        elif isinstance(event, AnswerDone):
            assert sources_event is not None
            return Timed(event.answer, sources_event, to_sources, first, elapsed)
    raise RuntimeError("the stream ended without an answer")


async def searched(services: Services, tenant: Tenant, collection: str, query: str) -> float:
    """The timing baseline: the answer's own retrieval request through search alone, in ms."""
    services.search.forget_queries()  # the answer embedded and parsed this query; so does search
    started = time.perf_counter()
    await services.search.search(tenant, SearchRequest((collection,), query, top_k=TOP_K))
    return (time.perf_counter() - started) * 1000


def baseline(timed: Timed) -> str:
    """The first sentence of the top search hit."""
    if not timed.sources.sources:
        return ""
    found = sentences(timed.sources.sources[0].hit.text)
    return found[0].text if found else ""


def record(figures: Figures, item: dict[str, Any], timed: Timed, corpus: Corpus) -> None:
    gold, answer = item["answer"], timed.answer
    tally = figures.by_type[item["type"]]
    short = answer.brief.short_answer or ""
    tally.em.append(float(normalise(short) == normalise(gold)))
    tally.em_named.append(float(bool(short) and corpus.named_as(short, gold)))
    tally.f1.append(f1(short, gold))
    tally.contained.append(float(normalise(gold) in normalise(answer.brief.answer)))
    first = baseline(timed)
    tally.baseline_f1.append(f1(first, gold))
    tally.baseline_contained.append(float(normalise(gold) in normalise(first)))
    _quotes(figures, answer, corpus)
    cited = [s for s in answer.sources if s.ref in answer.cited]
    figures.cited += len(cited)
    figures.cited_gold += sum(s.hit.document.title in item["gold_titles"] for s in cited)
    figures.to_sources.append(timed.to_sources)
    figures.to_first_delta.append(timed.to_first_delta or timed.total)
    figures.total.append(timed.total)


def _quotes(figures: Figures, answer: Answer, corpus: Corpus) -> None:
    titles = {s.ref: s.hit.document.title for s in answer.sources}
    brief = answer.brief
    for quote in [*brief.support, *brief.context, *brief.other_side]:
        figures.quotes += 1
        passage = corpus.passages.get(titles.get(quote.ref, ""), "")
        figures.verbatim += " ".join(quote.text.split()) in passage


async def run(dataset: str, limit: int | None, keep: Path | None) -> Figures:
    figures = Figures()
    corpus = Corpus.of(dataset)
    with local_stack(keep_in=keep / dataset if keep else None) as stack:
        async with stack_services(stack) as services:
            tenant = await ensure_corpus(services, dataset)
            principal = await services.keys.operator(tenant)
            await services.warm_up.run(services.search)  # as a server does before it is ready
            for item in questions(dataset, limit):
                query = item["question"]
                timed = await answered(services, principal, dataset, query)
                figures.search_alone.append(await searched(services, tenant, dataset, query))
                record(figures, item, timed, corpus)
    return figures


def report(dataset: str, figures: Figures) -> None:
    n = sum(len(t.em) for t in figures.by_type.values())
    print(f"\n### {dataset} ({n} questions, topK {TOP_K}, extractive)\n")
    print(
        "| type | n | EM | EM, page's name | F1 | contains gold | baseline F1 | baseline contains |"
    )
    print("|---|---|---|---|---|---|---|---|")
    everything = Tally()
    for name, t in sorted(figures.by_type.items()):
        _row(name, t)
        for key in vars(everything):
            getattr(everything, key).extend(getattr(t, key))
    _row("all", everything)
    print(f"\n- verbatim quotes: {_share(figures.verbatim, figures.quotes)} of {figures.quotes}")
    print(f"- citation precision: {_share(figures.cited_gold, figures.cited)} of {figures.cited}")
    _times(figures)


def _times(figures: Figures) -> None:
    base50, base95 = p50_p95(figures.search_alone)
    print(f"- search alone (same run, baseline): p50 {base50:.0f} ms, p95 {base95:.0f} ms")
    for label, values in (
        ("sources", figures.to_sources),
        ("first delta", figures.to_first_delta),
        ("whole answer", figures.total),
    ):
        p50, p95 = p50_p95(values)
        print(
            f"- time to {label}: p50 {p50:.0f} ms ({p50 / base50:.2f}x search), "
            f"p95 {p95:.0f} ms ({p95 / base95:.2f}x search)"
        )


def _row(name: str, t: Tally) -> None:
    cells = [
        100 * statistics.fmean(v) if v else 0.0
        for v in (t.em, t.em_named, t.f1, t.contained, t.baseline_f1, t.baseline_contained)
    ]
    print(f"| {name} | {len(t.em)} | " + " | ".join(f"{c:.1f}" for c in cells) + " |")


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dataset", action="append", choices=DATASETS, default=[])
    parser.add_argument("--questions", type=int, default=None, help="first N questions only")
    parser.add_argument("--keep", type=Path, default=None, help="keep the databases here")
    args = parser.parse_args()
    for dataset in args.dataset or DATASETS:
        report(dataset, asyncio.run(run(dataset, args.questions, args.keep)))


if __name__ == "__main__":
    main()
