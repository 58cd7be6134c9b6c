"""Records that speak pydantic's API without importing pydantic until something needs it.

pydantic is the schema of record (SPEC §6, §8): the JSON schemas `worktree-guard schema` prints, the
validation of configuration, payloads and the records `validate` writes. Importing it costs more than a hook
call judged without it, so the records the hot path builds (ToolCall, Violation, Verdict, the settings, the
payloads) are `Record`s: plain classes declared like pydantic models (annotations, `Field(...)` defaults,
`model_config`), with pydantic's constructor keywords, attributes, `model_dump`, `model_copy`,
`model_validate`, `model_fields` and `model_json_schema`.

Equal by construction: a value is taken as it is only when pydantic would take it unchanged (a `str` for a
`str` field, a member of a `Literal`, a `list` of such, a record of the declared class…). Anything else — a
wrong type, a value pydantic would convert, an unknown key — goes through the pydantic model made from the
same declaration (`pydantic_model()`), which converts it or raises pydantic's own ValidationError. The tests
compare both on the corpora (tests/test_records.py).
"""

from __future__ import annotations

import sys
from typing import Any, ClassVar

_MISSING: Any = type("Missing", (), {"__repr__": lambda self: "MISSING"})()
#: Where a record with `extra="allow"` keeps its unknown keys, as pydantic does: apart from the fields, so that a
#: key named like a method (`{"model_dump": 1}` in a payload) cannot hide it; read as attributes by __getattr__.
_EXTRA = "__pydantic_extra__"

#: False: every record is validated and dumped by pydantic, patterns are matched by pathspec and entry points
#: read from the installed distributions — the slow path the fast one is proven equal to (tests/test_records.py).
FAST_PATH = True


class FieldSpec:
    """One field of a record: its default (or factory), description and constraints — pydantic's Field subset."""

    __slots__ = ("annotation", "default", "default_factory", "description", "exclude", "pattern", "min_length", "extra", "check", "original")

    def __init__(self, default: Any = _MISSING, *, default_factory: Any = None, description: str | None = None,
                 exclude: bool | None = None, pattern: str | None = None, min_length: int | None = None, **extra: Any) -> None:
        self.annotation: Any = None
        self.default = default
        self.default_factory = default_factory
        self.description = description
        self.exclude = exclude
        self.pattern = pattern
        self.min_length = min_length
        self.extra = extra
        self.check: Any = None
        self.original: Any = None  # pydantic's FieldInfo, when the field was declared with pydantic.Field

    def is_required(self) -> bool:
        return self.default is _MISSING and self.default_factory is None

    def get_default(self) -> Any:
        return self.default_factory() if self.default_factory is not None else self.default

    def pydantic_field(self) -> Any:
        if self.original is not None:
            return self.original
        from pydantic import Field as PydanticField

        kwargs: dict[str, Any] = dict(self.extra)
        if self.default_factory is not None:
            kwargs["default_factory"] = self.default_factory
        elif self.default is not _MISSING:
            kwargs["default"] = self.default
        for name in ("description", "exclude", "pattern", "min_length"):
            value = getattr(self, name)
            if value is not None:
                kwargs[name] = value
        return PydanticField(**kwargs)


def Field(default: Any = _MISSING, **kwargs: Any) -> Any:  # noqa: N802 — pydantic's name, for declarations that read alike
    """A field's default and constraints, as pydantic.Field takes them (the subset records use)."""
    return FieldSpec(default, **kwargs)


def ConfigDict(**kwargs: Any) -> dict[str, Any]:  # noqa: N802
    return dict(kwargs)


class _NeverRaised(Exception):
    """What `validation_error()` answers before pydantic is loaded: no pydantic error can be in flight then."""


def validation_error() -> type[Exception]:
    """pydantic's ValidationError, for `except validation_error() as e:` (evaluated only when an exception is
    matched). A record raises one only after pydantic judged a value, so pydantic is loaded whenever one flies."""
    core = sys.modules.get("pydantic_core")
    return core.ValidationError if core is not None else _NeverRaised


