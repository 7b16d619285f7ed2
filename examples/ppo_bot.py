"""A trained MaskablePPO agent (see ``train_ppo.py``) as a pasur-bot/1 program:

    pasur match "exec:python examples/ppo_bot.py ppo-pasur.zip" greedy --rounds 200

It sees only its seat's view, encodes it as the research environments do, and asks the policy for
one action at a time (a card, then table cards when the card has several captures).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from sb3_contrib import MaskablePPO

from pasur.bots.protocol import serve
from pasur.core import Move, SeatView
from pasur.envs.encoding import MoveChooser, Observer


class PolicyBot:
    """Plays the policy's most likely legal action at each step."""

    name = "ppo"

    def __init__(self, model: MaskablePPO) -> None:
        self.model = model

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        codes = [move.code for move in legal]

        def card_codes(card: int) -> list[int]:
            return [code for code in codes if code & 63 == card]

        observer, chooser, masks = Observer(view.rules), MoveChooser(), view.masks()
        while True:
            observation = observer.observe(masks, chooser)
            allowed = observation["action_mask"].astype(bool)
            action, _ = self.model.predict(observation, action_masks=allowed, deterministic=True)
            code = chooser.step(int(action), card_codes)
            if code is not None:
                return Move.from_code(code)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: ppo_bot.py MODEL.zip")
    serve(PolicyBot(MaskablePPO.load(sys.argv[1], device="cpu")), "ppo")
