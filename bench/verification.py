"""What verification adds to an LLM answer: against a provider streaming at a fixed rate,
and what it keeps, repairs and removes of a real model's answers.

Run with `.venv/bin/python -m bench.verification [--questions N] [--keep DIR]`, and
`--real [--questions N]` for the real model (below). A local
OpenAI-compatible server (app/localdb/scripted_llm.py) answers every question after a fixed
first-token delay, one word per fixed interval: three claims, each the first sentence of a
prompt passage with its marker, so every claim is supported and released. The server notes
when each word goes out; the answers service streams the answer as a client sees it. In the
same run, per question:

- the model's first word → the first delta: what the client waits beyond the model;
- the word that completes the first claim → the first delta: the checking itself, once the
  claim is whole (a claim is complete when the next one starts);
- the model's last word → the whole answer: the last claim's check, the quotes' span
  check and the assembly.

With `--real`, llama.cpp's server (app/localdb/llamacpp.py, SmolLM2-135M-Instruct on two
threads, temperature 0) answers 2Wiki and HotpotQA questions through a pass-through that
notes the model's first token. Per set: the claims kept as cited, repaired, and removed
(under CAVEAT the removed ones would be caveated: the same check decides both), the answers'
F1 and gold containment over the answer text, and the model's first token → first delta.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.answers.request import AnswerRequest
from app.answers.results import Answer, AnswerDelta, AnswerDone, ClaimStatus
from app.answers.verification import MARKER
from app.localdb.scripted_llm import Reply, ScriptedLlm, scripted_llm
from app.localdb.stack import Stack, local_stack, stack_services
from app.services import Services
from app.tenancy.principal import Principal
from bench._llm_proxy import TimingProxy, timing_proxy, url_of
from bench._local_model import local_model_server
from bench._timing import p50_p95
from bench.answers import f1, golds, normalise
from bench.quality import ensure_corpus, questions
from retrieval.request import SearchRequest
from retrieval.sentences import sentences

DATASET = "2wiki"
MODEL = "scripted"
FIRST_TOKEN_S = 0.3
WORD_S = 0.01  # 100 words a second, the pace of a fast hosted model
CLAIMS = 3
_PASSAGE = re.compile(r"\[\[(SRC:\d+)\]\][^\n]*\n(.*?)(?=\n\n\[\[SRC:|\n\nQuestion:)", re.S)


def claims_of(body: dict[str, Any]) -> list[list[str]]:
    """Each claim as its words: the first sentence of a passage, then its marker."""
    prompt: str = body["messages"][-1]["content"]
    found = []
    for ref, text in _PASSAGE.findall(prompt)[:CLAIMS]:
        first = sentences(text)
        if first:
            words = first[0].text.rstrip(". ").split()
            found.append([f"{w} " for w in words] + [f"[[{ref}]]. "])
    return found


def pieces(body: dict[str, Any]) -> list[str]:
    return [word for claim in claims_of(body) for word in claim]


@dataclass
class Figures:
    beyond_model: list[float] = field(default_factory=list)
    checking: list[float] = field(default_factory=list)
    finishing: list[float] = field(default_factory=list)
    model_first: list[float] = field(default_factory=list)


async def streamed(
    services: Services, principal: Principal, request: AnswerRequest
) -> tuple[float | None, float, Answer]:
    """An answer streamed as a client reads it: when its first delta came (None: no text
    was released), when it ended, and the answer."""
    first_delta, done, answer = None, 0.0, None
    async for event in services.answers.stream(principal, request):
        if isinstance(event, AnswerDelta) and first_delta is None:
            first_delta = time.perf_counter()
        if isinstance(event, AnswerDone):
            done, answer = time.perf_counter(), event.answer
    assert answer is not None, "every stream ends with its answer"
    return first_delta, done, answer


async def measured(
    services: Services, llm: ScriptedLlm, principal: Principal, query: str, figures: Figures
) -> None:
    request = AnswerRequest(SearchRequest((DATASET,), query, top_k=8), model=MODEL)
    started = time.perf_counter()
    first_delta, done, _ = await streamed(services, principal, request)
    assert first_delta is not None, "the scripted claims are supported, so text is released"
    sent, words = llm.sent[-1], claims_of(llm.requests[-1]["body"])
    first_claim_whole = sent[min(len(words[0]), len(sent) - 1)]
    figures.model_first.append((sent[0] - started) * 1000)
    figures.beyond_model.append((first_delta - sent[0]) * 1000)
    figures.checking.append((first_delta - first_claim_whole) * 1000)
    figures.finishing.append((done - sent[-1]) * 1000)


@asynccontextmanager
async def llm_services(stack: Stack, url: str, model: str = MODEL) -> AsyncIterator[Services]:
    with_llm = stack.with_env(
        TRELLIS_LLM_URL=url, TRELLIS_LLM_MODELS=model, TRELLIS_LLM_API_KEY="bench"
    )
    async with stack_services(with_llm) as services:
        yield services


async def run(limit: int, keep: Path | None) -> Figures:
    figures = Figures()
    reply = Reply(build=pieces, first_delay=FIRST_TOKEN_S, piece_delay=WORD_S)
    with local_stack(keep_in=keep / DATASET if keep else None) as stack, scripted_llm(reply) as llm:
        async with llm_services(stack, llm.url) as services:
            tenant = await ensure_corpus(services, DATASET)
            principal = await services.keys.operator(tenant)
            for item in questions(DATASET, limit):
                await measured(services, llm, principal, item["question"], figures)
    return figures


def report(limit: int, figures: Figures) -> None:
    print(f"\n### Verification overhead ({limit} {DATASET} questions, scripted provider)\n")
    print(f"Provider: first word after {FIRST_TOKEN_S * 1000:.0f} ms, then one word every")
    print(f"{WORD_S * 1000:.0f} ms; {CLAIMS} claims per answer.\n")
    print("| interval | p50 ms | p95 ms |")
    print("|---|---|---|")
    for label, values in (
        ("request → model's first word (search, prompt, provider)", figures.model_first),
        ("model's first word → first delta", figures.beyond_model),
        ("first claim whole → first delta (the check)", figures.checking),
        ("model's last word → whole answer", figures.finishing),
    ):
        p50, p95 = p50_p95(values)
        print(f"| {label} | {p50:.1f} | {p95:.1f} |")


KINDS = ("kept", "repaired", "removed")
REAL_DATASETS = ("2wiki", "hotpotqa")


@dataclass
class RealFigures:
    answers: int = 0
    abstained: int = 0
    claims: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    f1: list[float] = field(default_factory=list)
    contained: list[float] = field(default_factory=list)
    model_first: list[float] = field(default_factory=list)  # request → the model's first token
    beyond_model: list[float] = field(default_factory=list)  # its first token → first delta


def tally(figures: RealFigures, item: dict[str, Any], answer: Answer) -> None:
    figures.answers += 1
    figures.abstained += answer.abstained
    for claim in answer.claims:
        kind = "removed" if claim.status is not ClaimStatus.SUPPORTED else (
            "repaired" if claim.repaired else "kept")  # fmt: skip
        figures.claims[kind] += 1
    text = "" if answer.abstained else MARKER.sub("", answer.text)
    figures.f1.append(max(f1(text, gold) for gold in golds(item)))
    figures.contained.append(float(any(normalise(g) in normalise(text) for g in golds(item))))


def timed(figures: RealFigures, proxy: TimingProxy, first_delta: float | None) -> None:
    token = proxy.first_token[-1] if proxy.first_token else None
    if token is not None:
        figures.model_first.append((token - proxy.arrived[-1]) * 1000)
    if token is not None and first_delta is not None:
        figures.beyond_model.append((first_delta - token) * 1000)


async def run_real_set(
    dataset: str, limit: int, keep: Path | None, llama: tuple[str, str]
) -> RealFigures:
    figures = RealFigures()
    kept = keep / dataset if keep else None
    upstream, model = llama
    with local_stack(keep_in=kept) as stack, timing_proxy(upstream) as proxy:
        url = f"{url_of(proxy)}/v1"
        async with llm_services(stack, url, model) as services:
            tenant = await ensure_corpus(services, dataset)
            principal = await services.keys.operator(tenant)
            for item in questions(dataset, limit):
                search = SearchRequest((dataset,), item["question"], top_k=8)
                request = AnswerRequest(search, model=model)
                first_delta, _, answer = await streamed(services, principal, request)
                tally(figures, item, answer)
                timed(figures, proxy, first_delta)
    return figures


def run_real(limit: int, keep: Path | None) -> tuple[str, dict[str, RealFigures]]:
    """The local model (bench/_local_model.py) answering each set's first questions."""
    with local_model_server("bench.verification --real") as llama:
        found = {d: asyncio.run(run_real_set(d, limit, keep, llama)) for d in REAL_DATASETS}
    return llama[1], found


