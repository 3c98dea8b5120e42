"""_prescan_steps: the prescan's named steps, each against the HTML Standard's wording."""

from __future__ import annotations

import pytest

from encoding_core.whatwg._prescan_steps import (
    EndOfInput,
    encoding_from_content,
    get_attribute,
    meta_branch,
    xml_encoding,
)

# "extracting a character encoding from a meta element": (content, label or None)
CONTENT_CASES = [
    ("text/html; charset=utf-8", "utf-8"),
    ("text/html;charset = 'koi8-r' ; x", "koi8-r"),
    ('CHARSET="gbk"', "gbk"),
    ("charset=utf-8;q=1", "utf-8"),
    ("text/html; charset", None),
    ("charset=", None),
    ('charset="utf-8', None),            # an unmatched quote: nothing
    ("xcharsetcharset=sjis", "sjis"),    # the loop jumps back after a "charset" with no "="
    ("charset x charset=big5", "big5"),
]


@pytest.mark.parametrize(("content", "label"), CONTENT_CASES, ids=[c for c, _ in CONTENT_CASES])
def test_encoding_from_content(content, label):
    assert encoding_from_content(content) == label


# "get an attribute": (bytes after the tag name, (name, value) or None)
ATTRIBUTE_CASES = [
    (b' charset="UTF-8">', ("charset", "utf-8")),
    (b" CHARSET=utf-8>", ("charset", "utf-8")),
    (b" /  http-equiv = 'Content-Type'>", ("http-equiv", "content-type")),
    (b" async >", ("async", "")),
    (b"=x=y>", ("=x", "y")),             # a leading "=" belongs to the name (step 4)
    (b" >", None),
]


@pytest.mark.parametrize(("data", "expected"), ATTRIBUTE_CASES,
                         ids=[d.decode() for d, _ in ATTRIBUTE_CASES])
def test_get_attribute(data, expected):
    found = get_attribute(data, 0)
    assert (found[:2] if found else None) == expected


@pytest.mark.parametrize("data", [b" charset", b' charset="utf-8', b" charset=utf-8", b"  "])
def test_get_attribute_runs_out_of_bytes(data):
    with pytest.raises(EndOfInput):
        get_attribute(data, 0)


def test_meta_branch_needs_the_pragma_for_content():
    skipped: list = []
    assert meta_branch(b' content="text/html; charset=gbk">', 0, skipped)[0] is None
    found = meta_branch(b' http-equiv="content-type" content="text/html; charset=gbk">', 0,
                        skipped)
    assert found[:2] == ("gbk", "gbk") and not skipped


def test_meta_branch_records_an_unknown_label_and_maps_utf16():
    skipped: list = []
    assert meta_branch(b'<meta charset="no-such">', 6, skipped)[0] is None
    assert [(s.raw_label, s.offset) for s in skipped] == [("no-such", 0)]
    assert meta_branch(b' charset="utf-16le">', 0, [])[0] == "utf-8"


@pytest.mark.parametrize(("data", "expected"), [
    (b'<?xml version="1.0" encoding="ISO-8859-2"?>', ("iso-8859-2", "ISO-8859-2")),
    (b"<?xml encoding = 'utf-16'?>", ("utf-8", "utf-16")),
    (b'<?xml version="1.0"?>', None),
    (b'<?xml encoding="a b"?>', None),
    (b'<html encoding="gbk">', None),
], ids=["iso-8859-2", "utf-16-is-utf-8", "none", "space-in-label", "not-xml"])
def test_xml_encoding(data, expected):
    assert xml_encoding(data) == expected
