"""The build of pasur's native engine core (C, the CPython API; no build dependency beyond a C
compiler). A build that cannot compile it fails, saying so, unless ``PASUR_PURE=1`` asks for the
pure-Python engine alone: then no extension is built and the wheel is ``py3-none-any``. On Linux
the extension is linked stripped of its symbols (a quarter of the size), unless
``PASUR_KEEP_SYMBOLS=1`` keeps them for a profiler. Everything else about the package is in
pyproject.toml (the wheel leaves the C sources out; the source archive keeps them)."""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: Whether the person asked for the pure-Python engine alone.
PURE = os.environ.get("PASUR_PURE", "") == "1"
#: Whether the extension is linked without its symbols.
STRIPPED = sys.platform.startswith("linux") and os.environ.get("PASUR_KEEP_SYMBOLS", "") != "1"
CORE = "src/pasur/core"
HEADERS = [
    "_bits.h",
    "_engine.h",
    "_solver.h",
    "_solver_bounds.h",
    "_solver_order.h",
    "_solver_search.h",
    "_solver_table.h",
    "_model.h",
    "_sampling.h",
    "_twister.h",
    "_simple.h",
    "_expert.h",
    "_playout.h",
    "_ismcts.h",
    "_pimc.h",
    "_scoring.h",
    "_vector.h",
    "_net.h",
]


class BuildNative(build_ext):
    """``build_ext`` whose failure says what to do instead."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # the compiler is missing or refused the sources
            raise SystemExit(
                f"pasur: the native engine core could not be compiled ({error}). Install a C compiler, "
                "or set PASUR_PURE=1 to install the pure-Python engine alone (slower, the same rules)."
            ) from error


native = Extension(
    "pasur.core._native",
    sources=[f"{CORE}/_native.c"],
    depends=[f"{CORE}/{header}" for header in HEADERS],
    extra_compile_args=["/O2"] if os.name == "nt" else ["-O2"],
    extra_link_args=["-s"] if STRIPPED else [],
)
setup(ext_modules=[] if PURE else [native], cmdclass={"build_ext": BuildNative})
