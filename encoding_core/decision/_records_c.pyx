# cython: language_level=3
"""The compiled form of ``models.pure_slot_builder``: a record built by filling its slots.

A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__`` (frozen
forbids the plain assignment), a Python call per field: for ``Decoded``'s twelve fields about
1 us, the larger part of what building the decision's records costs. ``SlotBuilder(cls)``
makes the same record as ``cls(*fields)`` (all fields, positionally): it allocates the
instance as ``object.__new__`` does and stores each argument in its slot, at the offset the
slot's member descriptor names. Nothing else runs in a frozen dataclass's ``__init__``
(``SlotBuilder`` refuses a class with ``__post_init__`` or a ``__dict__``), so the records are
equal field by field, and ``tests/decision/test_records_c.py`` holds them so.

Built by ``setup.py`` where a C compiler is found; ``models`` falls back to the reference
(the class itself) otherwise.
"""

from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from libc.stdlib cimport free, malloc

import dataclasses

cdef extern from "Python.h":
    ctypedef struct PyMemberDef:
        const char* name
        int type
        Py_ssize_t offset
        int flags
    ctypedef struct PyMemberDescrObject:
        PyMemberDef* d_member
    object PyType_GenericAlloc(PyTypeObject* type, Py_ssize_t nitems)
    PyTypeObject PyMemberDescr_Type

# (the member kinds: in ``structmember.h`` on every CPython 3, beside ``Py_T_OBJECT_EX`` in
# ``Python.h`` from 3.12)
cdef extern from "structmember.h":
    int T_OBJECT_EX
    int READONLY


cdef class SlotBuilder:
    """``SlotBuilder(cls)(*fields)``: ``cls(*fields)`` for a slotted dataclass, every field
    given, positionally, without ``__init__`` (see the module)."""

    cdef readonly object cls
    cdef readonly tuple fields
    cdef Py_ssize_t* _offsets
    cdef Py_ssize_t _count

    def __cinit__(self, cls):
        if not isinstance(cls, type) or not dataclasses.is_dataclass(cls):
            raise TypeError(f"not a dataclass: {cls!r}")
        if hasattr(cls, "__post_init__") or (<PyTypeObject*>cls).tp_dictoffset != 0:
            raise TypeError(f"{cls.__name__} has a __post_init__ or a __dict__")
        names = tuple(field.name for field in dataclasses.fields(cls))
        if tuple(cls.__slots__) != names:
            raise TypeError(f"{cls.__name__}'s slots are not its fields, in order")
        self._offsets = <Py_ssize_t*>malloc(max(len(names), 1) * sizeof(Py_ssize_t))
        if self._offsets == NULL:
            raise MemoryError()
        cdef PyMemberDef* member
        for i, name in enumerate(names):
            descriptor = cls.__dict__[name]
            if type(descriptor) is not <object>&PyMemberDescr_Type:
                raise TypeError(f"{cls.__name__}.{name} is not a slot")
            member = (<PyMemberDescrObject*>descriptor).d_member
            if member.type != T_OBJECT_EX or member.flags & READONLY:
                raise TypeError(f"{cls.__name__}.{name} is not a writable object slot")
            self._offsets[i] = member.offset
        self.cls = cls
        self.fields = names
        self._count = len(names)

    def __dealloc__(self):
        free(self._offsets)

    def __call__(self, *args):
        cdef Py_ssize_t i, n = PyTuple_GET_SIZE(args)
        if n != self._count:
            raise TypeError(f"{self.cls.__name__} takes {self._count} fields, {n} given")
        record = PyType_GenericAlloc(<PyTypeObject*>self.cls, 0)
        cdef char* base = <char*><PyObject*>record
        cdef PyObject* value
        for i in range(n):
            value = PyTuple_GET_ITEM(args, i)
            Py_INCREF(<object>value)
            (<PyObject**>(base + self._offsets[i]))[0] = value
        return record
