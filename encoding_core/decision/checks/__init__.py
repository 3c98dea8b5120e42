"""The checks: small functions that each find one kind of evidence against a decision.

Holds the record every check reads (``record``: ``CheckInput``, built once per decision by
``check_input``; the ``Check`` type) and the checks by what they look at: what was declared
(``declarations``), the reading against what the bytes say (``readings``), damage in the
reading (``damage``); and ``clearance``, which tells from the compiled byte passes when none
of the body checks can find anything in a plain record (``decode`` then runs none of them).
``decision.conflicts`` runs them in order (``CHECKS``); a new check is one function there and
one test in ``tests/decision/checks/`` (and, for a check that can fire in a plain record,
its line in ``clearance``: a test holds ``clearance.ANSWERS_FOR`` to ``PLAIN_CHECKS``).

May import: the rest of ``decision``, ``whatwg`` and the root's shared basics (``wording``).
"""

from __future__ import annotations

from .record import Check, CheckInput, Found, check_input

__all__ = ["Check", "CheckInput", "Found", "check_input"]
