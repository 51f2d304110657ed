"""Process helpers shared by the local database launchers."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path


def read_pid(pid_file: Path, marker: str) -> int | None:
    """The pid in `pid_file` if that process is alive and its command line holds `marker`."""
    try:
        pid = int(pid_file.read_text().strip())
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except (OSError, ValueError):
        return None
    return pid if marker.encode() in cmdline else None


def is_alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


def terminate(pid: int, grace_seconds: float) -> bool:
    """SIGTERM, wait, then SIGKILL. True when the process ended within the grace period."""
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return True
    if wait_for_exit(pid, grace_seconds):
        return True
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return True
    wait_for_exit(pid, 5.0)
    return False


def wait_for_exit(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        _reap(pid)
        if not is_alive(pid):
            return True
        time.sleep(0.1)
    return not is_alive(pid)


def tail(path: Path, lines: int = 5) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


def _reap(pid: int) -> None:
    """Collect our own child so it does not linger as a zombie."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)
