"""The host report's overrides in a worker process (``ui.worker``): ``ActiveOverrides``, the
snapshot of the overrides file the page read. It pickles, so a host report built in a worker
applies the site overrides the page read, without reading the file again or loading Streamlit
in the worker; it is the core's own class (``encoding_core.overrides.lookup``), so the report
decides each record as the Fetch page does."""

from __future__ import annotations

from encoding_core.overrides.lookup import ActiveOverrides

__all__ = ["ActiveOverrides"]
