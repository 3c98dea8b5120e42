"""fast_init: the records decode builds keep every dataclass behaviour with the faster init."""

from __future__ import annotations

import dataclasses
import pickle

import pytest

from encoding_core.decision.attempt import DecodeAttempt
from encoding_core.decision.models import Conflict, Decoded, Evidence, Severity, Source
from encoding_core.records import fast_init


def test_a_record_is_built_frozen_equal_and_picklable():
    made = Decoded("café", "utf-8", "meta-tag", 0, (), (), "utf-8", body_length=5)
    assert made == Decoded(text="café", encoding="utf-8", source="meta-tag", replacements=0,
                           evidence=(), conflicts=(), browser_encoding="utf-8", bom_length=0,
                           error_offsets=(), needs_review=False, body_length=5)
    assert (made.bom_length, made.error_offsets, made.needs_review) == (0, (), False)
    assert pickle.loads(pickle.dumps(made)) == made
    assert dataclasses.replace(made, text="x").text == "x"
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.text = "x"  # type: ignore[misc]
    evidence = Evidence(Source.BOM, None, None, False, "no opinion")
    assert hash(evidence) == hash(Evidence(Source.BOM, None, None, False, "no opinion"))
    assert repr(DecodeAttempt("utf-8", "", True, None, 0, ())).startswith("DecodeAttempt(")
    assert Conflict("k", Severity.INFO, "m", "a").suggested_encoding is None


def test_a_missing_or_unknown_argument_is_refused_as_dataclasses_do():
    with pytest.raises(TypeError, match="missing"):
        Evidence(Source.BOM)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword"):
        Evidence(Source.BOM, None, None, False, "r", colour="red")  # type: ignore[call-arg]


def test_only_plain_slotted_fields_are_taken():
    with pytest.raises(TypeError, match="slots"):
        @fast_init
        @dataclasses.dataclass(frozen=True)
        class NoSlots:
            a: int

    with pytest.raises(TypeError, match="plain fields"):
        @fast_init
        @dataclasses.dataclass(frozen=True, slots=True)
        class Factory:
            a: list[int] = dataclasses.field(default_factory=list)


def test_what_the_faster_init_would_change_is_refused():
    """kw_only fields, a __post_init__ and InitVars would behave differently: refused."""
    with pytest.raises(TypeError, match="plain fields"):
        @fast_init
        @dataclasses.dataclass(frozen=True, slots=True, kw_only=True)
        class KeywordOnly:
            a: int

    with pytest.raises(TypeError, match="__post_init__"):
        @fast_init
        @dataclasses.dataclass(frozen=True, slots=True)
        class Validated:
            a: int

            def __post_init__(self) -> None:
                raise ValueError

    with pytest.raises(TypeError, match="InitVar"):
        @fast_init
        @dataclasses.dataclass(frozen=True, slots=True)
        class WithInitVar:
            a: int
            b: dataclasses.InitVar[int] = 0


def test_the_init_keeps_its_signature_and_inherited_slots():
    import inspect

    assert str(inspect.signature(Evidence.__init__)).startswith("(self, source: 'Source'")
    assert Evidence.__init__.__module__ == Evidence.__module__

    @dataclasses.dataclass(frozen=True, slots=True)
    class Base:
        a: int

    @fast_init
    @dataclasses.dataclass(frozen=True, slots=True)
    class Child(Base):
        b: str = "x"

    assert (Child(1).a, Child(1).b, Child(2, "y")) == (1, "x", Child(a=2, b="y"))
