"""A faster ``__init__`` for the frozen records built for every page (a shared basic).

A frozen dataclass sets each field in ``__init__`` through ``object.__setattr__`` (its own
``__setattr__`` refuses): about 0.25 us a field, 3 us for a ``Decoded``, a tenth of what
``decode`` costs on a small declared page. With ``slots=True`` each field is a slot whose
descriptor can set it directly, at a third of the cost; ``fast_init`` gives the class an
``__init__`` that does that, with the same parameters, defaults and annotations. The class
stays what the decorator made it: frozen after ``__init__`` (assignment raises
``FrozenInstanceError``), equal, hashed, pickled and ``repr``'d as before.

Only plain records are taken, and anything else is refused rather than changed quietly:
fields with a ``default_factory`` (a shared mutable default), ``init=False``, keyword-only
fields, ``InitVar`` pseudo-fields and a ``__post_init__`` (which this ``__init__`` would not
call).
"""

from __future__ import annotations

import dataclasses
import types
from typing import Any, TypeVar

__all__ = ["fast_init"]

_Record = TypeVar("_Record")


def fast_init(cls: type[_Record]) -> type[_Record]:
    """Replace the ``__init__`` of a ``@dataclass(frozen=True, slots=True)`` class (see above)."""
    params = dataclasses.fields(cls)  # type: ignore[arg-type]
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: fast_init would not call __post_init__")
    initvar = getattr(dataclasses, "_FIELD_INITVAR", None)  # InitVars are not in fields()
    if any(getattr(f, "_field_type", None) is initvar
           for f in getattr(cls, "__dataclass_fields__", {}).values()):
        raise TypeError(f"{cls.__name__}: fast_init takes no InitVar")
    namespace: dict[str, Any] = {}
    signature, body = [], []
    for position, f in enumerate(params):
        slot = next((klass.__dict__[f.name] for klass in cls.__mro__
                     if f.name in klass.__dict__), None)
        if not isinstance(slot, types.MemberDescriptorType):
            raise TypeError(f"{cls.__name__}.{f.name}: fast_init needs slots=True")
        if f.default_factory is not dataclasses.MISSING or not f.init or f.kw_only:
            raise TypeError(f"{cls.__name__}.{f.name}: fast_init takes plain fields only")
        namespace[f"_fast_init_set_{position}"] = slot.__set__
        if f.default is dataclasses.MISSING:
            signature.append(f.name)
        else:
            namespace[f"_fast_init_default_{position}"] = f.default
            signature.append(f"{f.name}=_fast_init_default_{position}")
        body.append(f"    _fast_init_set_{position}(self, {f.name})")
    source = f"def __init__(self, {', '.join(signature)}):\n" + "\n".join(body or ["    pass"])
    exec(source, namespace)  # generated from the field names, as dataclasses does
    init = namespace["__init__"]
    replaced = cls.__init__
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__doc__ = replaced.__doc__
    init.__annotations__ = dict(getattr(replaced, "__annotations__", {}))
    setattr(cls, "__init__", init)  # noqa: B010
    return cls
