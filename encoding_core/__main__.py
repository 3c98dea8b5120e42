"""``python -m encoding_core``: see ``cli.py``."""

from __future__ import annotations

from .cli import main

raise SystemExit(main())
