# The compiled extension's interface (``_records_c.pyx``); ``models.pure_slot_builder`` is its
# pure reference.
from typing import Any

class SlotBuilder:
    cls: type
    fields: tuple[str, ...]
    def __init__(self, cls: type) -> None: ...
    def __call__(self, *args: Any) -> Any: ...
