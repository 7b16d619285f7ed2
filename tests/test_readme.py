"""The README's Python example runs as written."""

import contextlib
import io
import re
from pathlib import Path


def test_readme_python_example_runs():
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, re.S)
    assert blocks
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], "README.md", "exec"), {})
    first = out.getvalue().splitlines()[0]
    comment = re.search(r"print\(game.turn, game.legal_moves\(\)\)\s+# (.*)", blocks[0])
    assert comment and first == comment.group(1)
