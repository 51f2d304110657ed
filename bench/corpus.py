"""A real folder, end to end: `trellis ingest` on /usr/share/doc (or a folder you name).

Reports files, megabytes, documents and chunks per second to INDEXED and to GRAPHED; in the
same run, the local embedder alone over the same dense windows, and the ratio (the goal:
GRAPHED within 1.5x the embedder alone); and the largest document's own times.

All of /usr/share/doc is about 200 MB of text here, some six hours of embedding on two
cores, so by default the run takes an even sample of its files, about `--sample-mb` on disk
(every k-th file in path order, so every part of the tree is represented); `--sample-mb 0`
takes the whole folder.

Run with `make bench` or `.venv/bin/python -m bench.corpus [FOLDER] [--sample-mb N]`.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

import psycopg
import psycopg.errors

from app.cli.ingest import IngestRequest, run_ingest
from app.localdb.stack import Stack, local_stack, stack_services
from app.models.minilm import MiniLM
from bench._timing import seconds
from ingest.sources import collect

DEFAULT_FOLDER = Path("/usr/share/doc")


async def ingest(stack: Stack, folder: Path, collection: str) -> tuple[float, float, int]:
    """Seconds to INDEXED and to GRAPHED, with the graph projected alongside indexing as
    `trellis ingest` does; and how many documents failed."""
    started = time.perf_counter()
    watch = asyncio.create_task(_indexed_after(stack, collection, started))
    failures = await run_ingest(stack.settings, IngestRequest([folder], collection, create=True))
    return await watch, time.perf_counter() - started, len(failures)


async def _indexed_after(stack: Stack, collection: str, started: float) -> float:
    """Seconds from `started` until the collection has items and none is pending."""
    query = (
        "SELECT count(*), count(*) FILTER (WHERE i.status = 'PENDING') FROM ingest_items i"
        " JOIN ingest_jobs j ON j.id = i.job_id JOIN collections c ON c.id = j.collection_id"
        " WHERE c.name = %s"
    )
    url = stack.endpoints.postgres_url
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        while True:
            if await _all_indexed(conn, query, collection):
                return time.perf_counter() - started
            await asyncio.sleep(0.5)


async def _all_indexed(conn: psycopg.AsyncConnection[Any], query: str, collection: str) -> bool:
    try:
        cursor = await conn.execute(query, (collection,))
    except psycopg.errors.UndefinedTable:
        return False  # the run has not migrated the fresh database yet
    found = await cursor.fetchone()
    return bool(found and found[0] and not found[1])


async def figures(stack: Stack, collection: str) -> dict[str, float]:
    async with stack_services(stack) as services, services.pool.connection() as conn:
        cursor = await conn.execute(
            "SELECT count(DISTINCT d.id), count(*) FILTER (WHERE c.kind = 'main'),"
            " sum(length(c.content)) FILTER (WHERE c.kind = 'main'),"
            " count(DISTINCT d.id) FILTER (WHERE d.status = 'GRAPHED')"
            " FROM documents d JOIN collections k ON k.id = d.collection_id"
            " JOIN chunks c ON c.document_id = d.id WHERE k.name = %s",
            (collection,),
        )
        documents, chunks, chars, graphed = await cursor.fetchone()  # type: ignore[misc]
        cursor = await conn.execute(
            "SELECT c.content FROM chunks c JOIN collections k ON k.id = c.collection_id"
            " WHERE k.name = %s AND c.kind = 'small'",
            (collection,),
        )
        windows = [row[0] for row in await cursor.fetchall()]
    model = MiniLM()
    return {
        "documents": documents,
        "chunks": chunks,
        "text_mb": (chars or 0) / 1e6,
        "graphed": graphed,
        "windows": len(windows),
        "embed_s": seconds(lambda: model.embed(windows)) if windows else 0.0,
    }


def sample(folder: Path, megabytes: float, scratch: Path) -> Path:
    """A folder of links to every k-th candidate file, about `megabytes` on disk in all."""
    files = collect([folder]).files
    total = sum(f.size for f in files)
    if megabytes <= 0 or total <= megabytes * 1e6:
        return folder
    stride = max(1, round(total / (megabytes * 1e6)))
    target = scratch / "sample" / folder.name
    for source in files[::stride]:
        link = target / Path(source.name).relative_to(folder.name)
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(source.path.resolve())
    return target


def largest(folder: Path, scratch: Path) -> Path:
    """A folder holding only the largest candidate file (by size on disk)."""
    biggest = max(collect([folder]).files, key=lambda f: f.size)
    target = scratch / "largest"
    target.mkdir()
    shutil.copy(biggest.path, target / Path(biggest.name).name)
    return target


def report(folder: Path, times: tuple[float, float, int], found: dict[str, float]) -> None:
    indexed, graphed, failed = times
    files = collect([folder])
    megabytes = sum(f.size for f in files.files) / 1e6
    print(f"folder {folder}: {files.count} candidate files, {megabytes:.1f} MB on disk")
    print(f"skipped while walking: {dict(files.skipped)}; failed: {failed}")
    print(
        f"documents {found['documents']:.0f}, main chunks {found['chunks']:.0f},"
        f" text {found['text_mb']:.1f} MB, dense windows {found['windows']:.0f},"
        f" graphed {found['graphed']:.0f}"
    )
    for label, elapsed in (("INDEXED", indexed), ("GRAPHED", graphed)):
        print(
            f"to {label}: {elapsed:.1f} s; {files.count / elapsed:.2f} files/s,"
            f" {megabytes / elapsed:.3f} MB/s, {found['documents'] / elapsed:.2f} documents/s,"
            f" {found['chunks'] / elapsed:.1f} chunks/s"
        )
    embed = found["embed_s"]
    print(f"embedder alone over the same windows: {embed:.1f} s")
    if embed:
        print(
            f"ratio to INDEXED {indexed / embed:.2f}x, to GRAPHED {graphed / embed:.2f}x"
            " (goal: GRAPHED within 1.5x)"
        )


async def main(whole: Path, megabytes: float) -> None:
    scratch = Path(tempfile.mkdtemp(prefix="bench-corpus-"))
    try:
        folder = sample(whole, megabytes, scratch)
        with local_stack() as stack:
            times = await ingest(stack, folder, "docs")
            report(folder, times, await figures(stack, "docs"))
            alone = largest(folder, scratch)
            indexed, graphed, _ = await ingest(stack, alone, "largest")
            print(
                f"largest document ({next(alone.iterdir()).name}): INDEXED in {indexed:.1f} s,"
                f" GRAPHED in {graphed:.1f} s"
            )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_FOLDER)
    parser.add_argument("--sample-mb", type=float, default=5.0)
    arguments = parser.parse_args()
    if not arguments.folder.is_dir():
        parser.exit(2, f"bench.corpus: error: {arguments.folder} is not a folder\n")
    asyncio.run(main(arguments.folder.resolve(), arguments.sample_mb))
