"""`trellis ingest`: files, folders and .jsonl; failures listed; a killed run resumes cleanly."""

from __future__ import annotations

import gzip
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from app.localdb.stack import Stack
from tests.helpers import rows
from tests.pdf import make_pdf

pytestmark = pytest.mark.integration


def trellis_ingest(
    stack: Stack, *args: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    command = [str(Path(sys.executable).parent / "trellis"), "ingest", *args]
    return subprocess.run(
        command,
        env={**os.environ, **stack.env(), **(env or {})},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_folder_with_every_format(stack: Stack, tmp_path: Path, base_url: str) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.md").write_text("# Leave\n\nStaff get 25 days.\n")
    (tmp_path / "sub" / "b.txt").write_text("Incident 42: the database failed over.\n")
    (tmp_path / "sub" / "c.html").write_text("<h1>Travel</h1><p>Book economy.</p>")
    (tmp_path / "d.pdf").write_bytes(make_pdf([["Page one text."], ["Page two text."]]))
    (tmp_path / "e.jsonl").write_text(
        json.dumps({"id": "j1", "title": "J", "text": "Line one.", "metadata": {"team": "ops"}})
        + "\n"
    )
    (tmp_path / "ignored.docx").write_text("skip me")
    name = f"cli-{uuid.uuid4().hex[:6]}"
    result = trellis_ingest(
        stack, str(tmp_path), "--collection", name, "--create", "--tenant", "cli-test"
    )
    assert result.returncode == 0, result.stderr
    assert "skipped 1 file(s): unsupported type 1" in result.stderr
    assert "processed 5 document(s)" in result.stderr
    found = rows(
        stack,
        "SELECT external_id, content_type, status FROM documents d JOIN"
        " collections c ON c.id = d.collection_id WHERE c.name = %s ORDER BY 1",
        name,
    )
    assert sorted((Path(e).name, t, s) for e, t, s in found) == [
        ("a.md", "text/markdown", "GRAPHED"),
        ("b.txt", "text/plain", "GRAPHED"),
        ("c.html", "text/html", "GRAPHED"),
        ("d.pdf", "application/pdf", "GRAPHED"),
        ("j1", "text/plain", "GRAPHED"),
    ]
    pages = rows(stack, "SELECT pages FROM documents WHERE external_id LIKE %s", "%d.pdf")
    assert [p[0] for p in pages[0][0]] == [1, 2]


def test_a_documentation_tree_reads_gzip_and_skips_what_is_not_text(
    stack: Stack, tmp_path: Path, base_url: str
) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "NEWS.md.gz").write_bytes(gzip.compress(b"# News\n\nVersion 2 is out."))
    (tmp_path / "pkg" / "changelog.Debian.gz").write_bytes(
        gzip.compress(b"pkg (1.0-1) unstable; urgency=low\n\n  * Initial release.\n")
    )
    (tmp_path / "pkg" / "README").write_text("Run the tool with --help to begin.\n")
    (tmp_path / "pkg" / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    (tmp_path / "pkg" / "data.tar.gz").write_bytes(gzip.compress(bytes(512)))
    (tmp_path / "pkg" / "strange.txt").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "pkg" / "broken.gz").write_bytes(b"not gzip at all")
    (tmp_path / "pkg" / "huge.txt").write_text("Words and more words. " * 400)
    name = f"cli-{uuid.uuid4().hex[:6]}"
    limit = {"TRELLIS_MAX_DOCUMENT_BYTES": "4000"}
    result = trellis_ingest(stack, str(tmp_path), "--collection", name, "--create", env=limit)
    assert result.returncode == 0, result.stderr
    assert "skipped 5 file(s): not text 2, unsupported type 2, too large 1" in result.stderr
    assert "indexed 3, unchanged 0, failed 0, graphed 3, graph failed 0" in result.stderr
    found = rows(
        stack,
        "SELECT external_id, content_type, status FROM documents d JOIN"
        " collections c ON c.id = d.collection_id WHERE c.name = %s ORDER BY 1",
        name,
    )
    assert [(e.split("/", 1)[1], t, s) for e, t, s in found] == [
        ("pkg/NEWS.md.gz", "text/markdown", "GRAPHED"),
        ("pkg/README", "text/plain", "GRAPHED"),
        ("pkg/changelog.Debian.gz", "text/plain", "GRAPHED"),
    ]


def test_failures_are_listed_and_exit_non_zero(stack: Stack, tmp_path: Path, base_url: str) -> None:
    (tmp_path / "good.txt").write_text("Fine.")
    (tmp_path / "empty.txt").write_text("   ")
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4 nonsense")
    (tmp_path / "lines.jsonl").write_text('{"id": "x", "text": "ok"}\n{oops\n')
    name = f"cli-{uuid.uuid4().hex[:6]}"
    result = trellis_ingest(stack, str(tmp_path), "--collection", name, "--create")
    assert result.returncode == 1
    failed = [line for line in result.stderr.splitlines() if line.startswith("failed: ")]
    assert len(failed) == 3
    assert any("empty.txt: EMPTY_DOCUMENT" in line for line in failed)
    assert any("broken.pdf: PARSE_FAILED" in line for line in failed)
    assert any("lines.jsonl:2: BAD_USER_INPUT" in line for line in failed)
    assert result.stderr.strip().endswith("trellis: error: 3 document(s) failed")


def test_bad_arguments_are_one_line(stack: Stack, tmp_path: Path, base_url: str) -> None:
    missing = trellis_ingest(stack, str(tmp_path / "nope"), "--collection", "x")
    assert missing.returncode == 2
    assert missing.stderr.strip() == f"trellis: error: {tmp_path / 'nope'} does not exist"
    (tmp_path / "a.txt").write_text("text")
    unknown = trellis_ingest(stack, str(tmp_path), "--collection", "no-such-collection")
    assert unknown.returncode == 2
    assert unknown.stderr.strip().endswith("no collection named 'no-such-collection'")


def test_access_scopes_from_the_command_line(stack: Stack, tmp_path: Path, base_url: str) -> None:
    (tmp_path / "memo.txt").write_text("A memo for the Acme team.")
    name = f"cli-{uuid.uuid4().hex[:6]}"
    scoped = trellis_ingest(
        stack, str(tmp_path), "--collection", name, "--create", "--access-scope", "org:acme"
    )
    assert scoped.returncode == 0, scoped.stderr
    found = rows(
        stack,
        "SELECT d.access_scopes FROM documents d JOIN collections c ON c.id = d.collection_id"
        " WHERE c.name = %s",
        name,
    )
    assert found == [(["org:acme"],)]
    bad = trellis_ingest(stack, str(tmp_path), "--collection", name, "--access-scope", "a b")
    assert bad.returncode == 2
    assert bad.stderr.startswith("trellis: error: content scope 'a b'")
    assert bad.stderr.count("\n") == 1


DOCUMENTS = 800


def test_killed_ingest_resumes_without_duplicates(
    stack: Stack, tmp_path: Path, base_url: str
) -> None:
    # Enough batches that the server's own worker, which shares the queue, cannot finish
    # them all in the moment between the first commit and the kill.
    for i in range(DOCUMENTS):
        (tmp_path / f"doc{i:03}.txt").write_text(f"Document {i}. " + "Some words here. " * 40)
    name = f"crash-{uuid.uuid4().hex[:6]}"
    command = [
        str(Path(sys.executable).parent / "trellis"),
        "ingest",
        str(tmp_path),
        "--collection",
        name,
        "--create",
    ]
    process = subprocess.Popen(
        command,
        env={**os.environ, **stack.env()},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _wait_for_some_indexed(stack, name, process)
    process.send_signal(signal.SIGKILL)
    process.wait(30)
    pending = rows(
        stack,
        "SELECT count(*) FROM ingest_items i JOIN ingest_jobs j ON j.id ="
        " i.job_id JOIN collections c ON c.id = j.collection_id WHERE c.name = %s"
        " AND i.status = 'PENDING'",
        name,
    )[0][0]
    assert pending > 0, "the kill came too late to test anything"
    result = trellis_ingest(stack, str(tmp_path), "--collection", name)
    assert result.returncode == 0, result.stderr
    _wait_for_jobs_to_finish(stack, name)
    documents = rows(
        stack,
        "SELECT count(*), count(DISTINCT external_id), sum(chunk_count)"
        " FROM documents d JOIN collections c ON c.id = d.collection_id"
        " WHERE c.name = %s",
        name,
    )[0]
    assert documents[0] == documents[1] == DOCUMENTS
    per_doc = rows(
        stack,
        "SELECT d.external_id, count(*) FILTER (WHERE kind = 'main'),"
        " d.chunk_count FROM chunks ch JOIN documents d ON d.id = ch.document_id"
        " JOIN collections c ON c.id = d.collection_id WHERE c.name = %s"
        " GROUP BY d.id",
        name,
    )
    assert all(mains == expected for _, mains, expected in per_doc)
    stats = rows(
        stack,
        "SELECT s.chunk_count, s.term_total, (SELECT count(*) FROM chunks ch"
        " WHERE ch.collection_id = c.id AND kind = 'main'), (SELECT sum(term_count)"
        " FROM chunks ch WHERE ch.collection_id = c.id AND kind = 'main')"
        " FROM collection_stats s JOIN collections c ON c.id = s.collection_id"
        " WHERE c.name = %s",
        name,
    )[0]
    assert stats[0] == stats[2] and stats[1] == stats[3]
    duplicates = rows(
        stack,
        "SELECT count(*) FROM (SELECT document_id, kind, ordinal FROM chunks"
        " GROUP BY 1, 2, 3 HAVING count(*) > 1) d",
    )
    assert duplicates == [(0,)]


def _wait_for_jobs_to_finish(stack: Stack, name: str) -> None:
    """The killed job's leftover items are resumed by any worker: this CLI or the server's."""
    deadline = time.monotonic() + 120
    query = (
        "SELECT count(*) FROM ingest_jobs j JOIN collections c ON c.id = j.collection_id"
        " WHERE c.name = %s AND finished_at IS NULL"
    )
    while rows(stack, query, name) != [(0,)]:
        assert time.monotonic() < deadline, "the killed job was never resumed"
        time.sleep(0.2)


def _wait_for_some_indexed(stack: Stack, name: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        assert process.poll() is None, "ingest finished before it could be killed"
        done = rows(
            stack,
            "SELECT count(*) FROM documents d JOIN collections c ON"
            " c.id = d.collection_id WHERE c.name = %s",
            name,
        )[0][0]
        if done >= 1:
            return
        time.sleep(0.05)
    raise AssertionError("nothing was indexed in time")
