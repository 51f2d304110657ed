"""CPU time of the processes that serve a benchmark: the server (and its workers), Postgres,
Neo4j's JVM and the benchmark itself, read from /proc, so a load's cost per request can be
split between them. Postgres and Neo4j are found by process name: run alone."""

from __future__ import annotations

import os
import resource
from dataclasses import dataclass
from pathlib import Path

_TICK = os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class CpuSeconds:
    server: float
    postgres: float
    neo4j: float
    client: float

    def __sub__(self, other: CpuSeconds) -> CpuSeconds:
        return CpuSeconds(
            self.server - other.server,
            self.postgres - other.postgres,
            self.neo4j - other.neo4j,
            self.client - other.client,
        )

    def per(self, requests: int) -> str:
        """Milliseconds a request, by process."""
        ms = {k: v * 1000 / max(requests, 1) for k, v in vars(self).items()}
        return ", ".join(f"{k} {v:.1f}" for k, v in ms.items())


def cpu_now(server_pid: int) -> CpuSeconds:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return CpuSeconds(
        sum(_seconds(p) for p in [server_pid, *_children(server_pid)]),
        sum(_seconds(p) for p in _named("postgres")),
        sum(_seconds(p) for p in _named("java")),
        own.ru_utime + own.ru_stime,
    )


def _seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return 0.0  # it exited between the listing and the read
    return (int(fields[11]) + int(fields[12])) / _TICK  # utime, stime


def _named(name: str) -> list[int]:
    return [pid for pid in _pids() if _comm(pid) == name]


def _children(parent: int) -> list[int]:
    return [pid for pid in _pids() if _parent(pid) == parent]


def _pids() -> list[int]:
    return [int(entry) for entry in os.listdir("/proc") if entry.isdigit()]


def _comm(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except (FileNotFoundError, ProcessLookupError):
        return ""


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (FileNotFoundError, ProcessLookupError):
        return -1
