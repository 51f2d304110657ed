"""Check one submitted document before it is queued: cheap checks, a clear code each.

Parsing (and PDF failures) happens later in the worker; what fails here never reaches it.
"""

from __future__ import annotations

import base64
import binascii
import posixpath
from dataclasses import dataclass
from typing import Any

from ingest import parsing
from ingest.failures import IngestFailure

_EXTENSIONS = {
    ".txt": parsing.PLAIN,
    ".text": parsing.PLAIN,
    ".md": parsing.MARKDOWN,
    ".markdown": parsing.MARKDOWN,
    ".html": parsing.HTML,
    ".htm": parsing.HTML,
    ".pdf": parsing.PDF,
}
_ALIASES = {"text/x-markdown": parsing.MARKDOWN, "application/xhtml+xml": parsing.HTML}
MAX_EXTERNAL_ID = 1000


@dataclass(frozen=True)
class DocumentSubmission:
    external_id: str | None = None
    path: str | None = None
    title: str | None = None
    content_type: str | None = None
    text: str | None = None
    data: str | None = None
    metadata: Any = None
    access_scopes: list[str] | None = None  # None: the submitting key's content scopes


@dataclass(frozen=True)
class AcceptedDocument:
    external_id: str
    title: str | None
    content_type: str
    metadata: dict[str, Any]
    raw: bytes


def identity(submission: DocumentSubmission) -> str:
    value = (submission.external_id or submission.path or "").strip()
    if not value:
        raise IngestFailure("BAD_USER_INPUT", "each document needs an externalId or a path")
    if len(value) > MAX_EXTERNAL_ID:
        raise IngestFailure("BAD_USER_INPUT", f"externalId/path is longer than {MAX_EXTERNAL_ID}")
    return value


def accept(submission: DocumentSubmission, max_bytes: int) -> AcceptedDocument:
    """Validate and decode; raises IngestFailure with the document's code."""
    external_id = identity(submission)
    content_type = resolve_content_type(submission.content_type, submission.path)
    metadata = submission.metadata if submission.metadata is not None else {}
    if not isinstance(metadata, dict):
        raise IngestFailure("BAD_USER_INPUT", "metadata must be a JSON object")
    raw = _raw_bytes(submission, content_type)
    if len(raw) > max_bytes:
        raise IngestFailure(
            "DOCUMENT_TOO_LARGE", f"the document is {len(raw)} bytes; the limit is {max_bytes}"
        )
    if content_type in parsing.TEXT_TYPES and not parsing.decode_text(raw).strip():
        raise IngestFailure("EMPTY_DOCUMENT", "the document has no text")
    title = submission.title.strip() if submission.title else None
    return AcceptedDocument(external_id, title, content_type, metadata, raw)


def resolve_content_type(declared: str | None, path: str | None) -> str:
    if declared:
        base = declared.split(";")[0].strip().lower()
        content_type = _ALIASES.get(base, base)
    elif path:
        content_type = _EXTENSIONS.get(posixpath.splitext(path.lower())[1], "")
    else:
        content_type = parsing.PLAIN
    if content_type not in parsing.SUPPORTED:
        shown = declared or path or ""
        raise IngestFailure(
            "UNSUPPORTED_CONTENT_TYPE",
            f"{shown!r} is not supported; use one of {', '.join(parsing.SUPPORTED)}",
        )
    return content_type


def _raw_bytes(submission: DocumentSubmission, content_type: str) -> bytes:
    if (submission.text is None) == (submission.data is None):
        raise IngestFailure("BAD_USER_INPUT", "send exactly one of text or data")
    if submission.text is not None:
        if content_type == parsing.PDF:
            raise IngestFailure("INVALID_ENCODING", "PDF content must be sent as base64 data")
        parsing.check_not_binary(submission.text)
        try:
            return submission.text.encode("utf-8")
        except UnicodeEncodeError:
            raise IngestFailure("INVALID_ENCODING", "the text holds unpaired surrogates") from None
    try:
        return base64.b64decode(submission.data or "", validate=True)
    except (binascii.Error, ValueError):
        raise IngestFailure("INVALID_ENCODING", "data is not valid base64") from None
