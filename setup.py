"""The optional compiled parts of encoding_core: every ``encoding_core/<room>/*.pyx``
(Cython), each beside the pure-Python reference it is tested equal to.

Everything else is in ``pyproject.toml``. Each extension is ``optional``: where no C compiler
or Python headers are found, ``pip install .`` and ``make`` carry on without it and
``encoding_core`` uses the reference (``encoding_core.speedups`` says which are in use).
"""

from __future__ import annotations

from pathlib import Path

from setuptools import Extension, setup

#: every extension's source, found rather than listed, so a new one needs no edit here
SOURCES = sorted(Path("encoding_core").glob("*/*.pyx"))

try:
    from Cython.Build import cythonize
except ImportError:  # no Cython: the pure-Python references only
    extensions = []
else:
    extensions = cythonize(
        [Extension(".".join(source.with_suffix("").parts), [source.as_posix()], optional=True)
         for source in SOURCES],
        language_level=3, quiet=True, build_dir="build/cython")
    for extension in extensions:  # (cythonize's copies drop ``optional``)
        extension.optional = True

setup(ext_modules=extensions)
