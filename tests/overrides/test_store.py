"""Tests for encoding_core.overrides.store: the store, its rules and the file's integrity."""

from __future__ import annotations

import json
import multiprocessing
import shutil
import threading
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import filelock
import pytest

from encoding_core.overrides.retest import retest
from encoding_core.overrides.store import (
    Applicability,
    Approve,
    Identity,
    OverrideError,
    OverrideEvidence,
    OverrideFileError,
    OverrideStore,
    Propose,
    Reject,
    Renew,
    Retire,
    Status,
    Verified,
    actions_for,
)

CASES = Path(__file__).parents[1] / "cases"
SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "overrides.yaml"
NOW = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
TODAY = NOW.date()
REASON = "The header says iso-8859-1 but the body is UTF-8."
UTF8_BODY = "<p>Café crème, naïve ’quotes’.</p>".encode()
CP1252_BODY = UTF8_BODY.decode().encode("windows-1252")
MALFORMED = json.loads((CASES / "overrides_malformed.json").read_text(encoding="utf-8"))
VALIDATION = json.loads((CASES / "overrides_validation.json").read_text(encoding="utf-8"))


def signed(name: str) -> Identity:
    """``name`` as signed in through an OpenID Connect provider (subject = the name)."""
    return Identity(name, Verified.OIDC, "https://id.example", name.lower())


def make_store(path: Path, now: datetime = NOW, **kwargs) -> OverrideStore:
    return OverrideStore(path, clock=lambda: now, **kwargs)


def propose(store: OverrideStore, host: str = "shop.example.com", author: str = "ada",
            days: int = 90, encoding: str = "utf-8", **kwargs):
    return store.propose(host=host, encoding=encoding, reason=REASON, author=author,
                         review_by=store.today() + timedelta(days=days), **kwargs)


@pytest.fixture
def store(tmp_path: Path) -> OverrideStore:
    return make_store(tmp_path / "overrides.yaml")


def test_missing_file_is_empty_and_created_on_first_change(store):
    """A missing file has no entries; the first proposal writes it with the header comments."""
    assert store.entries() == ()
    assert not store.path.exists()
    entry = propose(store)
    text = store.path.read_text(encoding="utf-8")
    assert text.startswith("# Site encoding overrides")
    assert entry.id == "ov-0001" and store.entries() == (entry,)


def test_propose_normalises_and_records(store):
    """Host and encoding are normalised; status, author, times and history are recorded."""
    evidence = OverrideEvidence(url="https://Shop.example.com/p", sha256="ab" * 32,
                                corrects="http-header", replacements=0, conflicts=2,
                                capture="landing/x.bin", fetched_at=NOW)
    entry = propose(store, host=" Shop.Example.COM. ", encoding=" Latin1 ", evidence=evidence)
    assert (entry.host, entry.encoding, entry.status) == ("shop.example.com", "windows-1252",
                                                          Status.PROPOSED)
    assert (entry.created, entry.created_by, entry.review_by) == (NOW, "ada",
                                                                  TODAY + timedelta(days=90))
    assert entry.evidence == evidence
    [event] = store.history(entry.id)
    assert (event.at, event.by, event.action) == (NOW, "ada", "propose")
    assert propose(store, host="b.example.com").id == "ov-0002"


@pytest.mark.parametrize("case", VALIDATION, ids=[c["label"] for c in VALIDATION])
def test_proposal_validation_messages(store, case):
    """Each bad field is refused with a message that says what to do; nothing is written."""
    fields = dict(host="shop.example.com", encoding="utf-8", reason=REASON, author="ada",
                  review_by=TODAY + timedelta(days=30))
    if case["field"] == "review_by":
        fields["review_by"] = TODAY + timedelta(days=case["days"])
    else:
        fields[case["field"]] = case["value"]
    with pytest.raises(OverrideError, match=case["expect_message"]):
        store.propose(**fields)
    assert not store.path.exists()


