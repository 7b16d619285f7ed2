"""Pasur as an OpenSpiel Python game: importing this module registers ``python_pasur``.

    import pyspiel, pasur.envs.openspiel
    game = pyspiel.load_game("python_pasur(players=3)")

Parameters are the rules options (``sur_cutoff=-1`` for no cut-off). A game is one round. Chance
deals the pack one card at a time, uniformly, exactly as `pasur.core.deal_deck()` does: a lone
table Jack is replaced by the next card drawn (put in its place), then buried at a place chance
picks in the rest of the pack (never on top); a first-deal table the rules refuse, the replaced
one included, is dealt again from the start (a redeal). Actions and tensors are those of
`pasur.envs.encoding`. Returns: each player's side's round points minus the mean of the
other sides'.
"""

from __future__ import annotations

import random
from typing import Any

from ..core.errors import MissingExtra

try:
    import numpy as np
    import pyspiel
except ImportError as missing:  # the rl extra is not installed
    raise MissingExtra(f"pasur.envs.openspiel ({missing.name})", "rl") from None

from ..core import Round, Rules, relative_points
from ..core.cards import JACKS, format_cards, mask_of
from ..core.deal import table_problem
from .encoding import ACTION_COUNT, HAND, OBSERVATION_SIZE, TABLE, TURN, UNSEEN, MoveChooser, Observer
from .options import rules_of

#: The rules options with their defaults; OpenSpiel has no None, so no Sur cut-off is -1.
_PARAMETERS: dict[str, Any] = {name: -1 if value is None else value for name, value in Rules().to_dict().items()}
_MAX_MOVE_ACTIONS = 12  # a card, at most ten named cards, done
_HISTORY_SIZE = 48 * 104  # each play: its card and the cards it took
_GAME_TYPE = pyspiel.GameType(
    short_name="python_pasur",
    long_name="Python Pasur (Chahar Barg)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMETERS,
)


def _rules(params: dict[str, Any]) -> Rules:
    options = {**_PARAMETERS, **params}
    if options["sur_cutoff"] < 0:
        options["sur_cutoff"] = None
    return rules_of(options, ())


