"""``pasur/Pasur-v0``: one seat of Pasur as a single-agent Gymnasium environment; the other
seats are played by bots.

    import gymnasium, pasur.envs
    env = gymnasium.make("pasur/Pasur-v0", opponents="expert", players=2)

Observations and actions are those of `pasur.envs.encoding` (a Dict of ``observation`` and
``action_mask``; the mask is also in ``info``). An episode is one round, rewarded at its end with
the agent's side's points minus the mean of the other sides' (``reward="match"``: a whole match,
+1 for a win and −1 for a loss). An action the mask does not allow ends the episode with −1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.errors import MissingExtra

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as missing:  # the rl extra is not installed
    raise MissingExtra(f"pasur.envs.gymnasium ({missing.name})", "rl") from None

from ..core import Match, Round, SideScore, relative_points
from ..core.cards import format_cards
from ..host import MatchHost, OnFault, seat_bots, validate_spec
from .encoding import ACTION_COUNT, MoveChooser, Observer, observation_space
from .options import rules_of


class PasurEnv(gymnasium.Env[dict[str, np.ndarray], np.int64]):
    """The agent plays ``seat``; ``opponents`` is a bot spec, or one per other seat."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 - as gymnasium.Env declares it

    def __init__(
        self,
        opponents: str | list[str] = "greedy",
        seat: int = 0,
        reward: str = "round",
        render_mode: str | None = None,
        **rules: Any,
    ) -> None:
        self.rules = rules_of(rules, ("opponents", "seat", "reward", "render_mode"))
        if not 0 <= seat < self.rules.players:
            raise ValueError(f"seat must be 0 … {self.rules.players - 1}")
        if reward not in ("round", "match"):
            raise ValueError('reward must be "round" or "match"')
        others = self.rules.players - 1
        specs = [opponents] * others if isinstance(opponents, str) else list(opponents)
        if len(specs) != others:
            raise ValueError(f"give one opponent, or {others}")
        for spec in specs:
            validate_spec(spec, allow_exec=True)  # the opponents are named in code, which is trusted
        #: Each seat's bot spec, None for the agent's.
        self.opponent_specs: list[str | None] = [*specs[:seat], None, *specs[seat:]]
        self.seat = seat
        self.reward_mode = reward
        self.render_mode = render_mode
        self.observation_space = observation_space()  # type: ignore[assignment]
        self.action_space = spaces.Discrete(ACTION_COUNT)
        self.observer = Observer(self.rules)
        self.match: Match | None = None
        self.host: MatchHost | None = None
        self.chooser = MoveChooser()
        self._mask: np.ndarray | None = None  # the legal actions last observed

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        deal_seed = int(self.np_random.integers(2**63))
        # A round episode stops at the end of its round: no next round is dealt.
        self.match = Match(self.rules, seed=deal_seed, auto_deal=self.reward_mode == "match")
        if self.match.round is None:
            self.match.next_round()
        bots = seat_bots(self.opponent_specs, deal_seed, allow_exec=True)
        self.host = MatchHost(self.match, bots, OnFault.RAISE)
        self.chooser = MoveChooser()
        self._play_opponents()
        return self._observed()

    @property
    def game(self) -> Round:
        assert self.match is not None and self.match.round is not None, "call reset() first"
        return self.match.round

    def _play_opponents(self) -> float:
        """Let the bots move until it is the agent's turn or the episode ends; the reward of the
        rounds that ended meanwhile."""
        assert self.host is not None
        reward = 0.0
        for played, _ in self.host.play_bots():
            if played.round_over:
                reward += self._reward(played.breakdown)
        return reward

    def _episode_over(self) -> bool:
        assert self.match is not None
        return self.match.over or (self.reward_mode == "round" and self.game.over)

    def _reward(self, breakdown: Sequence[SideScore]) -> float:
        """The agent's reward for a round that just ended, from its breakdown."""
        assert self.match is not None
        if self.reward_mode == "match":
            if not self.match.over:
                return 0.0
            return 1.0 if self.rules.side_of(self.seat) == self.match.winner else -1.0
        points = [score.total for score in breakdown]
        return float(relative_points(points, self.rules.side_of(self.seat)))

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        assert self.match is not None, "call reset() first"
        try:
            code = self.chooser.step(int(action), self.game.card_codes)
        except ValueError:
            observation, info = self._observed()
            return observation, -1.0, True, False, {**info, "illegal_action": True}
        reward = 0.0
        if code is not None:
            game = self.game
            self.match.play_code(code)
            if game.over:
                reward += self._reward(game.breakdown())
            reward += self._play_opponents()
        if self.render_mode == "human":
            print(self.render_text())
        observation, info = self._observed()
        return observation, reward, self._episode_over(), False, info

    def _observed(self) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """The observation, and the info that holds the action mask too; the mask is kept for
        `action_masks()` (only reset and step change what the agent sees)."""
        mine = not self.game.over and self.game.turn == self.seat
        observation = self.observer.observe(self.game.masks(self.seat), self.chooser if mine else None)
        self._mask = observation["action_mask"].copy()
        return observation, {"action_mask": self._mask.copy()}

    def action_masks(self) -> np.ndarray:
        """The legal actions now as booleans, as sb3-contrib's MaskablePPO asks for them."""
        assert self._mask is not None, "call reset() first"
        mask: np.ndarray = self._mask.astype(bool)
        return mask

    def render_text(self) -> str:
        """The agent's view as text."""
        game = self.game
        view = game.view(self.seat)
        return (
            f"round {game.number} deal {game.deal} pack {game.pack} | table: "
            f"{format_cards(game.table, symbols=True) or '(empty)'} | your hand: "
            f"{' '.join(card.symbol() for card in view.hand)}"
        )

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.render_text()
        if self.render_mode == "human":
            print(self.render_text())
        return None
