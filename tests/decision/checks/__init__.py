"""Tests of the checks (encoding_core.decision.checks), one module per module."""
