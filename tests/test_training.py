"""The worked training example runs end to end: it trains, saves, and its agent plays through
pasur-bot/1 in the match runner without a fault."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_ppo.py"


@pytest.mark.long
def test_the_training_example_trains_saves_and_is_measured(tmp_path):
    model = tmp_path / "ppo.zip"
    command = [sys.executable, str(EXAMPLE), "--steps", "2048", "--rounds", "4", "--jobs", "1", "--out", str(model)]
    finished = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert finished.returncode == 0, finished.stderr[-2000:]
    assert model.exists()
    lines = finished.stdout.splitlines()
    assert any(line.startswith("trained 2,048 steps") for line in lines)
    for opponent in ("random", "greedy"):
        line = next(line for line in lines if line.startswith(f"ppo vs {opponent}:"))
        assert "faults 0" in line
