"""The explore tools, registered in one explicit list."""

from labscribe.guards.detectors import ToolClass
from labscribe.tools.base import ToolError
from labscribe.tools.explorer.figures import MAKE_FIGURE
from labscribe.tools.explorer.files import LIST_DIR, READ_FILE
from labscribe.tools.explorer.finish import FINISH_EXPLORATION, Findings
from labscribe.tools.explorer.fitting import DERIVE, FIT
from labscribe.tools.explorer.images import READ_IMAGE
from labscribe.tools.tool import Folder, Outcome, Tool

EXPLORE_TOOLS: tuple[Tool, ...] = (
    LIST_DIR, READ_FILE, READ_IMAGE, FIT, DERIVE, MAKE_FIGURE, FINISH_EXPLORATION
)  # fmt: skip
TOOLS_BY_NAME: dict[str, Tool] = {tool.name: tool for tool in EXPLORE_TOOLS}
DECLARED_CLASSES: dict[str, ToolClass] = {tool.name: tool.tool_class for tool in EXPLORE_TOOLS}
"""Each tool's class on the loop ladder, as the tool declares it."""

__all__ = [
    "DECLARED_CLASSES",
    "EXPLORE_TOOLS",
    "TOOLS_BY_NAME",
    "Findings",
    "Folder",
    "Outcome",
    "Tool",
    "ToolError",
]
