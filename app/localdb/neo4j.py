"""Local Neo4j Community 5.26, embedded in a small Java launcher, listening on 127.0.0.1.

The jars come from Maven Central through services/neo4j/pom.xml into .cache/neo4j/lib.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from app.errors import LocalServiceError
from app.localdb import _process
from app.localdb.bolt import bolt_answers, port_is_free
from app.localdb.status import ServiceStatus
from app.settings import PROJECT_ROOT

HOST = "127.0.0.1"
_LAUNCHER_CLASS = "trellis.neo4j.Launcher"
_POM = PROJECT_ROOT / "services" / "neo4j" / "pom.xml"
_CACHE = PROJECT_ROOT / ".cache" / "neo4j"
_MARKER = "TRELLIS_NEO4J"
_READY = b"TRELLIS-NEO4J-READY"
_START_TIMEOUT_SECONDS = 180.0
_STOP_GRACE_SECONDS = 60.0
_PORT_TAKEN = (
    "port {port} on 127.0.0.1 is already in use; stop what holds it or set NEO4J_BOLT_PORT"
)


@dataclass(frozen=True)
class LocalNeo4j:
    home: Path
    port: int
    lib_dir: Path = _CACHE / "lib"

    @property
    def uri(self) -> str:
        return f"bolt://{HOST}:{self.port}"

    @property
    def pid_file(self) -> Path:
        return self.home / "launcher.pid"

    @property
    def log_file(self) -> Path:
        return self.home / "logs" / "launcher.log"

    def running_pid(self) -> int | None:
        return _process.read_pid(self.pid_file, _LAUNCHER_CLASS)

    def status(self) -> ServiceStatus:
        pid = self.running_pid()
        if pid is None:
            return ServiceStatus("neo4j", False, f"stopped (data in {self.home})")
        answering = bolt_answers(HOST, self.port)
        detail = f"pid {pid}, {self.uri}" + ("" if answering else ", Bolt not answering yet")
        return ServiceStatus("neo4j", answering, detail)

    def start(self) -> None:
        """Start and wait until Bolt answers. A no-op when it already runs."""
        pid = self.running_pid()
        if pid is not None:
            self._wait_until(pid, lambda: bolt_answers(HOST, self.port))
            return
        ensure_folder_is_ours(self.home)
        if not port_is_free(HOST, self.port):
            raise LocalServiceError(_PORT_TAKEN.format(port=self.port))
        resolve_jars(self.lib_dir)
        self.log_file.parent.mkdir(parents=True, exist_ok=True)
        log_start = self.log_file.stat().st_size if self.log_file.exists() else 0
        self._wait_until(self._spawn(), lambda: self._reported_ready(log_start))

    def stop(self) -> bool:
        """Stop cleanly with SIGTERM. Returns False when it was not running."""
        pid = self.running_pid()
        if pid is None:
            return False
        clean = _process.terminate(pid, _STOP_GRACE_SECONDS)
        self.pid_file.unlink(missing_ok=True)
        if not clean:
            raise LocalServiceError(f"Neo4j (pid {pid}) did not stop in time and was killed")
        return True

    def _spawn(self) -> int:
        with self.log_file.open("ab") as log:
            process = subprocess.Popen(
                self._command(),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        self.pid_file.write_text(str(process.pid))
        return process.pid

    def _command(self) -> list[str]:
        return [
            _java(),
            "-Xms256m",
            "-Xmx1g",
            "-XX:+UseG1GC",
            "-cp",
            f"{self.lib_dir}/*",
            _LAUNCHER_CLASS,
            str(self.home),
            str(self.port),
            "128",
        ]

    def _reported_ready(self, log_start: int) -> bool:
        """The launcher prints its READY line once the default database is online."""
        with self.log_file.open("rb") as log:
            log.seek(log_start)
            return _READY in log.read() and bolt_answers(HOST, self.port)

    def _wait_until(self, pid: int, ready: Callable[[], bool]) -> None:
        deadline = time.monotonic() + _START_TIMEOUT_SECONDS
        while time.monotonic() < deadline:
            if ready():
                return
            if _process.wait_for_exit(pid, 0.5):
                raise LocalServiceError(self._failure_message())
        raise LocalServiceError(
            f"Neo4j did not answer on {self.uri} within "
            f"{_START_TIMEOUT_SECONDS:.0f}s; see {self.log_file}"
        )

    def _failure_message(self) -> str:
        self.pid_file.unlink(missing_ok=True)
        for line in reversed(_process.tail(self.log_file, 40).splitlines()):
            if line.startswith("TRELLIS-NEO4J-ERROR "):
                return line.removeprefix("TRELLIS-NEO4J-ERROR ")
        return f"Neo4j exited during start; see {self.log_file}"


def ensure_folder_is_ours(home: Path) -> None:
    """Refuse a non-empty folder that Trellis did not create, and leave it untouched."""
    if home.exists() and any(home.iterdir()) and not (home / _MARKER).exists():
        raise LocalServiceError(
            f"{home} holds files Trellis did not create; refusing to use it. "
            "Move it away or set TRELLIS_DATA_DIR to another folder"
        )
    home.mkdir(parents=True, exist_ok=True)
    (home / _MARKER).write_text("Neo4j data folder managed by Trellis\n")


def resolve_jars(lib_dir: Path = _CACHE / "lib") -> None:
    """Fetch Neo4j's jars from Maven Central and build the launcher, once."""
    if (lib_dir / "trellis-neo4j-launcher.jar").exists():
        return
    mvn = shutil.which("mvn")
    if mvn is None:
        raise LocalServiceError(
            "Maven (mvn) is not on PATH; install Java 17+ and Maven, "
            "or set NEO4J_URI to an existing Neo4j"
        )
    command = [mvn, "-q", "-B", "-f", str(_POM), "package", f"-Dtrellis.cache={lib_dir.parent}"]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        last = (result.stdout + result.stderr).strip().splitlines()[-1:] or ["no output"]
        raise LocalServiceError(f"resolving Neo4j with Maven failed: {last[0]}")


def _java() -> str:
    java = shutil.which("java")
    if java is None:
        raise LocalServiceError("java is not on PATH; install Java 17+ or set NEO4J_URI")
    return java
