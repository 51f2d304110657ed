"""A progress bar on stderr for the CLI: a measure that moves (bytes or documents), an
estimate from that measure's rate, and a short note of the other counts."""

from __future__ import annotations

import sys

from tqdm import tqdm


class Progress:
    def __init__(self, label: str, total: int, unit: str) -> None:
        self._tty = sys.stderr.isatty()
        self._note = ""
        self._bar = tqdm(
            total=total,
            desc=label,
            unit=unit,
            unit_scale=unit == "B",
            unit_divisor=1024 if unit == "B" else 1000,
            file=sys.stderr,
            dynamic_ncols=True,
            mininterval=0.5 if sys.stderr.isatty() else 1e9,
            bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt}"
            " [{elapsed}<{remaining}, {rate_fmt}] {postfix}",
        )

    def show(self, state: tuple[int, str]) -> None:
        """Move to `done` of the measure, with `note` beside it. On a terminal the clock
        ticks even while nothing moves; in a log, a line is written only when something did."""
        done, note = state
        moved = done != self._bar.n or note != self._note
        self._note = note
        self._bar.set_postfix_str(note, refresh=False)
        self._bar.update(max(0, done - self._bar.n))
        if moved or self._tty:
            self._bar.refresh()

    def close(self) -> None:
        self._bar.close()
