"""`@fast_dataclass`: the standard library's `@dataclass` for the classes the hook loads on every call, made without compiling code.

`dataclasses.dataclass` writes each class's `__init__`, `__repr__`, `__eq__` (and, frozen, `__setattr__`,
`__delattr__`, `__hash__`) as source text and compiles it: ≈ 0.5 ms a class. A Bash call judged in-process
loads 43 such classes (≈ 25 ms, a quarter of the call), a Write 11. Here the same methods are shared functions
that read the class's field list, so making a class costs a few microseconds; an instance costs a little more
to build (a loop instead of straight-line code: ≈ 1 µs a field).

The subset of `dataclass` the package uses, with its semantics: fields are the class's own annotations in order
(no inheritance of fields, no `ClassVar`/`InitVar`), each with a default, a `field(default=…, default_factory=…,
repr=…, compare=…)` (this module's, or the same subset of `dataclasses.field`) or neither; `frozen`; `slots`. The generated `__init__` takes the
fields positionally or by keyword and raises dataclass's TypeErrors; `__eq__` compares the compared fields of
two instances of the very same class; `__hash__` follows dataclass's table (frozen: a hash of the compared
fields; not frozen: unhashable) unless the class defines one; `__repr__` is dataclass's; a frozen instance
raises `dataclasses.FrozenInstanceError` on assignment and still copies and pickles. A method the class
defines itself is kept, as dataclass keeps it. `fields()` and `replace()` stand in for `dataclasses.fields` and
`dataclasses.replace`. Proven the same as `@dataclass` class by class: tests/test_fast_dataclass.py builds each
class of the package again with the real decorator and compares them.

The `dataclasses` module itself is not imported (≈ 1.5 ms of a Write with `copy` and `weakref`, which a Write needs
for nothing else; bashlex imports `copy` for a Bash call): `field`, `Field` and `MISSING` are this module's, and
`dataclasses.FrozenInstanceError` is imported when an assignment to a frozen instance raises it.
"""

from __future__ import annotations

import operator
import reprlib
import sys
from collections.abc import Callable
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")

#: Every class made here, with what it was made from — (class, name, bases, namespace, frozen, slots) — so that
#: the tests can make each one again with `dataclasses.dataclass` and compare.
MADE: list[tuple[type, str, tuple[type, ...], dict[str, Any], bool, bool]] = []

_FIELDS = "__fast_dataclass_fields__"


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


#: No default, no factory (`dataclasses.MISSING`'s role).
MISSING: Any = _Missing()


class Field:
    """One field: what `dataclasses.Field` holds for the subset made here."""

    __slots__ = ("name", "type", "default", "default_factory", "repr", "compare")

    def __init__(self, default: Any = MISSING, default_factory: Any = MISSING, repr: bool = True, compare: bool = True) -> None:  # noqa: A002
        self.name: str = ""
        self.type: Any = None
        self.default = default
        self.default_factory = default_factory
        self.repr = repr
        self.compare = compare

    def __repr__(self) -> str:
        return f"Field(name={self.name!r}, type={self.type!r}, default={self.default!r}, default_factory={self.default_factory!r}, repr={self.repr}, compare={self.compare})"


def field(*, default: Any = MISSING, default_factory: Any = MISSING, repr: bool = True, compare: bool = True) -> Any:  # noqa: A002
    """`dataclasses.field` with the options fast_dataclass takes."""
    if default is not MISSING and default_factory is not MISSING:
        raise ValueError("cannot specify both default and default_factory")
    return Field(default, default_factory, repr, compare)


@dataclass_transform(field_specifiers=(field, Field))
def fast_dataclass(cls: type[T] | None = None, /, *, frozen: bool = False, slots: bool = False) -> Any:
    """`@dataclass`, `@dataclass(frozen=True)`, `@dataclass(slots=True)` and both, without compiling code."""

    def make(cls: type[T]) -> type[T]:
        return _make(cls, frozen, slots)

    return make if cls is None else make(cls)


def fields(obj: Any) -> tuple[Field, ...]:
    """The fields of a fast dataclass or of one of its instances, in order (as `dataclasses.fields`)."""
    try:
        return getattr(obj, _FIELDS)
    except AttributeError:
        raise TypeError("must be called with a fast_dataclass type or instance") from None


