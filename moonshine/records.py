"""The project's dataclasses: ``@dataclass`` and ``field`` as the standard library's,
for the classes and options the project uses (``frozen``, ``order``, ``slots``,
``eq``, ``repr``, ``init``; defaults and default factories; fields left out of
comparisons), made at a fraction of the cost.

The standard library writes and compiles the source of six to ten methods for every
class when its module is imported: about half a millisecond a class, some 30 ms of
``moonshine check`` and 50 ms of an adjudication for classes most runs never build.
Here a class gets its comparisons, hash and ``repr`` as shared functions over its
fields (``operator.attrgetter``) and its ``__init__`` is compiled when the first
instance is made. Instances behave as the standard library's: the same ``__init__``
signature, equality and ordering as tuples of the compared fields, the same hash
values, the same ``repr``, frozen instances refusing assignment, slots, copying and
pickling. ``dataclasses.fields``, ``replace`` and ``asdict`` accept them too (their
``__dataclass_fields__`` is made when first asked for). A type checker sees them as
dataclasses (``typing.dataclass_transform``).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar, dataclass_transform, overload

_T = TypeVar("_T")


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


class FrozenInstanceError(AttributeError):
    """Assignment to a field of a frozen instance (as ``dataclasses.FrozenInstanceError``)."""


class Field:
    """One field of a class: its name, annotation, default or default factory, and
    whether ``__init__``, ``repr`` and the comparisons use it."""

    __slots__ = ("compare", "default", "default_factory", "hash", "init", "name", "repr", "type")

    def __init__(
        self,
        default: Any,
        default_factory: Any,
        init: bool,
        repr: bool,
        hash: bool | None,
        compare: bool,
    ) -> None:
        if default is not MISSING and default_factory is not MISSING:
            raise ValueError("cannot specify both default and default_factory")
        self.name = ""
        self.type: Any = None
        self.default = default
        self.default_factory = default_factory
        self.init = init
        self.repr = repr
        self.hash = hash
        self.compare = compare

    def __repr__(self) -> str:
        return f"Field(name={self.name!r}, default={self.default!r}, default_factory={self.default_factory!r})"


@overload
def field(
    *, default: _T, init: bool = True, repr: bool = True, hash: bool | None = None, compare: bool = True
) -> _T: ...
@overload
def field(
    *,
    default_factory: Callable[[], _T],
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
) -> _T: ...
@overload
def field(*, init: bool = True, repr: bool = True, hash: bool | None = None, compare: bool = True) -> Any: ...
def field(
    *,
    default: Any = MISSING,
    default_factory: Any = MISSING,
    init: bool = True,
    repr: bool = True,
    hash: bool | None = None,
    compare: bool = True,
) -> Any:
    """A field's default or default factory, and whether it is an ``__init__``
    parameter, shown by ``repr``, compared and hashed (as ``dataclasses.field``)."""
    return Field(default, default_factory, init, repr, hash, compare)


def fields(obj: Any) -> tuple[Field, ...]:
    """The fields of a class made here, or of one of its instances, in order."""
    try:
        found: dict[str, Field] = obj.__record_fields__
    except AttributeError:
        raise TypeError("must be called with a class made by moonshine.records.dataclass or an instance") from None
    return tuple(found.values())


def replace(obj: _T, /, **changes: Any) -> _T:
    """A copy of ``obj`` with some fields changed (as ``dataclasses.replace``)."""
    for f in fields(obj):
        if f.init and f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
        elif not f.init and f.name in changes:
            raise ValueError(f"field {f.name} is declared with init=False, it cannot be specified with replace()")
    return obj.__class__(**changes)


def _is_classvar(annotation: Any) -> bool:
    if isinstance(annotation, str):
        head = annotation.split("[", 1)[0].strip()
        return head in ("ClassVar", "typing.ClassVar")
    return annotation is ClassVar or getattr(annotation, "__origin__", None) is ClassVar


def _collect(cls: type) -> dict[str, Field]:
    """The fields of ``cls``: its bases' (made here) and then its own annotations, in order."""
    found: dict[str, Field] = {}
    for base in cls.__mro__[-1:0:-1]:
        inherited = base.__dict__.get("__record_fields__")
        if inherited:
            found.update(inherited)
    annotations = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 - inspect costs its import
    for name, annotation in annotations.items():
        if _is_classvar(annotation):
            continue
        value = cls.__dict__.get(name, MISSING)
        if isinstance(value, Field):
            f = value
            if f.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, f.default)
        else:
            f = Field(value, MISSING, True, True, None, True)
        if f.default is not MISSING and type(f.default).__hash__ is None:
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not allowed: use default_factory")
        f.name = name
        f.type = annotation
        found[name] = f
    for name, value in cls.__dict__.items():
        if isinstance(value, Field) and name not in annotations:
            raise TypeError(f"{name!r} is a field but has no type annotation")
    seen_default = False
    for f in found.values():
        if not f.init:
            continue
        if f.default is not MISSING or f.default_factory is not MISSING:
            seen_default = True
        elif seen_default:
            raise TypeError(f"non-default argument {f.name!r} follows default argument")
    return found


