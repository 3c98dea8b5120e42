"""Who acts on the overrides file: verified identities, the loopback rule, the settings."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from encoding_core.overrides.identity import (
    Identity,
    IdentitySettings,
    Verified,
    identity_settings,
    oidc_identity,
    proxy_identity,
    unverified_refusal,
)
from encoding_core.overrides.retest import retest
from encoding_core.overrides.store import OverrideError, OverrideStore

NOW = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
REASON = "The header says iso-8859-1 but the body is UTF-8."
ISSUER = "http://127.0.0.1:9000"
BOB = Identity("bob@example.com", Verified.OIDC, ISSUER, "bob")
UTF8_BODY = "<p>Café crème, naïve ’quotes’.</p>".encode()
PROXY = IdentitySettings("X-Auth-Email", ("10.0.0.5", "10.1.0.0/16"))


def _store(tmp_path: Path, now: datetime = NOW, **kwargs) -> OverrideStore:
    return OverrideStore(tmp_path / "overrides.yaml", clock=lambda: now, **kwargs)


def _propose(store: OverrideStore, author: str | Identity = "alice@example.com") -> str:
    return store.propose(host="shop.example.com", encoding="utf-8", reason=REASON,
                         author=author, review_by=store.today() + timedelta(days=30)).id


def test_oidc_identity_from_the_id_token_claims():
    """st.user's claims give the e-mail as the name, with issuer and subject; no sub, nobody."""
    user = {"is_logged_in": True, "email": "bob@example.com", "sub": "bob", "iss": ISSUER,
            "name": "Bob"}
    assert oidc_identity(user) == BOB
    assert oidc_identity({**user, "email": None}).name == "Bob"
    assert oidc_identity({"is_logged_in": False}) is None
    assert oidc_identity({"is_logged_in": True, "email": "x@example.com"}) is None


@pytest.mark.parametrize(("peer", "headers", "expected"), [
    ("10.0.0.5", {"X-Auth-Email": "carol@example.com"}, "carol@example.com"),
    ("10.1.2.3", {"x-auth-email": " carol@example.com "}, "carol@example.com"),
    ("10.0.0.6", {"X-Auth-Email": "carol@example.com"}, None),  # not a trusted proxy
    (None, {"X-Auth-Email": "carol@example.com"}, None),         # loopback is not listed
    ("10.0.0.5", {"X-Other": "carol@example.com"}, None),        # the header is absent
    ("10.0.0.5", {"X-Auth-Email": ""}, None),
], ids=["proxy", "proxy-network", "untrusted-peer", "loopback-peer", "no-header", "empty"])
def test_proxy_header_is_honoured_only_from_a_trusted_proxy(peer, headers, expected):
    """The trusted header names the user only when the connection comes from a listed proxy."""
    found = proxy_identity(headers, peer, PROXY)
    assert (found.name if found else None) == expected
    if found is not None:
        assert (found.via, found.header, found.proxy) == (Verified.PROXY, "X-Auth-Email", peer)
    assert proxy_identity(headers, peer, IdentitySettings()) is None  # nothing configured


@pytest.mark.parametrize(("bind", "peer", "headers", "allowed"), [
    ("127.0.0.1", None, {}, True),
    ("localhost", None, {"Host": "localhost:8501"}, True),
    ("::1", None, {}, True),
    (None, None, {}, False),                                   # every interface
    ("0.0.0.0", None, {}, False),
    ("192.168.1.4", None, {}, False),
    ("127.0.0.1", "192.168.1.9", {}, False),                   # a browser elsewhere
    ("127.0.0.1", None, {"X-Forwarded-For": "203.0.113.7"}, False),  # a proxy on this machine
    ("127.0.0.1", None, {"Forwarded": "for=203.0.113.7"}, False),
], ids=["loopback", "localhost", "ipv6-loopback", "unset", "all-interfaces", "lan-address",
        "remote-peer", "x-forwarded-for", "forwarded"])
def test_unverified_approval_only_on_loopback(bind, peer, headers, allowed):
    """A typed name approves only when the app listens on loopback and the browser is local."""
    refusal = unverified_refusal(bind, peer, headers)
    assert (refusal is None) is allowed
    if refusal is not None:
        assert "configure sign-in" in refusal and "[auth]" in refusal


@pytest.mark.parametrize(("section", "settings", "problem"), [
    ({"trusted_header": "X-Auth-Email", "trusted_proxies": ["10.0.0.5"]},
     IdentitySettings("X-Auth-Email", ("10.0.0.5",)), None),
    ({"trusted_header": "X-Auth-Email", "trusted_proxies": "10.0.0.5"},
     IdentitySettings("X-Auth-Email", ("10.0.0.5",)), None),  # one string: a one-item list
    ({"trusted_proxies": 5}, IdentitySettings(), "is not a list of addresses"),
    ({"trusted_header": "X-Auth-Email", "trusted_proxies": ["10.0.0.5", "proxy"]},
     IdentitySettings("X-Auth-Email", ("10.0.0.5",)), "'proxy' is not an IP address"),
    ({"trusted_header": "X Auth", "trusted_proxies": ["10.0.0.5"]},
     IdentitySettings(None, ("10.0.0.5",)), "is not a header name"),
    ({"trusted_header": "X-Auth-Email"}, IdentitySettings("X-Auth-Email"),
     "the header is never honoured"),
    ({"trusted_proxy": ["10.0.0.5"]}, IdentitySettings(), "unknown setting(s) 'trusted_proxy'"),
], ids=["list", "string", "number", "bad-item", "bad-header", "no-proxies", "unknown-key"])
def test_identity_settings_report_a_bad_value_and_keep_the_rest(section, settings, problem):
    """A bad setting is described with the form expected, and the good ones are kept."""
    got, problems = identity_settings(section)
    assert got == settings
    if problem is None:
        assert problems == ()
    else:
        assert len(problems) == 1 and problem in problems[0] and "[overrides]" in problems[0]


