"""Claims and quotes checked against passages, and the three policies."""

from __future__ import annotations

import re
import uuid

from hypothesis import given
from hypothesis import strategies as st

from app.answers.request import ClaimPolicy
from app.answers.results import Claim, ClaimStatus, Quote, QuoteSpan
from app.answers.verification import (
    apply_policy,
    check_claim,
    complete_end,
    quote_matches,
    quoted_runs,
    repaired,
    split_claims,
    verify_claim,
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


def test_a_question_asserts_nothing_but_a_quoted_one_is_a_quote() -> None:
    echo = claim("Question: who was the incident commander? [[SRC:0001]]")
    assert check_claim(echo, PASSAGES, 0.5) == "asks a question rather than stating anything"
    assert repaired(claim("Who was the incident commander?"), PASSAGES, 0.5) is None
    passage = {"SRC:0001": "Who approves leave? The line manager approves leave."}
    quoted = claim("The handbook asks “Who approves leave?” [[SRC:0001]].")
    assert check_claim(quoted, passage, 0.5) is None


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


OTHERS = {
    "SRC:0001": "Severity: SEV-3. Date: 19 April 2026. Incident commander: Jonas Weber.",
    "SRC:0002": PASSAGE,
    "SRC:0003": "The severity of the database failover was SEV-2.",
}


def test_an_uncited_claim_is_cited_to_the_source_that_supports_it() -> None:
    fixed, reason = verify_claim(claim("Priya Natarajan was incident commander."), OTHERS, 0.5)
    assert reason is None and fixed.repaired
    assert fixed.refs == ("SRC:0002",) and fixed.text.endswith("commander. [[SRC:0002]]")


def test_a_claim_citing_the_wrong_source_is_cited_to_the_right_one() -> None:
    wrong = claim("Priya Natarajan was incident commander [[SRC:0001]].")
    fixed, reason = verify_claim(wrong, OTHERS, 0.5)
    assert reason is None and fixed.refs == ("SRC:0002",) and fixed.repaired
    unknown = claim("Priya Natarajan was incident commander [[SRC:0042]].")
    assert verify_claim(unknown, OTHERS, 0.5)[0].refs == ("SRC:0002",)


def test_a_claim_no_source_supports_keeps_its_reason() -> None:
    invented = claim("Priya Natarajan was incident commander for 9 minutes.")
    assert verify_claim(invented, OTHERS, 0.5) == (invented, "cites no source")
    assert repaired(invented, OTHERS, 0.5) is None


def test_a_supported_claim_is_not_touched() -> None:
    cited = claim("Priya Natarajan was incident commander [[SRC:0002]].")
    assert verify_claim(cited, OTHERS, 0.5) == (cited, None)


def test_repair_takes_the_source_with_most_of_the_claim() -> None:
    both = {"SRC:0001": "SEV-2 was declared.", "SRC:0002": "The failover was declared SEV-2."}
    fixed = repaired(claim("The failover was declared SEV-2."), both, 0.5)
    assert fixed is not None and fixed.refs == ("SRC:0002",)


WORDS = st.sampled_from(
    ["Priya", "Natarajan", "commander", "the", "failover", "2026", "SEV-2", "Kiel", "born",
     "412", "requests", "Jonas", "“failed", "writes”", "was", "in", "7", "Weber", "“the"]
)  # fmt: skip
TEXTS = st.lists(WORDS, min_size=1, max_size=12).map(" ".join)


@given(body=TEXTS, passages=st.lists(TEXTS, min_size=1, max_size=4))
def test_repair_never_cites_a_source_lacking_the_claims_numbers_names_or_quotes(
    body: str, passages: list[str]
) -> None:
    sources = {f"SRC:{i + 1:04d}": text for i, text in enumerate(passages)}
    fixed = repaired(claim(f"A {body}."), sources, 0.5)
    if fixed is None:
        return
    [ref] = fixed.refs
    held = " ".join(sources[ref].split())
    stated = re.findall(r"\d+(?:[.,:]\d+)*", body) + re.findall(r"(?<=\s)[A-Z][\w'’-]+", body)
    for piece in stated + quoted_runs(body):
        assert " ".join(piece.split()) in held, (piece, held)
