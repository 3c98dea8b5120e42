# The compiled extension's interface (``_cjk_c.pyx``); ``_decoders_cjk.decode_cjk_codec`` is its
# reference, ``_cjk_compiled.py`` its loader.
from array import array

ENCODINGS: dict[str, int]

class Decoder:
    def __init__(self, encoding: str, index: array[int], index2: array[int] | None = None,
                 range_pointers: array[int] | None = None,
                 range_code_points: array[int] | None = None) -> None: ...
    def decode(self, data: bytes, offsets: array[int]) -> str: ...
    def decode_strict(self, data: bytes) -> str | int: ...
