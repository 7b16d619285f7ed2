"""A match at one computer: people and bots in seats, the moves they make, hints, saving and
resuming. No screen code: the full-screen app and ``--plain`` both drive this."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ..bots import capped_spec, parse_spec, validate_spec
from ..coach.hint import hint
from ..coach.lesson import LEARNER, LESSON_LEVEL, lesson_match, lesson_tips, untold
from ..core import IllegalMove, Match, Move, Played, Round, Rules, SeatView, from_record, to_record
from ..core.cards import cards_in, mask_of
from ..core.errors import RecordError
from ..core.record import holds_controls, load_json
from ..core.scoring import club_count, sur_counts
from ..host import BotChoice, MatchHost, SeatPlan, seat_bots
from ..i18n import bot_name, cards_words, move_words, number_text, separator, text, typed_move, without_isolates

#: The keys a Persian keyboard layout (ISIRI 9147) types in the places of the game's letter keys:
#: Persian character → the key it stands for.
PERSIAN_LAYOUT = {"ا": "h", "پ": "m", "س": "s", "ف": "t", "ض": "q", "؟": "?"}

#: What a saved game keeps beside the record, under this key.
SAVE_KEY = "pasur_play"
#: The file saving writes when none is named.
DEFAULT_SAVE = "pasur-save.json"
#: The most a hint at the keyboard thinks (this thread's CPU, in milliseconds): its whole 1,024
#: deals at two players from a round's first move (about 1.5 s), fewer at three and four players,
#: where one deal costs ten to thirty times as much (all of them took 24 to 44 s there).
LOCAL_HINT_MS = 2000
#: The most a bot named with options in a saved game thinks a move (milliseconds): a file may
#: name ``ismcts:iterations=999999999``; a built-in level never comes near it.
SAVED_BOT_MS = 10_000


def hint_lines(view: SeatView, legal: Sequence[Move], lang: str = "en", seed: int = 0) -> tuple[Move, list[str]]:
    """The move advised to ``view``'s seat among ``legal`` and what to say of it: the hint and why,
    or for a forced move that it is the only one; thought out within `LOCAL_HINT_MS`."""
    advice = hint(view, legal, lang, seed=seed, ms=LOCAL_HINT_MS)
    if advice is None:
        return legal[0], [text("hint_forced", lang)]
    said = [text("hint", lang, reason=advice.reason)]
    return advice.move, said + ([text("hint_why", lang, why=advice.why)] if advice.why else [])


def seat_plans(players: int, humans: int, opponents: Sequence[str], lang: str = "en") -> list[SeatPlan]:
    """Seats for ``humans`` people and bots: people first, except that two people at a table of
    four in partnership sit as partners (seats 0 and 2). ``opponents`` gives one bot spec for every
    bot seat, or one each."""
    if not 0 <= humans <= players:
        raise ValueError(text("too_many_people", humans=humans, players=players))
    human_seats = [0, 2] if players == 4 and humans == 2 else list(range(humans))
    bot_seats = [seat for seat in range(players) if seat not in human_seats]
    specs = list(opponents) or ["medium"]
    if len(specs) == 1:
        specs = specs * len(bot_seats)
    if len(specs) != len(bot_seats):
        raise ValueError(f"give one opponent level, or {len(bot_seats)} (one per bot seat)")
    for spec in specs:
        validate_spec(spec, allow_exec=True)  # a bad spec fails here, before the game starts
    plans: list[SeatPlan] = []
    people = 0
    for seat in range(players):
        if seat in human_seats:
            people += 1
            name = text("you", lang) if humans == 1 else text("player", lang, number=people)
            plans.append(SeatPlan(name))
        else:
            index = bot_seats.index(seat)
            plans.append(SeatPlan(bot_name(index, specs[index], lang), specs[index]))
    return plans


class ProgramsNamed(ValueError):
    """A saved game whose bot seats run programs (``exec:``): they start only when the person
    agrees, since a file may come from anyone."""

    def __init__(self, commands: Sequence[str]) -> None:
        super().__init__("the file names programs to run as bots: " + "; ".join(commands))
        self.commands = list(commands)


class LocalGame(MatchHost):
    """A match between the seats of ``plans``, with the names, the log, hints and saving. Moves
    by people are checked by the engine: an illegal one raises `IllegalMove` and changes
    nothing. ``exec:`` bots run only with ``allow_exec`` (their specs came from the command line
    or the person agreed); a bot that fails is replaced for that move by the stand-in."""

    def __init__(
        self,
        rules: Rules,
        plans: Sequence[SeatPlan],
        seed: int | None = None,
        match: Match | None = None,
        allow_exec: bool = False,
        lesson: bool = False,
    ):
        if len(plans) != rules.players:
            raise ValueError(f"{rules.players} players need {rules.players} seats")
        self.rules = rules
        self.plans = list(plans)
        self.seed = seed if seed is not None else random.randrange(1 << 32)
        bots = seat_bots([plan.bot for plan in self.plans], self.seed, allow_exec=allow_exec)
        if match is None:
            match = lesson_match(self.seed) if lesson else Match(rules, seed=self.seed)
        super().__init__(match, bots)
        self.log: list[Played] = []
        #: Where the match is kept after every move (``--save``), so that nothing is lost to a
        #: closed terminal; None: only when the person saves or leaves.
        self.kept_in: str | None = None
        #: Whether this is the first-game lesson (tips for the person in seat 0), and the topics told.
        self.lesson = lesson
        self.told: set[str] = set()

    # -- the state, as seats may see it ---------------------------------------------------------

    def is_person(self, seat: int) -> bool:
        return not self.is_bot(seat)

    @property
    def people(self) -> list[int]:
        """The seats people play."""
        return [seat for seat in range(self.rules.players) if self.is_person(seat)]

    def name(self, seat: int) -> str:
        return self.plans[seat].name

    def side_name(self, side: int) -> str:
        """A side by its players' names."""
        return " + ".join(self.name(seat) for seat in range(self.rules.players) if self.rules.side_of(seat) == side)

    def view(self, seat: int) -> SeatView:
        return self.round.view(seat)

    def legal_moves(self) -> list[Move]:
        return [] if self.over else self.round.legal_moves()

    def choices(self, card: int) -> list[Move]:
        """The legal moves of one card in the hand of the seat to play."""
        return [move for move in self.legal_moves() if move.card == card]

    # -- moves -----------------------------------------------------------------------------------

    def play(self, move: Move | str | int) -> Played:
        """A person's move, as a `Move`, its short text or the words the game prints it in
        (``lay 7♦``, ``10♣ × A♠``); IllegalMove if it is not legal."""
        if isinstance(move, str):
            move = typed_move(move)
        if self.over:
            raise IllegalMove("the match is over", "match_over")
        if not self.is_person(self.turn):
            raise IllegalMove(f"it is {self.name(self.turn)}'s turn", "not_your_turn", name=self.name(self.turn))
        return super().play(move)

    def apply_bot_choice(self, choice: BotChoice) -> Played:
        if self.is_person(self.turn):
            raise IllegalMove(f"it is {self.name(self.turn)}'s turn", "not_your_turn", name=self.name(self.turn))
        return super().apply_bot_choice(choice)

    def record(self, played: Played) -> Played:
        """Log a move, and keep the match in `kept_in` (if set) as it now stands; a save
        that fails here is said when the person saves or leaves."""
        self.log.append(played)
        if self.kept_in:
            with contextlib.suppress(OSError):
                self.save(self.kept_in)
        return played

    def ask_hint(self, lang: str = "en") -> tuple[Move, list[str]]:
        """The strongest bot's choice for the seat to play, and what to say of it (`hint_lines()`)."""
        return hint_lines(self.view(self.turn), self.round.legal_moves(), lang, seed=len(self.log))

    @classmethod
    def first_lesson(cls, lang: str = "en", seed: int | None = None) -> LocalGame:
        """The first-game lesson: the person against the gentle bot, on the lesson's deal, with tips."""
        return cls(Rules(), seat_plans(2, 1, [LESSON_LEVEL], lang), seed=seed, lesson=True)

    def lesson_tips(self, round_number: int, lang: str = "en") -> tuple[list[str], Move | None]:
        """At a lesson, what to tell the person now about round ``round_number`` (each topic once,
        as the page does) and the move suggested; nothing otherwise."""
        if not self.lesson:
            return [], None
        shown = untold(lesson_tips(self.match.rounds[round_number - 1].view(LEARNER)), self.told)
        return [without_isolates(tip.words[lang]) for tip in shown], shown[-1].move if shown else None

    # -- saving ------------------------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """The match as pasur-record/1, with the seats and seed kept to play it on."""
        plans = [{"name": plan.name, "bot": plan.bot} for plan in self.plans]
        extra = {SAVE_KEY: {"seats": plans, "seed": self.seed}}
        return to_record(self.match, names=[plan.name for plan in self.plans], **extra)

    def save(self, path: str | Path) -> None:
        """Write the match to ``path`` whole or not at all (a new file, then renamed over the old),
        so that a save cut short by a closed terminal never leaves half a file."""
        target = Path(path)
        partial = target.with_name(f".{target.name}.part")
        partial.write_text(json.dumps(self.to_record(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        os.replace(partial, target)

    def save_reported(self, path: str | Path, lang: str = "en") -> str:
        """Save to ``path``; what to tell the person: where it went, or why it could not."""
        try:
            self.save(path)
        except OSError as error:
            return text("save_failed", lang, path=path, error=error.strerror or error)
        return text("saved", lang, path=Path(path).resolve())

    @classmethod
    def load(cls, path: str | Path, opponents: Sequence[str] = (), allow_exec: bool = False) -> LocalGame:
        """Resume a saved game, or play on from any record (its seats become people, unless
        ``opponents``, from the command line, names bots for all but the first). RecordError or
        OSError if it cannot; `ProgramsNamed` if the saved seats run programs and
        ``allow_exec`` is not given."""
        record = load_json(Path(path).read_text(encoding="utf-8"))
        match = from_record(record)
        saved = record.get(SAVE_KEY) if isinstance(record, dict) else None
        players = match.rules.players
        if isinstance(saved, dict) and isinstance(saved.get("seats"), list):
            try:
                plans = [SeatPlan(str(entry["name"]), entry.get("bot")) for entry in saved["seats"]]
                seed = int(saved.get("seed", 0))
            except (KeyError, TypeError, ValueError, AttributeError):
                raise RecordError(0, 0, f"{SAVE_KEY}: the saved seats cannot be read") from None
            if len(plans) != players:
                raise RecordError(0, 0, f"{SAVE_KEY}: {players} seats expected")
            if not all(plan.bot is None or isinstance(plan.bot, str) for plan in plans):
                raise RecordError(0, 0, f"{SAVE_KEY}: a seat's bot must be a bot name")
            if any(holds_controls(plan.name) for plan in plans):
                raise RecordError(0, 0, f"{SAVE_KEY}: a seat's name holds control characters")
            if any(plan.bot is not None and not plan.bot.isprintable() for plan in plans):
                # a program shown for the person's consent must read as what would run
                raise RecordError(0, 0, f"{SAVE_KEY}: a seat's bot holds characters that do not print")
            commands = [command for plan in plans if plan.bot and (command := _program_of(plan.bot))]
            if commands and not allow_exec:
                raise ProgramsNamed(commands)
            try:
                plans = [SeatPlan(plan.name, plan.bot and _bounded(plan.bot)) for plan in plans]
            except ValueError as error:
                raise RecordError(0, 0, f"{SAVE_KEY}: {error}") from None
        else:
            names = record.get("names") or [text("player", number=seat + 1) for seat in range(players)]
            plans = [SeatPlan(str(name)) for name in names]
            if opponents:
                plans = [plans[0], *seat_plans(players, 1, opponents)[1:]]
            seed = random.randrange(1 << 32)
            allow_exec = True  # the only bots are the command line's
        match.keep_dealing(seed + len(match.rounds))
        game = cls(match.rules, plans, seed=seed, match=match, allow_exec=allow_exec)
        game.log = _round_so_far(match)
        return game


def _round_so_far(match: Match) -> list[Played]:
    """The moves of the last round played (the one under way, or the match's last), as events,
    so a resumed game shows what led to the position."""
    last = next((game for game in reversed(match.rounds) if game.history), None)
    if last is None:
        return []
    again = Round(match.rules, last.deck, last.number, last.banked, check_deck=False)
    return [again.play(code) for code in last.history]


def _bounded(spec: str) -> str:
    """A saved seat's bot: a level or a bot as named alone (each bounded by its own defaults), else
    its think time capped at `SAVED_BOT_MS` a move, so that a file cannot ask for endless work."""
    return capped_spec(spec, SAVED_BOT_MS) if parse_spec(spec)[1] else spec


def _program_of(spec: str) -> str | None:
    """The command an ``exec:`` spec runs, or None for any other spec."""
    try:
        name, options = parse_spec(spec)
    except ValueError:
        return None  # not a program: building the bot says what is wrong with it
    return str(options["command"]) if name == "exec" else None


def scores_text(game: LocalGame, lang: str = "en") -> str:
    """The match score, side by side: "34 - 21"."""
    return " - ".join(number_text(score, lang) for score in game.match.scores)


def winner_text(game: LocalGame, lang: str = "en") -> str:
    """The finished match's result, the winner's score first: "Winner: Shirin (grandmaster), 65 - 55"."""
    winner = game.match.winner
    assert winner is not None
    return result_text(game.match.scores, winner, game.side_name, lang)


def result_text(scores: Sequence[int], winner: int, side_name: Callable[[int], str], lang: str = "en") -> str:
    """A match's result: the winner's name, and the scores with the winner's first."""
    order = [winner, *(side for side in range(len(scores)) if side != winner)]
    result = " - ".join(number_text(scores[side], lang) for side in order)
    return text("winner", lang, name=side_name(winner), scores=result)


def status_line(game: LocalGame, view: SeatView, lang: str = "en") -> str:
    """Round, deal, pack and target in one line."""
    rules = game.rules
    parts = (
        text("round", lang, number=view.round),
        text("deal", lang, number=view.deal, deals=rules.deals),
        text("pack", lang, count=view.pack),
        text("target", lang, target=rules.target),
    )
    return separator(lang).join(parts)


def side_lines(game: LocalGame, view: SeatView, lang: str = "en") -> list[str]:
    """Each side's name, banked score, and Surs and clubs this round."""
    lines = []
    for side in range(game.rules.sides):
        clubs = club_count(mask_of(view.captured[side]))
        banked = game.match.scores[side]
        # past the Sur cut-off a side's Surs no longer score (docs/RULES.md)
        parts = [text("surs", lang, count=view.surs[side]), text("clubs", lang, count=clubs)]
        if not sur_counts(game.rules, banked, last_deal=False):
            parts.append(text("sur_cut", lang))
        lines.append(f"{game.side_name(side)} {number_text(banked, lang)} ({text('list_join', lang).join(parts)})")
    return lines


def others_line(game: LocalGame, view: SeatView, lang: str = "en", seat: int | None = None, roomy: bool = False) -> str:
    """How many cards each other seat holds (every seat but ``seat``); ``roomy`` (a tall screen):
    a line each, with the seat's last play this round."""
    others = [other for other in range(game.rules.players) if other != seat]
    if not roomy:
        return separator(lang).join(
            f"{game.name(other)}: {text('cards_held', lang, count=view.hands[other])}" for other in others
        )
    lines = []
    for other in others:
        line = f"{game.name(other)}: {text('cards_held', lang, count=view.hands[other])}"
        last = next((play for play in reversed(view.history) if play.seat == other), None)
        if last is not None:
            move = move_words(str(last.card), [str(card) for card in last.take], lang)
            line += separator(lang) + text("last_play", lang, move=move)
        lines.append(line)
    return "\n".join(lines)


def describe(game: LocalGame, played: Played, lang: str = "en") -> str:
    """A played move in words, with the Sur and the end-of-round sweep."""
    return played_text(played, game.name(played.seat), game.side_name, lang)


def played_text(played: Played, name: str, side_name: Callable[[int], str], lang: str = "en") -> str:
    """A move ``name`` played, in words: what it took, a Sur, and the sweep at the round's end."""
    move = move_words(str(played.move.card), [str(card) for card in played.move.take], lang)
    line = text("played_sur" if played.sur else "played_move", lang, name=name, move=move)
    if played.swept and played.sweeper is not None:
        taker = side_name(played.sweeper)
        cards = cards_words([str(card) for card in cards_in(played.swept)], lang, joiner=" ")
        line += text("clause_join", lang) + text("last_capture", lang, name=taker, cards=cards)
    return line


def breakdown_lines(game: LocalGame, played: Played, lang: str) -> list[str]:
    """The round's breakdown, one line per side, and the match score."""
    lines = []

    def n(value: int) -> str:
        return number_text(value, lang)

    for side, score in enumerate(played.breakdown):
        lines.append(
            f"{game.side_name(side)}: {text('round_points', lang)} {n(score.total)} — "
            f"{text('clubs', lang, count=score.clubs)} (+{n(score.haft_khaj)}), 2♣ +{n(score.two_of_clubs)}, "
            f"10♦ +{n(score.ten_of_diamonds)}, {text('aces', lang)} +{n(score.aces)}, "
            f"{text('jacks', lang)} +{n(score.jacks)}, {text('surs', lang, count=score.surs)} (+{n(score.sur_points)})"
        )
    scores = separator(lang).join(f"{game.side_name(side)} {n(score)}" for side, score in enumerate(game.match.scores))
    lines.append(f"{text('match_score', lang)}: {scores} ({text('target', lang, target=game.rules.target)})")
    return lines


def round_over_text(game: LocalGame, played: Played, lang: str) -> str:
    """What the full-screen game shows as a round ends: the round's last plays (the dialog covers
    the table), its breakdown, a lesson's tips, the winner once the match is over, and the key on."""
    last_plays = [describe(game, one, lang) for one in game.log[-game.rules.players :]]
    body = [text("round_over", lang, number=played.round), "", *last_plays, "", *breakdown_lines(game, played, lang)]
    said, _ = game.lesson_tips(played.round, lang)
    body += ["", *said] if said else []
    body += ["", winner_text(game, lang)] if game.over else []
    return "\n".join([*body, "", text("continue", lang)])


def keep_on_hang_up(game: LocalGame, path: str) -> None:
    """When the terminal goes away (SIGHUP: a closed window, a dropped SSH session), save the
    match to ``path`` and end, instead of losing it (where the system has the signal)."""
    if not hasattr(signal, "SIGHUP"):
        return

    def hung_up(_signal: int, _frame: object) -> None:
        with contextlib.suppress(OSError):
            game.save(path)
        os._exit(128 + signal.SIGHUP)

    signal.signal(signal.SIGHUP, hung_up)
