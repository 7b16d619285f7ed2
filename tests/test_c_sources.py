"""The native core's C sources build with every C compiler found here, warnings as errors
(scripts/test.sh installs Clang beside GCC), and the plain-C bit functions that a compiler without
GCC's builtins uses (MSVC's counting among them) agree with the builtins; the MSVC branch compiles
as MSVC reads it."""

from __future__ import annotations

import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parent.parent / "src" / "pasur" / "core"


@pytest.mark.parametrize("compiler", ["gcc", "clang"])
def test_the_native_core_compiles_with_warnings_as_errors(compiler):
    if shutil.which(compiler) is None:
        pytest.skip(f"no {compiler} here (scripts/test.sh installs Clang when it may)")
    include = sysconfig.get_paths()["include"]
    command = [compiler, "-Wall", "-Werror", "-fsyntax-only", f"-I{include}", str(CORE / "_native.c")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("compiler", ["gcc", "clang"])
def test_the_browser_engine_compiles_with_warnings_as_errors(compiler):
    """_wasm.c (no Python) as a native compiler reads it; scripts/build-wasm.sh builds it for the
    browser with the same warnings, the headers' parts it does not use aside."""
    if shutil.which(compiler) is None:
        pytest.skip(f"no {compiler} here (scripts/test.sh installs Clang when it may)")
    quiet = ["-Wno-unused-function"] + (["-Wno-unneeded-internal-declaration"] if compiler == "clang" else [])
    command = [compiler, "-Wall", "-Werror", *quiet, "-fsyntax-only", str(CORE / "_wasm.c")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


CHECK = r"""
#include <stdio.h>
#include "_bits.h"
int main(void) {
    uint64_t m = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < 100000; i++) {
        m ^= m << 13; m ^= m >> 7; m ^= m << 17;
        uint64_t x = m >> (i % 64);
        if (!x) continue;
        if (bits_count(x) != __builtin_popcountll(x) || bits_lowest(x) != __builtin_ctzll(x)
            || bits_highest(x) != 63 - __builtin_clzll(x)) {
            printf("differ at %llx\n", (unsigned long long)x);
            return 1;
        }
    }
    if (bits_count(0) != 0 || bits_highest(1ULL << 63) != 63 || bits_lowest(1ULL << 51) != 51) return 2;
    printf("agree\n");
    return 0;
}
"""


def test_the_portable_bit_functions_agree_with_the_builtins(tmp_path):
    if shutil.which("gcc") is None:
        pytest.skip("no gcc here")
    (tmp_path / "check.c").write_text(CHECK, encoding="ascii")
    program = tmp_path / "check"
    built = subprocess.run(
        [
            "gcc",
            "-O1",
            "-Wall",
            "-Werror",
            "-DPASUR_PORTABLE_BITS",
            f"-I{CORE}",
            str(tmp_path / "check.c"),
            "-o",
            str(program),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert built.returncode == 0, built.stderr
    assert subprocess.run([str(program)], capture_output=True, text=True, timeout=60).stdout == "agree\n"


AS_MSVC_SEES_IT = r"""
#include "_bits.h"
#if !defined(_MSC_VER) || defined(__GNUC__) || defined(__clang__)
#error "not compiled as MSVC sees it"
#endif
int all_three(uint64_t m) { return bits_count(m) + bits_lowest(m) + bits_highest(m); }
"""


def test_the_msvc_branch_compiles_to_the_bit_scan_instructions(tmp_path):
    # No MSVC here: Clang, targeting Windows with Microsoft's dialect and without its own GNU
    # identity, reads _bits.h as MSVC does (its intrin.h declares the same intrinsics).
    if shutil.which("clang") is None:
        pytest.skip("no clang here (scripts/test.sh installs it when it may)")
    (tmp_path / "msvc.c").write_text(AS_MSVC_SEES_IT, encoding="ascii")
    command = ["clang", "--target=x86_64-pc-windows-msvc", "-fms-compatibility", "-fms-extensions", "-ffreestanding"]
    command += ["-U__clang__", "-U__GNUC__", "-Wall", "-Werror", "-O1", "-S", "-o", "-", f"-I{CORE}"]
    done = subprocess.run([*command, str(tmp_path / "msvc.c")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "bsfq" in done.stdout and "bsrq" in done.stdout  # _BitScanForward64 and _BitScanReverse64
