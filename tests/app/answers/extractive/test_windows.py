"""The reader's input layout, shared by training and serving."""

from __future__ import annotations

from app.answers.extractive.windows import (
    MAX_TOKENS,
    QUESTION_TOKENS,
    passage_encoding,
    question_ids,
    windows,
)
from app.models.minilm import bundled_model_dir, load_tokenizer

TOKENIZER = load_tokenizer(bundled_model_dir())
CLS, SEP = 101, 102


def test_a_short_passage_is_one_window_marked_question_then_passage() -> None:
    asked = question_ids(TOKENIZER, "Who founded the mill?")
    text = "The mill was founded by Ada Ray in 1901."
    [window] = windows(asked, passage_encoding(TOKENIZER, text), CLS, SEP)
    assert window.ids[0] == CLS and window.ids[-1] == SEP
    assert window.ids[window.first - 1] == SEP
    assert window.type_ids[: window.first] == [0] * window.first
    assert set(window.type_ids[window.first :]) == {1}
    name = window.ids.index(TOKENIZER.encode("ada", add_special_tokens=False).ids[0])
    assert text[slice(*window.char_span(name, name + 1))] == "Ada Ray"


def test_a_long_passage_is_read_in_overlapping_windows_that_cover_it() -> None:
    text = " ".join(f"Sentence {i} names the number {i * 7}." for i in range(200))
    encoding = passage_encoding(TOKENIZER, text)
    found = windows(question_ids(TOKENIZER, "Which number?"), encoding, CLS, SEP)
    assert len(found) > 1 and all(len(w.ids) <= MAX_TOKENS for w in found)
    covered = {offset for w in found for offset in w.offsets}
    assert covered == set(encoding.offsets)
    assert found[0].offsets[-1] in found[1].offsets  # the windows overlap


def test_a_long_question_keeps_its_first_tokens() -> None:
    asked = question_ids(TOKENIZER, "word " * 200)
    assert len(asked) == QUESTION_TOKENS
