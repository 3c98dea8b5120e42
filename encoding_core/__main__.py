"""``python -m encoding_core``: see ``cli/main.py``."""

from __future__ import annotations

from .cli.main import main

raise SystemExit(main())
