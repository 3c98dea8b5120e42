"""A generous time budget for the size-scaled tests of hostile shapes (never a tight timing).

``within(seconds)`` fails the test when the block runs longer, instead of letting a quadratic or
cubic loop hold the suite for minutes or hours. It uses ``SIGALRM``, so it interrupts Python code
between two bytecodes (a long C call finishes first); the main thread only, POSIX only.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

import pytest


@contextlib.contextmanager
def within(seconds: float, what: str) -> Iterator[None]:
    """Fail with ``what`` when the block takes more than ``seconds`` (wall clock)."""
    def expire(signum: int, frame: object) -> None:
        raise TimeoutError

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    except TimeoutError:
        pytest.fail(f"{what} took more than {seconds:g} s (a linear pass takes a fraction)")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
