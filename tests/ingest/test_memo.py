"""The word memo: results kept per word and context, bounded, and invisible to the garbage
collector."""

from __future__ import annotations

import gc
from collections.abc import Callable

from ingest.memo import forget, memo


def _recording(limit: int) -> tuple[list[str], Callable[[str], str]]:
    """A memoised identity, and the words it was computed for."""
    calls: list[str] = []

    @memo(limit)
    def same(word: str) -> str:
        calls.append(word)
        return word

    return calls, same


def test_a_word_is_computed_once_per_context() -> None:
    calls: list[str] = []

    @memo(10)
    def shout(word: str, suffix: str) -> str:
        calls.append(word)
        return word.upper() + suffix

    assert [shout("a", "!"), shout("a", "!"), shout("a", "?")] == ["A!", "A!", "A?"]
    assert calls == ["a", "a"]


def test_a_full_memo_starts_again() -> None:
    calls, same = _recording(2)
    for word in ("a", "b", "c", "a"):
        same(word)
    assert calls == ["a", "b", "c", "a"]  # "c" emptied the memo, so "a" was computed again


def test_forget_empties_it() -> None:
    calls, same = _recording(10)
    same("a")
    forget(same)
    same("a")
    assert calls == ["a", "a"]


def test_its_entries_are_not_tracked_by_the_garbage_collector() -> None:
    @memo(100_000)
    def related(word: str, wanted: frozenset[str]) -> bool:
        return word in wanted

    wanted = frozenset({"word1", "word2"})
    gc.collect()
    before = len(gc.get_objects())
    for i in range(20_000):
        related(f"word{i}", wanted)
    gc.collect()
    assert len(gc.get_objects()) - before < 50  # lru_cache would add two per entry
