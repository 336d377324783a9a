"""Every message the loop machinery shows the explorer, and every halt reason, in one place.

Errors the model can fix come back to it as tool results built from these templates; the
nudges close a result or follow a reply. Halt reasons are for people (run.json, events)
and also end the refusal the model reads when a halt stops its call.
"""

# --- calls the tools never run ------------------------------------------------------------

PATH_OUTSIDE_ERROR = (
    "path does not exist or is outside the data folder: {path!r}. "
    "Use paths relative to the data folder, as list_dir shows them."
)
ARGS_INVALID_ERROR = "Error: invalid arguments for {tool}: {errors}. Fix them and call again."
INVALID_ARGS_ERROR = (
    "Error: the arguments of {name} could not be used ({problem}). Send the arguments as one "
    'JSON object of plain values, e.g. {{"path": "data.csv"}}.'
)
INVALID_TOOL_NAME_ERROR = "Error: {name!r} is not a valid tool, try one of [{available}]."
TIMEOUT_ERROR = (
    "Error: {tool} did not finish within {seconds:g} s and was abandoned. "
    "Ask for less (a smaller limit, another file)."
)
TOO_MANY_CALLS = (
    "at most {limit} tool calls run per reply; ask for this one again in your next reply"
)
NOT_EXECUTED = "Not executed: {why}."
CUT_OFF = "your reply was cut off"
HALTED = "exploration halted, {reason}"
FINISHED_ALREADY = "exploration has finished"
HALTED_ALREADY = "exploration halted"
TOOL_FAILED = (
    "Error: {tool} failed on these arguments ({error}). Try other arguments, another file, "
    "or call finish_exploration with what you have."
)
CALL_FAILED = (
    "Error: labscribe could not answer this call ({error}); it was not retried. Call "
    "something else, or call finish_exploration with what you have."
)

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
