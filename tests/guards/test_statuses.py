import pytest

from labscribe.guards.statuses import HaltKind, Termination, classify_model_error


class FakeStatusError(Exception):
    def __init__(self, status_code: int) -> None:
        super().__init__(f"HTTP {status_code}")
        self.status_code = status_code


class APITimeoutError(Exception):
    pass


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
        (FakeStatusError(400), None),
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
