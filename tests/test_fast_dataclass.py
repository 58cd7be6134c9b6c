"""fast_dataclass: every class of the package made with it behaves as the standard `@dataclass` makes it.

Each class is made again from the very namespace it was declared with, by `dataclasses.dataclass` with the
same `frozen` and `slots`, and the two are compared on what the package and its tests rely on: fields,
defaults and factories, construction (positional, keyword, defaults, the TypeErrors), equality, hashing,
repr, frozen assignment, slots, copying.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib
import json
import pkgutil
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import worktree_guard
from tests.helpers import REPO_ROOT, Repo, subagent_payload
from worktree_guard import fast_dataclass as fd


def all_made() -> list[tuple[type, str, tuple[type, ...], dict[str, Any], bool, bool]]:
    for module in pkgutil.walk_packages(worktree_guard.__path__, "worktree_guard."):
        if not module.name.endswith("__main__"):
            importlib.import_module(module.name)
    return list(fd.MADE)


def declared_count() -> int:
    """How many classes the package's source decorates with @fast_dataclass."""
    return sum(len(re.findall(r"^@fast_dataclass\b", p.read_text(), flags=re.M)) for p in Path(worktree_guard.__file__).parent.rglob("*.py") if p.name != "fast_dataclass.py")


MADE = all_made()


def test_every_decorated_class_is_compared() -> None:
    assert len({id(entry[0]) for entry in MADE}) == declared_count() >= 43


def twin_of(name: str, bases: tuple[type, ...], namespace: dict[str, Any], frozen: bool, slots: bool) -> type:
    """The same declaration, made by dataclasses.dataclass (Field objects copied: the decorator changes them)."""
    fresh = {}
    for key, value in namespace.items():
        if key in ("__dict__", "__weakref__"):
            continue
        if isinstance(value, fd.Field):
            value = dataclasses.field(
                default=standard(value.default), default_factory=standard(value.default_factory), repr=value.repr, compare=value.compare,
            )
        fresh[key] = value
    return dataclasses.dataclass(frozen=frozen, slots=slots)(type(name, bases, fresh))


def standard(value: Any) -> Any:
    """fast_dataclass's MISSING as dataclasses.MISSING, anything else as it is."""
    return dataclasses.MISSING if value is fd.MISSING else value


def values_for(cls: type, tag: str) -> list[str]:
    return [f"{tag}-{f.name}" for f in fd.fields(cls)]


def required(cls: type) -> int:
    return sum(1 for f in fd.fields(cls) if f.default is fd.MISSING and f.default_factory is fd.MISSING)


