"""A pasur-bot/1 program that misbehaves on purpose, after playing ``good`` moves properly.

python3 faulty.py MODE [GOOD]   MODE: garbage, illegal, silent, crash, wrong-id, traceback,
                                      noisy (megabytes on standard error, then garbage), long, ok
"""

import json
import sys
import time

mode = sys.argv[1]
good = int(sys.argv[2]) if len(sys.argv) > 2 else 0
played = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "hello", "name": f"faulty-{mode}"}), flush=True)
        continue
    if message["type"] != "move":
        continue
    played += 1
    answer = {"type": "move", "id": message["id"], "move": message["legal"][0]}
    if played > good:
        if mode == "garbage":
            print("this is not json", flush=True)
            continue
        if mode == "illegal":
            cards = [
                rank + suit
                for rank in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
                for suit in "CDHS"
            ]
            answer["move"] = next(card for card in cards if not any(m.split("x")[0] == card for m in message["legal"]))
        if mode == "wrong-id":
            answer["id"] = -1
        if mode == "silent":
            time.sleep(60)
        if mode == "crash":
            sys.exit(3)
        if mode == "traceback":
            raise RuntimeError("the bot's own bug")
        if mode == "noisy":
            for index in range(2000):
                print(f"{index} " + "noise " * 200, file=sys.stderr)  # 2.4 MB, lines of 1,200 characters
            print("this is not json", flush=True)
            continue
        if mode == "long":
            print("x" * 1_000_000, flush=True)
            continue
    print(json.dumps(answer), flush=True)
