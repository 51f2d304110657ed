"""Stop databases that a killed test run left running, and delete their folders.

`.ci/run` calls this on exit, so CI never leaves a Neo4j or PostgreSQL behind.
"""

from __future__ import annotations

import shutil

from app.localdb._process import read_pid, terminate
from app.localdb.postgres import LocalPostgres
from app.localdb.stack import STACKS_ROOT


def main() -> None:
    if not STACKS_ROOT.exists():
        return
    for stack in STACKS_ROOT.iterdir():
        pid = read_pid(stack / "neo4j" / "launcher.pid", "trellis.neo4j.Launcher")
        if pid is not None:
            terminate(pid, 60)
        if (stack / "pg").exists():
            LocalPostgres(stack / "pg").stop()
        shutil.rmtree(stack, ignore_errors=True)
        print(f"cleaned up {stack}")


if __name__ == "__main__":
    main()
