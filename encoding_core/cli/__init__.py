"""The command line, ``encoding-triage`` (or ``python -m encoding_core``): one module a command.

``main`` builds the parser from the command modules (``inspect``, ``fetch`` with ``report``,
``scan`` for ``scan-csv``, ``overrides``); each has ``add_parser(subparsers)`` and sets
``func(args) -> int``, the exit status; ``_overrides_file`` is which overrides file ``fetch``,
``report`` and ``spark report`` apply (``--overrides``, ``--no-overrides``, the app's).
Modules are imported only when the parser is built, so ``import encoding_core`` costs nothing
of the CLI.

May import: every room below it (``warc``, ``overrides``, ``views``, ``fetch``, ``fields``,
``decision``, ``whatwg``) and the root's shared basics. Nothing imports ``cli`` but
``encoding_core.__main__`` and the console script.
"""