def _init_source(cls: type, frozen: bool, slots: bool) -> tuple[str, dict[str, Any]]:
    """The source of ``cls.__init__`` and the names it uses, as the standard library writes it."""
    names: dict[str, Any] = {"_MISSING": MISSING, "_setattr": object.__setattr__}
    params = ["self"]
    body = []
    for i, f in enumerate(cls.__record_fields__.values()):  # type: ignore[attr-defined]
        default = f"_default_{i}"
        if f.default_factory is not MISSING:
            names[default] = f.default_factory
            value = f"{default}() if {f.name} is _MISSING else {f.name}" if f.init else f"{default}()"
            if f.init:
                params.append(f"{f.name}=_MISSING")
        elif f.init:
            value = f.name
            if f.default is MISSING:
                params.append(f.name)
            else:
                names[default] = f.default
                params.append(f"{f.name}={default}")
        elif slots and f.default is not MISSING:
            names[default] = f.default
            value = default
        else:
            continue  # read from the class attribute holding the default
        body.append(f"    _setattr(self, {f.name!r}, {value})" if frozen else f"    self.{f.name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    return f"def __init__({', '.join(params)}):\n" + ("\n".join(body) or "    pass") + "\n", names


# The compiled ``__init__`` functions, by source, kept in the cache directory
# (moonshine.cache) as Python keeps a module's byte code in __pycache__: a command
# compiles none of them again (some 40 for a check, 4 ms).
_codes: dict[str, Any] | None = None
_codes_made = False


def _codes_key() -> bytes:
    import sys

    return f"__init__ code {sys.version} {sys.implementation.cache_tag}".encode()


def _save_codes() -> None:
    from moonshine import cache

    if _codes is not None:
        cache.store_value("records", _codes_key(), _codes)


def _code(source: str) -> Any:
    """The compiled ``source``: from this process, the cache directory, or compiled now."""
    global _codes, _codes_made
    if _codes is None:
        from moonshine import cache

        found = cache.load_value("records", _codes_key())
        _codes = found if isinstance(found, dict) and len(found) < 5000 else {}
    code = _codes.get(source)
    if type(code) is not type(_code.__code__):  # not yet compiled (or not code: recompiled)
        code = compile(source, "<moonshine.records __init__>", "exec")
        _codes[source] = code
        if not _codes_made:
            import atexit

            _codes_made = True
            atexit.register(_save_codes)
    return code


def _lazy_init(cls: type, frozen: bool, slots: bool) -> Callable[..., None]:
    """An ``__init__`` that compiles the real one on the class's first instance."""

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        source, names = _init_source(cls, frozen, slots)
        exec(_code(source), names)
        real = names["__init__"]
        real.__qualname__ = f"{cls.__qualname__}.__init__"
        real.__module__ = cls.__module__
        cls.__init__ = real  # type: ignore[misc]
        real(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    return __init__


def _key(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of an instance's values of ``names``."""
    if not names:
        return lambda _self: ()
    if len(names) == 1:
        one = operator.attrgetter(names[0])
        return lambda self: (one(self),)
    return operator.attrgetter(*names)


def _repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        shown = ", ".join([f"{name}={getattr(self, name)!r}" for name in names])
        return f"{self.__class__.__qualname__}({shown})"

    return __repr__


def _eq(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    return __eq__


def _hash(key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(key(self))

    return __hash__


def _compare(op: Callable[[Any, Any], bool], key: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def method(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return op(key(self), key(other))
        return NotImplemented

    return method


def _frozen(cls: type, names: frozenset[str]) -> tuple[Callable[..., None], Callable[..., None]]:
    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)  # type: ignore[arg-type]

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)  # type: ignore[arg-type]

    return __setattr__, __delattr__


class _StdlibFields:
    """``__dataclass_fields__`` for the standard library's ``fields``, ``replace``,
    ``asdict`` and ``is_dataclass`` (and pytest's comparisons), made when first read."""

    def __get__(self, obj: Any, owner: type) -> dict[str, Any]:
        import dataclasses

        made: dict[str, Any] = {}
        for f in owner.__record_fields__.values():  # type: ignore[attr-defined]
            options: dict[str, Any] = {"init": f.init, "repr": f.repr, "hash": f.hash, "compare": f.compare}
            if f.default is not MISSING:
                options["default"] = f.default
            if f.default_factory is not MISSING:
                options["default_factory"] = f.default_factory
            std: Any = dataclasses.field(**options)
            std.name = f.name
            std.type = f.type
            std._field_type = getattr(dataclasses, "_FIELD")  # noqa: B009 - not in the type stubs
            made[f.name] = std
        setattr(owner, "__dataclass_fields__", made)  # noqa: B010
        return made


def _set(cls: type, name: str, value: Any) -> None:
    if name not in cls.__dict__:
        setattr(cls, name, value)


_ORDER = (("__lt__", operator.lt), ("__le__", operator.le), ("__gt__", operator.gt), ("__ge__", operator.ge))


def _process(cls: type, init: bool, repr: bool, eq: bool, order: bool, frozen: bool, slots: bool) -> type:
    found = _collect(cls)
    if slots:
        if "__slots__" in cls.__dict__:
            raise TypeError(f"{cls.__name__} already specifies __slots__")
        body = dict(cls.__dict__)
        for name in found:
            body.pop(name, None)
        body.pop("__dict__", None)
        body.pop("__weakref__", None)
        inherited = {s for base in cls.__mro__[1:-1] for s in base.__dict__.get("__slots__", ())}
        body["__slots__"] = tuple(name for name in found if name not in inherited)
        qualname = cls.__qualname__
        cls = type(cls)(cls.__name__, cls.__bases__, body)
        cls.__qualname__ = qualname
    cls.__record_fields__ = found  # type: ignore[attr-defined]
    cls.__dataclass_fields__ = _StdlibFields()  # type: ignore[attr-defined]
    _set(cls, "__match_args__", tuple(f.name for f in found.values() if f.init))
    if init:
        _set(cls, "__init__", _lazy_init(cls, frozen, slots))
    if repr:
        _set(cls, "__repr__", _repr(tuple(f.name for f in found.values() if f.repr)))
    compared = tuple(f.name for f in found.values() if f.compare)
    key = _key(compared)
    if eq:
        _set(cls, "__eq__", _eq(key))
    if order:
        for name, op in _ORDER:
            if name in cls.__dict__:
                raise TypeError(
                    f"Cannot overwrite attribute {name} in class {cls.__name__}. "
                    "Consider using functools.total_ordering"
                )
            method = _compare(op, key)
            method.__name__ = name
            method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)
    class_hash = cls.__dict__.get("__hash__", MISSING)
    explicit_hash = not (class_hash is MISSING or (class_hash is None and "__eq__" in cls.__dict__))
    if eq and not explicit_hash:
        hashed = tuple(f.name for f in found.values() if (f.compare if f.hash is None else f.hash))
        cls.__hash__ = _hash(_key(hashed)) if frozen else None  # type: ignore[assignment]
    if frozen:
        if "__setattr__" in cls.__dict__ or "__delattr__" in cls.__dict__:
            raise TypeError(f"cannot overwrite attribute __setattr__ or __delattr__ in class {cls.__name__}")
        cls.__setattr__, cls.__delattr__ = _frozen(cls, frozenset(found))  # type: ignore[method-assign]
        if slots:
            names = tuple(found)

            def __getstate__(self: Any) -> list[Any]:
                return [getattr(self, name) for name in names]

            def __setstate__(self: Any, state: list[Any]) -> None:
                for name, value in zip(names, state, strict=True):
                    object.__setattr__(self, name, value)

            setattr(cls, "__getstate__", __getstate__)  # noqa: B010
            setattr(cls, "__setstate__", __setstate__)  # noqa: B010
    return cls


@overload
def dataclass(cls: type[_T], /) -> type[_T]: ...
@overload
def dataclass(
    *,
    init: bool = True,
    repr: bool = True,
    eq: bool = True,
    order: bool = False,
    frozen: bool = False,
    slots: bool = False,
) -> Callable[[type[_T]], type[_T]]: ...
@dataclass_transform(field_specifiers=(field, Field))
def dataclass(
    cls: type[_T] | None = None,
    /,
    *,
    init: bool = True,
    repr: bool = True,
    eq: bool = True,
    order: bool = False,
    frozen: bool = False,
    slots: bool = False,
) -> Any:
    """The class with the methods ``dataclasses.dataclass`` would give it, made cheaply (see the module)."""

    def wrap(cls: type[_T]) -> type[_T]:
        return _process(cls, init, repr, eq, order, frozen, slots)

    return wrap if cls is None else wrap(cls)