@pytest.mark.parametrize("case", MALFORMED, ids=[c["label"] for c in MALFORMED])
def test_malformed_file_is_refused_and_left_untouched(tmp_path, case):
    """A broken file names file, line and key, and no operation rewrites it."""
    path = tmp_path / "overrides.yaml"
    original = ("\n".join(case["yaml_lines"]) + "\n").encode("utf-8")
    path.write_bytes(original)
    store = make_store(path)
    with pytest.raises(OverrideFileError) as info:
        store.entries()
    error = info.value
    assert (error.line, error.key) == (case["expect_line"], case["expect_key"])
    assert case["expect_message"] in error.reason
    assert str(error).startswith(f"{path}:{case['expect_line']}: ")
    for attempt in (lambda: propose(store, host="new.example.com"),
                    lambda: store.approve("ov-0001", reviewer="bob"),
                    lambda: store.retire("ov-0001", by="bob", reason=REASON),
                    lambda: store.active_for("shop.example.com")):
        with pytest.raises(OverrideFileError):
            attempt()
    assert path.read_bytes() == original
    assert sorted(p.name for p in tmp_path.iterdir()) == ["overrides.yaml", "overrides.yaml.lock"]


def test_non_utf8_file_is_refused_with_its_line(tmp_path):
    """A file saved in a legacy encoding is reported, not decoded by guesswork."""
    path = tmp_path / "overrides.yaml"
    original = "version: 1\n# Jos\xe9\noverrides: []\n".encode("latin-1")
    path.write_bytes(original)
    with pytest.raises(OverrideFileError, match=r"overrides.yaml:2: not UTF-8 \(byte 0xe9"):
        propose(make_store(path))
    assert path.read_bytes() == original


def test_comments_survive_every_operation(tmp_path):
    """Comments, key order and quoting in a hand-written file survive each kind of change."""
    path = tmp_path / "overrides.yaml"
    shutil.copy(SAMPLE, path)
    original = path.read_text(encoding="utf-8")
    comments = [line.strip() for line in original.splitlines() if "#" in line]
    assert len(comments) > 10
    store = make_store(path, now=datetime(2026, 12, 1, tzinfo=UTC),
                       reviewers=["ada@example.com", "grace@example.com", "linus@example.com"])
    new = propose(store, host="*.shop.example.com", author="grace@example.com")
    other = propose(store, host="c.example.com", author="grace@example.com")
    third = propose(store, host="d.example.com", author="grace@example.com")
    steps = [
        lambda: store.approve(new.id, reviewer=signed("ada@example.com")),
        lambda: store.reject(other.id, reviewer=signed("linus@example.com"), reason=REASON),
        lambda: store.retire(third.id, by="grace@example.com", reason=REASON),
        lambda: store.renew("ov-0002", reviewer=signed("ada@example.com"),
                            review_by=date(2027, 3, 1), reason=REASON,
                            retest=retest(store.get("ov-0002"), CP1252_BODY,
                                          "text/html; charset=utf-8", tested_at=NOW)),
        lambda: store.retire("ov-0001", by="ada@example.com", reason=REASON),
    ]
    for step in steps:
        step()
        text = path.read_text(encoding="utf-8")
        assert [c for c in comments if c not in text] == []
        assert "host: '*.news.example.org'" in text  # quoting kept
    old_lines = original.splitlines()
    new_lines = path.read_text(encoding="utf-8").splitlines()
    assert new_lines[:13] == old_lines[:13]  # header and config untouched
    assert [e.status for e in store.entries()] == [
        Status.RETIRED, Status.APPROVED, Status.PROPOSED, Status.REJECTED,
        Status.APPROVED, Status.REJECTED, Status.RETIRED]


def test_unchanged_file_round_trips_byte_for_byte(tmp_path):
    """Reading and rendering the sample without a change gives the same bytes."""
    from encoding_core.overrides.file import read_document, render

    assert render(read_document(SAMPLE)) == SAMPLE.read_text(encoding="utf-8")


def test_comment_only_file_keeps_its_comments(tmp_path):
    """A file holding only comments gets the data appended below them."""
    path = tmp_path / "overrides.yaml"
    path.write_text("# owned by the crawl team\n# ask #encodings before editing\n")
    propose(make_store(path))
    text = path.read_text()
    assert text.startswith("# owned by the crawl team\n# ask #encodings before editing\n")
    assert "version: 1" in text and "ov-0001" in text


