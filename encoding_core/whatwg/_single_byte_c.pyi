# The compiled extension's interface (``_single_byte_c.pyx``); ``codecs.charmap_decode`` over
# the same table is its reference.
class SingleByteDecoder:
    def __init__(self, table: str) -> None: ...
    def decode_strict(self, data: bytes) -> str | int:
        """The text of ``data`` (exactly ``bytes``), or the offset of its first unmapped byte."""
