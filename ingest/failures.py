"""Why one document could not be ingested. The batch goes on; the job reports it."""

from __future__ import annotations


class IngestFailure(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
