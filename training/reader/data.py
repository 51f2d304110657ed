"""Training examples for the span reader from SQuAD v1.1's JSON format.

Each question is read with its own paragraph (the answer's tokens are the target) and, for a
share of questions, with another paragraph of the same article (the target is [CLS]: "no
answer here"). At run time the reader reads every retrieved passage, most of which do not
hold the answer, so it must learn to say so; a paragraph on the same subject is the hard case.

With `hard`, that other paragraph is the one retrieval would most likely have put beside the
answer: of the article's paragraphs that do not contain the answer's text, the one sharing the
most rare question words (inverse document frequency over all paragraphs). Without it, any
other paragraph of the article is drawn, as the first stage of the shipped weights drew them.
"""

from __future__ import annotations

import json
import math
import random
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from tokenizers import Tokenizer

from app.answers.extractive.windows import Window, passage_encoding, question_ids, windows


@dataclass(frozen=True)
class Example:
    ids: list[int]
    type_ids: list[int]
    start: int  # target token indexes; 0 ([CLS]) when the window holds no answer
    end: int


@dataclass(frozen=True)
class _Question:
    text: str
    paragraph: int
    answer_start: int
    answer_text: str


def load_squad(path: Path) -> tuple[list[str], list[int], list[_Question]]:
    """Paragraph texts, each paragraph's article index, and the questions."""
    paragraphs: list[str] = []
    articles: list[int] = []
    questions: list[_Question] = []
    for article_index, article in enumerate(json.loads(path.read_text())["data"]):
        for paragraph in article["paragraphs"]:
            paragraphs.append(paragraph["context"])
            articles.append(article_index)
            for qa in paragraph["qas"]:
                answer = qa["answers"][0]
                questions.append(
                    _Question(qa["question"], len(paragraphs) - 1, answer["answer_start"],
                              answer["text"])
                )
    return paragraphs, articles, questions


@dataclass(frozen=True)
class Negatives:
    share: float  # of questions that are also read with a paragraph without their answer
    hard: bool  # that paragraph is the likeliest distractor, not a random one


def build_examples(
    path: Path, tokenizer: Tokenizer, negatives: Negatives, seed: int
) -> list[Example]:
    paragraphs, articles, questions = load_squad(path)
    encodings = [passage_encoding(tokenizer, text) for text in paragraphs]
    pick = _Distractors(paragraphs, articles, negatives.hard)
    cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
    rng = random.Random(seed)
    examples: list[Example] = []
    for q in questions:
        asked = question_ids(tokenizer, q.text)
        span = (q.answer_start, q.answer_start + len(q.answer_text))
        for window in windows(asked, encodings[q.paragraph], cls, sep):
            examples.append(_target(window, span))
        other = pick(q, rng) if rng.random() < negatives.share else None
        for window in windows(asked, encodings[other], cls, sep) if other is not None else ():
            examples.append(Example(window.ids, window.type_ids, 0, 0))
    rng.shuffle(examples)
    return examples


class _Distractors:
    """Chooses the paragraph a question is read with to learn "no answer here"."""

    def __init__(self, paragraphs: list[str], articles: list[int], hard: bool) -> None:
        self._texts = paragraphs
        self._words = [_words(text) for text in paragraphs]
        counts = Counter(word for words in self._words for word in words)
        self._idf = {w: math.log(len(paragraphs) / n) for w, n in counts.items()}
        self._by_article: dict[int, list[int]] = {}
        for index, article in enumerate(articles):
            self._by_article.setdefault(article, []).append(index)
        self._articles, self._hard = articles, hard

    def __call__(self, q: _Question, rng: random.Random) -> int | None:
        same = [p for p in self._by_article[self._articles[q.paragraph]] if p != q.paragraph]
        if not self._hard:
            return rng.choice(same)
        answer = q.answer_text.lower()
        others = [p for p in same if answer not in self._texts[p].lower()]
        if not others:
            return None
        asked = _words(q.text)
        # fsum: a set's order follows the per-process string hash; a plain sum could then
        # break a near-tie differently in each run.
        return max(others, key=lambda p: math.fsum(self._idf[w] for w in asked & self._words[p]))


def _words(text: str) -> frozenset[str]:
    return frozenset(re.findall(r"\w+", text.lower()))


def _target(window: Window, span: tuple[int, int]) -> Example:
    inside = [
        i for i, (a, b) in enumerate(window.offsets) if b > span[0] and a < span[1]
    ]
    whole = inside and window.offsets[0][0] <= span[0] and window.offsets[-1][1] >= span[1]
    if not whole:
        return Example(window.ids, window.type_ids, 0, 0)
    return Example(window.ids, window.type_ids, window.first + inside[0],
                   window.first + inside[-1])