def replace(obj: T, /, **changes: Any) -> T:
    """A new instance of `obj`'s class with `changes` and `obj`'s other field values (as `dataclasses.replace`)."""
    for f in fields(obj):
        if f.name not in changes:
            changes[f.name] = getattr(obj, f.name)
    return obj.__class__(**changes)


def _make(cls: type[T], frozen: bool, slots: bool) -> type[T]:
    namespace = dict(cls.__dict__)
    declared = dict(namespace)
    _refuse_what_dataclass_would_do_otherwise(cls)
    specs = []
    for name, annotation in namespace.get("__annotations__", {}).items():
        spec = _field_of(cls, name, namespace.get(name, MISSING))
        if "ClassVar" in str(annotation) or "InitVar" in str(annotation):
            raise TypeError(f"{cls.__qualname__}.{name}: fast_dataclass has no ClassVar or InitVar fields")
        if spec.default is not MISSING and type(spec.default).__hash__ is None:  # dataclass's own rule
            raise ValueError(f"mutable default {type(spec.default)} for field {name} is not allowed: use default_factory")
        spec.name, spec.type = name, annotation
        specs.append(spec)
    seen_default = False
    for spec in specs:
        has_default = spec.default is not MISSING or spec.default_factory is not MISSING
        if seen_default and not has_default:
            raise TypeError(f"non-default argument {spec.name!r} follows default argument")
        seen_default = seen_default or has_default
    specs_t = tuple(specs)
    names = tuple(s.name for s in specs_t)
    compared = tuple(s.name for s in specs_t if s.compare)
    shown = tuple(s.name for s in specs_t if s.repr)
    for spec in specs_t:  # as dataclass: a default stays a class attribute, a factory's field has none
        if spec.default is MISSING:
            namespace.pop(spec.name, None)
        else:
            namespace[spec.name] = spec.default
    namespace[_FIELDS] = specs_t
    namespace["__match_args__"] = names
    if "__init__" not in cls.__dict__:
        namespace["__init__"] = _init(cls.__qualname__, specs_t, frozen)
    if "__repr__" not in cls.__dict__:
        namespace["__repr__"] = _repr(shown)
    if "__eq__" not in cls.__dict__:
        namespace["__eq__"] = _eq(_values(compared))
    own_hash = cls.__dict__.get("__hash__", MISSING)
    if own_hash is MISSING or (own_hash is None and "__eq__" in cls.__dict__):  # no hash of the class's own
        namespace["__hash__"] = _hash(_values(compared)) if frozen else None
    if frozen:
        namespace["__setattr__"], namespace["__delattr__"] = _frozen_setattr(names), _frozen_delattr(names)
    if slots:
        for name in names:
            namespace.pop(name, None)
        namespace.pop("__dict__", None)
        namespace.pop("__weakref__", None)
        namespace["__slots__"] = names
        if frozen:  # as dataclass: a frozen slots instance copies and pickles through object.__setattr__
            namespace["__getstate__"] = _getstate(names)
            namespace["__setstate__"] = _setstate(names)
        made = type(cls)(cls.__name__, cls.__bases__, namespace)
        made.__qualname__ = cls.__qualname__
    else:
        for key, value in namespace.items():
            if cls.__dict__.get(key, MISSING) is not value:
                setattr(cls, key, value)
        for key in [k for k in cls.__dict__ if k not in namespace]:
            delattr(cls, key)
        made = cls
    MADE.append((made, cls.__name__, cls.__bases__, declared, frozen, slots))
    return made


def _field_of(cls: type, name: str, value: Any) -> Field:
    """A new Field for what the class body gives `name`: a Field, a `dataclasses.Field` of the same subset, a default."""
    if isinstance(value, Field):
        return Field(value.default, value.default_factory, value.repr, value.compare)
    standard = sys.modules.get("dataclasses")  # a dataclasses.Field exists only once dataclasses is imported
    if standard is not None and isinstance(value, standard.Field):
        if not value.init or value.kw_only not in (standard.MISSING, False) or value.hash is not None or value.metadata:
            raise TypeError(f"{cls.__qualname__}.{name}: fast_dataclass takes default, default_factory, repr and compare only")
        default = MISSING if value.default is standard.MISSING else value.default
        factory = MISSING if value.default_factory is standard.MISSING else value.default_factory
        return Field(default, factory, value.repr, value.compare)
    return Field(value)


