"""The static figure policy: which code it refuses, with what message, and what it lets pass."""

from __future__ import annotations

import pytest

from labscribe.guards.figure_policy import check_figure_code

ALLOWED = "allowed: numpy, pandas, matplotlib, math, statistics, csv, json"
PICKLE = "pickle runs code from the file it loads; read CSV, JSON or .npy files"
EVAL = (
    "it evaluates a string as code and reaches dunders through it; filter with boolean masks "
    "such as df[df['x'] > 0]"
)
BACKEND = "it chooses a backend, which imports a module by name; figures render with Agg already"
TEX = (
    "TeX and Ghostscript run as processes, which the sandbox cannot start; use mathtext such "
    "as '$\\alpha$'"
)

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
    # Entry points of the allowed libraries that run code handed to them.
    (
        "import pandas as pd\npd.read_pickle('p.pkl')",
        f"line 2: '.read_pickle' is not allowed: {PICKLE}",
    ),
    ("from pandas import read_pickle", f"line 1: 'pandas.read_pickle' is not allowed: {PICKLE}"),
    (
        "import pandas as pd\npd.compat.pickle_compat.loads(b'')",
        f"line 2: '.pickle_compat' is not allowed: {PICKLE}",
    ),
    (
        "import numpy as np\nnp.load('p.npy', allow_pickle=True)",
        f"line 2: allow_pickle must be False: {PICKLE}",
    ),
    (
        "import numpy as np\nnp.load('p.npy', None, True)",
        "line 2: load() takes the file as its only positional argument; pass the others by "
        "name (mmap_mode=...)",
    ),
    (
        "import numpy as np\nkw = {'allow_pickle': True}\nnp.load('p.npy', **kw)",
        "line 3: load() may not take **arguments; name each argument",
    ),
    (
        "import numpy as np\nload = np.load\nload('p.npy', None, True)",
        "line 2: 'load' may only be called directly, as in load(...)",
    ),
    (
        "import numpy as np\nlist(map(np.load, ['p.npy'], [None], [True]))",
        "line 2: 'load' may only be called directly, as in load(...)",
    ),
    (
        "import numpy as np\nnp.lib.format.read_array(f, True)",
        "line 2: read_array() takes the file as its only positional argument; pass the others "
        "by name (mmap_mode=...)",
    ),
    ("import pandas as pd\npd.eval('1 + 1')", f"line 2: '.eval' is not allowed: {EVAL}"),
    (
        "import pandas as pd\ndf = pd.DataFrame()\ndf.query('a > 1')",
        f"line 3: '.query' is not allowed: {EVAL}",
    ),
    (
        "import pandas as pd\ndf = pd.DataFrame()\ndf.agg('eval', expr='a')",
        f"line 3: the string 'eval' is not allowed: pandas calls the method it names, and {EVAL}",
    ),
    (
        "import pandas as pd\npd.DataFrame().agg('__class__')",
        "line 2: the string reaches '__class__' (dunder names are refused, in strings too: "
        "pandas evaluates some strings as expressions)",
    ),
    (
        "import pandas as pd\npd.read_hdf('data/x.h5')",
        "line 2: '.read_hdf' is not allowed: HDF5 through PyTables unpickles objects; read CSV "
        "or JSON files from data/ instead",
    ),
    (
        "import pandas as pd\npd.HDFStore('x.h5')",
        "line 2: '.HDFStore' is not allowed: HDF5 through PyTables unpickles objects; read CSV "
        "or JSON files from data/ instead",
    ),
    (
        "import pandas as pd\npd.read_sql('select 1', 'sqlite:///x.db')",
        "line 2: '.read_sql' is not allowed: it connects to a database; read CSV or JSON files "
        "from data/ instead",
    ),
    (
        "import pandas as pd\npd.read_clipboard()",
        "line 2: '.read_clipboard' is not allowed: it runs clipboard programs; read CSV or JSON "
        "files from data/ instead",
    ),
    (
        "import pandas as pd\npd.read_parquet('data/x.parquet')",
        "line 2: '.read_parquet' is not allowed: it hands the file to optional engines (pyarrow,"
        " fastparquet, pyiceberg) that can unpickle data or connect out; read CSV or JSON files"
        " from data/ instead",
    ),
    (
        "import pandas as pd\npd.DataFrame().style.env.from_string('{{ x }}')",
        "line 2: '.env' is not allowed: pandas Styler templates are Jinja2 code; format the "
        "values in Python",
    ),
    (
        "import numpy as np\nnp.testing.rundocs('x.py')",
        "line 2: '.testing' is not allowed: it runs test suites, which import and run other files",
    ),
    (
        "import pandas as pd\npd.test(extra_args=['.'])",
        "line 2: '.test' is not allowed: it runs test suites, which import and run other files",
    ),
    (
        "import numpy as np\nnp.core.multiarray",
        "line 2: '.core' is not allowed: it reaches the library's internals; use its public "
        "functions",
    ),
    (
        "import matplotlib\nmatplotlib.backends.backend_registry.load_backend_module('os')",
        f"line 2: '.backend_registry' is not allowed: {BACKEND}",
    ),
    (
        "import matplotlib\nmatplotlib.use('module://os')",
        f"line 2: the string 'module://os' is not allowed: {BACKEND}",
    ),
    (
        "import matplotlib.pyplot as plt\nname = 'agg'\nplt.switch_backend(name)",
        "line 3: switch_backend() needs a literal style or backend name such as 'ggplot'",
    ),
    (
        "import matplotlib.pyplot as plt\nplt.rcParams['backend'] = 'agg'",
        f"line 2: the setting 'backend' is not allowed: {BACKEND}",
    ),
    (
        "import pandas as pd\npd.options.plotting.backend = 'os'",
        f"line 2: '.backend' is not allowed: {BACKEND}",
    ),
    (
        "import pandas as pd\nkey = 'display.precision'\npd.set_option(key, 3)",
        "line 3: set_option() needs literal option names such as 'display.precision'",
    ),
    (
        "import pandas as pd\npd.DataFrame().plot(backend='os')",
        f"line 2: the argument 'backend=' is not allowed: {BACKEND}",
    ),
    (
        "import matplotlib\nmatplotlib.rc_file('x.rc')",
        "line 2: '.rc_file' is not allowed: an rc file can name a backend module or programs "
        "to start; set plt.rcParams keys in the code",
    ),
    (
        "import matplotlib.pyplot as plt\nplt.rcParams['text.usetex'] = True",
        f"line 2: the setting 'text.usetex' is not allowed: {TEX}",
    ),
    (
        "import matplotlib\nmatplotlib.animation.FuncAnimation",
        "line 2: '.animation' is not allowed: animations are written by ffmpeg or ImageMagick "
        "processes, which the sandbox cannot start; draw one still figure",
    ),
    # Module aliases found by walking the attributes the allowed libraries expose.
    (
        "import matplotlib\nmatplotlib.backend_tools.enum.bltns",
        "line 2: access to '.bltns' is not allowed (it reaches the 'bltns' module)",
    ),
    (
        "import matplotlib\nmatplotlib.cbook.gzip.open('x')",
        "line 2: access to '.open' is not allowed",
    ),
    (
        "import matplotlib\nmatplotlib.cbook.operator.attrgetter('real')",
        "line 2: access to '.operator' is not allowed (it reaches the 'operator' module)",
    ),
    (
        "import matplotlib\nmatplotlib.cbook.types.CodeType",
        "line 2: '.CodeType' is not allowed: it builds functions from bytecode; define "
        "functions with def",
    ),
    (
        "import matplotlib\nmatplotlib.cbook.traceback.walk_stack(None)",
        "line 2: access to '.traceback' is not allowed (it reaches the 'traceback' module)",
    ),
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


def test_check_figure_code_allows_the_safe_forms_of_refused_entry_points() -> None:
    code = (
        "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
        "import numpy as np\nimport pandas as pd\n"
        "plt.style.use('ggplot')\nplt.style.use(['ggplot', 'dark_background'])\n"
        "a = np.load('data/a.npy')\nb = np.load('data/b.npz', allow_pickle=False)\n"
        "c = np.load('data/a.npy', mmap_mode='r')\n"
        "pd.set_option('display.max_rows', 10)\n"
        "with pd.option_context('display.precision', 3):\n    pass\n"
        "df = pd.read_csv('data/run1.csv')\ndf = df[df['u'] > 0]\nm = df.agg('mean')\n"
        "w = np.lib.stride_tricks.sliding_window_view(np.arange(10), 3)\n"
        "t = pd.api.types.is_numeric_dtype(df['u'])\n"
        "plt.plot(df['t'], df['u'], label='_nolegend_')\nplt.title('$\\\\alpha$ against t')\n"
    )
    assert check_figure_code(code) == []