def test_unverified_approval_is_refused_beyond_loopback_and_marked_on_it(tmp_path):
    """Beyond loopback a typed name cannot approve; on loopback it can, marked unverified."""
    refusal = unverified_refusal("0.0.0.0", None, {})
    assert refusal is not None
    served = _store(tmp_path, unverified_refusal=refusal)
    ident = _propose(served)
    with pytest.raises(OverrideError, match=r"bob is a typed name.*served on 0\.0\.0\.0"):
        served.approve(ident, reviewer="bob")
    local = _store(tmp_path)
    entry = local.approve(ident, reviewer="bob")
    assert (entry.approved_via, entry.approval_verified, entry.approver) == (
        Verified.UNVERIFIED, False, "bob (unverified)")
    text = local.path.read_text(encoding="utf-8")
    assert "approved_via: unverified" in text and "verified: {via: unverified}" in text
    assert local.history(ident)[-1].verified_how == "unverified: a typed name"


def test_verified_approval_records_who_how_and_when(tmp_path):
    """A signed-in approval records the issuer and subject in the entry's history."""
    store = _store(tmp_path, unverified_refusal="served beyond loopback")
    ident = _propose(store, Identity("alice@example.com", Verified.OIDC, ISSUER, "alice"))
    entry = store.approve(ident, reviewer=BOB)
    assert (entry.approved_by, entry.approved_via, entry.approver) == (
        "bob@example.com", Verified.OIDC, "bob@example.com")
    propose, approve = store.history(ident)
    assert (propose.by, propose.identity.subject) == ("alice@example.com", "alice")
    assert (approve.at, approve.by, approve.identity) == (NOW, "bob@example.com", BOB)
    assert approve.verified_how == f"oidc: {ISSUER} sub=bob"
    assert f"verified: {{via: oidc, issuer: {ISSUER}, subject: bob}}" in store.text()


def test_the_same_account_under_another_name_is_the_author(tmp_path):
    """The author's signed-in account approving under another e-mail is still the author."""
    store = _store(tmp_path)
    ident = _propose(store, Identity("alice@example.com", Verified.OIDC, ISSUER, "alice"))
    with pytest.raises(OverrideError, match="never the author"):
        store.approve(ident, reviewer=Identity("al@example.net", Verified.OIDC, ISSUER, "alice"))
    other_issuer = Identity("al@example.net", Verified.OIDC, "https://other.example", "alice")
    assert store.approve(ident, reviewer=other_issuer).approved_by == "al@example.net"


def test_renew_sets_a_new_date_from_the_retest_and_keeps_the_approver(tmp_path):
    """Renewing without a date reviews again RENEW_DAYS after the re-test; bob stays in the
    history beside carol."""
    store = _store(tmp_path)
    ident = _propose(store)
    entry = store.approve(ident, reviewer=BOB)
    later = _store(tmp_path, now=NOW + timedelta(days=20))  # now due (DUE_DAYS before)
    check = retest(entry, UTF8_BODY, "text/html; charset=iso-8859-1",
                   tested_at=NOW + timedelta(days=19))
    carol = Identity("carol@example.com", Verified.OIDC, ISSUER, "carol")
    renewed = later.renew(ident, reviewer=carol, review_by=None, reason=REASON, retest=check)
    assert renewed.review_by == (NOW + timedelta(days=19 + 90)).date() != entry.review_by
    assert (renewed.approved_by, renewed.approved_via) == ("carol@example.com", Verified.OIDC)
    events = later.history(ident)
    assert [(e.action, e.by) for e in events] == [
        ("propose", "alice@example.com"), ("approve", "bob@example.com"),
        ("renew", "carol@example.com")]
    assert ("approved_by", "bob@example.com", "carol@example.com") in events[-1].changes
    assert ("review_by", str(entry.review_by), str(renewed.review_by)) in events[-1].changes
    assert events[-1].identity == carol


def test_the_template_ships_an_empty_documented_reviewers_list(tmp_path):
    """A new file has `reviewers: []` with the rule beside it; listing people then restricts
    approval to verified members."""
    store = _store(tmp_path)
    ident = _propose(store)
    text = store.path.read_text(encoding="utf-8")
    assert "\nreviewers: []\n" in text and "only a listed person whose identity" in text
    assert store.reviewers() == ()
    store.path.write_text(text.replace("reviewers: []", "reviewers: [bob@example.com]"),
                          encoding="utf-8")
    with pytest.raises(OverrideError, match="typed name, not a verified one"):
        store.approve(ident, reviewer="bob@example.com")
    assert store.approve(ident, reviewer=BOB).approved_via is Verified.OIDC
