"""Every text the guards show a model, and every halt reason, in one place, so their wording
can be read and changed side by side: the loop guards' nudges, refusals and halts, the
repair of malformed calls, the budgets, the checks of a draft and the figure code policy.
A tool's own errors are in `tools/messages.py`, the stages' prompts and the explorer's
history in `nodes/prompts.py`.

Errors the model can fix come back to it as tool results built from these templates; the
nudges close a result or follow a reply. Halt reasons are for people (run.json, events)
and also end the refusal the model reads when a halt stops its call. The problems of a
rejected draft and of refused figure code are what the model is told to fix.
"""

# --- calls the guards stop ------------------------------------------------------------------

TOO_MANY_CALLS = (
    "at most {limit} tool calls run per reply; ask for this one again in your next reply"
)
NOT_EXECUTED = "Not executed: {why}."
CUT_OFF = "your reply was cut off"
HALTED = "exploration halted, {reason}"

# --- arguments that cannot enter the checkpoint: nodes.prompts.INVALID_ARGS_ERROR's problem

ARGUMENTS_NOT_AN_OBJECT = "the arguments are a JSON {kind}, not an object"
ARGUMENTS_TOO_DEEP = "the arguments are nested deeper than {depth} levels"
ARGUMENT_INTEGER_TOO_LARGE = "an argument is an integer too large (at most 2**63 - 1)"
ARGUMENT_STRING_TOO_LONG = "an argument is a string longer than {limit:,} characters"
ARGUMENTS_TOO_LARGE = "the arguments hold {chars:,} characters, more than the {limit:,} a call may"
CUT_TO_FIT = (
    "\n[labscribe: {what} cut to fit the model's window: its first {kept} of {total} characters]"
)
ARGUMENTS_KEPT = "… ({more:,} more characters, not kept)"

# --- how exploration ends ----------------------------------------------------------------

# The budgets' (the writer's brief gives these as the ending).
ITERATION_BUDGET_EXCEEDED = "Exceeded the max_tool_iters limit of {limit} (model_calls={calls})"
TOKEN_BUDGET_EXCEEDED = "Exceeded the max_tokens limit of {limit} (tokens={tokens})"

# --- the ladder: identical calls ----------------------------------------------------------

WARN_NUDGE = (
    "[labscribe] You have now called {tool} {count} times with exactly these arguments. "
    "Its result is already above. Stop repeating it: read something new, or call "
    "finish_exploration with what you have found."
)
BLOCK_ERROR = (
    "Not executed: {tool} was already called {count_before} times with exactly these "
    "arguments, and the result is above. One more identical call halts exploration. "
    "Call something different, or call finish_exploration."
)
HALT_REASON = "{tool} was called {count} times with identical arguments"

# --- cycles of different calls ------------------------------------------------------------

CYCLE_NUDGE = (
    "[labscribe] Your last {length} calls went round the same {period} calls {repeats} "
    "times ({calls}), with the same results. Going round again finds nothing new: read "
    "something else, or call finish_exploration with what you have found."
)
CYCLE_HALT_REASON = "the same {period} calls ({calls}) were repeated {repeats} times in a cycle"

# --- calls that add nothing new -----------------------------------------------------------

NO_PROGRESS_NUDGE = (
    "[labscribe] Your last {streak} calls showed nothing you had not already seen (the same "
    "files, windows, listings or errors, however they were asked for). Read something new, "
    "or call finish_exploration with what you have found."
)
NO_PROGRESS_BLOCK = (
    "Not shown: this {tool} call returned nothing you have not already seen, like your "
    "{streak_before} calls before it. One more call that adds nothing halts exploration. "
    "Read a file or a window you have not read, or call finish_exploration."
)
NO_PROGRESS_BEFORE_RUN_BLOCK = (
    "Not executed: your last {streak_before} calls added nothing you had not already seen, "
    "and {tool} is costly, so it is not run while that lasts. One more call that adds nothing "
    "halts exploration. Read a file or a window you have not read, or call finish_exploration."
)
NO_PROGRESS_HALT_REASON = "{streak} calls in a row added nothing the explorer had not seen"

