"""The README's Python example runs as written."""

import contextlib
import io
import re
from pathlib import Path

import pytest


def test_readme_engine_example_runs():
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    blocks = [block for block in re.findall(r"```python\n(.*?)```", readme, re.S) if "pasur.Match(" in block]
    assert len(blocks) == 1
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], "README.md", "exec"), {})
    first = out.getvalue().splitlines()[0]
    comment = re.search(r"print\(game.turn, game.legal_moves\(\)\)\s+# (.*)", blocks[0])
    assert comment and first == comment.group(1)


def test_the_environments_page_example_runs():
    pytest.importorskip("pettingzoo", reason="the rl extra is installed by scripts/test.sh")
    pytest.importorskip("pyspiel", reason="open_spiel is installed by scripts/test.sh")
    page = (Path(__file__).parent.parent / "docs" / "ENVIRONMENTS.md").read_text(encoding="utf-8")
    blocks = [block for block in re.findall(r"```python\n(.*?)```", page, re.S) if "pasur.envs" in block]
    assert len(blocks) == 1
    namespace: dict = {}
    exec(compile(blocks[0], "ENVIRONMENTS.md", "exec"), namespace)
    assert namespace["game"].rules.players == 3
    assert namespace["open_spiel_game"].num_players() == 4
