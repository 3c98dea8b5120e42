"""Who acts on the Overrides page: the signed-in user, a trusted proxy's user, or a typed name.

In order (``overrides.identity`` has the rules):

- **a trusted proxy**: with ``trusted_header`` and ``trusted_proxies`` in ``[overrides]``, the
  header names the user when the connection (``st.context.ip_address``) comes from a listed
  proxy;
- **sign-in**: with an ``[auth]`` section in ``.streamlit/secrets.toml`` (an OpenID Connect
  provider), the sidebar offers "Log in" (``st.login``); once signed in, ``st.user`` is who
  acts, with its issuer and subject, and no name can be typed;
- **a typed name**: otherwise, and marked unverified. It may approve or renew only while the
  app is one person's on their own machine (``unverified_refusal``: ``server.address`` a
  loopback address, the browser on this machine); elsewhere the store refuses it, and the
  sidebar says how to configure sign-in.

A malformed setting (``[overrides]``, ``[auth]``) is reported in the sidebar with the form
expected; the rest of the page works. Names reach the screen through ``st.text``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import streamlit as st
from streamlit.errors import StreamlitAPIException, StreamlitAuthError

from encoding_core.overrides.identity import (
    Identity,
    identity_settings,
    oidc_identity,
    proxy_identity,
    unverified_refusal,
)
from ui.components import md_escape

ACTING, LOG = "overrides_acting_as", "overrides_acting_log"
PENDING = "overrides_pending"


@dataclass(frozen=True, slots=True)
class Acting:
    """Who acts in this session (None: nobody yet), and why a typed name cannot approve."""

    identity: Identity | None
    unverified_refusal: str | None


def secrets_section(name: str) -> tuple[Mapping[str, Any], str | None]:
    """The ``[name]`` section of the secrets, and what is wrong with it (read as empty then)."""
    try:
        section = st.secrets.get(name, {})
    except Exception as exc:  # a secrets.toml that does not parse: say so, here only
        return {}, f"[{name}] in .streamlit/secrets.toml cannot be read: {exc}"
    if not isinstance(section, Mapping):
        return {}, (f"[{name}] in .streamlit/secrets.toml is {type(section).__name__}, "
                    "not a section of settings")
    return section, None


def _auth_configured() -> bool:
    section, _ = secrets_section("auth")
    return bool(section)


def _record(what: str, name: str) -> None:
    at = datetime.now(UTC).strftime("%H:%M:%S UTC")
    st.session_state[LOG] = [*st.session_state.get(LOG, []), (at, what, name)]


def _use_name() -> None:
    name = " ".join(str(st.session_state.get("reviewer_name", "")).split())
    if name:
        st.session_state[ACTING] = name
        _record(f"acting as {name} (unverified)", name)


def _switch() -> None:
    name = st.session_state.pop(ACTING, None)
    st.session_state.pop(PENDING, None)  # a staged change was made as the previous name
    if name:
        _record(f"{name} switched user", name)


def _signed_in() -> Identity | None:
    """The OpenID Connect user, with a Log out button; a Log in button when not signed in."""
    claims = st.user.to_dict() if st.user.get("is_logged_in") else {}
    identity = oidc_identity(claims)
    if identity is not None:
        st.sidebar.caption("Signed in as (verified by your sign-in)")
        st.sidebar.text(f"{identity.name}\n{identity.how()}")
        st.session_state.pop(ACTING, None)
        if st.sidebar.button("Log out", key="reviewer_logout"):
            st.session_state.pop(PENDING, None)
            st.logout()
        return identity
    if st.sidebar.button("Log in", key="reviewer_login", type="primary"):
        try:
            st.login()
        except (StreamlitAuthError, StreamlitAPIException) as exc:
            st.sidebar.error("Sign-in is configured in [auth] but cannot start: "
                             f"{md_escape(str(exc))}")
    return None


def _typed(refusal: str | None) -> Identity | None:
    name = st.session_state.get(ACTING)
    if name:
        st.sidebar.caption("Acting as (a typed name, not verified)")
        st.sidebar.text(name)
        st.sidebar.button("Switch user", key="reviewer_switch", on_click=_switch,
                          help="Clears the name (and any change waiting to be written); the "
                               "switch is listed below.")
    else:
        with st.sidebar.form("reviewer_form", border=False):
            st.text_input("Your name", key="reviewer_name", placeholder="ada@example.com",
                          help="Recorded with every proposal and review, marked unverified.")
            st.form_submit_button("Use this name", key="reviewer_use", on_click=_use_name)
    if refusal is not None:
        st.sidebar.warning("A typed name can propose, reject and retire here, but not approve "
                           f"or renew: {md_escape(refusal)}")
    else:
        st.sidebar.caption("Unverified: nothing checks a typed name. It can approve only "
                           "because this app is served on a loopback address to this "
                           "machine's browser; the file marks such approvals unverified.")
    return Identity.typed(name) if name else None


def acting() -> Acting:
    """Who acts in this session, shown in the sidebar (see the module docstring)."""
    settings_section, problem = secrets_section("overrides")
    settings, problems = identity_settings(settings_section)
    for text in ((problem,) if problem else ()) + problems:
        st.sidebar.warning(md_escape(text))
    headers = dict(st.context.headers)
    raw_peer = st.context.ip_address  # a str, or None for a loopback peer (Streamlit's rule)
    # AppTest has no client and answers with a mock object: no peer address, as on loopback
    peer = raw_peer if isinstance(raw_peer, str) else None
    refusal = unverified_refusal(st.get_option("server.address"), peer, headers)
    identity = proxy_identity(headers, peer, settings)
    if identity is not None:
        st.sidebar.caption("Signed in as (verified by the proxy)")
        st.sidebar.text(f"{identity.name}\n{identity.how()}")
    elif _auth_configured():  # sign-in is set up: the account acts, no name can be typed
        identity = _signed_in()
        if identity is None:
            st.sidebar.caption("Log in to propose or review: every change records your "
                               "signed-in account.")
    else:
        identity = _typed(refusal)
    log = st.session_state.get(LOG, [])
    if log:
        st.sidebar.caption("This session so far:")
        st.sidebar.text("\n".join(f"{at}  {what}" for at, what, _ in log))
    return Acting(identity, refusal)
