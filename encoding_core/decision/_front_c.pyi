# The compiled extension's interface (``_front_c.pyx``); ``front.decided_or_front`` is its
# pure reference.
from typing import Any

from .models import Decoded
from .tracememo import TraceMemo

class FrontReader:
    def __init__(self, front_type: type, nul_window: int) -> None: ...
    def __call__(self, body: bytes, content_type: str | None, override: str | None,
                 memo: TraceMemo) -> Decoded | Any: ...