class _Unchecked(Exception):
    """The fast check declines a value: pydantic must judge it."""


def _checker(annotation: Any, owner: type) -> Any:
    """A function that returns the value pydantic would make of an input it takes unchanged, or raises _Unchecked."""
    import types
    import typing

    if annotation is Any:
        return lambda v: v
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Literal:
        allowed = frozenset(args)
        kinds = {type(a) for a in args}

        def literal(v: Any) -> Any:
            if type(v) in kinds and v in allowed:
                return v
            raise _Unchecked
        return literal
    if origin in (typing.Union, types.UnionType):
        checks = [_checker(a, owner) for a in args if a is not type(None)]
        optional = type(None) in args

        def union(v: Any) -> Any:
            if v is None and optional:
                return None
            made = []
            for check in checks:
                try:
                    made.append(check(v))
                except _Unchecked:
                    continue
            if len(made) != 1:
                raise _Unchecked  # none, or several members take it as it is: pydantic's smart union decides
            return made[0]
        return union
    if origin is list:
        item = _checker(args[0], owner) if args else (lambda v: v)

        def listing(v: Any) -> Any:
            if type(v) is not list:
                raise _Unchecked
            return [item(x) for x in v]
        return listing
    if origin is dict:
        value_check = _checker(args[1], owner) if len(args) == 2 else (lambda v: v)
        key_is_str = not args or args[0] is str

        def mapping(v: Any) -> Any:
            if type(v) is not dict or (key_is_str and not all(type(k) is str for k in v)):
                raise _Unchecked
            return {k: value_check(x) for k, x in v.items()}
        return mapping
    if origin is tuple:
        checks = [_checker(a, owner) for a in args]

        def pair(v: Any) -> Any:
            if type(v) is not tuple or len(v) != len(checks) or (args and args[-1] is Ellipsis):
                raise _Unchecked
            return tuple(c(x) for c, x in zip(checks, v))
        return pair
    if isinstance(annotation, type) and issubclass(annotation, Record):
        def record(v: Any) -> Any:
            if isinstance(v, annotation):
                return v
            if type(v) is dict and not annotation._always_pydantic:  # a nested record given as a mapping (JSON)
                built = annotation.__new__(annotation)
                object.__setattr__(built, "__dict__", annotation._fast(v))
                return built
            raise _Unchecked
        return record
    if annotation in (str, int, float, bool):
        def exact(v: Any) -> Any:
            if type(v) is annotation:
                return v
            raise _Unchecked
        return exact

    def unknown(v: Any) -> Any:
        raise _Unchecked
    return unknown


#: Field options the fast check honours: those that change only the JSON schema, and numeric bounds.
_FAST_OPTIONS = frozenset({"title", "examples", "json_schema_extra", "gt", "ge", "lt", "le"})
_BOUNDS = (("gt", lambda v, b: v > b), ("ge", lambda v, b: v >= b), ("lt", lambda v, b: v < b), ("le", lambda v, b: v <= b))
#: model_config keys the fast path honours; any other makes the record go through pydantic every time.
_CONFIG_KNOWN = frozenset({"extra", "frozen", "title"})


#: An annotation's text → its compiled code: the same few texts (`str | None`, `list[str]`…) recur in every record.
_ANNOTATION_CODE: dict[str, Any] = {}


def _evaluate(annotation: Any, names: dict[str, Any], local: dict[str, Any]) -> Any:
    """What `typing._eval_type(ForwardRef(annotation), names, local)` gives, compiling each annotation text once."""
    import typing

    if not isinstance(annotation, str):
        return typing._eval_type(annotation, names, local)  # type: ignore[attr-defined]
    code = _ANNOTATION_CODE.get(annotation)
    if code is None:
        code = _ANNOTATION_CODE[annotation] = compile(annotation, "<annotation>", "eval")
    value = typing._type_check(eval(code, names, local), "Forward references must evaluate to types.")  # type: ignore[attr-defined]
    return typing._eval_type(value, names, local)  # type: ignore[attr-defined]


