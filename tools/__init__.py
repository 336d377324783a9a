"""The explore tools, registered in one explicit list."""

from labscribe.tools.base import Folder, Outcome, Tool, ToolError
from labscribe.tools.figures import MAKE_FIGURE
from labscribe.tools.files import LIST_DIR, READ_FILE
from labscribe.tools.finish import FINISH_EXPLORATION, Findings
from labscribe.tools.images import READ_IMAGE

EXPLORE_TOOLS: tuple[Tool, ...] = (LIST_DIR, READ_FILE, READ_IMAGE, MAKE_FIGURE, FINISH_EXPLORATION)

__all__ = ["EXPLORE_TOOLS", "Findings", "Folder", "Outcome", "Tool", "ToolError"]
