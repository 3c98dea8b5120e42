"""The cases of tests/cases/checks.json, run one check at a time (format: tests/cases/README.md)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from encoding_core.decision.checks import CheckInput
from encoding_core.decision.decode import DEFAULT_DETECTOR, what_checks_read
from tests.conformance import case_body, case_params, load_cases

CASES = load_cases("checks.json")


def given(case: dict[str, Any]) -> CheckInput:
    """What the checks read for the case's body, header, override, site default, detector."""
    return what_checks_read(case_body(case), case.get("content_type"),
                            override=case.get("override"), site_default=case.get("site_default"),
                            detector=DEFAULT_DETECTOR if case.get("detector", True) else None)


def params_of(module: ModuleType) -> list[Any]:
    """The cases of the checks ``module`` holds."""
    return case_params([case for case in CASES if case["check"] in module.__all__])


def kinds(module: ModuleType, case: dict[str, Any]) -> list[str]:
    """The kinds the case's check reports alone (no earlier findings), in order."""
    check = getattr(module, case["check"])
    return [conflict.kind for conflict in check(given(case), ())]