class _RecordType(type):
    @property
    def model_fields(cls) -> dict[str, FieldSpec]:
        """Every field with its annotation (evaluated at first use: most records of a hook call are never built)."""
        cls._resolve()  # type: ignore[attr-defined]
        return cls.__dict__["_fields"]


class Record(metaclass=_RecordType):
    """A record declared like a pydantic model, validated by pydantic only where a value needs it."""

    model_config: ClassVar[dict[str, Any]] = {}
    _always_pydantic: ClassVar[bool] = False
    _declared: ClassVar[dict[str, FieldSpec]] = {}
    _pydantic: ClassVar[Any] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields: dict[str, FieldSpec] = {}
        for base in reversed(cls.__mro__[1:]):
            if issubclass(base, Record):
                fields.update(base.__dict__.get("_declared", {}))
        for name, annotation in cls.__dict__.get("__annotations__", {}).items():
            if name.startswith("_") or name in ("model_config", "model_fields") or "ClassVar" in str(annotation):
                continue
            default = cls.__dict__.get(name, _MISSING)
            if isinstance(default, FieldSpec):
                spec = default
            elif hasattr(default, "default_factory") and hasattr(default, "json_schema_extra"):  # pydantic's FieldInfo
                spec = _from_field_info(default)
            else:
                spec = FieldSpec(default)
            fields[name] = spec
            if name in cls.__dict__:
                delattr(cls, name)
        cls._declared = fields
        cls._pydantic = None
        for name, value in cls.__dict__.items():
            if type(value).__name__ == "PydanticDescriptorProxy" or name in ("model_post_init", "__get_validators__"):
                raise TypeError(f"{cls.__name__}.{name}: a Record takes no pydantic validators (its fast path would skip them); make it a pydantic model")
        # Field options the fast check does not know (alias, max_length, strict…): pydantic builds every one.
        cls._always_pydantic = any(set(spec.extra) - _FAST_OPTIONS for spec in fields.values()) or bool(set(cls.model_config) - _CONFIG_KNOWN)

    @classmethod
    def _resolve(cls) -> None:
        """Evaluate the annotations (strings under `from __future__ import annotations`) and build the checks."""
        if "_fields" in cls.__dict__:
            return
        hints: dict[str, Any] = {}
        for klass in reversed(cls.__mro__):
            if klass is object or not issubclass(klass, Record):
                continue
            module = sys.modules.get(klass.__module__)
            names = vars(module) if module else {}
            local = {klass.__name__: klass}
            for name, text in klass.__dict__.get("__annotations__", {}).items():
                if name in cls._declared:
                    hints[name] = _evaluate(text, names, local)
        fields = {}
        for name, spec in cls._declared.items():
            copy = FieldSpec.__new__(FieldSpec)
            for slot in FieldSpec.__slots__:
                setattr(copy, slot, getattr(spec, slot))
            copy.annotation = hints[name]
            copy.check = _checker(hints[name], cls)
            fields[name] = copy
        type.__setattr__(cls, "_fields", fields)

    def __init__(self, **data: Any) -> None:
        object.__setattr__(self, "__dict__", type(self)._values(data))

    @classmethod
    def _values(cls, data: dict[str, Any]) -> dict[str, Any]:
        try:
            if not FAST_PATH or cls._always_pydantic:
                raise _Unchecked
            return cls._fast(data)
        except _Unchecked:
            return cls._through_pydantic(data)

    @classmethod
    def _fast(cls, data: dict[str, Any]) -> dict[str, Any]:
        extra = cls.model_config.get("extra", "ignore")
        values: dict[str, Any] = {}
        fields = cls.model_fields
        for name, spec in fields.items():
            if name in data:
                value = spec.check(data[name])
                if spec.pattern is not None:
                    import re

                    # Python's `$` also matches before a final newline, pydantic's (Rust) does not: such values
                    # are pydantic's to judge.
                    if type(value) is not str or "\n" in value or re.search(spec.pattern, value) is None:
                        raise _Unchecked
                if spec.min_length is not None and (not hasattr(value, "__len__") or len(value) < spec.min_length):
                    raise _Unchecked
                if spec.extra:
                    for option, holds in _BOUNDS:
                        bound = spec.extra.get(option)
                        if bound is not None and (type(value) not in (int, float) or not holds(value, bound)):
                            raise _Unchecked
                values[name] = value
            elif spec.is_required():
                raise _Unchecked
            else:
                values[name] = spec.get_default()
        if extra == "allow":
            values[_EXTRA] = {}
        if any(k not in fields for k in data):
            if extra != "allow":
                raise _Unchecked  # forbid: pydantic's error; ignore: pydantic drops them (rare: let it)
            for key, value in data.items():
                if key not in fields:
                    if type(key) is not str:
                        raise _Unchecked
                    values[_EXTRA][key] = value
        return values

    @classmethod
    def _through_pydantic(cls, data: dict[str, Any]) -> dict[str, Any]:
        model = cls.pydantic_model().model_validate({k: _as_input(v) for k, v in data.items()} if type(data) is dict else data)
        return _values_of(model, cls)

    # -- pydantic's API -------------------------------------------------------------------------------

    @classmethod
    def pydantic_model(cls) -> Any:
        """The pydantic model with this record's fields, defaults, constraints, configuration and docstring."""
        if cls.__dict__.get("_pydantic") is None:
            import pydantic

            fields = {name: (_pydantic_type(spec.annotation), spec.pydantic_field()) for name, spec in cls.model_fields.items()}
            config = pydantic.ConfigDict(**cls.model_config)  # type: ignore[typeddict-item]
            cls._pydantic = pydantic.create_model(cls.__name__, __config__=config, __doc__=cls.__doc__, __module__=cls.__module__, **fields)
        return cls._pydantic

    @classmethod
    def model_validate(cls, obj: Any) -> Any:
        if isinstance(obj, cls):
            return obj
        if type(obj) is dict:
            record = cls.__new__(cls)
            object.__setattr__(record, "__dict__", cls._values(obj))
            return record
        return cls._from_model(cls.pydantic_model().model_validate(obj))

    @classmethod
    def model_construct(cls, **values: Any) -> Any:
        """A record from trusted values, unvalidated (defaults filled in), as pydantic's model_construct."""
        record = cls.__new__(cls)
        full = {name: values[name] if name in values else spec.get_default() for name, spec in cls.model_fields.items() if name in values or not spec.is_required()}
        unknown = {k: v for k, v in values.items() if k not in full}
        if cls.model_config.get("extra") == "allow":
            full[_EXTRA] = unknown
        else:
            full.update(unknown)
        object.__setattr__(record, "__dict__", full)
        return record

    @classmethod
    def model_validate_json(cls, data: str | bytes) -> Any:
        """Parsed by json; a JSON object whose values the fast check takes as they are is the record, anything
        else (a value JSON-mode pydantic would convert, an error) is pydantic's own JSON validation."""
        if FAST_PATH and not cls._always_pydantic:
            import json

            try:
                if _json_pydantic_may_refuse(data):
                    raise _Unchecked
                obj = json.loads(data)
                if type(obj) is dict:
                    record = cls.__new__(cls)
                    object.__setattr__(record, "__dict__", cls._fast(obj))
                    return record
            except (ValueError, _Unchecked):
                pass
        return cls._from_model(cls.pydantic_model().model_validate_json(data))

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return cls.pydantic_model().model_json_schema(*args, **kwargs)

    @classmethod
    def _from_model(cls, model: Any) -> Any:
        record = cls.__new__(cls)
        object.__setattr__(record, "__dict__", _values_of(model, cls))
        return record

    def to_pydantic(self) -> Any:
        """This record as an instance of its pydantic model (validated again)."""
        return type(self).pydantic_model().model_validate(_as_input(self))

    def model_dump(self, *, mode: str = "python", include: Any = None, exclude: Any = None, **kwargs: Any) -> dict[str, Any]:
        if kwargs or not FAST_PATH:
            return self.to_pydantic().model_dump(mode=mode, include=include, exclude=exclude, **kwargs)
        fields = type(self).model_fields
        out: dict[str, Any] = {}
        for name, value in _items(self):
            spec = fields.get(name)
            if spec is not None and spec.exclude:
                continue
            if include is not None and name not in include:
                continue
            if exclude is not None and name in exclude:
                continue
            if mode == "json" and type(value) is int and spec is not None and _is_float(spec.annotation):
                value = float(value)  # an int default of a float field: pydantic writes it as a float
            out[name] = _dump(value, mode)
        return out

    def model_dump_json(self, **kwargs: Any) -> str:
        if kwargs or not FAST_PATH:
            return self.to_pydantic().model_dump_json(**kwargs)
        import json

        return json.dumps(self.model_dump(mode="json"), ensure_ascii=False, separators=(",", ":"))

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Any:
        import copy

        record = type(self).__new__(type(self))
        values = copy.deepcopy(self.__dict__) if deep else dict(self.__dict__)
        if _EXTRA in values:
            values[_EXTRA] = dict(values[_EXTRA])
        for key, value in (update or {}).items():
            if _EXTRA in values and key not in type(self).model_fields:
                values[_EXTRA][key] = value
            else:
                values[key] = value
        object.__setattr__(record, "__dict__", values)
        return record

    @property
    def model_extra(self) -> dict[str, Any] | None:
        if type(self).model_config.get("extra") != "allow":
            return None
        return dict(self.__dict__.get(_EXTRA) or {})

    def __getattr__(self, name: str) -> Any:
        """An unknown key of a record with `extra="allow"` (only when no field or method has that name)."""
        extra = self.__dict__.get(_EXTRA)
        if extra is not None and name in extra:
            return extra[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        cls = type(self)
        if cls.model_config.get("frozen"):
            raise TypeError(f"{cls.__name__} is frozen: {name} cannot be set")
        if name not in cls.model_fields and cls.model_config.get("extra") == "allow" and not name.startswith("_"):
            self.__dict__.setdefault(_EXTRA, {})[name] = value
            return
        if name not in cls.model_fields and cls.model_config.get("extra") != "allow" and not hasattr(cls, name):
            raise AttributeError(f"{cls.__name__} has no field {name!r}")
        object.__setattr__(self, name, value)

    def __eq__(self, other: Any) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        if type(self).model_config.get("frozen"):
            return hash((type(self), tuple((k, _hashable(v)) for k, v in self.__dict__.items())))
        raise TypeError(f"unhashable type: {type(self).__name__!r}")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in _items(self))})"

    def __getstate__(self) -> dict[str, Any]:
        return dict(self.__dict__)

    def __setstate__(self, state: dict[str, Any]) -> None:
        object.__setattr__(self, "__dict__", state)


