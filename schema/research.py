"""GraphQL types for research runs: the run, its steps, and the events of
`researchEvents`."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import strawberry

from app.research import runs
from schema.answers import Answer, AnswerBrief

ResearchStatus = strawberry.enum(
    runs.RunStatus,
    description="QUEUED until a worker takes it; FAILED past its budget or on an error (see"
    " reason), keeping its draft brief.",
)
ResearchStepKind = strawberry.enum(
    runs.StepKind,
    description="PLAN: the question's entities and relation words, and with an LLM model its"
    " verified sub-questions. ROUND: one retrieval round (the first also searches the"
    " sub-questions). COMPOSE: the answer from every passage read.",
)


@strawberry.type
class ResearchStep:
    number: int
    kind: ResearchStepKind  # type: ignore[valid-type]
    message: str
    passages_read: int = strawberry.field(description="By the run so far.")
    at: datetime

    @classmethod
    def of(cls, step: runs.ResearchStep) -> ResearchStep:
        return cls(
            number=step.number,
            kind=step.kind,
            message=step.message,
            passages_read=step.passages_read,
            at=step.at,
        )


@strawberry.type(
    description="A question answered in retrieval rounds over the collections, never the"
    " web: Trellis offers no web search."
)
class ResearchRun:
    id: strawberry.ID
    status: ResearchStatus  # type: ignore[valid-type]
    query: str
    reason: str | None = strawberry.field(description="Why a run FAILED or was CANCELLED.")
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    steps: list[ResearchStep]
    passages_read: int
    brief: AnswerBrief | None = strawberry.field(
        description="The answer's brief when DONE; before, the newest draft."
    )
    answer: Answer | None = strawberry.field(
        description="When DONE. Its sources are every passage read, in every round."
    )

    @classmethod
    def of(cls, run: runs.ResearchRun) -> ResearchRun:
        return cls(
            id=strawberry.ID(str(run.id)),
            status=run.status,
            query=run.query,
            reason=run.reason,
            created_at=run.created_at,
            started_at=run.started_at,
            finished_at=run.finished_at,
            steps=[ResearchStep.of(s) for s in run.steps],
            passages_read=run.passages_read,
            brief=None if run.brief is None else AnswerBrief.of(run.brief),
            answer=None if run.answer is None else Answer.of(run.answer),
        )


@strawberry.type(description="A step the run took, in order.")
class ResearchProgress:
    step: ResearchStep


@strawberry.type(description="The draft brief from everything read so far.")
class ResearchUpdated:
    after_step: int = strawberry.field(description="The number of the step it follows.")
    brief: AnswerBrief


@strawberry.type(description="Last: the run, ended; its answer when DONE.")
class ResearchDone:
    run: ResearchRun


ResearchEvent = Annotated[
    ResearchProgress | ResearchUpdated | ResearchDone, strawberry.union("ResearchEvent")
]


def research_event_of(
    event: runs.ResearchEvent,
) -> ResearchProgress | ResearchUpdated | ResearchDone:
    if isinstance(event, runs.ResearchProgress):
        return ResearchProgress(step=ResearchStep.of(event.step))
    if isinstance(event, runs.ResearchUpdated):
        return ResearchUpdated(after_step=event.step, brief=AnswerBrief.of(event.brief))
    return ResearchDone(run=ResearchRun.of(event.run))
