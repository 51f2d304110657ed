"""A bounded memo for pure functions of a word, kept out of the garbage collector's sight.

`functools.lru_cache` keeps each entry in a node the cyclic garbage collector tracks. Filled,
the word caches of search and answers held some 130,000 such nodes and key tuples, and every
full collection walked them: a pause of about 100 ms on two cores, in whichever request
happened to trigger it, and a tenth of answers' slowest times to sources (bench/RESULTS.md).
Here a word's result lives in a plain dict from strings to untracked values (str, bool,
None), which CPython leaves untracked too. A full memo is emptied rather than evicted entry
by entry: the functions are cheap to recompute and their words recur within a request.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import wraps
from typing import TypeVar, cast

F = TypeVar("F", bound=Callable[..., object])

_MISSING = object()
_FORGETTERS: dict[Callable[..., object], Callable[[], None]] = {}


def memo(limit: int) -> Callable[[F], F]:
    """Memoise `fn(word, *context)`, whose result is a str, a bool or None and whose context
    is hashable (a question's terms, another word), holding at most `limit` results in all:
    one table per context, so the entries' keys are plain strings."""

    def decorate(fn: F) -> F:
        tables: dict[tuple[Hashable, ...], dict[str, object]] = {}
        held = 0

        @wraps(fn)
        def cached(word: str, *context: Hashable) -> object:
            nonlocal held
            table = tables.get(context)
            if table is None:
                table = tables[context] = {}
            found = table.get(word, _MISSING)
            if found is not _MISSING:
                return found
            if held >= limit:
                empty()
                table = tables[context] = {}
            found = table[word] = fn(word, *context)
            held += 1
            return found

        def empty() -> None:
            nonlocal held
            tables.clear()
            held = 0

        _FORGETTERS[cached] = empty
        return cast(F, cached)

    return decorate


def forget(fn: Callable[..., object]) -> None:
    """Empty the memo of a function `memo` decorated."""
    _FORGETTERS[fn]()
