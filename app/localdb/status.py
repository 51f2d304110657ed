"""The state of one local database, as `trellis services status` prints it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ServiceStatus:
    name: str
    running: bool
    detail: str

    def line(self) -> str:
        return f"{self.name:<8} {'up' if self.running else 'down':<5} {self.detail}"