@pytest.mark.parametrize("entry", MADE, ids=[f"{e[0].__module__}.{e[0].__qualname__}" for e in MADE])
def test_it_behaves_as_the_standard_dataclass(entry: tuple) -> None:
    made, name, bases, namespace, frozen, slots = entry
    twin = twin_of(name, bases, namespace, frozen, slots)
    twin.__qualname__ = made.__qualname__
    mine, theirs = fd.fields(made), dataclasses.fields(twin)
    # fields, in order, with their defaults, factories and flags
    assert [(f.name, f.type, standard(f.default), standard(f.default_factory), f.repr, f.compare) for f in mine] == [
        (f.name, f.type, f.default, f.default_factory, f.repr, f.compare) for f in theirs
    ]
    assert made.__match_args__ == twin.__match_args__
    assert ("__slots__" in made.__dict__) == ("__slots__" in twin.__dict__) == slots
    if slots:
        assert set(made.__slots__) == set(twin.__slots__)
    for f in mine:  # what the class itself holds under a field's name
        assert getattr(made, f.name, "absent") == getattr(twin, f.name, "absent") or slots
    values = values_for(made, "a")
    a, b = made(*values), twin(*values)
    assert [getattr(a, f.name) for f in mine] == [getattr(b, f.name) for f in theirs] == values
    assert repr(a) == repr(b)
    assert hasattr(a, "__dict__") == hasattr(b, "__dict__")
    # keywords, and the defaults of what is left out
    keywords = {f.name: v for f, v in zip(mine, values)}
    assert made(**keywords) == a
    shortest = values[: required(made)]
    c, d = made(*shortest), twin(*shortest)
    assert [getattr(c, f.name) for f in mine] == [getattr(d, f.name) for f in theirs]
    # dataclass's TypeErrors
    for args, kwargs in ((values + ["extra"], {}), (values, {"no_such_field": 1}), (values[:1], {mine[0].name: "x"} if mine else {"x": 1})):
        with pytest.raises(TypeError):
            twin(*args, **kwargs)
        with pytest.raises(TypeError):
            made(*args, **kwargs)
    if required(made):
        with pytest.raises(TypeError):
            twin()
        with pytest.raises(TypeError, match=r"missing \d+ required positional argument"):
            made()
    # equality: the compared fields only, and only within the very same class
    assert a == made(*values) and b == twin(*values)
    assert (a == b) is False and a != object()
    for index, f in enumerate(mine):
        changed = list(values)
        changed[index] = "other"
        assert (made(*changed) == a) == (twin(*changed) == b) == (not f.compare)
    # hashing
    assert (made.__hash__ is None) == (twin.__hash__ is None)
    if made.__hash__ is not None:
        assert hash(a) == hash(b)
    # frozen
    for f in mine[:1]:
        if frozen:
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(a, f.name, "new")
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(b, f.name, "new")
            with pytest.raises(dataclasses.FrozenInstanceError):
                delattr(a, f.name)
            with pytest.raises(dataclasses.FrozenInstanceError):  # any name, field or not
                setattr(a, "not_a_field", 1)
            with pytest.raises((dataclasses.FrozenInstanceError, TypeError)):  # 3.11's frozen slots: a TypeError
                setattr(b, "not_a_field", 1)
        else:
            setattr(a, f.name, "new")
            setattr(b, f.name, "new")
            assert getattr(a, f.name) == getattr(b, f.name) == "new"
    # copies
    assert copy.copy(a) == a and copy.deepcopy(a) == a
    assert fd.replace(a, **{mine[0].name: "replaced"}) == made(*(["replaced"] + values[1:]))


def test_a_non_default_field_after_a_default_one_is_refused_as_dataclass_refuses_it() -> None:
    class Wrong:
        a: int = 1
        b: int

    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        fd.fast_dataclass(Wrong)


@pytest.mark.parametrize(
    "body",
    [
        "a: int = field(init=False)",
        "a: int = field(default=1, kw_only=True)",
        "a: int = field(default=1, hash=False)",
        "a: int = field(default=1, metadata={'x': 1})",
        "a: ClassVar[int] = 1",
        "a: InitVar[int] = 1",
        "a: int = 1\n    def __post_init__(self): pass",
    ],
)
def test_what_the_subset_does_not_do_is_refused(body: str) -> None:
    namespace: dict[str, Any] = {}
    exec(f"from dataclasses import field, InitVar\nfrom typing import ClassVar\nclass C:\n    {body}\n", namespace)  # noqa: S102
    with pytest.raises(TypeError, match="fast_dataclass"):
        fd.fast_dataclass(namespace["C"])


def test_fields_given_by_either_field_function_are_the_same() -> None:
    """A class body may use this module's `field` or the standard one (within the subset): the class is the same."""

    @fd.fast_dataclass(frozen=True)
    class Mine:
        a: str
        b: list = fd.field(default_factory=list, compare=False)
        c: int = fd.field(default=3, repr=False)

    @fd.fast_dataclass(frozen=True)
    class Standard:
        a: str
        b: list = dataclasses.field(default_factory=list, compare=False)
        c: int = dataclasses.field(default=3, repr=False)

    spec = [(f.name, f.default, f.default_factory, f.repr, f.compare) for f in fd.fields(Mine)]
    assert spec == [(f.name, f.default, f.default_factory, f.repr, f.compare) for f in fd.fields(Standard)]
    assert spec == [("a", fd.MISSING, fd.MISSING, True, True), ("b", fd.MISSING, list, True, False), ("c", 3, fd.MISSING, False, True)]
    assert repr(Mine("x")) == "test_fields_given_by_either_field_function_are_the_same.<locals>.Mine(a='x', b=[])"
    assert Mine("x", [1]) == Mine("x", [2]) and Mine("x").c == Standard("x").c == 3
    with pytest.raises(ValueError, match="cannot specify both default and default_factory"):
        fd.field(default=1, default_factory=list)
    with pytest.raises(TypeError):
        fd.field(init=False)  # type: ignore[call-arg]


