"""The question's language, and the direction its answer is laid out in.

Detection is py3langid (a maintained fork of langid.py): deterministic, and its model is a
few megabytes of numpy. Labels exist for English, Hebrew and Japanese; an answer in any other
language is written with the English labels but keeps the detected code and direction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import py3langid

from app.errors import ErrorCode, TrellisError

RTL = frozenset({"he", "ar", "fa", "ur", "yi", "ps"})
_CODE = re.compile(r"^[a-z]{2,3}$")


@dataclass(frozen=True)
class Language:
    code: str  # ISO 639-1 where one exists
    direction: str  # LTR or RTL

    @classmethod
    def of(cls, code: str) -> Language:
        return cls(code, "RTL" if code in RTL else "LTR")


def language_of(question: str, override: str | None) -> Language:
    """The override when given (checked), else the detected language of the question."""
    if override is not None:
        code = override.strip().lower().split("-")[0]
        if not _CODE.match(code):
            raise TrellisError(
                ErrorCode.BAD_USER_INPUT,
                "language must be a language code such as en or he",
                field="language",
            )
        return Language.of(code)
    return Language.of(_detect(question))


def _detect(text: str) -> str:
    code, _ = py3langid.classify(text)
    return str(code)
