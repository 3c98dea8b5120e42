"""Views of a decision as data, for the app and the CLI: nothing here renders.

Holds the same bytes under every candidate, side by side, with their differing spans
(``compare``), the offending bytes of a body and the bytes behind a text (``byteinspect``), hex
rows (``hexview``) and a decision written down as a regression case (``cases``).

May import: ``fields`` (a finding's repair chain), ``decision``, ``whatwg`` and the root's shared
basics; not ``fetch``, ``warc``, ``overrides`` or ``cli``.
"""
