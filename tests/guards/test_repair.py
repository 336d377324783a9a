import pytest

from labscribe.guards.bounds import repair_json_object


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('{"path": "a.csv"}', {"path": "a.csv"}),
        ('```json\n{"path": "a.csv"}\n```', {"path": "a.csv"}),
        ('{"path": "a.csv",}', {"path": "a.csv"}),
        ("{'path': 'a.csv'}", {"path": "a.csv"}),
        ('{"recursive": True, "x": None}', {"recursive": True, "x": None}),
        ('{"path": "a.csv", "offset": 20', {"path": "a.csv", "offset": 20}),
        ('{"key_findings": ["f0 = 5 kHz", "Q', {"key_findings": ["f0 = 5 kHz", "Q"]}),
        ("", {}),
        (None, {}),
        # a repair leaves what is inside strings alone
        ('{"code": "x = None", "name": "a",}', {"code": "x = None", "name": "a"}),
        ('{"path": "True None.csv",}', {"path": "True None.csv"}),
        ('{"text": "a, }", "n": 1,}', {"text": "a, }", "n": 1}),
    ],
)
def test_repair_json_object_fixes_common_slips(raw: str | None, expected: dict) -> None:
    assert repair_json_object(raw) == expected


@pytest.mark.parametrize(
    "raw", ["not json at all", "[1, 2]", '"a string"', "{{{]]]", "[" * 100_000, "{" * 100_000]
)
def test_repair_json_object_gives_up_on_non_objects(raw: str) -> None:
    assert repair_json_object(raw) is None
