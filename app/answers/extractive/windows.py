"""The reader's input: the question and a piece of one passage, as one token sequence.

`[CLS] question [SEP] passage piece [SEP]`, with token type 0 for the question and 1 for the
passage. A passage longer than one window is read in overlapping pieces, so an answer near a
piece's edge is whole in the next. Training (training/reader/) builds its examples with this
same function, so the model sees at run time exactly the layout it learnt from.
"""

from __future__ import annotations

from dataclasses import dataclass

from tokenizers import Encoding, Tokenizer

MAX_TOKENS = 256
QUESTION_TOKENS = 64  # a longer question keeps its first 64 tokens
STRIDE = 96  # tokens shared by consecutive pieces of a long passage


@dataclass(frozen=True)
class Window:
    ids: list[int]
    type_ids: list[int]
    first: int  # index of the first passage token
    offsets: list[tuple[int, int]]  # character span in the passage of each passage token

    def char_span(self, start: int, end: int) -> tuple[int, int]:
        """The passage characters of tokens start..end (inclusive, window indexes)."""
        return self.offsets[start - self.first][0], self.offsets[end - self.first][1]


def question_ids(tokenizer: Tokenizer, question: str) -> list[int]:
    ids: list[int] = tokenizer.encode(question, add_special_tokens=False).ids
    return ids[:QUESTION_TOKENS]


def passage_encoding(tokenizer: Tokenizer, text: str) -> Encoding:
    encoding: Encoding = tokenizer.encode(text, add_special_tokens=False)
    return encoding


def windows(question: list[int], passage: Encoding, cls: int, sep: int) -> list[Window]:
    """Every window of the passage read with the question."""
    room = MAX_TOKENS - len(question) - 3
    ids, offsets = passage.ids, passage.offsets
    starts = list(range(0, max(len(ids) - room, 0) + 1, max(room - STRIDE, 1)))
    if starts[-1] + room < len(ids):
        starts.append(len(ids) - room)
    return [_window(question, ids[s : s + room], offsets[s : s + room], (cls, sep)) for s in starts]


def _window(
    question: list[int], piece: list[int], offsets: list[tuple[int, int]], marks: tuple[int, int]
) -> Window:
    cls, sep = marks
    head = [cls, *question, sep]
    return Window(
        ids=[*head, *piece, sep],
        type_ids=[0] * len(head) + [1] * (len(piece) + 1),
        first=len(head),
        offsets=list(offsets),
    )
