"""What verification adds to an LLM answer, against a provider streaming at a fixed rate.

Run with `.venv/bin/python -m bench.verification [--questions N] [--keep DIR]`. A local
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
from app.answers.results import AnswerDelta, AnswerDone
from app.localdb.scripted_llm import Reply, ScriptedLlm, scripted_llm
from app.localdb.stack import Stack, local_stack, stack_services
from app.services import Services
from app.settings import Settings
from app.tenancy.principal import Principal
from bench._timing import p50_p95
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


async def measured(
    services: Services, llm: ScriptedLlm, principal: Principal, query: str, figures: Figures
) -> None:
    request = AnswerRequest(SearchRequest((DATASET,), query, top_k=8), model=MODEL)
    started, first_delta = time.perf_counter(), None
    async for event in services.answers.stream(principal, request):
        if isinstance(event, AnswerDelta) and first_delta is None:
            first_delta = time.perf_counter()
        if isinstance(event, AnswerDone):
            done = time.perf_counter()
    assert first_delta is not None, "the scripted claims are supported, so text is released"
    sent, words = llm.sent[-1], claims_of(llm.requests[-1]["body"])
    first_claim_whole = sent[min(len(words[0]), len(sent) - 1)]
    figures.model_first.append((sent[0] - started) * 1000)
    figures.beyond_model.append((first_delta - sent[0]) * 1000)
    figures.checking.append((first_delta - first_claim_whole) * 1000)
    figures.finishing.append((done - sent[-1]) * 1000)


@asynccontextmanager
async def llm_services(stack: Stack, llm: ScriptedLlm) -> AsyncIterator[Services]:
    env = {
        **stack.env(),
        "TRELLIS_LLM_URL": llm.url,
        "TRELLIS_LLM_MODELS": MODEL,
        "TRELLIS_LLM_API_KEY": "bench",
    }
    settings = Settings.from_env(env)
    with_llm = Stack(stack.data_dir, settings, stack.endpoints, stack.neo4j, stack.postgres)
    async with stack_services(with_llm) as services:
        yield services


async def run(limit: int, keep: Path | None) -> Figures:
    figures = Figures()
    reply = Reply(build=pieces, first_delay=FIRST_TOKEN_S, piece_delay=WORD_S)
    with local_stack(keep_in=keep / DATASET if keep else None) as stack, scripted_llm(reply) as llm:
        async with llm_services(stack, llm) as services:
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=int, default=60)
    parser.add_argument("--keep", type=Path, default=None, help="keep the databases here")
    args = parser.parse_args()
    report(args.questions, asyncio.run(run(args.questions, args.keep)))


if __name__ == "__main__":
    main()