def _json_pydantic_may_refuse(data: str | bytes) -> bool:
    """JSON that `json.loads` takes and pydantic's parser may refuse: invalid UTF-8 (json decodes bytes with
    surrogatepass), a surrogate code point, or a `\\uD800`-`\\uDFFF` escape (pydantic takes only a valid pair)."""
    import re

    if isinstance(data, (bytes, bytearray)):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError:
            return True
    return re.search(r"[\ud800-\udfff]|\\u[dD][89a-fA-F]", data) is not None


def _items(record: Record) -> list[tuple[str, Any]]:
    """A record's fields and then its unknown keys (extra="allow"), in order: what pydantic dumps."""
    items = [(k, v) for k, v in record.__dict__.items() if k != _EXTRA]
    return items + list((record.__dict__.get(_EXTRA) or {}).items())


def _is_float(annotation: Any) -> bool:
    import typing

    return annotation is float or float in typing.get_args(annotation)


def _hashable(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _hashable(v)) for k, v in value.items()))
    return value


def _from_field_info(info: Any) -> FieldSpec:
    """A FieldSpec from pydantic's FieldInfo (a subclass that declares its fields with pydantic.Field)."""
    from pydantic_core import PydanticUndefined

    spec = FieldSpec(_MISSING if info.default is PydanticUndefined else info.default, default_factory=info.default_factory, description=info.description, exclude=info.exclude)
    spec.original = info
    for item in info.metadata:
        if getattr(item, "pattern", None) is not None:
            spec.pattern = item.pattern
        elif getattr(item, "min_length", None) is not None:
            spec.min_length = item.min_length
        else:
            spec.extra["constraint"] = item  # one the fast check does not know: pydantic judges this record
    if info.alias is not None or info.validation_alias is not None:
        spec.extra["alias"] = info.alias or info.validation_alias
    return spec


