"""Claims and quotes checked against passages, and the three policies."""

from __future__ import annotations

import uuid

from app.answers.request import ClaimPolicy
from app.answers.results import Claim, ClaimStatus, Quote, QuoteSpan
from app.answers.verification import (
    apply_policy,
    check_claim,
    complete_end,
    quote_matches,
    split_claims,
)

PASSAGE = "Incident commander: Priya Natarajan.\nWrites failed for 2 minutes;  412 requests failed."
PASSAGES = {"SRC:0001": PASSAGE}


def claim(text: str) -> Claim:
    return split_claims(text)[0]


def test_claims_split_after_their_markers() -> None:
    claims = split_claims("A holds [[SRC:0001]]. B holds [[SRC:0002]] [[SRC:0001]]. C dangles")
    assert [c.refs for c in claims] == [("SRC:0001",), ("SRC:0002", "SRC:0001"), ()]


def test_a_supported_claim() -> None:
    assert (
        check_claim(claim("Priya Natarajan was incident commander [[SRC:0001]]."), PASSAGES, 0.5)
        is None
    )


def test_unsupported_claims_say_why() -> None:
    assert check_claim(claim("Priya led it."), PASSAGES, 0.5) == "cites no source"
    assert "not a source" in (check_claim(claim("X [[SRC:0009]]."), PASSAGES, 0.5) or "")
    invented = claim('She said "we test on Fridays" [[SRC:0001]].')
    assert "quotes words" in (check_claim(invented, PASSAGES, 0.5) or "")
    number = claim("Writes failed for 9 minutes [[SRC:0001]].")
    assert "'9'" in (check_claim(number, PASSAGES, 0.5) or "")
    name = claim("Jonas Weber was incident commander [[SRC:0001]].")
    assert "Weber" in (check_claim(name, PASSAGES, 0.5) or "")
    vague = claim("Penguins migrate across oceans every winter [[SRC:0001]].")
    assert "too little" in (check_claim(vague, PASSAGES, 0.5) or "")


def test_quotes_match_after_nfc_and_whitespace_only() -> None:
    span = QuoteSpan(uuid.uuid4(), "CHARS", 0, 10)
    assert quote_matches(Quote("SRC:0001", "failed for 2\nminutes", span), "failed  for 2 minutes")
    assert not quote_matches(
        Quote("SRC:0001", "Failed for 2 minutes", span), "failed for 2 minutes"
    )
    assert quote_matches(Quote("SRC:0001", "cafe\u0301", span), "caf\u00e9")


def test_policies() -> None:
    bad = claim("Writes failed for 9 minutes [[SRC:0001]].")
    assert apply_policy(bad, "why", ClaimPolicy.REMOVE, "en").status is ClaimStatus.REMOVED
    caveated = apply_policy(bad, "why", ClaimPolicy.CAVEAT, "he")
    assert caveated.status is ClaimStatus.CAVEATED
    assert caveated.text == "Writes failed for 9 minutes. (לא אומת מול המקורות) [[SRC:0001]]"
    assert apply_policy(bad, None, ClaimPolicy.CAVEAT, "en").status is ClaimStatus.SUPPORTED


def test_streamed_text_is_complete_only_before_more_text() -> None:
    assert complete_end("One [[SRC:0001]].") == 0
    assert complete_end("One [[SRC:0001]]. Tw") == len("One [[SRC:0001]].")
    assert complete_end("One. [[SRC:0001]") == 0
