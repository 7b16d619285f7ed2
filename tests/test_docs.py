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
import zlib
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


#: What docs/hooks.py publishes on the site from elsewhere in the repository, by how a page links it.
PUBLISHED = {"schemas/": "../src/pasur/schemas/", "overview.md": "../README.md"}


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_links_stay_inside_the_repository_and_reach_a_file(document):
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", document.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        for prefix, source in PUBLISHED.items():
            if document.parent.name == "docs" and target.startswith(prefix):
                target = source + target[len(prefix) :]
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


QUICKSTART = (ROOT / "docs" / "QUICKSTART.md").read_text(encoding="utf-8")
QUICKSTART_BLOCKS = re.findall(r"```python\n(.*?)```", QUICKSTART, re.S)
#: What a quick start's block needs beyond the core, by what it imports.
NEEDS = {"pasur.envs": "gymnasium", "sb3_contrib": "sb3_contrib", "pyspiel": "pyspiel"}


@pytest.mark.parametrize("block", QUICKSTART_BLOCKS, ids=[f"block-{n}" for n in range(len(QUICKSTART_BLOCKS))])
def test_each_quick_start_runs_as_written(block, tmp_path):
    """Every Python block of docs/QUICKSTART.md, run as it stands (the bot block as a program
    answering a host's hello and quit)."""
    for module, needed in NEEDS.items():
        if module in block:
            pytest.importorskip(needed, reason="the rl and train extras are installed by scripts/test.sh")
    talk = '{"type": "hello", "protocol": "pasur-bot/1"}\n{"type": "quit"}\n' if "sys.stdin" in block else ""
    done = subprocess.run(
        [sys.executable, "-c", block], input=talk, capture_output=True, text=True, timeout=300, cwd=tmp_path
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert done.stdout.strip() or "learn(" in block or "make_vec" in block


def test_the_environments_page_holds_the_layout_the_code_has():
    encoding = pytest.importorskip("pasur.envs.encoding", reason="the rl extra is installed by scripts/test.sh")
    page = (ROOT / "docs" / "ENVIRONMENTS.md").read_text(encoding="utf-8")
    shown = page.split("<!-- layout: generated by pasur.envs.encoding.layout_tables() -->\n")[1]
    assert shown.split("<!-- end of layout -->")[0] == encoding.layout_tables()
    position = 0
    for _name, first, size, _meaning in encoding.OBSERVATION_BLOCKS:
        assert first == position
        position += size
    assert position == encoding.OBSERVATION_SIZE
    assert sum(count for *_, count, _ in encoding.ACTION_BLOCKS) == encoding.ACTION_COUNT


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
    documented = site_inventory(tmp_path / "site" / "objects.inv")
    missing = [f"{face}.{name}" for face, names in public_faces().items() for name in names if name not in documented]
    assert missing == [], f"public names missing from the API reference: {missing}"
    for page in (tmp_path / "site" / "reference").glob("*/index.html"):
        assert not re.search(r":(class|func|meth|mod|data|attr):`", page.read_text(encoding="utf-8")), page
    assert (tmp_path / "site" / "schemas" / "pasur-record-1.schema.json").exists()
    assert "Two commands" in (tmp_path / "site" / "overview" / "index.html").read_text(encoding="utf-8")


def site_inventory(path: Path) -> set[str]:
    """The last part of every name the site's API reference documents (its objects.inv)."""
    body = zlib.decompress(path.read_bytes().split(b"\n", 4)[4]).decode("utf-8")
    return {line.split()[0].rsplit(".", 1)[-1] for line in body.splitlines() if line.startswith("pasur")}


def public_faces() -> dict[str, list[str]]:
    """The names each face of the package offers: what its ``__all__`` says, and the pieces a
    reader is sent to by name (the solver's, the protocol's serve, the environments' classes)."""
    import pasur
    import pasur.arena
    import pasur.bots

    faces = {face.__name__: list(face.__all__) for face in (pasur, pasur.bots, pasur.arena)}
    faces["pasur.core.solver"] = ["solve", "Solution", "Sampling", "sampled_values"]
    faces["pasur.bots.protocol"] = ["serve", "ExternalBot"]
    faces["pasur.schemas"] = ["load", "build"]
    faces["pasur.envs"] = ["env", "raw_env", "PasurEnv", "PasurVectorEnv", "PasurSB3VecEnv", "PasurGame"]
    return faces


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
