# cython: language_level=3
# A slotted dataclass's record built by filling its slots, shared by the compiled parts that
# make a record on every page (``decision/_records_c.pyx``'s ``SlotBuilder``,
# ``whatwg/_prescan_c.pyx``'s ``Declaration``, ``decision/_front_c.pyx``'s recalled
# ``Decoded``): inline C, no module of its own.
#
# A frozen dataclass's ``__init__`` sets each field through ``object.__setattr__`` (frozen
# forbids the plain assignment), a Python call per field. The same record is the instance
# ``object.__new__`` allocates with each field's value stored in its slot, at the offset the
# slot's member descriptor names, when nothing else runs in ``__init__`` (no
# ``__post_init__``, no ``__dict__``): ``slot_offsets`` checks that, once per class.

from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF

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


cdef inline list slot_offsets(object cls, object names=None):
    # The slot offset of each of ``cls``'s fields, in their order, or in the order of
    # ``names`` (which must be its fields, each once), for a slotted dataclass whose records
    # can be built by filling their slots (see the top); TypeError for any other class. (A
    # module that calls this when imported raises ImportError instead, so that the
    # reference answers: ``speedups.compiled``.)
    import dataclasses
    if not isinstance(cls, type) or not dataclasses.is_dataclass(cls):
        raise TypeError(f"not a dataclass: {cls!r}")
    if hasattr(cls, "__post_init__") or (<PyTypeObject*>cls).tp_dictoffset != 0:
        raise TypeError(f"{cls.__name__} has a __post_init__ or a __dict__")
    fields = []
    for field in dataclasses.fields(cls):   # (a loop: no generator in an inline function)
        fields.append(field.name)
    if list(cls.__slots__) != fields:
        raise TypeError(f"{cls.__name__}'s slots are not its fields, in order")
    if names is not None:
        if sorted(names) != sorted(fields):
            raise TypeError(f"{cls.__name__}'s fields are not {tuple(names)}")
        fields = list(names)
    cdef PyMemberDef* member
    offsets = []
    for name in fields:
        descriptor = cls.__dict__[name]
        if type(descriptor) is not <object>&PyMemberDescr_Type:
            raise TypeError(f"{cls.__name__}.{name} is not a slot")
        member = (<PyMemberDescrObject*>descriptor).d_member
        if member.type != T_OBJECT_EX or member.flags & READONLY:
            raise TypeError(f"{cls.__name__}.{name} is not a writable object slot")
        offsets.append(member.offset)
    return offsets


cdef inline object new_record(object cls):
    # An instance of ``cls`` (checked by ``slot_offsets``) with every slot empty: each is to
    # be filled once by ``set_slot`` before the record is handed out.
    return PyType_GenericAlloc(<PyTypeObject*>cls, 0)


cdef inline void set_slot(object record, Py_ssize_t offset, object value) noexcept:
    # Fill the empty slot at ``offset`` of a ``new_record`` with ``value`` (borrowed here,
    # and a reference to it taken for the record). A slot filled twice would leak its first
    # value: each is filled once.
    Py_INCREF(value)
    (<PyObject**>((<char*><PyObject*>record) + offset))[0] = <PyObject*>value
