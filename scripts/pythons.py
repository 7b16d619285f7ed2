"""Print the CPython interpreters this machine has for the versions pasur supports, one path a line.

Looks on PATH (python3.11, python3.12, ...) and in pyenv's versions folder, and keeps only an
interpreter that runs and reports the version its name promises (a pyenv shim for a version that
is not selected fails, so it is skipped). Used by scripts/wheels.sh and the install test.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SUPPORTED = ((3, 11), (3, 12), (3, 13), (3, 14))


def candidates(version: tuple[int, int]) -> list[Path]:
    """Where an interpreter of this version may be, most usual first."""
    name = f"python{version[0]}.{version[1]}"
    found = [Path(folder) / name for folder in os.environ.get("PATH", "").split(os.pathsep) if folder]
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found += sorted(pyenv.glob(f"{version[0]}.{version[1]}.*/bin/{name}"), reverse=True)
    return found


def runs_as(path: Path, version: tuple[int, int]) -> bool:
    """Whether the program at ``path`` is a CPython of this version."""
    if not path.is_file() or not os.access(path, os.X_OK):
        return False
    check = "import sys, platform; print(platform.python_implementation(), *sys.version_info[:2])"
    try:
        done = subprocess.run([str(path), "-c", check], capture_output=True, text=True, timeout=60)
    except OSError:
        return False
    return done.returncode == 0 and done.stdout.split() == ["CPython", str(version[0]), str(version[1])]


def interpreters() -> dict[tuple[int, int], Path]:
    """One working interpreter for each supported version found."""
    found: dict[tuple[int, int], Path] = {}
    for version in SUPPORTED:
        for path in candidates(version):
            if runs_as(path, version):
                found[version] = path
                break
    return found


if __name__ == "__main__":
    for path in interpreters().values():
        print(path)
    sys.exit(0)
