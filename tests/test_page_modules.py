"""The page's JavaScript modules stand in layers: no module imports, through any chain, one that
imports it back (main.js wires the parts together and gives the socket its handlers), and every
name a module imports is one its source exports."""

from __future__ import annotations

import re
from pathlib import Path

JS = Path(__file__).parent.parent / "src" / "pasur" / "server" / "static" / "js"
IMPORT = re.compile(r'^import \{([^}]*)\} from "\./([\w-]+\.js)";', re.M)
EXPORT = re.compile(r"^export (?:const|let|async function|function|class) ([\w$]+)", re.M)


def imports() -> dict[str, dict[str, set[str]]]:
    """Each module's imports: module → (imported module → the names it takes)."""
    found: dict[str, dict[str, set[str]]] = {}
    for path in sorted(JS.glob("*.js")):
        taken = found.setdefault(path.name, {})
        for names, source in IMPORT.findall(path.read_text(encoding="utf-8")):
            taken.setdefault(source, set()).update(name.strip() for name in names.split(",") if name.strip())
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected set of more than one module (or a module importing itself):
    Tarjan's algorithm."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = []
            while True:
                member = stack.pop()
                part.append(member)
                if member == node:
                    break
            if len(part) > 1 or node in graph.get(node, ()):
                found.append(sorted(part))

    for node in graph:
        if node not in index:
            visit(node)
    return found


def test_no_module_of_the_page_imports_itself_through_others():
    graph = {module: set(taken) for module, taken in imports().items()}
    assert len(graph) >= 20 and sum(map(len, graph.values())) >= 50  # the page's modules were read
    assert circles(graph) == []


def test_the_circle_finder_finds_a_circle():
    assert circles({"a.js": {"b.js"}, "b.js": {"c.js"}, "c.js": {"a.js"}, "d.js": {"a.js"}}) == [
        ["a.js", "b.js", "c.js"]
    ]
    assert circles({"a.js": {"a.js"}}) == [["a.js"]] and circles({"a.js": {"b.js"}, "b.js": set()}) == []


def test_every_imported_name_is_exported_by_its_module():
    for module, taken in imports().items():
        for source, names in taken.items():
            exported = set(EXPORT.findall((JS / source).read_text(encoding="utf-8")))
            assert names <= exported, f"{module} imports {sorted(names - exported)} from {source}"


def test_card_names_reach_the_page_only_kept_left_to_right():
    """A card's bare label (``A♠``) reads right to left inside Persian (``♠A``): outside words.js and
    cards.js (the card's own picture) the page writes cards only through cardsText or cardsHtml,
    which keep them left to right, so no module imports the bare label."""
    bare = sorted(module for module, taken in imports().items() if "cardLabel" in taken.get("words.js", set()))
    assert bare == ["cards.js"], bare