# --- failures and silence -----------------------------------------------------------------

# On a small model the waste is rarely one identical call: it is a stream of calls on
# ever-changing bad paths that all fail the same way.
FAILURE_NUDGE = (
    "[labscribe] Your last {streak} tool calls all failed the same way. Stop and reflect "
    'before the next one: call list_dir(path=".") to see the real file names, use paths '
    "exactly as it prints them, or call finish_exploration with what you have."
)
FAILURE_HALT_REASON = "{streak} tool calls in a row failed the same way"
EMPTY_REPLY_NUDGE = (
    "Your reply was empty: no text and no tool call. Call a tool (list_dir, read_file, "
    "read_image), or call finish_exploration with what you have found."
)
EMPTY_REPLIES_HALT_REASON = "{count} replies in a row had neither text nor a tool call"

# --- the explorer's history, fitted to its model's context window -------------------------


# --- why a draft is rejected: DRAFT_RETRY lists these -------------------------------------

NO_DOCUMENTCLASS = "it does not contain \\documentclass{...}"
NO_DOCUMENT_BODY = "it has no \\begin{document} ... \\end{document} body"
BODY_TOO_SHORT = (
    "its body has fewer than {chars} characters of text (comments and commands not counted)"
)
TOOL_MARKUP_FOUND = "it contains tool-call markup ({markup!r})"
NO_DOCUMENT_END = "it does not end with \\end{document}"
DOCUMENT_TWICE = "it has more than one \\begin{document} or \\end{document}"
REPEATING_ITSELF = "it keeps repeating the same text"
TYPESETS_TOO_LITTLE = (
    "its PDF shows only {found} of {checked} words sampled from its body: text inside "
    "\\iffalse, a comment, a box that is never printed or after an early end of the document "
    "does not reach the page; write the report as plain LaTeX that prints"
)

# --- figure code the static policy refuses ------------------------------------------------

# Why each refused entry point of the allowed libraries is refused, and what to do instead.
_CSV_INSTEAD = "read CSV or JSON files from data/ instead"
FIGURE_WHY_EVAL = (
    "it evaluates a string as code and reaches dunders through it; filter with "
    "boolean masks such as df[df['x'] > 0]"
)
FIGURE_WHY_HDF5 = f"HDF5 through PyTables unpickles objects; {_CSV_INSTEAD}"
FIGURE_WHY_COLUMNAR = (
    "it hands the file to optional engines (pyarrow, fastparquet, pyiceberg) that can "
    f"unpickle data or connect out; {_CSV_INSTEAD}"
)
FIGURE_WHY_DATABASE = f"it connects to a database; {_CSV_INSTEAD}"
FIGURE_WHY_CLIPBOARD = f"it runs clipboard programs; {_CSV_INSTEAD}"
FIGURE_WHY_TESTS = "it runs test suites, which import and run other files"
FIGURE_WHY_INTERNALS = "it reaches the library's internals; use its public functions"
FIGURE_WHY_BACKEND = (
    "it chooses a backend, which imports a module by name; figures render with Agg already"
)
FIGURE_WHY_RC_FILE = (
    "an rc file can name a backend module or programs to start; set plt.rcParams keys in the code"
)
FIGURE_WHY_ANIMATION = (
    "animations are written by ffmpeg or ImageMagick processes, which the sandbox "
    "cannot start; draw one still figure"
)
FIGURE_WHY_USETEX = (
    "TeX and Ghostscript run as processes, which the sandbox cannot start; use "
    "mathtext such as '$\\alpha$'"
)
FIGURE_WHY_TEMPLATES = "pandas Styler templates are Jinja2 code; format the values in Python"
FIGURE_WHY_PROCESSES = "it starts a process or imports a module by name"
FIGURE_WHY_BYTECODE = "it builds functions from bytecode; define functions with def"
FIGURE_WHY_PICKLE = "pickle runs code from the file it loads; read CSV, JSON or .npy files"