class PasurGame(pyspiel.Game):  # type: ignore[misc]
    """One round of Pasur."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        self.rules = _rules(params or {})
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=52,
            num_players=self.rules.players,
            min_utility=-160.0,
            max_utility=160.0,
            utility_sum=0.0,
            max_game_length=48 * _MAX_MOVE_ACTIONS,
        )
        super().__init__(_GAME_TYPE, info, params or {})

    def new_initial_state(self) -> PasurState:
        return PasurState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> PasurObserver:
        return PasurObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), self.rules)


class PasurState(pyspiel.State):  # type: ignore[misc]
    """Dealing (chance), then the round's play."""

    def __init__(self, game: PasurGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.drawn = b""  # the cards drawn so far, one byte each: a copied state shares it
        self.bury_jack: int | None = None  # a lone table Jack waiting to be buried
        self.jack_place = 0  # where it lay in the deal, for the card that replaces it
        self.buried_after: int | None = None  # …under how many pack cards
        self.round: Round | None = None
        self.chooser = MoveChooser()

    # -- chance -------------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.round is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.round.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.round.turn

    def _burying(self) -> bool:
        """Whether chance is choosing where the lone table Jack goes in the pack: once the card
        that replaces it is on the table, and the table stands."""
        table_end = 4 * self.rules.players + 4
        return self.bury_jack is not None and self.buried_after is None and len(self.drawn) == table_end

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.round is None
        if self._burying():
            places = 52 - len(self.drawn) - 1  # the rest of the pack: under 1 … all of it, never on top
            return [(place, 1.0 / places) for place in range(1, places + 1)]
        left = [card for card in range(52) if card not in self.drawn and card != self.bury_jack]
        return [(card, 1.0 / len(left)) for card in left]

    def _apply_chance(self, action: int) -> None:
        table_end = 4 * self.rules.players + 4
        if self._burying():
            self.buried_after = action
        elif self.bury_jack is not None and len(self.drawn) == table_end - 1:
            place = self.jack_place  # the top of the pack takes the Jack's place
            self.drawn = self.drawn[:place] + bytes((action,)) + self.drawn[place:]
        else:
            self.drawn += bytes((action,))
        if len(self.drawn) == table_end and self.buried_after is None:
            table = mask_of(self.drawn[table_end - 4 :])
            if self.bury_jack is None and self.rules.bury_table_jack and (table & JACKS).bit_count() == 1:
                jack = (table & JACKS).bit_length() - 1
                self.jack_place = self.drawn.index(jack)
                self.drawn = self.drawn.replace(bytes((jack,)), b"")
                self.bury_jack = jack
            elif table_problem(table, self.rules):
                self.drawn, self.bury_jack = b"", None  # gather, reshuffle, deal again
            return
        if len(self.drawn) == 52 - (self.bury_jack is not None):
            deck = list(self.drawn)
            if self.bury_jack is not None:
                assert self.buried_after is not None
                deck.insert(table_end + self.buried_after, self.bury_jack)
            self.round = Round(self.rules, deck)

    # -- play ---------------------------------------------------------------------------------

    def _legal_actions(self, player: int) -> list[int]:
        if self.round is None or self.round.over or player != self.round.turn:
            return []
        allowed = self.chooser.allowed(self.round.hands[player])
        return [action for action in range(ACTION_COUNT) if allowed >> action & 1]

    def _apply_action(self, action: int) -> None:
        if self.round is None:
            self._apply_chance(action)
            return
        code = self.chooser.step(action, self.round.card_codes)
        if code is not None:
            self.round.play_code(code)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Bury:{action}" if self._burying() else f"Deal:{format_cards(1 << action)}"
        if action < 52:
            return f"Play:{format_cards(1 << action)}"
        if action < 104:
            return f"Take:{format_cards(1 << (action - 52))}"
        return "Done"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PasurState:
        """A state the player cannot tell from this one: the cards it has not seen dealt anew at
        random (for OpenSpiel's ISMCTS)."""
        assert self.round is not None, "no information state while dealing"
        other = PasurState(self.get_game())
        seed = int(probability_sampler() * 2**53)
        other.round = Round.from_view(self.round.view(player_id), random.Random(seed))
        other.chooser = self.chooser.copy()  # the seat's own hand and the table are the same
        return other

    def is_terminal(self) -> bool:
        return self.round is not None and self.round.over

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.rules.players
        assert self.round is not None
        points = self.round.points()
        return [float(relative_points(points, self.rules.side_of(seat))) for seat in range(self.rules.players)]

    def __str__(self) -> str:
        if self.round is None:
            return f"dealing: {len(self.drawn)} cards drawn"
        hands = " | ".join(format_cards(hand) for hand in self.round.hands)
        return f"table [{format_cards(self.round.table)}] hands [{hands}] pack {self.round.pack}"


class PasurObserver:
    """Observations of a seat, in OpenSpiel's observer interface: with perfect recall the play
    history is added; ``private_info`` NONE leaves the hand out, ``public_info`` False leaves
    out everything but the hand. The full state (``private_info`` ALL_PLAYERS: every hand and the
    pack's order) is not offered, and asking for it is refused rather than answered with less."""

    def __init__(self, iig_obs_type: Any, rules: Rules) -> None:
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                "python_pasur observes one seat: private_info=ALL_PLAYERS (every hand and the pack) is not offered; "
                "for perfect-information play use pasur.solve on the pasur.Round itself"
            )
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = iig_obs_type.public_info
        self.recall = iig_obs_type.perfect_recall
        size = OBSERVATION_SIZE + (_HISTORY_SIZE if self.recall else 0)
        self.observer = Observer(rules)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PasurState, player: int) -> None:
        self.tensor.fill(0)
        if state.round is None:
            return
        own_turn = not state.round.over and state.round.turn == player
        encoded = self.observer.observation(state.round.masks(player), state.chooser if own_turn else None)
        if not self.private:
            encoded[HAND:TABLE] = 0
            encoded[UNSEEN:TURN] = 0  # unseen cards, and the chosen card and named cards
        if not self.public:
            encoded[TABLE:] = 0
        self.tensor[:OBSERVATION_SIZE] = encoded
        if self.recall and self.public:
            for index, play in enumerate(state.round.view(player).history):
                start = OBSERVATION_SIZE + 104 * index
                self.tensor[start + play.card] = 1
                for card in play.take:
                    self.tensor[start + 52 + card] = 1

    def string_from(self, state: PasurState, player: int) -> str:
        if state.round is None:
            return f"p{player} dealing"
        view = state.round.view(player)
        parts = [f"p{player}"]
        if self.private:
            parts.append("hand " + " ".join(str(card) for card in view.hand))
            own_turn = not state.round.over and state.round.turn == player
            if own_turn and state.chooser.card is not None:
                parts.append(
                    f"chosen {format_cards(1 << state.chooser.card)} named {format_cards(state.chooser.named)}"
                )
        if self.public:
            parts.append("table " + " ".join(str(card) for card in view.table))
            parts.append("captured " + " / ".join(" ".join(map(str, pile)) for pile in view.captured))
            parts.append(f"hands {list(view.hands)} pack {view.pack} deal {view.deal} surs {list(view.surs)}")
            parts.append(f"turn {view.turn}")
            if self.recall:
                parts.append(
                    "plays "
                    + " ".join(
                        f"{play.seat}:{play.card}" + ("x" + "+".join(map(str, play.take)) if play.take else "")
                        for play in view.history
                    )
                )
        return " | ".join(parts)


pyspiel.register_game(_GAME_TYPE, PasurGame)