def test_preview_shows_the_diff_and_writes_nothing(store):
    """preview returns the unified diff apply would write, and leaves the file alone."""
    entry = propose(store)
    before = store.path.read_bytes()
    diff = store.preview(Approve(entry.id, "bob"))
    assert diff.startswith("--- a/overrides.yaml\n+++ b/overrides.yaml\n")
    assert "-    status: proposed\n+    status: approved\n" in diff
    assert "+    approved_by: bob\n" in diff
    assert store.path.read_bytes() == before
    with pytest.raises(OverrideError, match="never the author"):
        store.preview(Approve(entry.id, "ada"))


def test_preview_of_first_proposal_is_against_dev_null(store):
    """Before the file exists, the diff adds the whole new file."""
    diff = store.preview(Propose("a.example.com", "utf-8", REASON, "ada",
                                 TODAY + timedelta(days=5)))
    assert diff.startswith("--- /dev/null\n+++ b/overrides.yaml\n")
    assert not store.path.exists()


def test_approval_rules(store):
    """The author never approves; only proposals are approved, once; dates must be live."""
    entry = propose(store)
    with pytest.raises(OverrideError, match="ADA proposed ov-0001 and cannot approve"):
        store.approve(entry.id, reviewer=" ADA ")
    with pytest.raises(OverrideError, match="no override with id 'ov-9'"):
        store.approve("ov-9", reviewer="bob")
    approved = store.approve(entry.id, reviewer="bob")
    assert (approved.status, approved.approved_by, approved.approved_on) == (
        Status.APPROVED, "bob", TODAY)
    with pytest.raises(OverrideError, match="only proposed entries can be approved"):
        store.approve(entry.id, reviewer="carol")
    second = propose(store)
    with pytest.raises(OverrideError, match=r"ov-0001 is already approved for shop\.example\.com"):
        store.approve(second.id, reviewer="bob")
    stale = propose(store, host="old.example.com", days=3)
    later = make_store(store.path, now=NOW + timedelta(days=4))
    with pytest.raises(OverrideError, match=r"review date .* has passed"):
        later.approve(stale.id, reviewer="bob")


def test_reviewer_list_in_file_restricts_approval(tmp_path):
    """With `reviewers` in the file, only they approve, reject or renew, signed in."""
    path = tmp_path / "overrides.yaml"
    path.write_text("version: 1\nreviewers: [Grace]\noverrides: []\n")
    store = make_store(path)
    entry = propose(store)
    for action in (lambda: store.approve(entry.id, reviewer=signed("bob")),
                   lambda: store.reject(entry.id, reviewer=signed("bob"), reason=REASON)):
        with pytest.raises(OverrideError, match=r"bob is not a listed reviewer \(Grace\)"):
            action()
    with pytest.raises(OverrideError, match="grace is a typed name, not a verified one"):
        store.approve(entry.id, reviewer="grace")  # typing a listed name is not enough
    approved = store.approve(entry.id, reviewer=signed("grace"))
    assert (approved.approved_by, approved.approved_via) == ("grace", Verified.OIDC)


def test_reviewer_list_given_to_the_store_replaces_the_files(store):
    """A reviewers argument (the app's config) takes precedence over the file."""
    restricted = make_store(store.path, reviewers=["carol"])
    entry = propose(restricted)
    with pytest.raises(OverrideError, match="not a listed reviewer"):
        restricted.approve(entry.id, reviewer=signed("bob"))
    assert restricted.reviewers() == ("carol",)
    assert restricted.approve(entry.id, reviewer=signed("Carol")).status is Status.APPROVED


