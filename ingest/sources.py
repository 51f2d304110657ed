"""Files and folders on disk as document submissions, for `trellis ingest`."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ingest.submission import DocumentSubmission

FILE_TYPES = (".txt", ".md", ".markdown", ".html", ".htm", ".pdf")
JSONL = ".jsonl"


@dataclass
class Collected:
    submissions: list[DocumentSubmission] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)  # (where, why)
    skipped: int = 0


class MissingPath(Exception):
    pass


def collect(paths: list[Path]) -> Collected:
    """Every supported file under `paths`; .jsonl files give one document per line."""
    found = Collected()
    for path in paths:
        if not path.exists():
            raise MissingPath(f"{path} does not exist")
        # Ids are relative to the folder's parent, so they do not depend on the cwd.
        base = path.parent if path.is_dir() else None
        for file in _files(path, found):
            _add_file(file, found, file.relative_to(base) if base is not None else file)
    return found


def _files(path: Path, found: Collected) -> Iterator[Path]:
    if path.is_file():
        yield path
        return
    for file in sorted(path.rglob("*")):
        if not file.is_file() or any(part.startswith(".") for part in file.parts[-1:]):
            continue
        if file.suffix.lower() in (*FILE_TYPES, JSONL):
            yield file
        else:
            found.skipped += 1


def _add_file(file: Path, found: Collected, name: Path) -> None:
    if file.suffix.lower() == JSONL:
        _add_jsonl(file, found)
        return
    data = base64.b64encode(file.read_bytes()).decode()
    found.submissions.append(DocumentSubmission(path=name.as_posix(), data=data))


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
            found.submissions.append(
                DocumentSubmission(
                    external_id=str(item["id"]),
                    title=item.get("title"),
                    text=item.get("text"),
                    content_type="text/plain",
                    metadata=item.get("metadata"),
                )
            )
