"""Files and folders on disk as document submissions, for `trellis ingest`.

A folder is walked once, cheaply (names and sizes); files are read only when their batch is
submitted, so a large tree never sits in memory. Documentation trees hold more than the
supported extensions: gzip-compressed documents (`changelog.Debian.gz`, `NEWS.md.gz`) are
read through, and files without an extension (`README`, `copyright`) or with a plain-text
one (`.rst`, `.Debian`) are taken when their content is text. Everything else is skipped
with a reason, counted for the end summary.
"""

from __future__ import annotations

import base64
import gzip
import io
import json
import zlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from ingest import parsing
from ingest.failures import IngestFailure
from ingest.submission import DocumentSubmission, resolve_content_type

FILE_TYPES = (".txt", ".text", ".md", ".markdown", ".html", ".htm", ".pdf")
JSONL = ".jsonl"
GZIP = ".gz"
# Taken as plain text when their content is text: README, copyright, changelog.Debian, ...
PLAIN_SUFFIXES = ("", ".rst", ".log", ".debian", ".changes", ".news")

UNSUPPORTED = "unsupported type"
TOO_LARGE = "too large"
NOT_TEXT = "not text"
UNREADABLE = "unreadable"
HIDDEN = "hidden"


@dataclass(frozen=True)
class SourceFile:
    path: Path
    name: str  # its id: the path below the folder's parent, with '/' separators
    size: int  # bytes on disk (compressed, for .gz)


@dataclass
class Collected:
    files: list[SourceFile] = field(default_factory=list)
    lines: list[DocumentSubmission] = field(default_factory=list)  # from .jsonl files
    problems: list[tuple[str, str]] = field(default_factory=list)  # (where, why)
    skipped: Counter[str] = field(default_factory=Counter)  # reason -> files

    @property
    def count(self) -> int:
        return len(self.files) + len(self.lines)


class MissingPath(Exception):
    pass


class Skipped(Exception):
    """A file that is not a document Trellis can index; `reason` is one of the constants."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def collect(paths: list[Path]) -> Collected:
    """Every candidate file under `paths`; .jsonl files give one document per line."""
    found = Collected()
    for path in paths:
        if not path.exists():
            raise MissingPath(f"{path} does not exist")
        # Ids are relative to the folder's parent, so they do not depend on the cwd.
        base = path.parent if path.is_dir() else None
        for file in _files(path, found):
            name = file.relative_to(base) if base is not None else file
            _add_file(file, name.as_posix(), found)
    return found


def read(source: SourceFile, max_bytes: int) -> DocumentSubmission:
    """The file as a submission; raises Skipped when it is not one."""
    if source.size > max_bytes:
        raise Skipped(TOO_LARGE)
    try:
        raw = source.path.read_bytes()
        if source.name.lower().endswith(GZIP):
            return _gunzipped(source, raw, max_bytes)
    except OSError:
        raise Skipped(UNREADABLE) from None
    return _submission(source.name, source.name, raw, _content_type(source.name))


def _files(path: Path, found: Collected) -> Iterator[Path]:
    if path.is_file():
        yield path
        return
    for file in sorted(path.rglob("*")):
        if not file.is_file():
            continue
        if file.name.startswith("."):
            found.skipped[HIDDEN] += 1
        else:
            yield file


def _add_file(file: Path, name: str, found: Collected) -> None:
    if file.suffix.lower() == JSONL:
        _add_jsonl(file, found)
    elif _candidate(name):
        found.files.append(SourceFile(file, name, _size(file)))
    else:
        found.skipped[UNSUPPORTED] += 1


def _candidate(name: str) -> bool:
    inner = name[: -len(GZIP)] if name.lower().endswith(GZIP) else name
    suffix = PurePosixPath(inner).suffix.lower()
    return suffix in FILE_TYPES or suffix in PLAIN_SUFFIXES


def _size(file: Path) -> int:
    try:
        return file.stat().st_size
    except OSError:
        return 0


def _content_type(name: str) -> str | None:
    """The type its extension names; None for a file to be taken as plain text if it is."""
    if PurePosixPath(name).suffix.lower() in FILE_TYPES:
        return resolve_content_type(None, name)
    return None


def _gunzipped(source: SourceFile, raw: bytes, max_bytes: int) -> DocumentSubmission:
    """At most max_bytes are inflated, so a small archive cannot expand without bound."""
    inner = source.name[: -len(GZIP)]
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as stream:
            data = stream.read(max_bytes + 1)
    except (OSError, EOFError, zlib.error):
        raise Skipped(NOT_TEXT) from None
    if len(data) > max_bytes:
        raise Skipped(TOO_LARGE)
    return _submission(source.name, inner, data, _content_type(inner))


def _submission(
    external_id: str, path: str, raw: bytes, content_type: str | None
) -> DocumentSubmission:
    if content_type != parsing.PDF:
        try:
            parsing.decode_text(raw)
        except IngestFailure:
            raise Skipped(NOT_TEXT) from None
    return DocumentSubmission(
        external_id=external_id,
        path=path,
        content_type=content_type or parsing.PLAIN,
        data=base64.b64encode(raw).decode(),
    )


def _add_jsonl(file: Path, found: Collected) -> None:
    with file.open(encoding="utf-8", errors="replace") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            where = f"{file}:{number}"
            try:
                item = json.loads(line)
                if not isinstance(item, dict) or "id" not in item:
                    raise ValueError("each line needs a JSON object with an id")
            except ValueError as error:
                found.problems.append((where, f"BAD_USER_INPUT: {error}"))
                continue
            found.lines.append(
                DocumentSubmission(
                    external_id=str(item["id"]),
                    title=item.get("title"),
                    text=item.get("text"),
                    content_type="text/plain",
                    metadata=item.get("metadata"),
                )
            )
