"""The answer as HTML: escaped text, markers as links to their sources, the language's
direction on the paragraph, and inside right-to-left text, numbers, dates, codes and
Latin-script runs isolated in <bdi> so they keep their own order."""

from __future__ import annotations

import html
import re

from app.answers.verification import MARKER

# A run of digits, Latin letters and the punctuation inside codes and dates (INC-2041,
# 2026-03-03, 09:14, v1.2), possibly several words of Latin script.
_LTR_RUN = re.compile(
    r"[0-9A-Za-z\u00c0-\u024f][0-9A-Za-z\u00c0-\u024f.,:/%-]*"
    r"(?:\s+[0-9A-Za-z\u00c0-\u024f][0-9A-Za-z\u00c0-\u024f.,:/%-]*)*"
)


def render(text: str, language: str, direction: str, numbers: dict[str, int]) -> str:
    """`numbers` maps a ref to the number its link shows; refs not in it lose their marker."""
    pieces, start = [], 0
    for marker in MARKER.finditer(text):
        pieces.append(_text(text[start : marker.start()], direction))
        pieces.append(_link(marker.group(1), numbers))
        start = marker.end()
    pieces.append(_text(text[start:], direction))
    body = "".join(pieces)
    return f'<p dir="{direction.lower()}" lang="{html.escape(language)}">{body}</p>'


def _text(plain: str, direction: str) -> str:
    if direction != "RTL":
        return html.escape(plain)
    out, start = [], 0
    for run in _LTR_RUN.finditer(plain):
        out.append(html.escape(plain[start : run.start()]))
        out.append(f"<bdi>{html.escape(run.group().rstrip('.,:'))}</bdi>")
        out.append(html.escape(run.group()[len(run.group().rstrip(".,:")) :]))
        start = run.end()
    out.append(html.escape(plain[start:]))
    return "".join(out)


def _link(ref: str, numbers: dict[str, int]) -> str:
    if ref not in numbers:
        return ""
    return f'<a class="source" href="#{ref}" data-ref="{ref}">[{numbers[ref]}]</a>'
