"""Research runs: a question answered over minutes, retrieving in rounds, as a row in
Postgres that any process's worker can carry on."""
