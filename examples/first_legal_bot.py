"""A complete pasur-bot/1 bot in plain Python: it plays the first legal move, preferring captures.

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
            legal = message["legal"]
            captures = [move for move in legal if "x" in move]
            answer = {"type": "move", "id": message["id"], "move": (captures or legal)[0]}
        elif message["type"] == "quit":
            return
        else:
            continue  # other message types may come; a bot ignores what it does not know
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