def _pydantic_type(annotation: Any) -> Any:
    """The annotation with every Record class replaced by its pydantic model."""
    import functools
    import operator
    import types
    import typing

    if isinstance(annotation, type) and issubclass(annotation, Record):
        return annotation.pydantic_model()
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is None or origin is typing.Literal or not args:
        return annotation
    converted = tuple(_pydantic_type(a) for a in args)
    if converted == args:
        return annotation
    if origin is types.UnionType:
        return functools.reduce(operator.or_, converted)
    if origin is typing.Union:
        return typing.Union[converted]  # type: ignore[return-value]
    return origin[converted if len(converted) > 1 else converted[0]]


def _values_of(model: Any, cls: type[Record]) -> dict[str, Any]:
    """A validated pydantic model's values, with nested models turned back into records (excluded fields kept)."""
    values = {name: _back(getattr(model, name), spec.annotation) for name, spec in cls.model_fields.items()}
    if cls.model_config.get("extra") == "allow":
        values[_EXTRA] = dict(getattr(model, "__pydantic_extra__", None) or {})
    return values


def _back(value: Any, annotation: Any) -> Any:
    import typing

    if hasattr(value, "__pydantic_fields__"):
        target = _record_in(annotation)
        return target._from_model(value) if target is not None else value
    if isinstance(value, list):
        args = typing.get_args(annotation)
        item = args[0] if typing.get_origin(annotation) is list and args else _record_in(annotation)
        return [_back(v, item) for v in value]
    if isinstance(value, dict) and _record_in(annotation) is not None:
        args = typing.get_args(annotation)
        item = args[1] if typing.get_origin(annotation) is dict and len(args) == 2 else _record_in(annotation)
        return {k: _back(v, item) for k, v in value.items()}
    return value


def _record_in(annotation: Any) -> Any:
    import typing

    if isinstance(annotation, type) and issubclass(annotation, Record):
        return annotation
    for arg in typing.get_args(annotation):
        found = _record_in(arg)
        if found is not None:
            return found
    return None


def _as_input(value: Any) -> Any:
    """A record's values as pydantic input (excluded fields included)."""
    if isinstance(value, Record):
        return {k: _as_input(v) for k, v in _items(value)}
    if isinstance(value, list):
        return [_as_input(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_input(v) for k, v in value.items()}
    return value


def _dump(value: Any, mode: str) -> Any:
    if isinstance(value, Record):
        return value.model_dump(mode=mode)
    if mode == "json":
        if isinstance(value, (list, tuple)):
            return [_dump(v, mode) for v in value]
        if isinstance(value, dict):
            return {k: _dump(v, mode) for k, v in value.items()}
        return value
    if isinstance(value, list):
        return [_dump(v, mode) for v in value]
    if isinstance(value, dict):
        return {k: _dump(v, mode) for k, v in value.items()}
    return value
