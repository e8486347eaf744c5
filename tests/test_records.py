"""moonshine.records.dataclass behaves as the standard library's dataclass: the same
class declared with each gives instances with the same __init__ signature, repr,
equality, ordering, hash values, frozen refusals, slots, copies and pickles."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from moonshine import records


def declare(make: Any, **options: Any) -> type:
    """The same class, decorated by ``make`` (dataclasses or moonshine.records)."""
    fld = dataclasses.field if make is dataclasses.dataclass else records.field

    class Sample:
        kind: ClassVar[str] = "sample"
        name: str
        count: int
        ratio: float = 1.5
        tags: list[str] = fld(default_factory=list)
        note: str = fld(default="", compare=False)

    name = f"{'Std' if make is dataclasses.dataclass else 'Ours'}{'_'.join(sorted(options))}"
    Sample.__module__, Sample.__name__, Sample.__qualname__ = __name__, name, name
    made: type = make(**options)(Sample)
    globals()[name] = made  # found by pickle
    return made


OPTIONS = [
    {},
    {"frozen": True},
    {"frozen": True, "order": True},
    {"frozen": True, "slots": True},
    {"slots": True},
    {"order": True},
]
values = st.tuples(
    st.sampled_from(["a", "b", "é", ""]),
    st.integers(-3, 3),
    st.sampled_from([0.5, 1.5, float("nan")]),
    st.lists(st.sampled_from(["x", "y"]), max_size=2),
    st.sampled_from(["", "n"]),
)


def fields_shown(obj: Any) -> str:
    """The repr without the class's name (which differs between the two declarations)."""
    name, _, rest = repr(obj).partition("(")
    assert name == type(obj).__qualname__
    return rest


def hashed(obj: Any) -> int | str:
    try:
        return hash(obj)
    except TypeError as exc:
        return str(exc)


def build(cls: type, v: tuple[Any, ...]) -> Any:
    return cls(v[0], v[1], ratio=v[2], tags=list(v[3]), note=v[4])


@pytest.mark.parametrize("options", OPTIONS, ids=str)
@given(a=values, b=values)
def test_same_behaviour_as_the_standard_library(
    options: dict[str, Any], a: tuple[Any, ...], b: tuple[Any, ...]
) -> None:
    std, ours = declare(dataclasses.dataclass, **options), declare(records.dataclass, **options)
    sa, sb, oa, ob = build(std, a), build(std, b), build(ours, a), build(ours, b)
    assert fields_shown(oa) == fields_shown(sa)
    assert (oa == ob) == (sa == sb)
    assert (oa != ob) == (sa != sb)
    assert (oa == oa) == (sa == sa)  # a NaN field: equal as the same object
    assert oa != sa and oa.__eq__(sa) is NotImplemented
    if options.get("order"):
        for op in ("__lt__", "__le__", "__gt__", "__ge__"):
            assert getattr(oa, op)(ob) == getattr(sa, op)(sb)
    else:
        with pytest.raises(TypeError):
            _ = oa < ob
    if options.get("frozen"):
        assert hashed(oa) == hashed(sa)  # a list field: both unhashable
        for obj in (oa, sa):
            with pytest.raises(AttributeError, match="cannot assign to field 'count'"):
                obj.count = 9
            with pytest.raises(AttributeError):
                del obj.name
    else:
        with pytest.raises(TypeError):
            hash(oa)
        oa.count = 9
        assert oa.count == 9
    assert hasattr(oa, "__dict__") == hasattr(sa, "__dict__")
    assert getattr(ours, "__slots__", None) == getattr(std, "__slots__", None)
    for again in (copy.copy(oa), copy.deepcopy(oa), pickle.loads(pickle.dumps(oa))):
        assert type(again) is ours
        assert repr(again) == repr(oa)


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_signature_defaults_and_standard_functions(options: dict[str, Any]) -> None:
    std, ours = declare(dataclasses.dataclass, **options), declare(records.dataclass, **options)
    first, second = ours("a", 1), ours("a", 1)
    assert first.tags == [] and first.tags is not second.tags  # a fresh list each
    assert inspect.signature(ours.__init__).parameters.keys() == inspect.signature(std.__init__).parameters.keys()
    assert ours.__match_args__ == std.__match_args__ == ("name", "count", "ratio", "tags", "note")
    assert ours.kind == "sample" and "kind" not in [f.name for f in records.fields(ours)]
    with pytest.raises(TypeError):
        ours("a")
    with pytest.raises(TypeError):
        ours("a", 1, unknown=2)
    assert dataclasses.is_dataclass(first)
    assert [f.name for f in dataclasses.fields(first)] == [f.name for f in dataclasses.fields(std("a", 1))]
    assert dataclasses.asdict(first) == dataclasses.asdict(std("a", 1))
    assert repr(dataclasses.replace(first, count=3)) == repr(records.replace(first, count=3)) == repr(ours("a", 3))


