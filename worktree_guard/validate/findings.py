"""One finding: a Violation (SPEC §6) plus where it was recorded and what became of the call."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from ..model import Violation
from .calls import Outcome

Status = Literal["violation", "blocked", "warning", "info"]


class Finding(Violation):
    """A violation found by replaying a recorded call. `--format json` prints one per line."""

    status: Status = Field(
        description="violation: an error the call got away with (it ran, or nothing says it did not); "
        "blocked: an error in a call that was refused at the time; warning/info: the violation's own severity"
    )
    file: str = Field(description="the transcript or log file")
    line: int = Field(description="1-based line of the record holding the call")
    session_id: str | None = None
    agent_id: str | None = Field(default=None, description="None for the session's main agent")
    agent_type: str | None = None
    tool_use_id: str | None = None
    cwd: str = Field(description="the agent's cwd at the call, as recorded")
    outcome: Outcome = Field(description="what the recorded result says: executed, refused, or no result")
    outcome_detail: str | None = Field(default=None, description="first line of the refusal")
    isolated: bool = Field(description="the agent was isolated; False: reported only because of --mode audit")
    layout_source: str = Field(description="the evidence W and S were reconstructed from")
    shared_roots: list[str] = Field(default_factory=list)


def status_of(violation: Violation, outcome: Outcome) -> Status:
    """Errors are violations unless the call was refused; warnings and infos keep their severity."""
    if violation.severity != "error":
        return violation.severity
    return "blocked" if outcome == "refused" else "violation"