def _refuse_what_dataclass_would_do_otherwise(cls: type) -> None:
    """TypeError for what this subset does not do as dataclass does: inherited fields, `__post_init__`."""
    for base in cls.__mro__[1:]:
        if hasattr(base, _FIELDS) or hasattr(base, "__dataclass_fields__"):
            raise TypeError(f"{cls.__qualname__}: fast_dataclass does not inherit fields (from {base.__qualname__})")
    if "__post_init__" in cls.__dict__:
        raise TypeError(f"{cls.__qualname__}: fast_dataclass does not call __post_init__")


def _values(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving an object's values of `names` as a tuple (what dataclass's generated code compares)."""
    if not names:
        return lambda obj: ()
    if len(names) == 1:
        get_one = operator.attrgetter(names[0])
        return lambda obj: (get_one(obj),)
    return operator.attrgetter(*names)


def _init(qualname: str, specs: tuple[Field, ...], frozen: bool) -> Callable[..., None]:
    plan = tuple((s.name, s.default, s.default_factory) for s in specs)
    names = tuple(name for name, _, _ in plan)
    count = len(names)
    known = frozenset(names)
    defaults = {name: default for name, default, _ in plan if default is not MISSING}
    factories = tuple((name, factory) for name, _, factory in plan if factory is not MISSING)
    set_value = object.__setattr__ if frozen else setattr

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if args:
            if len(args) > count:
                raise TypeError(f"{qualname}.__init__() takes {count + 1} positional arguments but {len(args) + 1} were given")
            for name in names[: len(args)]:
                if name in kwargs:
                    raise TypeError(f"{qualname}.__init__() got multiple values for argument {name!r}")
            kwargs.update(zip(names, args))
        if not known.issuperset(kwargs):
            unexpected = next(key for key in kwargs if key not in known)
            raise TypeError(f"{qualname}.__init__() got an unexpected keyword argument {unexpected!r}")
        values = {**defaults, **kwargs}
        for name, factory in factories:
            if name not in values:
                values[name] = factory()
        if len(values) != count:
            raise TypeError(f"{qualname}.__init__() missing {_missing(plan, values)}")
        for name in names:
            set_value(self, name, values[name])

    __init__.__qualname__ = f"{qualname}.__init__"
    return __init__


def _missing(plan: tuple[tuple[str, Any, Any], ...], kwargs: dict[str, Any]) -> str:
    """dataclass's words for the required arguments not given: "2 required positional arguments: 'a' and 'b'"."""
    names = [repr(name) for name, default, factory in plan if name not in kwargs and default is MISSING and factory is MISSING]
    listed = " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + f", and {names[-1]}"
    return f"{len(names)} required positional argument{'s' if len(names) > 1 else ''}: {listed}"


def _repr(shown: tuple[str, ...]) -> Callable[[Any], str]:
    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{self.__class__.__qualname__}({inner})"

    return __repr__


def _eq(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _hash(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __hash__


def _frozen_setattr(names: tuple[str, ...]) -> Callable[[Any, str, Any], None]:
    known = frozenset(names)

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if name in known or type(self).__setattr__ is __setattr__:
            from dataclasses import FrozenInstanceError

            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(type(self), self).__setattr__(name, value)

    return __setattr__


def _frozen_delattr(names: tuple[str, ...]) -> Callable[[Any, str], None]:
    known = frozenset(names)

    def __delattr__(self: Any, name: str) -> None:
        if name in known or type(self).__delattr__ is __delattr__:
            from dataclasses import FrozenInstanceError

            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(type(self), self).__delattr__(name)

    return __delattr__


def _getstate(names: tuple[str, ...]) -> Callable[[Any], list[Any]]:
    def __getstate__(self: Any) -> list[Any]:
        return [getattr(self, name) for name in names]

    return __getstate__


def _setstate(names: tuple[str, ...]) -> Callable[[Any, list[Any]], None]:
    def __setstate__(self: Any, state: list[Any]) -> None:
        for name, value in zip(names, state):
            object.__setattr__(self, name, value)

    return __setstate__