def test_reject_retire_renew_rules(store):
    """Reject needs a proposal and a reason; renew needs an approval; retire ends either."""
    entry = propose(store)
    with pytest.raises(OverrideError, match="too short"):
        store.reject(entry.id, reviewer="bob", reason="no")
    with pytest.raises(OverrideError, match="cannot reject"):
        store.reject(entry.id, reviewer="ada", reason=REASON)
    with pytest.raises(OverrideError, match="only approved entries can be renewed"):
        store.renew(entry.id, reviewer="bob", review_by=TODAY + timedelta(days=9), reason=REASON)
    rejected = store.reject(entry.id, reviewer="bob", reason=REASON)
    assert (rejected.status, rejected.closed_by, rejected.closed_reason) == (
        Status.REJECTED, "bob", REASON)
    with pytest.raises(OverrideError, match="it is rejected"):
        store.retire(entry.id, by="bob", reason=REASON)
    withdrawn = store.retire(propose(store).id, by="ada", reason=REASON)
    assert withdrawn.status is Status.RETIRED
    live = store.approve(propose(store).id, reviewer="bob")
    check = retest(live, UTF8_BODY, "text/html; charset=iso-8859-1", tested_at=NOW)
    with pytest.raises(OverrideError, match="cannot renew"):
        store.renew(live.id, reviewer="ada", review_by=TODAY + timedelta(days=9), reason=REASON,
                    retest=check)
    renewed = store.renew(live.id, reviewer="carol", review_by=TODAY + timedelta(days=9),
                          reason=REASON, retest=check)
    assert (renewed.review_by, renewed.approved_by) == (TODAY + timedelta(days=9), "carol")
    events = store.history(live.id)
    assert [e.action for e in events] == ["propose", "approve", "renew"]
    assert events[-1].changes == (
        ("review_by", str(TODAY + timedelta(days=90)), str(TODAY + timedelta(days=9))),
        ("approved_by", "bob", "carol"))
    assert events[-1].reason == f"{REASON} ({check.summary()})"  # what the renewal rests on


@pytest.mark.parametrize("status", list(Status), ids=[s.value for s in Status])
def test_actions_for_a_status_are_the_ones_the_changes_allow(store, status):
    """What a page offers for an entry (actions_for) is what each change refuses by status."""
    entry = propose(store)
    if status is Status.APPROVED:
        store.approve(entry.id, reviewer="bob")
    elif status is Status.REJECTED:
        store.reject(entry.id, reviewer="bob", reason=REASON)
    elif status is Status.RETIRED:
        store.retire(entry.id, by="bob", reason=REASON)
    check = retest(store.get(entry.id), UTF8_BODY, "text/html; charset=iso-8859-1",
                   tested_at=NOW)
    changes = {"approve": Approve(entry.id, "carol"),
               "reject": Reject(entry.id, "carol", REASON),
               "retire": Retire(entry.id, "carol", REASON),
               "renew": Renew(entry.id, "carol", TODAY + timedelta(days=9), REASON, check)}
    refused_by_status = set()
    for action, change in changes.items():
        try:
            store.preview(change)
        except OverrideError as exc:
            if f"it is {status}" in str(exc):
                refused_by_status.add(action)
    assert set(actions_for(status)) == set(changes) - refused_by_status


def test_expiry_applies_through_the_review_date(store):
    """An approved override applies up to its review date and is expired the day after."""
    entry = store.approve(propose(store, days=10).id, reviewer="bob")
    assert store.active_for("shop.example.com", on=entry.review_by) == entry
    assert store.active_for("shop.example.com", on=entry.review_by + timedelta(days=1)) is None
    [status] = store.status_for("shop.example.com", on=entry.review_by + timedelta(days=1))
    assert status.applicability is Applicability.EXPIRED and not status.applied
    assert "expired, review was due" in status.why


@pytest.mark.parametrize(("host", "expected"), [
    ("shop.example.com", "shop.example.com"),
    ("a.shop.example.com", "*.shop.example.com"),
    ("x.y.shop.example.com", "*.shop.example.com"),
    ("news.example.com", "*.example.com"),
    ("SHOP.example.com.", "shop.example.com"),
    ("example.com", None),
    ("shop.example.org", None),
    ("badexample.com", None),
], ids=["exact", "sub-wildcard", "deep-sub-wildcard", "domain-wildcard", "case-and-dot",
        "bare-domain", "other-domain", "suffix-not-label"])
