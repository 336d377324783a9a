"""The static figure policy: which code it refuses, with what message, and what it lets pass."""

from __future__ import annotations

import pytest

from labscribe.guards.figure_policy import check_figure_code

ALLOWED = "allowed: numpy, pandas, matplotlib, math, statistics, csv, json"

VALID_FIGURE = """\
import math
import matplotlib.pyplot as plt
import numpy as np
from matplotlib import ticker

x = np.linspace(0, 2 * math.pi, 200)
fig, ax = plt.subplots(figsize=(4, 3), dpi=100)
ax.plot(x, np.sin(x), label="sin")
ax.set_xlabel("t / s")
ax.set_ylabel("U / V")
ax.xaxis.set_major_locator(ticker.MaxNLocator(5))
ax.legend()
if __name__ == "__main__":
    fig.savefig("sine.png")
"""

# (code, one exact problem the policy must report for it)
ESCAPES: list[tuple[str, str]] = [
    ("import os", f"line 1: import of 'os' is not allowed; {ALLOWED}"),
    ("import subprocess as sp", f"line 1: import of 'subprocess' is not allowed; {ALLOWED}"),
    ("from matplotlib import os", f"line 1: import of 'matplotlib.os' is not allowed; {ALLOWED}"),
    (
        "from numpy import ctypeslib",
        f"line 1: import of 'numpy.ctypeslib' is not allowed; {ALLOWED}",
    ),
    ("import ctypes", f"line 1: import of 'ctypes' is not allowed; {ALLOWED}"),
    ("from . import x", f"line 1: relative import is not allowed; {ALLOWED}"),
    ("from math import *", "line 1: 'from math import *' is not allowed; import names explicitly"),
    ("__import__('os')", "line 1: '__import__' is not allowed"),
    ("x = 1\nf = eval\nf('1')", "line 2: 'eval' is not allowed"),
    ("print(open('/etc/passwd').read())", "line 1: 'open' is not allowed"),
    ("getattr(1, 'real')", "line 1: 'getattr' is not allowed"),
    (
        "().__class__.__bases__[0].__subclasses__()",
        "line 1: access to '__subclasses__' is not allowed (dunder attributes are refused)",
    ),
    (
        "print(__builtins__)",
        "line 1: the name '__builtins__' is not allowed (dunder names are refused)",
    ),
    (
        "x = 1\nprint('{0.__class__}'.format(x))",
        "line 2: format string reaches attribute '__class__'; format plain values only",
    ),
    (
        "t = '{0.gi_frame.f_globals}'\nt.format(1)",
        "line 1: format string reaches attribute 'gi_frame'; format plain values only",
    ),
    (
        "g = (i for i in [1])\nprint(g.gi_frame.f_globals)",
        "line 2: access to 'gi_frame' is not allowed (introspection is refused)",
    ),
    (
        "def f():\n    yield 1\nf().gi_frame.f_back.f_locals",
        "line 3: access to 'f_locals' is not allowed (introspection is refused)",
    ),
    (
        "import matplotlib\nmatplotlib.os.system('id')",
        "line 2: access to '.os' is not allowed (it reaches the 'os' module)",
    ),
    (
        "import numpy as np\nnp.sys.modules",
        "line 2: access to '.sys' is not allowed (it reaches the 'sys' module)",
    ),
    (
        "import pandas as pd\npd.io.common.os.system('id')",
        "line 2: access to '.io' is not allowed (it reaches the 'io' module)",
    ),
    (
        "import matplotlib.pyplot as plt\nplt.savefig('/tmp/../etc/x')",
        "line 2: savefig() path '/tmp/../etc/x' is not a plain file name; use a name such as"
        " 'figure.png' (no folders, no '..', not absolute)",
    ),
    (
        "import matplotlib.pyplot as plt\nplt.savefig('../up.png')",
        "line 2: savefig() path '../up.png' is not a plain file name; use a name such as"
        " 'figure.png' (no folders, no '..', not absolute)",
    ),
    (
        "import matplotlib.pyplot as plt\nname = 'x.png'\nplt.savefig(name)",
        "line 3: savefig() needs a plain file name string such as 'figure.png', not a computed"
        " path",
    ),
    (
        "import matplotlib.pyplot as plt\nplt.imsave(fname='sub/x.png', arr=[[1]])",
        "line 2: imsave() path 'sub/x.png' is not a plain file name; use a name such as"
        " 'figure.png' (no folders, no '..', not absolute)",
    ),
    (
        "import numpy as np\nnp.loadtxt('/etc/passwd')",
        "line 2: loadtxt() path '/etc/passwd' is outside the sandbox; read data files by"
        " relative path under 'data/'",
    ),
    (
        "import matplotlib.pyplot as plt\nplt._api",
        "line 2: access to private attribute '_api' is not allowed",
    ),
    (
        "class A:\n    def __del__(self):\n        pass",
        "line 2: defining '__del__' is not allowed (dunder names are refused)",
    ),
    ("breakpoint()", "line 1: 'breakpoint' is not allowed"),
]


@pytest.mark.parametrize(("code", "problem"), ESCAPES, ids=[c for c, _ in ESCAPES])
def test_check_figure_code_refuses_escape(code: str, problem: str) -> None:
    assert problem in check_figure_code(code)


def test_check_figure_code_allows_valid_figure() -> None:
    assert check_figure_code(VALID_FIGURE) == []


def test_check_figure_code_allows_plain_format_strings() -> None:
    assert check_figure_code("x = 2\nlabel = '{0:.2f} V, {name}'.format(x, name='a')") == []


def test_check_figure_code_allows_relative_data_paths() -> None:
    assert check_figure_code("import numpy as np\nd = np.loadtxt('data/run1.csv')") == []


def test_check_figure_code_reports_syntax_error_without_raising() -> None:
    assert check_figure_code("x = (\n") == [
        "line 1: syntax error: '(' was never closed; send valid Python 3 code"
    ]


def test_check_figure_code_reports_nul_bytes_without_raising() -> None:
    assert check_figure_code("x = 1\x00") == [
        "syntax error: source code string cannot contain null bytes; send valid Python 3 code"
    ]


def test_check_figure_code_reports_each_problem_once_in_line_order() -> None:
    problems = check_figure_code("import os\nimport os\nimport sys")
    assert problems == [
        f"line 1: import of 'os' is not allowed; {ALLOWED}",
        f"line 2: import of 'os' is not allowed; {ALLOWED}",
        f"line 3: import of 'sys' is not allowed; {ALLOWED}",
    ]


def test_check_figure_code_allows_listed_submodule() -> None:
    assert check_figure_code("import matplotlib.pyplot as plt\nimport numpy.linalg") == []


def test_check_figure_code_refuses_unlisted_submodule() -> None:
    assert check_figure_code("import numpy.f2py") == [
        f"line 1: import of 'numpy.f2py' is not allowed; {ALLOWED}"
    ]
