"""Checking an answer against its passages, for every composer.

- A quote matches the canonical text of its span after NFC and whitespace normalisation
  only; one that does not is never shown as a quote.
- A claim (a sentence, with the markers after it) must cite a source and state something (a
  question asserts nothing). It is supported when the numbers and names it states, and any
  words it quotes, occur in the passages it cites, and enough of its content terms do
  (TRELLIS_ANSWER_SUPPORT_OVERLAP).
- A claim that cites no source, or sources that do not support it (small models drop and
  garble markers), is repaired when one source alone passes the same test: it is cited to
  the source holding the most of its content terms, and flagged. Repair never cites a
  source that lacks the claim's numbers, names or quoted words.
- The collection's policy then removes an unsupported claim, caveats it, or turns the whole
  answer into an abstention.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace

from app.answers import labels
from app.answers.request import ClaimPolicy
from app.answers.results import Claim, ClaimStatus, Quote
from ingest._stopwords import ENGLISH as STOPWORDS
from ingest.analyzer import analyze

MARKER = re.compile(r"\[\[(SRC:\d{4})\]\]")
_MARKS = r"(?:\s*\[\[SRC:\d{4}\]\])"
_CLAIM_END = re.compile(
    rf"(?:[.!?。！？]+['\"”’」)]*{_MARKS}*|{_MARKS}+[.!?。！？]*)(?=\s+(?!\[\[)|$)"
)
_QUOTED = re.compile(r"“([^”]+)”|\"([^\"]+)\"|「([^」]+)」")
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")
_NAME = re.compile(r"(?<=\s)[A-Z][\w'’-]+")


def normalise(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def quote_matches(quote: Quote, canonical: str) -> bool:
    return normalise(quote.text) == normalise(canonical)


def split_claims(text: str) -> list[Claim]:
    """Sentences of a composed text, each with the refs of the markers at its end."""
    claims, start = [], 0
    for end in _CLAIM_END.finditer(text):
        claims.append(text[start : end.end()])
        start = end.end()
    claims.append(text[start:])
    return [
        Claim(piece.strip(), tuple(dict.fromkeys(MARKER.findall(piece))))
        for piece in claims
        if piece.strip()
    ]


def complete_end(buffer: str) -> int:
    """Where the last claim that is surely complete ends in streamed text: a claim end
    followed by the start of more text (0 when there is none yet)."""
    ends = [m.end() for m in _CLAIM_END.finditer(buffer) if m.end() < len(buffer.rstrip())]
    return ends[-1] if ends else 0


def check_claim(claim: Claim, passages: dict[str, str], threshold: float) -> str | None:
    """Why the claim is unsupported by the passages it cites, or None when it is supported."""
    if not claim.refs:
        return "cites no source"
    unknown = [r for r in claim.refs if r not in passages]
    if unknown:
        return f"cites {unknown[0]}, which is not a source of this answer"
    cited = normalise(" ".join(passages[r] for r in claim.refs))
    body = normalise(MARKER.sub("", claim.text))
    if _asks(body):
        return "asks a question rather than stating anything"
    return _quote_problem(body, cited) or _fact_problem(body, cited, threshold)


def _asks(body: str) -> bool:
    """A sentence that ends in a question mark, outside any quotation, asserts nothing:
    a model restating the question would otherwise pass on the passage's words."""
    return _QUOTED.sub("", body).rstrip().endswith(("?", "？", "؟"))


def verify_claim(
    claim: Claim, passages: dict[str, str], threshold: float
) -> tuple[Claim, str | None]:
    """The claim, repaired where its markers fail it and a source supports it, and why it
    is still unsupported (None when it is supported)."""
    reason = check_claim(claim, passages, threshold)
    fixed = None if reason is None else repaired(claim, passages, threshold)
    return (fixed, None) if fixed else (claim, reason)


def repaired(claim: Claim, passages: dict[str, str], threshold: float) -> Claim | None:
    """The claim cited to the one source that best supports it alone; None when none does."""
    supporting = [r for r in passages if _supports(r, claim, passages, threshold)]
    if not supporting:
        return None
    body = normalise(MARKER.sub("", claim.text))
    terms = set(analyze(body))
    best = max(supporting, key=lambda ref: len(terms & set(analyze(passages[ref]))))
    return replace(claim, text=f"{body} [[{best}]]", refs=(best,), repaired=True)


def _supports(ref: str, claim: Claim, passages: dict[str, str], threshold: float) -> bool:
    return check_claim(replace(claim, refs=(ref,)), passages, threshold) is None


def quoted_runs(text: str) -> list[str]:
    """The runs of a text inside quotation marks (“…”, "…" or 「…」)."""
    return [next(g for g in m.groups() if g is not None) for m in _QUOTED.finditer(text)]


def _quote_problem(body: str, cited: str) -> str | None:
    for run in quoted_runs(body):
        quoted = normalise(run)
        if quoted and quoted not in cited:
            return "quotes words no cited passage holds"
    return None


def _fact_problem(body: str, cited: str, threshold: float) -> str | None:
    missing = [n for n in _NUMBER.findall(body) if n not in cited]
    missing += [n for n in _names(body) if n not in cited]
    if missing:
        return f"states {missing[0]!r}, which no cited passage holds"
    terms = set(analyze(body))
    if terms and len(terms & set(analyze(cited))) / len(terms) < threshold:
        return "too little of it occurs in the passages it cites"
    return None


def _names(body: str) -> list[str]:
    """Capitalised words past the first that are no stopwords: the names a claim states."""
    return [n for n in _NAME.findall(body) if n.casefold() not in STOPWORDS]


def apply_policy(claim: Claim, reason: str | None, policy: ClaimPolicy, language: str) -> Claim:
    """The claim as the policy shows it: supported, caveated (marked in the answer's
    language, before its markers), or removed."""
    if reason is None:
        return replace(claim, status=ClaimStatus.SUPPORTED, reason=None)
    if policy is ClaimPolicy.CAVEAT:
        return replace(
            claim, text=_caveated(claim.text, language), status=ClaimStatus.CAVEATED, reason=reason
        )
    return replace(claim, status=ClaimStatus.REMOVED, reason=reason)


def _caveated(text: str, language: str) -> str:
    markers = "".join(f" [[{r}]]" for r in MARKER.findall(text))
    body = re.sub(r"\s+([.!?。！？])", r"\1", MARKER.sub("", text)).rstrip()
    return f"{body} {labels.label(language, 'caveat')}{markers}"