def test_declaration_errors_as_the_standard_library() -> None:
    for make, fld in ((dataclasses.dataclass, dataclasses.field), (records.dataclass, records.field)):
        with pytest.raises(ValueError, match="mutable default"):

            class Mutable:
                items: list[int] = []  # noqa: RUF012

            make(Mutable)
        with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):

            class Order:
                a: int = 1
                b: int

            make(Order)
        with pytest.raises(TypeError, match="no type annotation"):

            class Bare:
                a = fld(default=1)

            make(Bare)
        with pytest.raises(TypeError, match="Cannot overwrite attribute __lt__ in class Own"):

            class Own:
                a: int

                def __lt__(self, other: Any) -> bool:
                    return False

            make(order=True)(Own)


def test_inherited_fields_and_own_methods_kept() -> None:
    @records.dataclass(frozen=True)
    class Base:
        a: int
        b: int = 2

    @records.dataclass(frozen=True)
    class Child(Base):
        c: int = 3

        def __repr__(self) -> str:
            return "child"

    assert [f.name for f in records.fields(Child)] == ["a", "b", "c"]
    assert repr(Child(1)) == "child" and Child(1) == Child(1, 2, 3) and Child(1) != Base(1)
    assert repr(Base(1)) == "test_inherited_fields_and_own_methods_kept.<locals>.Base(a=1, b=2)"


def test_every_record_of_the_package_can_be_compared_with_its_stdlib_fields() -> None:
    """The package's classes made by moonshine.records answer dataclasses.fields as
    their own fields() (what pytest's comparisons and dataclasses.replace read)."""
    from moonshine import geo, orders, state

    for module in (geo, orders, state):
        for value in vars(module).values():
            if isinstance(value, type) and "__record_fields__" in value.__dict__:
                ours = [(f.name, f.compare) for f in records.fields(value)]
                assert [(f.name, f.compare) for f in dataclasses.fields(value)] == ours


def test_compiled_inits_kept_in_the_cache_for_the_next_process(tmp_path: Path) -> None:
    """The first process compiles the __init__ functions it uses and keeps them in the
    cache directory; the next compiles none; a damaged or deleted cache only costs
    compiling them again; the instances are the same every time."""
    import os
    import subprocess
    import sys

    code = (
        "from moonshine import records\n"
        "from moonshine.geo import load_map\n"
        "from moonshine.state import initial_state\n"
        "st = initial_state(load_map('chicago-1920s'))\n"
        "print(repr(st.units[:3]), st.copy() == st, records._codes_made)\n"
    )
    env = dict(os.environ, MOONSHINE_CACHE_DIR=str(tmp_path / "cache"))

    def run() -> tuple[str, str]:
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
        shown, _, compiled = out.strip().rpartition(" ")
        return shown, compiled

    first = run()
    assert first[1] == "True"
    (entry,) = (tmp_path / "cache").glob("*/records-*.bin")
    assert run() == (first[0], "False")
    entry.write_bytes(b"\xffdamaged")
    assert run() == first
    entry.unlink()
    assert run() == first
    assert run() == (first[0], "False")
