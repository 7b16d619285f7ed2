"""Pasur as a PettingZoo AEC environment, as PettingZoo's classic games are built.

    from pasur.envs.pettingzoo import env
    game = env(players=3, target=100, render_mode="ansi")

Every rules option is a keyword argument (``players=3``, ``sur_cancel=False``, …). Observations
and actions are documented in `pasur.envs.encoding`. ``reward="round"`` (default): an
episode is one round and each agent's reward is its side's round points minus the mean of the
other sides'. ``reward="match"``: an episode is a whole match, +1 for each agent of the winning
side and −1 for the others at its end.

`env()` behaves as PettingZoo's classic games wrapped in its ``TerminateIllegalWrapper``,
``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``, but does it in the environment itself:
those wrappers tripled the cost of a step.

Any bot can play a seat, as an opponent: ``env.step(env.bot_action(make_bot("net")))`` steps the
agent to move as the bot plays from that seat's view.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from ..core.errors import MissingExtra

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils.env_logger import EnvLogger
except ImportError as missing:  # the rl extra is not installed
    raise MissingExtra(f"pasur.envs.pettingzoo ({missing.name})", "rl") from None

from ..bots import Bot, checked_choice
from ..core import Match, Round, relative_points
from ..core.cards import format_cards
from .encoding import ACTION_COUNT, TAKE, MoveChooser, Observer, actions_for, observation_space
from .options import rules_of


def _action_number(action: Any) -> int | None:
    """An action given as a numpy int (or a bool), as an int; None when it is no int at all."""
    return int(action) if isinstance(action, int | np.integer) else None


def env(**kwargs: Any) -> raw_env:
    """The environment as PettingZoo's classic games hand it out: an action the mask refuses ends
    the game with −1 for the agent that took it (and 0 for the others)."""
    kwargs.setdefault("illegal_reward", -1.0)
    return raw_env(**kwargs)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo names it so
    """Pasur for 2, 3 or 4 agents (``player_0`` … in order of play). An action the mask refuses
    raises ValueError, changing nothing; with ``illegal_reward`` set it ends the game instead,
    with that reward for the agent that took it. An action outside the action space, or a step
    before `reset()`, always raises."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "pasur_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        reward: str = "round",
        illegal_reward: float | None = None,
        **rules: Any,
    ) -> None:
        super().__init__()
        if reward not in ("round", "match"):
            raise ValueError('reward must be "round" or "match"')
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.rules = rules_of(rules, ("render_mode", "reward", "illegal_reward"))
        self.reward_mode = reward
        self.illegal_reward = illegal_reward
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.rules.players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.agents = self.possible_agents[:]
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space())
        self.action_spaces = {agent: spaces.Discrete(ACTION_COUNT) for agent in self.possible_agents}
        self._seed_source = random.Random()
        self.observer = Observer(self.rules)
        self.match: Match | None = None
        self._round: Round | None = None
        self.chooser = MoveChooser()
        self._bot_actions: list[int] = []  # the rest of a bot's move, from bot_action

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def game(self) -> Round:
        """The round being played."""
        assert self.match is not None and self.match.round is not None, "call reset() first"
        return self.match.round

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed_source = random.Random(seed)
        # A round episode stops at the end of its round: no next round is dealt.
        self.match = Match(self.rules, auto_deal=self.reward_mode == "match", rng=self._seed_source)
        if self.match.round is None:
            self.match.next_round()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._rewarded = False
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.chooser = MoveChooser()
        self._finished = False  # every agent is terminated (and truncated) at once
        self._next_round()

    def _next_round(self) -> None:
        assert self.match is not None
        self._round = game = self.match.rounds[-1]
        self.agent_selection = self.possible_agents[game.turn]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._round
        if game is None:
            raise RuntimeError("call reset() before observe()")
        to_move = agent == self.agent_selection and not game.over
        return self.observer.observe(game.masks(self._seats[agent]), self.chooser if to_move else None)

    def step(self, action: Any) -> None:
        game = self._round
        if game is None or self.match is None:
            raise RuntimeError("call reset() before step()")
        if self._finished:
            self._was_dead_step(action)
            return
        number = action if type(action) is int else _action_number(action)
        if number is None or not 0 <= number < ACTION_COUNT:
            raise ValueError(f"action {action!r} is not in the action space, Discrete({ACTION_COUNT})")
        agent = self.agent_selection
        try:
            code = self.chooser.step(number, game.card_codes)
        except ValueError:
            if self.illegal_reward is None:
                raise
            self._end_by_illegal_action(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # the last step's rewards are spent
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        if code is not None:
            self.match.play_code(code)
            if game.over:
                self._end_of_round(game)
            else:
                self.agent_selection = self.possible_agents[game.turn]
        if self.render_mode == "human":
            self.render()

    def bot_action(self, bot: Bot) -> int:
        """The next action of the agent to move as ``bot`` plays it, from that seat's view alone.
        The bot chooses at a move's first action; a move of several actions is asked for one
        action at a time. BotError if the bot's move is not legal."""
        game, chooser = self.game, self.chooser
        if chooser.card is None:
            move = checked_choice(bot, game.view(game.turn), game.legal_moves())
            self._bot_actions = actions_for(move.code, game.card_codes)
            return self._bot_actions[0]
        taken = 1 + chooser.named.bit_count()
        begun = [chooser.card] + [TAKE + card for card in range(52) if chooser.named >> card & 1]
        if self._bot_actions[:taken] != begun or taken >= len(self._bot_actions):
            raise ValueError("the agent to move began a move of its own: finish it with step()")
        return self._bot_actions[taken]

    def _end_by_illegal_action(self, agent: str) -> None:
        """End the game, as PettingZoo's ``TerminateIllegalWrapper`` does."""
        assert self.illegal_reward is not None
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = float(self.illegal_reward)
        self._finished = self._rewarded = True
        self._accumulate_rewards()
        self._deads_step_first()

    def _end_of_round(self, game: Round) -> None:
        """Reward the round's end; end the episode, or deal on in a match episode."""
        assert self.match is not None
        if self.reward_mode == "round":
            # the match has banked the round: its points are the scores gained
            points = [score - before for score, before in zip(self.match.scores, game.banked, strict=True)]
            for seat, agent in enumerate(self.possible_agents):
                self.rewards[agent] = float(relative_points(points, self.rules.side_of(seat)))
        elif self.match.over:
            for seat, agent in enumerate(self.possible_agents):
                self.rewards[agent] = 1.0 if self.rules.side_of(seat) == self.match.winner else -1.0
        if self.reward_mode == "round" or self.match.over:
            self.terminations = dict.fromkeys(self.agents, True)
            self._finished = True
        else:
            self._next_round()
        self._rewarded = True
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _text(self) -> str:
        if self.match is None or self.match.round is None:
            return "(no game: call reset())"
        game = self.game
        lines = [
            f"round {game.number}, deal {game.deal}, pack {game.pack}, scores {self.match.scores}",
            f"table: {format_cards(game.table, symbols=True) or '(empty)'}",
        ]
        for seat, agent in enumerate(self.possible_agents):
            marker = "*" if seat == game.turn and not game.over else " "
            surs = game.surs[self.rules.side_of(seat)]
            lines.append(f"{marker} {agent}: {game.hands[seat].bit_count()} cards, surs {surs}")
        return "\n".join(lines)

    def close(self) -> None:
        pass
