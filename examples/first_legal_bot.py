"""A complete pasur-bot/1 bot in plain Python: it plays the first legal move, preferring captures.

Each ``move`` question lists the legal moves twice: ``legal`` as short texts, and ``moves`` as what
each plays and takes. Tell a capture by its ``take``, not by an ``x`` in the text: a card's only
capture is written as the bare card ("2D" when the 2♦ can take only the 9♥).

    pasur match "exec:python3 examples/first_legal_bot.py" random --rounds 20

Any language works the same way: read one JSON object a line, answer one JSON object a line.
"""

import json
import sys


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "hello":
            answer = {"type": "hello", "name": "first-legal"}
        elif message["type"] == "move":
            moves = message["moves"]
            captures = [move for move in moves if move["take"]]
            answer = {"type": "move", "id": message["id"], "move": (captures or moves)[0]["move"]}
        elif message["type"] == "quit":
            return
        else:
            continue  # other message types may come; a bot ignores what it does not know
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
