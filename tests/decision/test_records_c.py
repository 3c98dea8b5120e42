"""The compiled record builder (``_records_c.SlotBuilder``) against its reference, the class."""

from __future__ import annotations

import dataclasses
import gc
import pickle
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from encoding_core.decision.attempt import DecodeAttempt, new_attempt
from encoding_core.decision.models import (
    Conflict,
    Decoded,
    Evidence,
    Severity,
    Source,
    new_decoded,
    new_evidence,
    pure_slot_builder,
    slot_builder,
)
from encoding_core.speedups import compiled

_RECORDS = compiled("encoding_core.decision._records_c")
needs_compiled = pytest.mark.skipif(_RECORDS is None, reason="_records_c not built (or pure)")

_TEXT = st.text(max_size=20)
_OPT_INT = st.none() | st.integers(-5, 1 << 40)
_EVIDENCE = st.builds(Evidence, st.sampled_from(list(Source)), st.none() | _TEXT,
                      st.none() | _TEXT, st.booleans(), _TEXT, st.none() | st.booleans(),
                      _OPT_INT, st.none() | st.floats(allow_nan=False))
_CONFLICT = st.builds(Conflict, _TEXT, st.sampled_from(list(Severity)), _TEXT, _TEXT,
                      st.none() | _TEXT, _OPT_INT)
_DECODED_FIELDS = st.tuples(
    _TEXT, _TEXT, st.sampled_from(list(Source)), st.integers(-1, 1 << 40),
    st.lists(_EVIDENCE, max_size=4).map(tuple), st.lists(_CONFLICT, max_size=3).map(tuple),
    _TEXT, st.integers(0, 4), st.lists(st.integers(0, 1 << 40), max_size=5).map(tuple),
    st.booleans(), st.integers(0, 1 << 40), st.booleans())


def _same(built: object, reference: object) -> None:
    """Equal field by field, each field the very object given; and as a whole."""
    assert type(built) is type(reference)
    for field in dataclasses.fields(reference):   # type: ignore[arg-type]
        assert getattr(built, field.name) is getattr(reference, field.name), field.name
    assert built == reference and hash(built) == hash(reference)
    assert pickle.loads(pickle.dumps(built)) == reference


@settings(max_examples=200, deadline=None)
@given(_DECODED_FIELDS)
def test_a_built_decoded_is_the_classes(fields):
    """``new_decoded(*fields)`` is ``Decoded(*fields)``, field by field."""
    _same(new_decoded(*fields), Decoded(*fields))
    assert new_decoded(*fields).decided_by == Decoded(*fields).decided_by


@settings(max_examples=200, deadline=None)
@given(_EVIDENCE)
def test_a_built_evidence_is_the_classes(evidence):
    """``new_evidence(*fields)`` is ``Evidence(*fields)``, field by field."""
    fields = tuple(getattr(evidence, f.name) for f in dataclasses.fields(evidence))
    _same(new_evidence(*fields), evidence)


@settings(max_examples=100, deadline=None)
@given(st.tuples(_TEXT, _TEXT, st.booleans(), _OPT_INT, st.integers(-1, 9),
                 st.lists(st.integers(0, 99), max_size=4).map(tuple), st.booleans()))
def test_a_built_attempt_is_the_classes(fields):
    """``attempt.new_attempt`` is ``DecodeAttempt``, every field given."""
    _same(new_attempt(*fields), DecodeAttempt(*fields))


