"""Where the reader's probability draws its lines. The probability is the reader's own
estimate that a passage holds exactly this answer (app/answers/extractive/reader.py);
bench/RESULTS.md reports how well it is calibrated on the development sets.

A wrong short answer costs a user more than an honest empty one, so a short answer needs
the reader to think it more likely right than wrong; below that the answer is the quotes
alone, and below the floor there is nothing worth quoting.
"""

from __future__ import annotations

QUOTE_FLOOR = 0.02  # below: no passage answers; the engine abstains
SHORT_FLOOR = 0.5  # below: quotes without a short answer (TRELLIS_ANSWER_SHORT_FLOOR)
SETTLED = 0.8  # at or above, with no rival: the answer is settled
RIVAL_SHARE = 0.5  # a different answer this close to the best is the other side
