"""Tests for fetch.codings: content codings undone under a size cap, and a cap on their number."""

from __future__ import annotations

import gzip

import pytest

from encoding_core.fetch.codings import (
    ContentDecodingError,
    TooManyCodingsError,
    read_body,
)
from encoding_core.fetch.limits import MAX_CODINGS


def _nested(data: bytes, times: int) -> bytes:
    for _ in range(times):
        data = gzip.compress(data)
    return data


def test_codings_up_to_the_cap_are_undone() -> None:
    """``MAX_CODINGS`` gzip codings in a row are all removed, in order."""
    body = read_body([_nested(b"caf\xc3\xa9", MAX_CODINGS)], ["gzip"] * MAX_CODINGS, 1 << 20)
    assert body.data == b"caf\xc3\xa9" and body.codings == ("gzip",) * MAX_CODINGS


@pytest.mark.parametrize("count", [MAX_CODINGS + 1, 1_000, 100_000], ids=str)
def test_more_codings_than_the_cap_are_a_clear_error(count: int) -> None:
    """One more coding than the cap, or 1,000 (a RecursionError before: 1,000 nested
    generators), is refused with a message that counts them; not a mislabelled body."""
    header = ", ".join(["gzip"] * count)
    with pytest.raises(TooManyCodingsError, match=f"lists {count:,} codings .* more than the "
                                                  f"{MAX_CODINGS} undone here"):
        read_body([_nested(b"x", 2)], [header], 1 << 20)
    assert not issubclass(TooManyCodingsError, ContentDecodingError)


def test_identity_does_not_count() -> None:
    """``identity`` is no coding: many of them are no error."""
    assert read_body([b"plain"], [", ".join(["identity"] * 1_000)], 100).data == b"plain"