def test_most_specific_host_wins(store, host, expected):
    """Exact beats *.shop.example.com beats *.example.com; wildcards skip the bare domain."""
    for pattern, encoding in (("*.example.com", "windows-1252"), ("shop.example.com", "utf-8"),
                              ("*.shop.example.com", "shift_jis")):
        store.approve(propose(store, host=pattern, encoding=encoding).id, reviewer="bob")
    active = store.active_for(host)
    assert (active.host if active else None) == expected


def test_status_for_says_why_each_entry_applies_or_not(store):
    """Applied first; proposed, rejected, retired, expired and shadowed entries say why not."""
    applied = store.approve(propose(store).id, reviewer="bob")
    propose(store, encoding="windows-1252")
    store.reject(propose(store, encoding="gbk").id, reviewer="bob", reason=REASON)
    store.retire(propose(store, host="*.example.com").id, by="ada", reason=REASON)
    store.approve(propose(store, host="*.example.com", days=1).id, reviewer="bob")
    statuses = make_store(store.path, now=NOW + timedelta(days=2)).status_for("shop.example.com")
    assert statuses[0].entry == applied and statuses[0].applied
    assert statuses[0].why == (f"applied: approved by bob (unverified), review by "
                               f"{applied.review_by}")
    kinds = sorted(s.applicability.value for s in statuses[1:])
    assert kinds == ["expired", "proposed", "rejected", "retired"]
    evidence = [s.to_evidence() for s in statuses]
    assert [e.used for e in evidence] == [True, False, False, False, False]
    assert all(e.source == "override" for e in evidence)


def test_shadowed_entry_in_a_hand_edited_file(tmp_path):
    """Two approved entries for one host: the later approval applies, the other is shadowed."""
    path = tmp_path / "overrides.yaml"
    store = make_store(path)
    first = store.approve(propose(store).id, reviewer="bob")
    text = path.read_text()
    second = text.split("  - id: ov-0001\n")[1].replace("encoding: utf-8", "encoding: gbk")
    second = second.replace("approved_on: 2030-01-01", "approved_on: 2030-01-02")
    path.write_text(text + "  - id: ov-0002\n" + second)
    statuses = store.status_for("shop.example.com")
    assert [s.applicability for s in statuses] == [Applicability.APPLIED,
                                                   Applicability.SHADOWED]
    assert statuses[0].entry.encoding == "gbk" and statuses[1].entry.id == first.id


def test_lock_held_elsewhere_times_out_with_a_clear_error(store):
    """A writer that cannot get the lock gives up with OverrideError, writing nothing."""
    propose(store)
    before = store.path.read_bytes()
    impatient = make_store(store.path, lock_timeout=0.2)
    held = threading.Event()
    release = threading.Event()

    def hold() -> None:
        with filelock.FileLock(str(store.path) + ".lock"):
            held.set()
            release.wait(10)

    thread = threading.Thread(target=hold)
    thread.start()
    try:
        held.wait(10)
        with pytest.raises(OverrideError, match="locked by another writer"):
            propose(impatient, host="b.example.com")
    finally:
        release.set()
        thread.join()
    assert store.path.read_bytes() == before


def _propose_many(path: str, author: str, count: int) -> None:
    store = OverrideStore(path, lock_timeout=60)
    for n in range(count):
        store.propose(host=f"h{n}.{author}.example.com", encoding="windows-1252",
                      reason=f"Proposal {n} from {author} for the concurrency test.",
                      author=author, review_by=store.today() + timedelta(days=30))


def _approve_some_by(path: str, author: str, reviewer: str, count: int) -> None:
    store = OverrideStore(path, lock_timeout=60)
    for entry in [e for e in store.entries() if e.created_by == author][:count]:
        store.approve(entry.id, reviewer=reviewer)