def test_the_built_records_stay_frozen():
    """A built record is as immutable as one made by its class."""
    record = new_decoded("t", "utf-8", Source.META, 0, (), (), "utf-8", 0, (), False, 1, False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.text = "x"   # type: ignore[misc]


def test_the_reference_is_the_class():
    """Pure: the builder is the class's own constructor."""
    assert pure_slot_builder(Decoded) is Decoded
    assert (slot_builder is pure_slot_builder) is (_RECORDS is None)


@needs_compiled
def test_a_wrong_number_of_fields_is_refused():
    """Every field, positionally: one missing or one more is a TypeError, as no default is
    filled."""
    build = _RECORDS.SlotBuilder(Evidence)
    with pytest.raises(TypeError):
        build(Source.META, None, None, True, "r", None, None)
    with pytest.raises(TypeError):
        build(Source.META, None, None, True, "r", None, None, None, None)
    assert build.fields == tuple(f.name for f in dataclasses.fields(Evidence))


@needs_compiled
@pytest.mark.parametrize("cls", [int, dict, type("Plain", (), {})], ids=["int", "dict", "class"])
def test_a_class_that_is_not_a_slotted_dataclass_is_refused(cls):
    """Only a dataclass whose slots are its fields is built so."""
    with pytest.raises(TypeError):
        _RECORDS.SlotBuilder(cls)


@needs_compiled
def test_unslotted_or_post_init_dataclasses_are_refused():
    """A ``__dict__`` or a ``__post_init__`` would be skipped: refused."""
    @dataclasses.dataclass(frozen=True)
    class WithDict:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class WithPostInit:
        a: int

        def __post_init__(self) -> None:
            pass

    for cls in (WithDict, WithPostInit):
        with pytest.raises(TypeError):
            _RECORDS.SlotBuilder(cls)


@needs_compiled
def test_built_records_hold_and_release_their_fields():
    """Each field is referenced once per record and let go with it; records are collected."""
    value = "a field value " + "x" * 10
    before = sys.getrefcount(value)
    records = [new_evidence(Source.META, value, None, True, value, None, None, None)
               for _ in range(1000)]
    assert sys.getrefcount(value) == before + 2000
    assert all(gc.is_tracked(r) for r in records[:3])
    del records
    gc.collect()
    assert sys.getrefcount(value) == before


@needs_compiled
def test_every_real_world_decision_is_the_same_with_the_reference_builders(monkeypatch):
    """Each page of the real-world set (as served and under a wrong header), decided with
    the compiled builders and with the classes: the same decision, field by field."""
    from encoding_core.decision import attempt, decode, resolve
    from encoding_core.decision.tracememo import TraceMemo
    from tests.repomodules import repo_module

    cases = [(page.body, header) for page in repo_module("realworld", "bench").pages()
             for header in (page.content_type, "text/html; charset=iso-8859-1")]
    built = [decode.decode(body, header) for body, header in cases]
    for module, name, cls in ((decode, "new_decoded", Decoded),
                              (resolve, "new_evidence", Evidence),
                              (attempt, "new_attempt", DecodeAttempt),
                              (decode, "new_opinions", resolve.Opinions)):
        monkeypatch.setattr(module, name, cls)
    monkeypatch.setattr(decode, "_TRACES", TraceMemo())
    for (body, header), compiled_decision in zip(cases, built, strict=True):
        reference = decode.decode(body, header)
        assert type(compiled_decision) is type(reference)
        for field in dataclasses.fields(reference):
            assert getattr(compiled_decision, field.name) == getattr(reference, field.name)
        assert compiled_decision.to_json() == reference.to_json()


#: The field order every positional builder call is written in (``new_decoded``,
#: ``new_evidence``, ``new_attempt``, ``new_opinions``: no keyword checks there, and mypy sees
#: ``Callable[..., X]``). A field added or moved fails here first: then fix each call site.
FIELD_ORDERS = {
    "Decoded": ["text", "encoding", "source", "replacements", "evidence", "conflicts",
                "browser_encoding", "bom_length", "error_offsets", "needs_review",
                "body_length", "lossy"],
    "Evidence": ["source", "raw_label", "encoding", "used", "reason", "strict_ok",
                 "error_offset", "confidence"],
    "DecodeAttempt": ["encoding", "text", "strict_ok", "error_offset", "replacements",
                      "error_offsets", "truncated"],
    "Opinions": ["bom", "header", "declaration"],
}


def test_the_positional_builders_field_orders_are_pinned():
    from dataclasses import fields

    from encoding_core.decision.attempt import DecodeAttempt
    from encoding_core.decision.models import Decoded, Evidence
    from encoding_core.decision.resolve import Opinions

    for record in (Decoded, Evidence, DecodeAttempt, Opinions):
        assert [f.name for f in fields(record)] == FIELD_ORDERS[record.__name__], record
