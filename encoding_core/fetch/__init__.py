"""Fetching one page for diagnosis: raw bytes and headers as received, never decoded here.

Holds the httpx client (``client.fetch_page``), the address guard checked on every hop
(``addressguard``), the transport that connects only to checked addresses
(``pinned_transport``), content codings under a size cap (``codings``), stored HTTP messages
(``http_message``), the results (``models``: ``Capture``, ``Exchange``) and the settings
(``settings.FetchSettings``).

May import: the root's shared basics (``errors``). It needs neither the standards nor the
decision: what the bytes mean is decided by the caller.
"""
