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
from pasur.envs.encoding import MoveChooser, observe


class PolicyBot:
    """Plays the policy's most likely legal action at each step."""

    def __init__(self, model: MaskablePPO) -> None:
        self.model = model

    def choose(self, view: SeatView, legal: Sequence[Move]) -> Move:
        chooser = MoveChooser([move.code for move in legal])
        masks = view.masks()
        while True:
            allowed = chooser.mask()
            observation = {"observation": observe(masks, chooser), "action_mask": allowed}
            action, _ = self.model.predict(observation, action_masks=allowed.astype(bool), deterministic=True)
            code = chooser.step(int(action))
            if code is not None:
                return Move.from_code(code)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: ppo_bot.py MODEL.zip")
    serve(PolicyBot(MaskablePPO.load(sys.argv[1], device="cpu")), "ppo")
