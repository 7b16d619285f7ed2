"""Each optional part, run where its extra is not installed, says in one line which extra to
install (the extra's module is hidden from a fresh interpreter), and never shows a traceback
from the command."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pasur import Match, Rules, to_record


def run_without(module: str, code: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter in which ``module`` cannot be imported."""
    hidden = f"import sys; sys.modules[{module!r}] = None\n"
    return subprocess.run([sys.executable, "-c", hidden + code], capture_output=True, text=True, timeout=120)


@pytest.fixture
def record(tmp_path):
    match = Match(Rules(), seed=1)
    for _ in range(3):
        match.play(match.legal_moves()[0])
    path = tmp_path / "game.json"
    path.write_text(json.dumps(to_record(match)), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("extra", "module", "argv"),
    [
        ("web", "fastapi", ["serve", "--port", "0"]),
        ("web", "sqlalchemy", ["db", "version", "--database", "sqlite:///:memory:"]),
        ("web", "sqlalchemy", ["db", "upgrade", "--database", "sqlite:///:memory:"]),
        ("tui", "textual", ["replay", "{record}", "--view"]),
        ("ray", "ray", ["match", "greedy", "random", "--rounds", "1", "--backend", "ray"]),
        ("net", "numpy", ["match", "net", "random", "--rounds", "1", "--jobs", "1"]),
    ],
)
def test_a_command_whose_extra_is_missing_says_which_in_one_line(extra, module, argv, record):
    argv = [str(record) if part == "{record}" else part for part in argv]
    result = run_without(module, f"from pasur.cli import main; main({argv!r})")
    assert result.returncode == 1, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.startswith("pasur: error: ") and f"pip install 'pasur[{extra}]'" in result.stderr


@pytest.mark.parametrize("environment", ["pettingzoo", "gymnasium", "vector", "openspiel"])
def test_an_environment_whose_extra_is_missing_names_the_rl_extra(environment):
    pytest.importorskip("numpy", reason="the rl extra is installed by scripts/test.sh")
    result = run_without("numpy", f"import pasur.envs.{environment}")
    assert result.returncode == 1
    said = result.stderr.strip().splitlines()[-1]
    assert said.startswith("pasur.core.errors.MissingExtra: pasur.envs.")
    assert said.endswith("(numpy) needs its extra: pip install 'pasur[rl]'")


def test_the_stable_baselines3_env_without_it_names_the_train_extra():
    pytest.importorskip("numpy", reason="the rl extra is installed by scripts/test.sh")
    result = run_without("stable_baselines3", "import pasur.envs.sb3")
    assert result.returncode == 1
    said = result.stderr.strip().splitlines()[-1]
    assert said.endswith("pasur.envs.sb3 (stable_baselines3.common) needs its extra: pip install 'pasur[train]'")


@pytest.mark.parametrize("module", ["torch", "numpy"])
def test_fitting_without_its_extra_names_it_before_reading_the_targets(module, tmp_path):
    targets = tmp_path / "targets.jsonl.gz"
    targets.write_bytes(b"not even gzip")  # never read: the missing module is said first
    argv = ["fit", str(targets), "--out", str(tmp_path / "w.npz")]
    result = run_without(module, f"from pasur.train.__main__ import main; main({argv!r})")
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    said = f"Error: python -m pasur.train fit ({module}) needs its extra: pip install 'pasur[train]'"
    assert result.stderr.strip() == said
