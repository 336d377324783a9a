"""guards/ is pure policy: importing all of it loads no LangGraph or LangChain module."""

import subprocess
import sys
from pathlib import Path

GUARDS = Path(__file__).resolve().parents[2] / "guards"


def test_guards_import_no_langgraph_or_langchain() -> None:
    modules = sorted(p.stem for p in GUARDS.glob("*.py") if p.stem != "__init__")
    code = (
        "import sys\n"
        + "".join(f"import labscribe.guards.{m}\n" for m in modules)
        + "print(sorted(n for n in sys.modules if n.startswith(('langgraph', 'langchain'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert len(modules) >= 10
    assert out.stdout.strip() == "[]"
