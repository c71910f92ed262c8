"""A fast ``dataclasses.replace`` for the engine's frozen, slotted state classes.

Random-game simulations make hundreds of thousands of small copies; the standard
``replace`` re-runs ``__init__`` through generic field introspection and dominated the
profile (about 20 µs a call). This builds, once per class, a function that copies the
slots directly. Unknown field names still raise, as with ``replace``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any, TypeVar

T = TypeVar("T")

_COPIERS: dict[type, Callable[..., Any]] = {}
_MISSING: Any = object()


def _compile(cls: type) -> Callable[..., Any]:
    """``copy(old, *, field=_MISSING, ...)``: Python itself rejects unknown field names.

    Each slot is written through its own descriptor, which skips both ``__init__`` and the
    frozen class's refusing ``__setattr__`` (and the name lookup ``object.__setattr__`` does).
    """
    names = [f.name for f in fields(cls)]
    params = ", ".join(f"{name}=_MISSING" for name in names)
    lines = [f"def copy(old, *, {params}):", "    new = new_object(cls)"]
    namespace: dict[str, Any] = {"new_object": object.__new__, "cls": cls, "_MISSING": _MISSING}
    for name in names:
        namespace[f"set_{name}"] = getattr(cls, name).__set__
        lines.append(f"    set_{name}(new, old.{name} if {name} is _MISSING else {name})")
    lines.append("    return new")
    exec("\n".join(lines), namespace)
    copier: Callable[..., Any] = namespace["copy"]
    return copier


def copier_for(cls: type[T]) -> Callable[..., T]:
    """The compiled copier of a class, for hot paths that want to skip even ``evolve``'s
    own small overhead: ``copy = copier_for(Ctx); copy(ctx, seq=1)``."""
    if cls not in _COPIERS:
        _COPIERS[cls] = _compile(cls)
    copier: Callable[..., T] = _COPIERS[cls]
    return copier


def evolve(obj: T, **changes: Any) -> T:
    """A copy of the frozen dataclass ``obj`` with some fields changed."""
    try:
        copier = _COPIERS[type(obj)]
    except KeyError:
        if "__slots__" not in type(obj).__dict__:
            return replace(obj, **changes)  # type: ignore[type-var]
        copier = _COPIERS[type(obj)] = _compile(type(obj))
    result: T = copier(obj, **changes)
    return result
