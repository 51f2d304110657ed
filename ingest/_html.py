"""Visible text of an HTML page, with its headings, built with the standard library."""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCK = frozenset(
    "address article aside blockquote br dd div dl dt fieldset figcaption figure footer form "
    "h1 h2 h3 h4 h5 h6 header hr li main nav ol p pre section table tbody td tfoot th thead "
    "tr ul".split()
)
_SKIP = frozenset("script style noscript template head svg".split())
_HEADING = re.compile(r"^h([1-6])$")
_SPACE = re.compile(r"\s+")


class _Extractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.length = 0
        self.headings: list[tuple[int, int, str]] = []
        self.title: str | None = None
        self._skip_depth = 0
        self._in_title = False
        self._heading: tuple[int, int, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "title":
            self._in_title = True
        if tag in _SKIP:
            self._skip_depth += 1
        elif tag in _BLOCK:
            self._newline()
        match = _HEADING.match(tag)
        if match and self._skip_depth == 0:
            self._heading = (self.length, int(match.group(1)), [])

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        if tag in _SKIP:
            self._skip_depth = max(0, self._skip_depth - 1)
        elif tag in _BLOCK:
            self._newline()
        if _HEADING.match(tag) and self._heading is not None:
            start, level, words = self._heading
            title = " ".join(" ".join(words).split())
            if title:
                self.headings.append((start, level, title))
            self._heading = None

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title = " ".join(data.split()) or self.title
            return
        if self._skip_depth:
            return
        text = _SPACE.sub(" ", data)
        if not text.strip() and (not self.parts or self.parts[-1].endswith((" ", "\n"))):
            return
        if self.parts and self.parts[-1].endswith("\n"):
            text = text.lstrip()
        if self._heading is not None:
            self._heading[2].append(text)
        self._emit(text)

    def _newline(self) -> None:
        if not self.parts:
            return
        if self.parts[-1].endswith(" "):
            trimmed = self.parts[-1].rstrip(" ")
            self.length -= len(self.parts[-1]) - len(trimmed)
            self.parts[-1] = trimmed
        if not self.parts[-1].endswith("\n\n"):
            self._emit("\n")

    def _emit(self, text: str) -> None:
        if text:
            self.parts.append(text)
            self.length += len(text)


def html_to_text(html: str) -> tuple[str, list[tuple[int, int, str]], str | None]:
    extractor = _Extractor()
    extractor.feed(html)
    extractor.close()
    return "".join(extractor.parts), extractor.headings, extractor.title
