"""Where the reader's probability draws its lines. The probability is the reader's own
estimate that a passage holds exactly this answer (app/answers/extractive/reader.py);
bench/RESULTS.md reports how well it is calibrated on the development sets.

A wrong short answer costs a user more than an honest empty one. The short floor was
chosen on the development sets (bench/RESULTS.md): at 0.4 the spans answered right at the
margin outnumber the wrong ones (59% right between 0.4 and 0.5 on SQuAD), and the share of
questions given a wrong short answer falls to less than half the replaced composer's (SQuAD
15.0% against 41.1%, HotpotQA 24% against its held-out 50%). Below it the answer is the
quotes alone, and below the quote floor there is nothing worth quoting.
"""

from __future__ import annotations

QUOTE_FLOOR = 0.02  # below: no passage answers; the engine abstains
SHORT_FLOOR = 0.4  # below: quotes without a short answer (TRELLIS_ANSWER_SHORT_FLOOR)
SETTLED = 0.8  # at or above, with no rival: the answer is settled
RIVAL_SHARE = 0.5  # a different answer this close to the best is the other side