def test_concurrent_processes_lose_nothing(tmp_path):
    """4 processes x 10 proposals, then 4 x 3 approvals, all at once: nothing lost, file valid."""
    path = str(tmp_path / "overrides.yaml")
    authors = ["ada", "bob", "carol", "dan"]
    context = multiprocessing.get_context("fork")  # Linux; the workers need no imports
    for target, argsets in (
            (_propose_many, [(path, a, 10) for a in authors]),
            (_approve_some_by, [(path, a, authors[i - 1], 3) for i, a in enumerate(authors)])):
        processes = [context.Process(target=target, args=args) for args in argsets]
        for process in processes:
            process.start()
        for process in processes:
            process.join(120)
        assert [p.exitcode for p in processes] == [0, 0, 0, 0]
    store = OverrideStore(path)
    entries = store.entries()
    assert len(entries) == 40
    assert len({e.id for e in entries}) == 40
    approved = [e for e in entries if e.status is Status.APPROVED]
    assert len(approved) == 12
    assert sorted(len(store.history(e.id)) for e in entries) == [1] * 28 + [2] * 12
    assert {a: sum(e.created_by == a for e in entries) for a in authors} == dict.fromkeys(
        authors, 10)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["overrides.yaml", "overrides.yaml.lock"]


def test_create_writes_a_valid_file_once(store):
    """create writes validated text to a new file and never replaces one."""
    assert [e.id for e in store.create(SAMPLE.read_text(encoding="utf-8"))] == [
        "ov-0001", "ov-0002", "ov-0003", "ov-0004"]
    assert store.path.read_bytes() == SAMPLE.read_bytes()
    with pytest.raises(OverrideError, match="already exists"):
        store.create("version: 1\noverrides: []\n")
    assert store.path.read_bytes() == SAMPLE.read_bytes()


def test_create_refuses_invalid_text(store):
    """Invalid text is refused before anything is written."""
    with pytest.raises(OverrideFileError, match=":2: "):
        store.create("version: 1\noverrides: {}\n")
    assert not store.path.exists()


def test_reads_follow_writes_from_another_store(store):
    """The read cache notices a write made through another store object."""
    assert store.entries() == ()
    other = make_store(store.path)
    propose(other)
    assert [e.id for e in store.entries()] == ["ov-0001"]
    other.approve("ov-0001", reviewer="bob")
    assert store.get("ov-0001").status is Status.APPROVED


def test_evidence_with_enum_source_is_written_as_text(store):
    """A Source enum in the evidence is written as its plain value."""
    from encoding_core.decision.models import Source

    entry = propose(store, evidence=OverrideEvidence(corrects=Source.HTTP_HEADER))
    assert entry.evidence == OverrideEvidence(corrects="http-header")
    assert "corrects: http-header\n" in store.path.read_text()


def test_internationalised_host_names_match_in_either_form(store):
    """An IDN is stored as its xn-- form and matched whether looked up as Unicode or xn--."""
    entry = store.approve(propose(store, host="Bücher.Example").id, reviewer="bob")
    assert entry.host == "xn--bcher-kva.example"
    assert store.active_for("bücher.example") == entry
    assert store.active_for("XN--BCHER-KVA.example.") == entry


def test_deeply_nested_block_yaml_is_refused_with_its_line(tmp_path):
    """3,000 nested block sequences (a RecursionError escaped) are an OverrideFileError that
    names the line where the nesting is deepest."""
    path = tmp_path / "overrides.yaml"
    path.write_text("version: 1\nx:\n" + "".join("  " * i + "-\n" for i in range(3000)))
    with pytest.raises(OverrideFileError, match="nested too deeply") as info:
        make_store(path).entries()
    assert info.value.line == 3002


def test_a_store_reuses_what_it_wrote_but_sees_another_writer(tmp_path):
    """A store's next write starts from the document it wrote (no re-parse, 3x faster at 160
    entries) only while the file is unchanged: a write by another store, or a hand edit, in
    between is read, never overwritten."""
    path = tmp_path / "overrides.yaml"
    first, second = make_store(path), make_store(path)
    propose(first, host="a.example.com")
    propose(first, host="b.example.com")
    propose(second, host="c.example.com")
    propose(first, host="d.example.com")
    path.write_text(path.read_text(encoding="utf-8").replace("d.example.com", "e.example.com"),
                    encoding="utf-8")
    propose(first, host="f.example.com")
    hosts = [e.host for e in make_store(path).entries()]
    assert hosts == ["a.example.com", "b.example.com", "c.example.com", "e.example.com",
                     "f.example.com"]