# Each problem, placed by FIGURE_PROBLEM_AT at the line it was found on.
FIGURE_PROBLEM_AT = "line {line}: {problem}"
FIGURE_SYNTAX_ERROR = "syntax error: {message}; send valid Python 3 code"
FIGURE_UNPARSABLE = "the code cannot be parsed ({kind}); send plain Python 3 code"
FIGURE_TOO_NESTED = "the code is nested too deeply to check; flatten it"
FIGURE_IMPORT_REFUSED = "import of '{module}' is not allowed; allowed: {allowed}"
FIGURE_RELATIVE_IMPORT = "relative import is not allowed; allowed: {allowed}"
FIGURE_STAR_IMPORT = "'from {module} import *' is not allowed; import names explicitly"
FIGURE_NAME_REFUSED = "'{name}' is not allowed"
FIGURE_NAME_REFUSED_BECAUSE = "'{name}' is not allowed: {reason}"
FIGURE_DUNDER_NAME = "the name '{name}' is not allowed (dunder names are refused)"
FIGURE_INTROSPECTION_NAME = "the name '{name}' is not allowed (introspection is refused)"
FIGURE_CALL_ONLY = "'{name}' may only be called directly, as in {name}(...)"
FIGURE_ATTRIBUTE_REFUSED_BECAUSE = "'.{attr}' is not allowed: {reason}"
FIGURE_ATTRIBUTE_REFUSED = "access to '.{attr}' is not allowed"
FIGURE_DUNDER_ATTRIBUTE = "access to '{attr}' is not allowed (dunder attributes are refused)"
FIGURE_INTROSPECTION_ATTRIBUTE = "access to '{attr}' is not allowed (introspection is refused)"
FIGURE_MODULE_ATTRIBUTE = "access to '.{attr}' is not allowed (it reaches the '{attr}' module)"
FIGURE_PRIVATE_ATTRIBUTE = "access to private attribute '{attr}' is not allowed"
FIGURE_DUNDER_DEFINITION = "defining '{name}' is not allowed (dunder names are refused)"
FIGURE_FORMAT_REACH = "format string reaches attribute '{attr}'; format plain values only"
FIGURE_ALLOW_PICKLE = f"allow_pickle must be False: {FIGURE_WHY_PICKLE}"
FIGURE_PICKLE_ARGUMENT = "the argument '{name}' is not allowed: " + FIGURE_WHY_PICKLE
FIGURE_ARGUMENT_REFUSED = "the argument '{name}=' is not allowed: {reason}"
FIGURE_UNPACKED_ARGUMENTS = "{call}() may not take **arguments; name each argument"
FIGURE_LOADER_POSITIONAL = (
    "{call}() takes the file as its only positional argument; pass the others by name "
    "(mmap_mode=...)"
)
FIGURE_LITERAL_CHOICE = "{call}() needs a literal style or backend name such as 'ggplot'"
FIGURE_LITERAL_OPTIONS = "{call}() needs literal option names such as 'display.precision'"
FIGURE_COMPUTED_SAVE_PATH = (
    "{call}() needs a plain file name string such as 'figure.png', not a computed path"
)
FIGURE_SAVE_PATH_NOT_PLAIN = (
    "{call}() path '{path}' is not a plain file name; use a name such as 'figure.png' "
    "(no folders, no '..', not absolute)"
)
FIGURE_PATH_OUTSIDE = (
    "{call}() path '{path}' is outside the sandbox; read data files by relative path under 'data/'"
)
FIGURE_STRING_REFUSED = "the string '{text}' is not allowed: {reason}"
FIGURE_SETTING_REFUSED = "the setting '{text}' is not allowed: {reason}"
FIGURE_DISPATCHED_STRING = (
    "the string '{text}' is not allowed: pandas calls the method it names, and {reason}"
)
FIGURE_DUNDER_STRING = (
    "the string reaches '{dunder}' (dunder names are refused, in strings too: pandas "
    "evaluates some strings as expressions)"
)
