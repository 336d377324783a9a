"""finish_exploration: the explicit end of exploration, with structured findings."""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator

from labscribe.guards.detectors import ToolClass
from labscribe.tools.messages import FINISHED_MESSAGE
from labscribe.tools.tool import Folder, Tool


class Findings(BaseModel):
    experiment: str = Field(description="What experiment the material comes from.")
    goal: str = Field(description="What the experiment set out to measure or show.")
    key_findings: list[str] = Field(
        description="The facts and numbers found in the files, each naming its source file."
    )
    requirements: str | None = Field(
        default=None, description="What the assignment asks the report to contain, if stated."
    )
    method: str | None = Field(default=None, description="How the measurement was done.")
    template_report: str | None = Field(
        default=None, description="Path of an example or template report in the folder, if any."
    )

    @field_validator("key_findings", mode="before")
    @classmethod
    def _one_finding_is_a_list(cls, value: object) -> object:
        return [value] if isinstance(value, str) else value


def finish_exploration(folder: Folder, findings: Findings) -> str:
    return FINISHED_MESSAGE


FINISH_EXPLORATION = Tool(
    name="finish_exploration",
    description=(
        "Call once you understand the material: what experiment it is, its goal and the key "
        "findings (with numbers). Ends exploration; the report is written from this."
    ),
    args_schema=Findings,
    run=finish_exploration,
    tool_class=ToolClass.TERMINAL,
)