def report_real(model: str, found: dict[str, RealFigures]) -> None:
    print(f"\n### A real model: {model} (llama.cpp, 2 threads, temperature 0)\n")
    print("| set | answers | abstained | claims kept | repaired | removed (caveated under"
          " CAVEAT) | F1 | gold in text | model's first token p50 / p95 ms |"
          " first token → first delta p50 / p95 ms |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|")
    for dataset, fig in found.items():
        kept, repaired, removed = (fig.claims[k] for k in KINDS)
        first, beyond = p50_p95(fig.model_first or [0.0]), p50_p95(fig.beyond_model or [0.0])
        print(f"| {dataset} | {fig.answers} | {fig.abstained} | {kept} | {repaired} | {removed}"
              f" | {100 * sum(fig.f1) / len(fig.f1):.1f}"
              f" | {100 * sum(fig.contained) / len(fig.contained):.1f}"
              f" | {first[0]:.0f} / {first[1]:.0f}"
              f" | {beyond[0]:.0f} / {beyond[1]:.0f} |")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=int, default=60)
    parser.add_argument("--keep", type=Path, default=None, help="keep the databases here")
    parser.add_argument("--real", action="store_true", help="a real model, not a script")
    args = parser.parse_args()
    if args.real:
        report_real(*run_real(args.questions, args.keep))
    else:
        report(args.questions, asyncio.run(run(args.questions, args.keep)))


if __name__ == "__main__":
    main()
