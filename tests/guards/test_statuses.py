import pytest

from labscribe.guards.statuses import HaltKind, Termination, classify_model_error, fault_detail


class FakeStatusError(Exception):
    def __init__(self, status_code: int, message: str = "") -> None:
        super().__init__(message or f"HTTP {status_code}")
        self.status_code = status_code


class APITimeoutError(Exception):
    pass


class APIError(Exception):
    """As openai raises for an error event inside a 200 stream: a body, no status."""

    def __init__(self, body: object) -> None:
        super().__init__("An error occurred during streaming")
        self.body = body


class BadAnswer(Exception):
    def __init__(self, status_code: int | None = None) -> None:
        super().__init__("not a completion")
        self.status_code = status_code


def wrapped(cause: Exception) -> Exception:
    """`cause` as a client wraps it after its retries (`raise ... from cause`)."""
    try:
        raise ConnectionError("Connection error.") from cause
    except ConnectionError as exc:
        return exc


@pytest.mark.parametrize(
    ("exc", "expected"),
    [
        (FakeStatusError(401), Termination.AUTHENTICATION),
        (FakeStatusError(403), Termination.AUTHENTICATION),
        (FakeStatusError(429), Termination.UNAVAILABLE),
        (FakeStatusError(503), Termination.UNAVAILABLE),
        (APITimeoutError(), Termination.TIMEOUT),
        (TimeoutError(), Termination.TIMEOUT),
        (ConnectionRefusedError(), Termination.UNAVAILABLE),
        (FakeStatusError(404), Termination.MODEL_UNKNOWN),
        (
            FakeStatusError(400, "This model's maximum context length is 8192 tokens"),
            Termination.CONTEXT_EXCEEDED,
        ),
        (FakeStatusError(400, "tools are not supported"), Termination.REFUSED),
        (wrapped(BadAnswer()), Termination.BAD_ANSWER),
        (wrapped(BadAnswer(503)), Termination.UNAVAILABLE),
        (APIError({"message": "internal", "code": 500}), Termination.UNAVAILABLE),
        (APIError({"message": "odd"}), Termination.BAD_ANSWER),
        (ValueError("bug"), None),
    ],
)
def test_classify_model_error(exc: Exception, expected: Termination | None) -> None:
    assert classify_model_error(exc) is expected


def test_every_termination_has_a_description() -> None:
    assert all(t.description for t in Termination)


def test_halt_kinds() -> None:
    assert Termination.REPEATED_CALL.halt_kind is HaltKind.COLLAPSE
    assert Termination.TOOL_FAILURES.halt_kind is HaltKind.COLLAPSE
    assert Termination.AUTHENTICATION.halt_kind is HaltKind.INFRASTRUCTURE
    assert Termination.FINISHED.halt_kind is None


class ReplyDeadline(Exception):
    pass


def test_a_fault_says_the_first_own_fault_in_its_chain_else_itself() -> None:
    """The client's "Connection error." hides what came back; the reply's own fault, the
    nearest in the chain, is what a halt should say."""
    assert fault_detail(wrapped(ReplyDeadline("past its deadline of 5 s"))) == (
        "past its deadline of 5 s"
    )
    try:
        raise ReplyDeadline("past its deadline") from BadAnswer()
    except ReplyDeadline as nearest:
        assert fault_detail(wrapped(nearest)) == "past its deadline"
    assert fault_detail(wrapped(ValueError("odd"))) == "Connection error."
