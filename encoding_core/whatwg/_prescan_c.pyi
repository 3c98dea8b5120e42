# The compiled extension's interface (``_prescan_c.pyx``); ``prescan.py`` holds its reference.
from ._prescan_steps import Declaration

PRESCAN_LIMIT: int
LATE_LIMIT: int
FIELDS: tuple[str, ...]

def find_declaration(body: bytes, late: bool = True) -> Declaration | None: ...
def attributes(data: bytes, pos: int, keep: bool = True
               ) -> tuple[list[tuple[str, str]], int] | None: ...
