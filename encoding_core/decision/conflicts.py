"""Evidence that contradicts or weakens a decision, as ``Conflict`` records with advice.

``find_conflicts`` applies the checks of ``CHECKS`` in turn to one ``CheckInput`` (the walk's
result and what the body says, ``checks.record``) and returns what they found, in that order.
Each check is a small function in ``checks/`` that returns its conflicts; a check may defer to
what an earlier one found (``readings.implausible_text`` to ``utf8_under_legacy``), so the
order is part of the contract, as the order of the conflicts a reader sees.

They err towards reporting: a conflict never changes the decision (the order is the order;
seed 000 says observability beats cleverness), it only says what an override would give.
"""

from __future__ import annotations

from .checks import Check, CheckInput, Found
from .checks import damage as _damage
from .checks import declarations as _declarations
from .checks import readings as _readings

__all__ = ["CHECKS", "PLAIN_CHECKS", "find_conflicts"]

#: Every check, in the order its conflicts are reported.
CHECKS: tuple[Check, ...] = (
    _declarations.declaration_fails_strict,
    _declarations.labels_passed_over,
    _declarations.skipped_meta_labels,
    _readings.utf8_under_legacy,
    _readings.mixed_single_byte_page,
    _readings.without_bom,
    _readings.implausible_text,
    _readings.ascii_label_escapes,
    _readings.binary_body,
    _declarations.header_meta_disagree,
    _declarations.bom_contradicts_declaration,
    _declarations.late_declaration,
    _declarations.repeated_content_type,
    _damage.lossy_reading,
    _damage.truncated_body,
    _declarations.browser_differs,
)

#: The checks of ``CHECKS`` (in its order) that can find anything in a ``plain`` record
#: (``checks.record.plain`` tables when each of the others can fire): the four that read the
#: body's bytes. The others find nothing there, so each of these sees what it would see after
#: all of ``CHECKS`` before it, and the conflicts are the same, in the same order.
PLAIN_CHECKS: tuple[Check, ...] = (
    _readings.utf8_under_legacy,
    _readings.implausible_text,
    _readings.ascii_label_escapes,
    _readings.binary_body,
)


def find_conflicts(given: CheckInput, checks: tuple[Check, ...] = CHECKS) -> Found:
    """Every finding that contradicts or weakens the decision ``given`` describes.

    Each check of ``checks`` sees the record and what the checks before it found. A ``plain``
    record runs ``PLAIN_CHECKS`` in place of ``CHECKS`` (the same conflicts, fewer calls).
    """
    if given.plain and checks is CHECKS:
        checks = PLAIN_CHECKS
    found: Found = ()
    for check in checks:
        more = check(given, found)
        if more:
            found += more
    return found