def test_inherited_fields_and_mutable_defaults_are_refused() -> None:
    @fd.fast_dataclass
    class Base:
        a: int = 1

    class Child(Base):
        b: int = 2

    with pytest.raises(TypeError, match="does not inherit fields"):
        fd.fast_dataclass(Child)

    class Shared:
        items: list = []  # noqa: RUF012

    with pytest.raises(ValueError, match="mutable default"):
        fd.fast_dataclass(Shared)


def test_a_method_the_class_defines_is_kept() -> None:
    @fd.fast_dataclass(frozen=True, slots=True)
    class Own:
        a: str

        def __repr__(self) -> str:
            return "own"

        def __eq__(self, other: object) -> bool:
            return True

        def __hash__(self) -> int:
            return 7

    assert repr(Own("x")) == "own" and Own("x") == Own("y") and hash(Own("x")) == 7


def test_a_nested_class_and_a_subclass_as_dataclass_treats_them() -> None:
    class Outer:
        @fd.fast_dataclass(frozen=True)
        class Mine:
            a: str

        @dataclasses.dataclass(frozen=True)
        class Theirs:
            a: str

    class MineChild(Outer.Mine):
        pass

    class TheirsChild(Outer.Theirs):
        pass

    assert repr(Outer.Mine("x")).replace("Mine", "?") == repr(Outer.Theirs("x")).replace("Theirs", "?") == "test_a_nested_class_and_a_subclass_as_dataclass_treats_them.<locals>.Outer.?(a='x')"
    assert (Outer.Mine("x") == MineChild("x")) == (Outer.Theirs("x") == TheirsChild("x")) is False
    child = MineChild("x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        child.a = "y"


def test_fields_and_replace_refuse_other_objects() -> None:
    with pytest.raises(TypeError):
        fd.fields(object())
    with pytest.raises(TypeError):
        fd.replace(object())


def test_the_hot_path_makes_no_standard_dataclass(repo: Repo) -> None:
    """A Write and the heredoc commit judged in a fresh process: every class the package loaded for them is made
    by fast_dataclass, none by dataclasses.dataclass (≈ 0.5 ms each to make)."""
    payloads = [
        subagent_payload(repo, "Write", {"file_path": str(repo.worktree / "x.py"), "content": "x"}),
        subagent_payload(repo, "Bash", {"command": "git add -A && git commit -m \"$(cat <<'EOF'\nx\nEOF\n)\""}),
    ]
    code = f"""
import json, sys
sys.path.insert(0, {str(REPO_ROOT)!r})
before = "dataclasses" in sys.modules
from worktree_guard.hook import run_hook
for data in json.loads({json.dumps(json.dumps(payloads))}):
    assert run_hook(json.dumps(data).encode()).stdout == "", data
imported = not before and "dataclasses" in sys.modules
import dataclasses, inspect
loaded = [m for n, m in list(sys.modules.items()) if n.startswith("worktree_guard.")]
standard = sorted(f"{{m.__name__}}.{{c.__name__}}" for m in loaded for c in vars(m).values() if inspect.isclass(c) and c.__module__ == m.__name__ and dataclasses.is_dataclass(c))
print(json.dumps({{"standard": standard, "shell": "worktree_guard.shell.walk" in sys.modules, "before": before, "dataclasses imported": imported}}))
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == '{"standard": [], "shell": true, "before": false, "dataclasses imported": false}'
