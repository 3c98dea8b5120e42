"""The optional compiled parts of encoding_core (``decision/_utf8scan.pyx`` and
``decision/_bytetest_c.pyx``, Cython).

Everything else is in ``pyproject.toml``. The extension is ``optional``: where no C compiler
or Python headers are found, ``pip install .`` and ``make`` carry on without it and
``encoding_core`` uses its pure-Python reference (``encoding_core.decision.utf8scan``).
"""

from __future__ import annotations

from setuptools import Extension, setup

try:
    from Cython.Build import cythonize
except ImportError:  # no Cython: the pure-Python reference only
    extensions = []
else:
    extensions = cythonize(
        [Extension(f"encoding_core.decision.{name}", [f"encoding_core/decision/{name}.pyx"],
                   optional=True) for name in ("_utf8scan", "_bytetest_c")],
        language_level=3, quiet=True, build_dir="build/cython")
    for extension in extensions:  # (cythonize's copies drop ``optional``)
        extension.optional = True

setup(ext_modules=extensions)
