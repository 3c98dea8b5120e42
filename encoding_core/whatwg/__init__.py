"""The standards: what the WHATWG Encoding, HTML and MIME Sniffing standards say, and nothing more.

Holds the label table ("get an encoding", ``labels``), the decoders (``decoders``, with the CJK
decoders in ``_decoders_cjk`` and ``_cjk_*``, compiled in ``_cjk_c.pyx``, which ``_cjk_compiled``
loads through the shared basic ``encoding_core.speedups``, and the single-byte decoder's
fatal mode compiled in ``_single_byte_c.pyx``), byte-order marks (``bom``), the
Content-Type charset (``content_type``), the HTML prescan and the XML declaration (``prescan``,
``_prescan_steps``), and the tables generated from the standard's data (``_tables``; never
edited by hand: ``make tables``).

May import: only the root's shared basic ``speedups`` (which loads its compiled parts); it is
the lowest room, and the import contract in ``pyproject.toml`` checks it. Public names:
``labels.get_encoding``,
``labels.get_encoding_no_replacement``, ``labels.ENCODING_NAMES``, ``decoders.decode_strict``,
``decoders.decode_replace``, ``decoders.decode_utf8_if_few_errors``, ``bom.bom_sniff``,
``content_type.http_content_type_charset``, ``prescan.prescan``, ``prescan.find_declaration``.
The decoders remember their last call per thread (one decision asks the same question more
than once); ``decoders.forget_last_calls`` lets go of it, as ``decision.decode`` does.
"""
