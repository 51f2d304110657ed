"""The prompt of an LLM answer: strict rules, then numbered passages chosen within a token
budget and diversified (MMR on shared terms), then the conversation and the question."""

from __future__ import annotations

from app.answers.composer import ComposeContext
from app.answers.results import Source
from app.models.chat import ChatMessage
from ingest.analyzer import analyze
from retrieval.fusion import mmr

CHARS_PER_TOKEN = 4  # a conservative estimate that needs no tokenizer
HISTORY_MESSAGES = 5
_LANGUAGES = {"en": "English", "he": "Hebrew", "ja": "Japanese", "ar": "Arabic", "fa": "Persian"}

RULES = """You answer questions using only the numbered passages you are given.
Rules:
1. Answer in {language}.
2. After every sentence that states something from a passage, write the passage's marker,
   for example [[SRC:0001]]; a sentence may carry several markers.
3. When you quote, copy the passage's words exactly, inside double quotes.
4. If the passages do not answer part of the question, say which part they do not answer.
5. Use nothing but the passages: no outside knowledge, no guesses."""


def chosen(sources: list[Source], budget_tokens: int) -> list[Source]:
    """Passages best first, near-duplicates pushed back, until the budget is spent."""
    terms = {s.ref: set(analyze(s.hit.text)) for s in sources}
    relevance = {s.ref: 1.0 / (1 + i) for i, s in enumerate(sources)}
    order = mmr(
        [s.ref for s in sources], relevance, lambda a, b: _jaccard(terms[a], terms[b]), len(sources)
    )
    by_ref = {s.ref: s for s in sources}
    picked: list[Source] = []
    used = 0
    for ref in order:
        cost = len(by_ref[ref].hit.text) // CHARS_PER_TOKEN + 1
        if used + cost > budget_tokens and picked:
            continue
        picked.append(by_ref[ref])
        used += cost
    return picked


def messages(context: ComposeContext, passages: list[Source]) -> list[ChatMessage]:
    language = _LANGUAGES.get(context.language, context.language)
    system = ChatMessage("system", RULES.format(language=language))
    earlier = [
        ChatMessage(m.role.value.lower(), m.content) for m in context.history[-HISTORY_MESSAGES:]
    ]
    numbered = "\n\n".join(_passage(s) for s in passages)
    question = ChatMessage("user", f"Passages:\n\n{numbered}\n\nQuestion: {context.question}")
    return [system, *earlier, question]


def _passage(source: Source) -> str:
    title = source.hit.document.title or source.hit.document.external_id
    return f"[[{source.ref}]] {title}\n{source.hit.text}"


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0
