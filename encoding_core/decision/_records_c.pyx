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

from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_GET_SIZE
from libc.stdlib cimport free, malloc

from encoding_core._slots_c cimport new_record, set_slot, slot_offsets


cdef class SlotBuilder:
    """``SlotBuilder(cls)(*fields)``: ``cls(*fields)`` for a slotted dataclass, every field
    given, positionally, without ``__init__`` (see the module)."""

    cdef readonly object cls
    cdef readonly tuple fields
    cdef Py_ssize_t* _offsets
    cdef Py_ssize_t _count

    def __cinit__(self, cls):
        offsets = slot_offsets(cls)   # (TypeError for a class whose records cannot be)
        self._offsets = <Py_ssize_t*>malloc(max(len(offsets), 1) * sizeof(Py_ssize_t))
        if self._offsets == NULL:
            raise MemoryError()
        for i, offset in enumerate(offsets):
            self._offsets[i] = offset
        self.cls = cls
        self.fields = tuple(cls.__slots__)
        self._count = len(offsets)

    def __dealloc__(self):
        free(self._offsets)

    def __call__(self, *args):
        cdef Py_ssize_t i, n = PyTuple_GET_SIZE(args)
        if n != self._count:
            raise TypeError(f"{self.cls.__name__} takes {self._count} fields, {n} given")
        record = new_record(self.cls)
        for i in range(n):
            set_slot(record, self._offsets[i], <object>PyTuple_GET_ITEM(args, i))
        return record
