"""What each listener of a table is sent, as pure functions of the table: a seat gets its seat's
view and its legal moves, a spectator the public view; and the moves one missed, the finished
match's replay."""

from __future__ import annotations

from typing import Any

from ..coach.lesson import LEARNER, lesson_tips
from ..core import Match, Move, Played, Round, cards_in, short_texts
from ..i18n import LANGUAGES, bot_name, bot_persona
from . import messages
from .results import Outcome
from .seats import Seat, TableSettings, TableStatus


def table_json(
    table_id: str, settings: TableSettings, status: TableStatus, connected: list[bool], seat: int | None
) -> dict[str, Any]:
    """The table as anyone may see it: status, rules, seats (who is connected, and the name to
    show in each language: bots get distinct ones), timer, whether hints are given; ``you`` is
    the seat it is shown to, ``host`` the host's seat, ``rematch`` the rematch table's id once made."""
    return {
        "id": table_id,
        "status": status.value,
        "rules": settings.rules.to_dict(),
        "seats": [
            {"name": place.name, "bot": place.bot, "open": place.open, "connected": here, "shown": shown}
            for place, here, shown in zip(settings.seats, connected, shown_names(settings.seats), strict=True)
        ],
        "timer": settings.timer,
        "hints": settings.hints,
        "fast": settings.fast,
        "you": seat,
        "host": settings.host_seat(),
        "rematch": settings.rematch,
        "rated": settings.rated,
        "resigned": settings.resigned,
        "lesson": settings.lesson,
    }


def shown_names(seats: tuple[Seat, ...]) -> list[dict[str, str] | None]:
    """Each seat's name in each language: a person's own, a bot's "Shirin (medium)", never a persona
    a person at the table is called (in either language); None if open."""
    people = {seat.name.casefold() for seat in seats if seat.name and not seat.bot}
    names: list[dict[str, str] | None] = []
    persona = 0
    for seat in seats:
        if seat.bot:
            while any(bot_persona(persona, lang).casefold() in people for lang in LANGUAGES):
                persona += 1
            names.append({lang: bot_name(persona, seat.bot, lang) for lang in LANGUAGES})
            persona += 1
        else:
            names.append(None if seat.name is None else dict.fromkeys(LANGUAGES, seat.name))
    return names


def state_json(
    match: Match | None,
    seat: int | None,
    version: int,
    table: dict[str, Any],
    last: Played | None = None,
    waiting: frozenset[int] | None = None,
    surs: dict[int, list[int]] | None = None,
    *,
    outcome: Outcome | None = None,
    seconds_left: float | None = None,
    since: int | None = None,
) -> dict[str, Any]:
    """Everything ``seat`` may know (None: a spectator) at ``version``; ``last`` is what the
    last move did (sent while its round is the one shown); ``surs``, by round number, which of
    its plays (from 0) made a Sur that counts, sent for the round shown (``sur_plays``). Between
    rounds (``waiting``: the players not yet ready) it shows the round that ended, not the next deal.
    At a lesson the learner's seat gets the position's tips (``lesson``; `pasur.coach.lesson`).
    Once the match is over, its ``outcome``; the turn timer's ``seconds_left``; the moves played
    since the version ``since`` (``missed``)."""
    state = messages.state(version, table)
    if match is not None:
        state.update(_position(match, seat, table, last, waiting, surs or {}))
        if seconds_left is not None:
            state["seconds_left"] = seconds_left
        if since is not None and since < version:
            state["missed"] = played_since(match, since)
    if outcome is not None:
        state["winner"], state["ended"], state["aborted"] = outcome.winner, outcome.ended, outcome.aborted
    if outcome is not None or table["status"] == TableStatus.ABANDONED:
        state["legal"] = []  # a resigned or abandoned match stops mid-round: nothing more is played
    return state


def _position(
    match: Match,
    seat: int | None,
    table: dict[str, Any],
    last: Played | None,
    waiting: frozenset[int] | None,
    surs: dict[int, list[int]],
) -> dict[str, Any]:
    """What ``seat`` sees of the match as `state_json()` says."""
    shown: dict[str, Any] = {"waiting": sorted(waiting) if waiting is not None and len(match.rounds) > 1 else None}
    between = shown["waiting"] is not None
    game = match.rounds[-2] if between else match.rounds[-1]
    codes = game.legal_codes() if seat is not None and match.turn == seat and not between else []
    tips = lesson_tips(game.view(seat)) if table.get("lesson") and seat == LEARNER else []
    return shown | {
        "view": game.view(seat).to_json() if seat is not None else game.public_json(),
        "last": played_json(last) if last is not None and last.round == game.number else None,
        "sur_plays": list(surs.get(game.number, ())),
        "legal": [
            {"text": text, **Move.from_code(code).to_json()}
            for text, code in zip(short_texts(codes), codes, strict=True)
        ],
        "scores": list(match.scores),
        "winner": match.winner,
        "rounds": [round_summary(done) for done in match.rounds if done.over],
        "lesson": [tip.to_json() for tip in tips],
    }


def played_json(played: Played) -> dict[str, Any]:
    """What a move did, as everyone saw it: who played what, a Sur, and a round's end sweep."""
    return {
        "round": played.round,
        "seat": played.seat,
        **played.move.to_json(),
        "sur": played.sur,
        "round_over": played.round_over,
        "sweeper": played.sweeper,
        "swept": [str(card) for card in cards_in(played.swept)],
    }


def played_since(match: Match, version: int) -> list[dict[str, Any]]:
    """The moves after ``version`` (the table's count of moves), as everyone saw them."""
    plays: list[dict[str, Any]] = []
    number = 0
    for game in match.rounds:
        for index, code in enumerate(game.history):
            number += 1
            if number > version:
                seat = (game.first + index) % match.rules.players
                plays.append({"version": number, "round": game.number, "seat": seat, **Move.from_code(code).to_json()})
    return plays


def replay_steps(match: Match) -> list[dict[str, Any]]:
    """Every position of a match, for the replay view: table, hands, each side's pile and Surs,
    whose turn, the pack, the move, the scores banked before the round; what the move did (a Sur;
    at the round's end the last capturer's sweep)."""
    steps = []
    for recorded in match.rounds:
        game = Round(match.rules, recorded.deck, recorded.number, recorded.banked)
        steps.append(_replay_step(game, None))
        for code in recorded.history:
            steps.append(_replay_step(game, game.play(code)))
    return steps


def _replay_step(game: Round, played: Played | None) -> dict[str, Any]:
    return {
        "round": game.number,
        "deal": game.deal,
        "table": [str(card) for card in cards_in(game.table)],
        "hands": [[str(card) for card in cards_in(hand)] for hand in game.hands],
        "captured": [[str(card) for card in cards_in(pile)] for pile in game.captured],
        "surs": list(game.surs),
        "turn": game.turn,
        "pack": game.pack,
        "over": game.over,
        "seat": played.seat if played else None,
        "move": played.move.to_json() if played else None,
        "sur": bool(played and played.sur),
        "sweeper": played.sweeper if played else None,
        "swept": [str(card) for card in cards_in(played.swept)] if played else [],
        "scores": list(game.banked),
    }


def round_summary(game: Round) -> dict[str, Any]:
    """A finished round's breakdown per side (public: every capture was seen)."""
    return {"number": game.number, "sides": [score.to_json() for score in game.breakdown()]}
