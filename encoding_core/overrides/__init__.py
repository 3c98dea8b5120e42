"""Site overrides: dated, reasoned, reviewed encoding decisions kept in a YAML file.

Holds the store (``store.OverrideStore``: locked, atomic writes, a malformed file refused), the
records and which one applies (``model``), the file's schema and round-trip reading
(``schema``, ``file``), the changes a reviewer makes (``changes``), checks of user input
(``checks``), what a review rests on (``review``) and the re-test against a fresh sample
(``retest``).

May import: ``decision``, ``whatwg`` and the root's shared basics; not ``fetch``, ``warc``,
``fields``, ``views`` or ``cli`` (a re-test is given the bytes; fetching them is the caller's).
"""
