"""Tests for spark.manifest: WARC paths from files and Common Crawl manifests (no Java)."""

from __future__ import annotations

import gzip

from encoding_core.spark.manifest import expand_paths


def test_files_stay_and_manifest_lines_get_the_prefix(tmp_path):
    manifest = tmp_path / "warc.paths.gz"
    manifest.write_bytes(gzip.compress(b"# crawl\ncrawl-data/a.warc.gz\n\n"
                                       b"s3a://other/b.warc.gz\n/abs/c.warc.gz\n"))
    found = expand_paths(["x.warc.gz", str(manifest)], "s3a://commoncrawl/")
    assert found.paths == ("x.warc.gz", "s3a://commoncrawl/crawl-data/a.warc.gz",
                           "s3a://other/b.warc.gz", "/abs/c.warc.gz")
    assert (found.skipped, found.problems) == (2, ())


def test_bad_lines_and_a_cut_manifest_are_named_and_the_rest_kept(tmp_path):
    manifest = tmp_path / "warc.paths"
    manifest.write_bytes(b"a.warc.gz\nb c.warc.gz\nd\x01.warc.gz\n\xc3(.warc.gz\ne.warc.gz\n")
    cut = tmp_path / "cut.paths.gz"
    cut.write_bytes(gzip.compress(b"f.warc.gz\n" * 2000)[:-30])
    found = expand_paths([str(manifest), str(cut), str(tmp_path / "none.paths")])
    assert found.paths[:2] == ("a.warc.gz", "e.warc.gz")
    assert len(found.paths) > 2 and set(found.paths[2:]) == {"f.warc.gz"}
    problems = "\n".join(found.problems)
    assert "warc.paths line 2: not a path (a space inside)" in problems
    assert "warc.paths line 3: not a path (a space inside)" in problems or \
        "warc.paths line 3: not a path (a control character)" in problems
    assert "warc.paths line 4: not a path (bytes that are not UTF-8)" in problems
    assert f"{cut}: cannot be read after line" in problems
    assert f"{tmp_path / 'none.paths'}: cannot be read: " in problems
