"""External bots over ``pasur-bot/1`` (BOT-PROTOCOL.md): a program in any language, one JSON
object a line on its standard input and output."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from typing import IO, Any, NoReturn

from ..core import Move, SeatView, mask_of, parse_move, short_texts
from ..core.record import read_json
from .base import Bot, BotError, shown_answer

PROTOCOL = "pasur-bot/1"

#: The longest answer a program may give (a move answer is a few dozen characters).
ANSWER_CHARACTERS = 65536
#: How much of a program's standard error a fault shows: its last lines, each cut short.
STDERR_LINES = 12
STDERR_LINE_CHARACTERS = 200


class ExternalBot:
    """A bot run as a separate process (``exec:COMMAND``). It is started on first use and again
    after a fault; any fault raises `BotError` naming the bot, its answer and why it was
    refused."""

    def __init__(self, command: str, seed: int | None = None, timeout: float = 10.0) -> None:
        """``timeout`` is the seconds allowed for each answer."""
        self.command = command
        self.name = f"exec:{command}"
        self.timeout = float(timeout)
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=STDERR_LINES)
        self._stderr_reader: threading.Thread | None = None
        self._next_id = 0

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        """Ask the program for a move and check its answer."""
        if self._process is None or self._process.poll() is not None:
            self._start()
        self._next_id += 1
        codes = [move.code for move in legal]
        texts = short_texts(codes)
        # each legal move also as what it plays and takes: a capture's short text may be the bare
        # card ("2D" when the 2♦'s only capture is the 9♥), so a bot need not work captures out
        moves = [{"move": text, **move.to_json()} for text, move in zip(texts, legal, strict=True)]
        message = {"type": "move", "id": self._next_id, "view": view.to_json(), "legal": texts, "moves": moves}
        answer = self._ask(message)
        if answer.get("type") != "move" or answer.get("id") != self._next_id or isinstance(answer.get("id"), bool):
            self._fail(f"expected a move answer with id {self._next_id}", "bot_wrong_answer", json.dumps(answer))
        text = answer.get("move")
        if not isinstance(text, str):
            self._fail("the answer has no move text", "bot_no_move_text", json.dumps(answer))
        try:
            return Move.from_code(parse_move(text, mask_of(view.hand), mask_of(view.table), codes))
        except ValueError as error:
            self._fail(
                f"that move is not legal here ({shown_answer(str(error))})",
                "bot_illegal_move",
                text,
                move=shown_answer(text),
            )

    def close(self) -> None:
        """Say quit and end the process."""
        process, self._process = self._process, None
        if process is None:
            return
        try:
            if process.poll() is None and process.stdin is not None:
                process.stdin.write(json.dumps({"type": "quit"}) + "\n")
                process.stdin.flush()
            process.wait(timeout=1)
        except (OSError, subprocess.TimeoutExpired, ValueError):
            pass
        _end(process)

    def __del__(self) -> None:
        self.close()

    def _start(self) -> None:
        try:
            process = subprocess.Popen(
                shlex.split(self.command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                errors="replace",
                bufsize=1,
                start_new_session=True,  # its own process group: ended whole, children included
            )
        except (OSError, ValueError) as error:
            message = f"could not be started: {error}"
            raise BotError(message, "bot_not_started", bot=self.name, error=str(error)) from None
        self._process = process
        self._lines = queue.Queue()
        self._stderr = deque(maxlen=STDERR_LINES)
        threading.Thread(target=_read_lines, args=(process, self._lines), daemon=True).start()
        self._stderr_reader = threading.Thread(target=_keep_last_lines, args=(process, self._stderr), daemon=True)
        self._stderr_reader.start()
        answer = self._ask({"type": "hello", "protocol": PROTOCOL})
        if answer.get("type") != "hello" or not isinstance(answer.get("name", ""), str):
            self._fail("expected a hello answer", "bot_no_hello", json.dumps(answer))

    def _ask(self, message: dict[str, Any]) -> dict[str, Any]:
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(json.dumps(message) + "\n")
            process.stdin.flush()
        except (OSError, ValueError):
            self._fail("stopped (its input is closed)", "bot_input_closed")
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._fail(f"did not answer within {self.timeout:g} s", "bot_timeout", seconds=self.timeout)
        if line is None:
            self._fail("stopped without answering", "bot_stopped")
        if not line:
            self._fail(
                f"the answer is longer than {ANSWER_CHARACTERS:,} characters",
                "bot_answer_too_long",
                characters=ANSWER_CHARACTERS,
            )
        try:
            answer = read_json(line)
        except json.JSONDecodeError:
            self._fail("the answer is not JSON", "bot_not_json", line.rstrip("\n"))
        if not isinstance(answer, dict):
            self._fail("the answer is not a JSON object", "bot_not_object", line.rstrip("\n"))
        return answer

    def _fail(self, message: str, reason: str, answer: str | None = None, **details: Any) -> NoReturn:
        """End the process (a new one starts for the next game) and raise the fault (see
        `BotError`)."""
        process, self._process = self._process, None
        if process is not None:
            _end(process)
            if self._stderr_reader is not None:
                self._stderr_reader.join(timeout=1.0)  # what it wrote before it ended
        stderr = "\n".join(self._stderr)
        raise BotError(message, reason, bot=self.name, answer=answer, stderr=stderr, **details)


def _end(process: subprocess.Popen[str]) -> None:
    """End a bot's program and every process it started (its process group, where there are
    groups); a program that already ended leaves its group to be ended all the same."""
    if hasattr(os, "killpg"):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
    elif process.poll() is None:
        process.kill()
    process.wait()


def _read_lines(process: subprocess.Popen[str], lines: queue.Queue[str | None]) -> None:
    """Pass on a program's answers line by line (a line longer than ANSWER_CHARACTERS as "", its
    rest read and dropped), and None at its end."""
    assert process.stdout is not None
    for line, fits in _bounded_lines(process.stdout, ANSWER_CHARACTERS):
        if not fits:
            lines.put("")
        elif line.strip():
            lines.put(line)
    lines.put(None)


def check_move_request(message: dict[str, Any]) -> None:
    """A host's move message each field of its type (schemas/pasur-bot-1.schema.json); ValueError
    saying which is not (the view is read apart)."""
    if not isinstance(message.get("id"), int) or isinstance(message["id"], bool):
        raise ValueError("a move message's id must be a whole number")
    legal = message.get("legal")
    if not isinstance(legal, list) or not legal or not all(isinstance(text, str) for text in legal):
        raise ValueError("a move message's legal must be a list of move texts")
    moves = message.get("moves", [])
    if not isinstance(moves, list):
        raise ValueError("a move message's moves must be a list")
    for entry in moves:
        Move.from_json(entry)


def _keep_last_lines(process: subprocess.Popen[str], kept: deque[str]) -> None:
    """Read a program's standard error to its end (a program that writes much never blocks on it),
    keeping its last lines, each cut to STDERR_LINE_CHARACTERS."""
    assert process.stderr is not None
    for line, _fits in _bounded_lines(process.stderr, STDERR_LINE_CHARACTERS):
        if line.strip():
            kept.append(line)


def _bounded_lines(stream: IO[str], longest: int) -> Iterator[tuple[str, bool]]:
    """Each line of ``stream`` without its newline, cut to ``longest`` characters (the rest of a
    longer one read and dropped, never held whole), and whether it fitted."""
    at_start = True
    while chunk := stream.readline(longest + 1):
        ends = chunk.endswith("\n")
        body = chunk[:-1] if ends else chunk
        if at_start:
            yield body[:longest], len(body) <= longest
        at_start = ends


def serve(bot: Bot, name: str, source: IO[str] | None = None, sink: IO[str] | None = None) -> None:
    """Play ``pasur-bot/1`` with a Python bot on standard input and output (or ``source`` and
    ``sink``) until ``quit`` or the end of input: how a bot written in Python becomes a program any
    host seats with ``exec:``. A message it cannot read is reported on standard error and skipped."""
    source = source or sys.stdin
    sink = sink or sys.stdout
    for line in source:
        try:
            message = read_json(line)
            kind = message.get("type")
            if kind == "hello":
                if message.get("protocol") != PROTOCOL:
                    raise ValueError(f"this bot speaks {PROTOCOL} only")
                answer: dict[str, Any] = {"type": "hello", "name": name}
            elif kind == "move":
                check_move_request(message)
                view = SeatView.from_json(message["view"])
                legal = view.legal_moves()  # the view alone says them, as the message's list does
                answer = {"type": "move", "id": message["id"], "move": view.move_text(bot.choose(view, legal))}
            elif kind == "quit":
                return
            else:
                continue  # other message types may come; a bot ignores what it does not know
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            print(f"{name}: cannot answer {line.strip()[:80]!r}: {error}", file=sys.stderr)
            continue
        sink.write(json.dumps(answer) + "\n")
        sink.flush()