def _parses(monkeypatch) -> list[int]:
    """A count of whole-file parses (``read_document``, the slow half of a write)."""
    from encoding_core.overrides import store as store_module

    count = [0]
    real = store_module.read_document

    def counted(path: Path):
        count[0] += 1
        return real(path)
    monkeypatch.setattr(store_module, "read_document", counted)
    return count


def test_proposals_append_their_entry_and_read_only_what_others_appended(tmp_path, monkeypatch):
    """Issue 28: a proposal is written as the file plus its entry (one entry dumped, not the
    file) and a store reads only the entries another writer appended since its last write;
    the file is what a whole render of it gives, byte for byte, and nothing is lost."""
    from encoding_core.overrides.file import read_document, render

    path = tmp_path / "overrides.yaml"
    first, second = make_store(path), make_store(path)
    propose(first, host="a.example.com")
    parses = _parses(monkeypatch)
    for n in range(6):
        propose(first if n % 3 else second, host=f"h{n}.example.com")
        text = path.read_text(encoding="utf-8")
        assert render(read_document(path)) == text    # as a full render writes it
    assert parses[0] == 1   # second's first write; then only the appended entries were parsed
    approved = make_store(path).entries()[1].id           # (a read: parsed whole)
    first.approve(approved, reviewer="bob")               # a change in place: a full render
    propose(second, host="z.example.com")                 # not an append: parsed whole
    assert parses[0] == 3
    entries = make_store(path).entries()
    assert [e.host for e in entries] == ["a.example.com", *(f"h{n}.example.com" for n in
                                                           range(6)), "z.example.com"]
    assert entries[1].status is Status.APPROVED


def test_four_writers_on_a_file_of_160_entries_lose_nothing(tmp_path):
    """Four real processes proposing into one real file of 160 entries at once (a write took
    0.9 s there and writers hit a 60 s lock timeout): every proposal is in the file once."""
    path = tmp_path / "overrides.yaml"
    seed = make_store(path)
    for n in range(160):
        propose(seed, host=f"old{n}.example.com", author="eve")
    authors = ["ada", "bob", "carol", "dan"]
    context = multiprocessing.get_context("fork")  # Linux; the workers need no imports
    processes = [context.Process(target=_propose_many, args=(str(path), a, 8)) for a in authors]
    for process in processes:
        process.start()
    for process in processes:
        process.join(300)
    assert [p.exitcode for p in processes] == [0, 0, 0, 0]
    entries = make_store(path).entries()
    assert len(entries) == len({e.id for e in entries}) == 160 + 32
    assert {a: sum(e.created_by == a for e in entries) for a in authors} == dict.fromkeys(
        authors, 8)


@pytest.mark.parametrize("layout", ["indentless", "four-space", "crlf"])
def test_a_proposal_into_a_file_a_person_re_laid_out_reads_back_whole(tmp_path, layout):
    """A file re-indented by hand (``- id:`` at column 0 as PyYAML writes it, a 4-space list)
    or saved with CRLF is not extended by the appended-entry path (the entry would not be an
    entry of that list, or would mix line ends): it is rendered whole and reads back."""
    from encoding_core.overrides.file import read_document, render

    path = tmp_path / "overrides.yaml"
    propose(make_store(path), host="a.example.com")
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    start = lines.index("overrides:") + 1
    if layout == "indentless":
        lines[start:] = [line[2:] for line in lines[start:]]
    elif layout == "four-space":
        lines[start:] = ["  " + line if line else line for line in lines[start:]]
    path.write_bytes("\n".join(lines).encode("utf-8").replace(
        b"\n", b"\r\n" if layout == "crlf" else b"\n"))
    assert [e.host for e in make_store(path).entries()] == ["a.example.com"]
    store = make_store(path)
    propose(store, host="b.example.com")
    propose(store, host="c.example.com")
    written = path.read_bytes()
    assert b"\r" not in written
    assert [e.host for e in make_store(path).entries()] == [
        "a.example.com", "b.example.com", "c.example.com"]
    assert render(read_document(path)) == written.decode("utf-8")
