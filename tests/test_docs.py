"""The repository's own documents stand alone and stay true: every link stays inside the
repository and reaches a file, and the tables that describe the code match the code."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest

from pasur import Match, Rules, bench
from pasur.cli import cli

ROOT = Path(__file__).parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _table_rows(text: str, heading: str) -> list[list[str]]:
    """The body rows of the first Markdown table after ``heading``, cell by cell."""
    section = text.split(heading, 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    body = []
    for line in rows[2:]:
        body.append([cell.strip() for cell in line.strip("|").split("|")])
        if section.split(line, 1)[1].startswith("\n\n"):
            break
    return body


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_links_stay_inside_the_repository_and_reach_a_file(document):
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", document.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        resolved = (document.parent / target).resolve()
        assert resolved.is_relative_to(ROOT.resolve()), f"{document.name} links outside the repository: {target}"
        assert resolved.exists(), f"{document.name} links to a missing file: {target}"


def test_the_records_page_lists_every_rules_option_with_its_default():
    rows = _table_rows((ROOT / "docs" / "RECORDS.md").read_text(encoding="utf-8"), "## Rules options")
    documented = {row[0].strip("`"): row[2].strip("`") for row in rows}
    defaults = {field.name: getattr(Rules(), field.name) for field in fields(Rules)}
    assert set(documented) == set(defaults)
    for name, default in defaults.items():
        shown = "true" if default is True else "false" if default is False else str(default)
        assert documented[name].strip('"') == shown, name


def test_the_bot_protocol_page_describes_every_field_of_the_view():
    rows = _table_rows((ROOT / "docs" / "BOT-PROTOCOL.md").read_text(encoding="utf-8"), "## The view")
    documented = {name.strip("` ") for row in rows for name in row[0].split(",")}
    view = Match(Rules(), seed=1).round.view(0).to_json()
    assert documented == set(view)


def test_the_package_index_page_stands_alone_and_its_example_runs():
    """docs/PACKAGE.md is the package's long description: no link or picture into the repository
    (the index cannot follow one), and its Python example plays a match through."""
    page = (ROOT / "docs" / "PACKAGE.md").read_text(encoding="utf-8")
    assert (
        tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["readme"] == "docs/PACKAGE.md"
    )
    assert not [target for target in re.findall(r"\]\(([^)]+)\)|src=\"([^\"]+)\"", page) if any(target)]
    example = page.split("```python\n")[1].split("```")[0]
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        exec(compile(example.split("from pasur import")[0].replace("envs = ", "_ = "), "PACKAGE.md", "exec"), {})
        exec(compile("from pasur import" + example.split("from pasur import")[1], "PACKAGE.md", "exec"), {})
    assert shown.getvalue().startswith("[")  # the match's final scores


def test_the_documentation_site_builds_strictly(tmp_path):
    """mkdocs.yml's site: every page, the API from the docstrings and the command from click; a
    broken link or reference fails the build."""
    pytest.importorskip("mkdocs", reason="the docs extra is installed by scripts/test.sh")
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert built.returncode == 0, built.stdout + built.stderr
    command = (tmp_path / "site" / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    assert all(f"pasur {name}" in command for name in cli.commands)
    engine = (tmp_path / "site" / "reference" / "core" / "index.html").read_text(encoding="utf-8")
    assert "SeatView" in engine and "legal_moves" in engine


def test_the_bench_page_names_every_key_pasur_bench_prints():
    page = (ROOT / "docs" / "reference" / "completion.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"`([a-z_0-9]+(?:\.[A-Za-z_0-9]+)*)`", page))

    def keys(figures: dict[str, object], prefix: str = "") -> list[str]:
        found = []
        for key, value in figures.items():
            name = "NAME" if prefix == "bots." else key
            found += keys(value, f"{prefix}{name}.") if isinstance(value, dict) else [f"{prefix}{name}"]
        return found

    figures = bench.run(seconds=0.1, records=3, bots=False) | {"bots": {"random": bench.bot_speed("random", 20)}}
    assert sorted(set(keys(figures)) - documented) == []
