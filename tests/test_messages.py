"""Every message of the web protocol is declared once (pasur.server.messages): the README's protocol
paragraph names exactly those kinds, the page handles every kind it is sent, no server module
writes a message by hand, and every refusal, whichever door it comes through, has one shape."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from pasur.i18n import REFUSALS
from pasur.server import messages
from pasur.server.errors import TableError
from pasur.server.guard import refusal_body

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "src" / "pasur" / "server"
KIND = re.compile(r'"type": "([a-z_]+)"')


def protocol_paragraph() -> str:
    readme = (ROOT / "README.md").read_text()
    start = readme.index("The protocol, for other clients:")
    return readme[start : readme.index("\n\n", start)]


def test_the_readme_names_exactly_the_declared_kinds():
    named = set(KIND.findall(protocol_paragraph()))
    declared = set(messages.SERVER_MESSAGES) | set(messages.CLIENT_MESSAGES) | {"hello"}
    assert named == declared


def test_the_page_handles_every_kind_the_server_sends():
    page = (SERVER / "static" / "js" / "news.js").read_text()
    news = page[page.index("export const tableNews = {") :]
    handled = set(re.findall(r"^  (\w+)[(:,]", news, flags=re.M))
    assert handled == set(messages.SERVER_MESSAGES)


def test_each_builder_makes_its_kind():
    refusal = TableError("not_your_turn", name="Ava")
    built = [
        messages.state(3, {}),
        messages.presence([True, False], 2),
        messages.chat({"channel": "players", "seat": 0, "name": "Ava", "text": "salaam", "phrase": None}),
        messages.ack("m1", 4),
        messages.refused(refusal, 4, "m1"),
        messages.error(refusal),
        messages.started(),
        messages.dealt_on(5),
        messages.pace(True),
        messages.hint_message(6, {"card": "7C", "take": ["4H"]}, "7Cx4H", "7♣×4♥", "takes the 4", 1.5),
        messages.said(),
        messages.pong(7),
        messages.seated(2),
        messages.rematch("abc123"),
        messages.resigned(),
        messages.freed(1),
    ]
    assert [message["type"] for message in built] == list(messages.SERVER_MESSAGES)
    assert messages.ack("m1", 4, repeated=True)["repeated"] is True
    assert messages.refused(refusal, 4, "m1")["id"] == "m1"


def test_no_server_module_writes_a_message_by_hand():
    """Outside messages.py a protocol message is made only through its builder (ASGI's own
    messages, whose types have a dot, are not the protocol's)."""
    for source in SERVER.glob("*.py"):
        if source.name == "messages.py":
            continue
        for line in source.read_text().splitlines():
            if "{" in line and not line.strip().startswith("example"):
                assert not re.search(r'\{"type": "[a-z_]+"', line), f"{source.name}: {line.strip()}"


def test_a_refusal_has_one_shape_over_a_socket_and_over_http():
    refusal = TableError("too_large", bytes=8192)
    over_http = json.loads(refusal_body(refusal))
    assert over_http == messages.http_refusal(refusal)
    assert over_http["error"] == str(refusal) and over_http["reason"] == "too_large"
    assert over_http["messages"]["fa"] == messages.error(refusal)["messages"]["fa"] != str(refusal)
    assert over_http["messages"]["fa"] == REFUSALS["too_large"][1].format(bytes="۸۱۹۲")  # Persian digits


def test_every_declared_client_message_has_a_handler_on_the_socket():
    from pasur.server.socket_session import HANDLERS

    assert set(HANDLERS) == set(messages.CLIENT_MESSAGES)
