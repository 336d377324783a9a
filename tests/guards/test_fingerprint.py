from labscribe.guards.guard_state import fingerprint


def test_fingerprint_ignores_key_order_at_every_depth() -> None:
    a = fingerprint("read_file", {"path": "a", "opts": {"x": 1, "y": [1, {"b": 2, "a": 1}]}})
    b = fingerprint("read_file", {"opts": {"y": [1, {"a": 1, "b": 2}], "x": 1}, "path": "a"})
    assert a == b


def test_fingerprint_distinguishes_offsets() -> None:
    first = fingerprint("read_file", {"path": "a", "offset": 0})
    assert first != fingerprint("read_file", {"path": "a", "offset": 100})


def test_fingerprint_distinguishes_tool_names() -> None:
    assert fingerprint("list_dir", {"path": "."}) != fingerprint("read_file", {"path": "."})


def test_fingerprint_survives_unserialisable_arguments() -> None:
    class Opaque:
        def __repr__(self) -> str:
            return "<opaque>"

    assert fingerprint("read_file", {"path": Opaque()}) == "read_file|{'path': <opaque>}"


def test_fingerprint_survives_a_broken_repr() -> None:
    class Broken:
        def __repr__(self) -> str:
            raise RuntimeError("no")

    assert fingerprint("x", Broken()) == "x|<unrepresentable Broken>"


def test_fingerprint_survives_circular_arguments() -> None:
    loop: dict = {}
    loop["self"] = loop
    assert fingerprint("x", loop).startswith("x|{'self':")
