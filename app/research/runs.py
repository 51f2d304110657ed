"""What a research run is, as values: its status, the steps it took, and the events a
subscriber sees."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from uuid import UUID

from app.answers.results import Answer, Brief


class RunStatus(StrEnum):
    QUEUED = "QUEUED"
    RUNNING = "RUNNING"
    DONE = "DONE"
    FAILED = "FAILED"  # past its budget or an error: the reason says which; the brief stays
    CANCELLED = "CANCELLED"

    @property
    def ended(self) -> bool:
        return self not in (RunStatus.QUEUED, RunStatus.RUNNING)


class StepKind(StrEnum):
    PLAN = "PLAN"  # the question's entities and relation words
    ROUND = "ROUND"  # one retrieval round
    COMPOSE = "COMPOSE"  # the answer, from every passage read


@dataclass(frozen=True)
class ResearchStep:
    number: int
    kind: StepKind
    message: str
    passages_read: int  # by the run so far
    at: datetime
    brief: Brief | None  # the draft from what was read so far, after a round that read more


@dataclass(frozen=True)
class ResearchRun:
    id: UUID
    status: RunStatus
    query: str
    reason: str | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    steps: list[ResearchStep]
    answer: Answer | None

    @property
    def passages_read(self) -> int:
        return self.steps[-1].passages_read if self.steps else 0

    @property
    def brief(self) -> Brief | None:
        """The answer's brief when done; else the newest draft."""
        if self.answer is not None:
            return self.answer.brief
        drafts = [s.brief for s in self.steps if s.brief is not None]
        return drafts[-1] if drafts else None


@dataclass(frozen=True)
class ResearchProgress:
    step: ResearchStep


@dataclass(frozen=True)
class ResearchUpdated:
    step: int
    brief: Brief


@dataclass(frozen=True)
class ResearchEnded:
    run: ResearchRun


ResearchEvent = ResearchProgress | ResearchUpdated | ResearchEnded
