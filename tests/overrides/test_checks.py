"""overrides.checks: what users type for an override, normalised or refused with advice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from encoding_core.errors import OverrideError
from encoding_core.overrides.checks import (
    check_encoding,
    check_host,
    check_name,
    check_reason,
    same_person,
)

CASES = json.loads((Path(__file__).parents[1] / "cases" / "overrides_validation.json")
                   .read_text(encoding="utf-8"))
CHECKS = {"host": check_host, "encoding": check_encoding, "reason": check_reason,
          "author": lambda value: check_name(value, what="author")}
REFUSED = [c for c in CASES if c["field"] in CHECKS]


@pytest.mark.parametrize("case", REFUSED, ids=[c["label"] for c in REFUSED])
def test_refused_with_a_message_that_says_what_to_write(case):
    """The same cases the store refuses, refused by the check itself, with the same advice."""
    with pytest.raises(OverrideError, match=case["expect_message"]):
        CHECKS[case["field"]](case["value"])


ACCEPTED = [
    ("host", " Shop.Example.COM. ", "shop.example.com"),
    ("host", "*.Example.com", "*.example.com"),
    ("host", "bücher.example", "xn--bcher-kva.example"),
    ("host", "192.0.2.7", "192.0.2.7"),
    ("host", "[2001:db8::1]", "[2001:db8::1]"),
    ("encoding", "latin1", "windows-1252"),
    ("encoding", " Shift_JIS ", "shift_jis"),
    ("reason", "  The CDN says\n iso-8859-1; the body is UTF-8. ",
     "The CDN says iso-8859-1; the body is UTF-8."),
    ("author", "  ada@example.com ", "ada@example.com"),
]


@pytest.mark.parametrize(("field", "value", "stored"), ACCEPTED,
                         ids=[f"{f}-{v.strip()}" for f, v, _ in ACCEPTED])
def test_accepted_values_are_normalised_as_the_file_stores_them(field, value, stored):
    assert CHECKS[field](value) == stored


@pytest.mark.parametrize(("a", "b", "same"), [
    ("Ada", " ada ", True), ("ada@example.com", "ADA@EXAMPLE.COM", True),
    ("ada", "bob", False), (None, "ada", False), (None, None, False),
])
def test_same_person_ignores_case_and_spaces(a, b, same):
    """The author cannot approve their own proposal under another capitalisation."""
    assert same_person(a, b) is same
