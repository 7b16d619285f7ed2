"""The browser's engine (engine.wasm, the C core built for WebAssembly) against the Python reference:
the committed file is what the sources build, and on thousands of matches over every rules option
and table size, with moves tried at random (legal or not) and the bots ``random``, ``greedy``,
``expert``, ``ismcts`` and ``pimc``,
both deal the same decks, list the same legal moves, refuse the same moves for the same reason,
choose the same bot moves, read the same evidence of the others' plays for the solver bot and score
every round the same; and a position loaded from a seat's view alone has the same legal moves and
evidence. Runs the engine in Node."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pasur.bots import Bot, ExpertBot, GreedyBot, IsmctsBot, PimcBot, RandomBot
from pasur.bots.solver_bot import SolverBot, deal_plays
from pasur.core import IllegalMove, Match, Round, Rules, SeatView, native
from pasur.core.cards import JACK, KING, QUEEN
from pasur.core.deal import deck_problem
from pasur.core.notation import find_code
from pasur.core.solver import Sampling, sampled_values

ROOT = Path(__file__).resolve().parent.parent
WASM = ROOT / "src" / "pasur" / "server" / "static" / "engine.wasm"
TRACE = ROOT / "tests" / "js" / "engine_trace.mjs"
#: Matches played in both engines (each a record of moves tried), decks dealt from, and positions
#: loaded from a seat's view (as the offline bot as a program loads them).
MATCHES = 2400
DECKS = 600
VIEWS = 400
#: One-round matches with ismcts and pimc bots (at 1 to 1,000 iterations, 1 to 300 playouts a move).
ISMCTS_MATCHES = 24

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="no Node.js here")


def random_rules(rng: random.Random, targets: tuple[int, ...] = (1, 10, 30, 62, 0)) -> Rules:
    """Any rules the options allow: every table size, option and a short or long match (a target
    of ``targets``, 0 for one drawn from 1 to 79)."""
    players = rng.choice((2, 3, 4))
    return Rules(
        players=players,
        partnership=rng.random() < 0.7,
        target=rng.choice(targets) or rng.randrange(1, 80),
        sur_cutoff=rng.choice((None, 0, 10, 50, rng.randrange(0, 70))),
        sur_cancel=rng.random() < 0.5,
        sur_in_last_deal=rng.random() < 0.5,
        compulsory_capture=rng.random() < 0.5,
        bury_table_jack=rng.random() < 0.5,
        redeal_on_faces=rng.random() < 0.5,
        haft_khaj=rng.choice(("seven", "most")),
    )


def tried_move(rng: random.Random, hand: int, table: int, codes: list[int]) -> tuple[int, list[int] | None]:
    """A move to try: mostly a legal one, else a mutation of one (another card, a take unnamed, empty,
    with a card named twice, with cards not on the table, or any cards of the table)."""
    code = rng.choice(codes)
    card, take = code & 63, [bit for bit in range(52) if code >> 6 >> bit & 1]
    kind = rng.random()
    if kind < 0.6:
        return card, take
    on_table = [bit for bit in range(52) if table >> bit & 1]
    in_hand = [bit for bit in range(52) if hand >> bit & 1]
    mutations: list[tuple[int, list[int] | None]] = [
        (rng.randrange(52), take),
        (rng.choice(in_hand), None),
        (card, []),
        (card, take + take[:1]),
        (card, [*take, rng.randrange(52)]),
        (card, rng.sample(on_table, rng.randint(0, len(on_table)))),
        (rng.choice(in_hand), rng.sample(on_table, min(len(on_table), rng.randint(1, 3)))),
    ]
    return rng.choice(mutations)


def python_match(
    rng: random.Random, index: int, kinds: tuple[str | None, ...] = (None, "random", "greedy", "expert")
) -> tuple[dict[str, Any], list[Any]]:
    """A match played by the reference, each seat a person trying moves or a bot of ``kinds``
    (``ismcts:N``: that bot searching N iterations), and what it saw in the trace form of
    engine_trace.mjs."""
    rules = random_rules(rng, targets=(1, 10, 30, 62, 0) if "random" in kinds else (1,))
    seed = rng.choice((index, rng.getrandbits(32), rng.getrandbits(64)))
    bots: list[str | None] = [rng.choice(kinds) for _ in range(rules.players)]
    bot_seeds = [rng.getrandbits(40) for _ in range(rules.players)]
    players = {seat: made_bot(kind, bot_seeds[seat]) for seat, kind in enumerate(bots) if kind}
    match = Match(rules, seed=seed)
    trace: list[Any] = []
    attempts: list[Any] = []
    shown = 0
    while not match.over:
        game = match.rounds[-1]
        if len(match.rounds) > shown:
            shown = len(match.rounds)
            trace.append(["deck", list(game.deck)])
        codes = game.legal_codes()
        trace.append(["legal", [str(int(code)) for code in codes]])  # a card laid down is its Card
        seat = game.turn
        view = game.view(seat)
        trace.append(["evidence", evidence_json(view)])
        if seat in players:
            move = players[seat].choose(view, game.legal_moves())
            trace.append(["bot", str(int(move.code))])
            match.play(move)
        else:
            card, take = tried_move(rng, game.hands[seat], game.table, codes)
            attempts.append([card, take])
            try:
                code = find_code(card, take, game.hands[seat], game.table, codes)
            except IllegalMove as refusal:
                trace.append(["tried", refusal.reason])
            else:
                trace.append(["tried", None])
                match.play(code)
        if game.over:
            trace.append(["breakdown", [score.to_json() for score in game.breakdown()]])
            trace.append(["scores", list(match.scores), -1 if match.winner is None else match.winner])
    case = {"rules": rules.to_dict(), "seed": str(seed), "attempts": attempts, "bots": bots, "bot_seeds": bot_seeds}
    return case, trace


def made_bot(kind: str, seed: int) -> Bot:
    """The Python bot the test names ``kind`` (``ismcts:N`` searches N iterations, ``pimc:N`` plays
    N playouts)."""
    name, _, budget = kind.partition(":")
    if name == "ismcts":
        return IsmctsBot(iterations=int(budget), seed=seed)
    if name == "pimc":
        return PimcBot(playouts=int(budget), seed=seed)
    return {"random": RandomBot, "greedy": GreedyBot, "expert": ExpertBot}[kind](seed)


def evidence_json(view: SeatView) -> str:
    """What the solver bot weighs of the others' plays in this deal, as engine_trace.mjs writes it."""
    evidence, contexts = deal_plays(view)
    entries = [
        [seat, str(table), str(later), str(code), [str(mask) for mask in laters], last, list(clubs)]
        for (seat, table, later, code), (laters, last, clubs) in zip(evidence, contexts, strict=True)
    ]
    return json.dumps(entries, separators=(",", ":"))


def dealt_deck(rng: random.Random) -> tuple[dict[str, Any], list[Any]]:
    """A deck to deal from: shuffled, with Jacks, Queens or Kings put on the table, or broken."""
    rules = random_rules(rng)
    deck = list(range(52))
    rng.shuffle(deck)
    start = 4 * rules.players
    rank = rng.choice((JACK, QUEEN, KING, None))
    if rank is not None:
        for place, suit in zip(range(start, start + 4), rng.sample(range(4), rng.randint(1, 3)), strict=False):
            other = deck.index(rank * 4 + suit)
            deck[place], deck[other] = deck[other], deck[place]
    if rng.random() < 0.1:
        deck[rng.randrange(52)] = rng.choice((deck[0], 52))
    if rng.random() < 0.05:
        deck = deck[: rng.randrange(52)]
    return {"rules": rules.to_dict(), "deck": deck}, [["dealt", deck_problem(deck, rules)]]


def seen_from_a_view(rng: random.Random) -> tuple[dict[str, Any], list[Any]]:
    """A position of a random match, as one seat's view (what a bot is sent), with the legal moves
    and the evidence the engine must find from that view alone."""
    rules = random_rules(rng)
    match = Match(rules, seed=rng.getrandbits(32))
    for _ in range(rng.randrange(0, 40)):
        if match.over:
            break
        match.play(rng.choice(match.legal_moves()))
    if match.over:
        return seen_from_a_view(rng)
    game = match.rounds[-1]
    view = game.view(game.turn)
    return {"view": view.to_json()}, [
        ["legal", [str(int(code)) for code in game.legal_codes()]],
        ["evidence", evidence_json(view)],
    ]


def run_in_node(cases: list[dict[str, Any]]) -> list[Any]:
    done = subprocess.run(
        ["node", str(TRACE)], input=json.dumps(cases), capture_output=True, text=True, timeout=600, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


@pytest.mark.long
@pytest.mark.usefixtures("without_cycle_collection")
@needs_node
def test_the_browser_engine_plays_every_match_as_the_reference_does():
    rng = random.Random(20261205)
    made = [python_match(rng, index) for index in range(MATCHES)] + [dealt_deck(rng) for _ in range(DECKS)]
    made += [seen_from_a_view(rng) for _ in range(VIEWS)]
    cases, expected = [case for case, _ in made], [trace for _, trace in made]
    seen = run_in_node(cases)
    assert len(seen) == len(expected)
    for case, mine, theirs in zip(cases, expected, seen, strict=True):
        for step, (want, got) in enumerate(zip(mine, theirs, strict=False)):
            assert want == got, f"{case['rules']} seed {case.get('seed')}: step {step} differs: {want} != {got}"
        assert len(mine) == len(theirs), case
    kinds = {entry[0] for trace in expected for entry in trace}
    refusals = {entry[1] for trace in expected for entry in trace if entry[0] in ("tried", "dealt")}
    assert kinds == {"deck", "legal", "evidence", "tried", "bot", "breakdown", "scores", "dealt"}
    assert sum(entry[0] == "evidence" and len(entry[1]) > 200 for trace in expected for entry in trace) > 1000
    assert {"not_in_hand", "say_which", "named_twice", "must_capture", "not_on_table", "cannot_take"} <= refusals
    assert {"only_lay_down", "two or more Jacks on the table", "three or more Kings on the table"} <= refusals


@needs_node
@pytest.mark.skipif(not native.available(), reason="the Python ismcts plays out in the native core")
def test_the_browser_search_bots_choose_as_the_python_ones():
    """Every seat an ismcts or pimc bot or a person, one-round matches: the same moves at every
    budget (ismcts's default of 1,000 iterations too; pimc's 1,200 playouts run the same code as
    its 300, four times over), so the browser's ``hard`` and ``master`` are the server's."""
    rng = random.Random(20261206)
    kinds = (None, "ismcts:1", "ismcts:5", "ismcts:40", "ismcts:200", "ismcts:1000", "pimc:1", "pimc:30", "pimc:300")
    made = [python_match(rng, index, kinds) for index in range(ISMCTS_MATCHES)]
    cases, expected = [case for case, _ in made], [trace for _, trace in made]
    seen = run_in_node(cases)
    for case, mine, theirs in zip(cases, expected, seen, strict=True):
        assert mine == theirs, f"{case['rules']} seed {case['seed']}, bots {case['bots']}"
    searched = [entry for trace in expected for entry in trace if entry[0] == "bot"]
    assert len(searched) > 500


def round_in_play(rules: Rules, seed: int, rng: random.Random) -> Round:
    """The round of a match (dealt from ``seed``) after up to 19 random moves."""
    match = Match(rules, seed=seed)
    for _ in range(rng.randrange(0, 20)):
        match.play(rng.choice(match.legal_moves()))
    return match.rounds[-1]


@needs_node
@pytest.mark.skipif(not native.available(), reason="the Python pimc plays out in the native core")
def test_the_browser_solver_adds_pimcs_playouts_as_the_python_one_with_more_than_two_sides():
    """The browser's grandmaster adds to each move's solved value what the Python one adds:
    ``pimc``'s mean points over its playouts, drawn alike from the same seed (none at two sides)."""
    rng = random.Random(20261207)
    cases, expected = [], []
    for index in range(12):
        game = round_in_play(Rules(players=(2, 3, 4)[index % 3], partnership=index % 2 == 0), index, rng)
        if game.over or len(game.legal_moves()) < 2:
            continue
        view, legal = game.view(game.turn), game.legal_moves()
        cases.append({"view": view.to_json(), "bot_seed": index, "playouts": 60})
        bot = SolverBot(playouts=60, seed=index)
        added = bot.playout_points(view, legal)
        expected.append([added.get(code, 0.0) for code in game.legal_codes()])
    seen = run_in_node(cases)
    assert any(any(points) for points in expected) and any(not any(points) for points in expected)
    for mine, theirs in zip(expected, seen, strict=True):
        assert theirs == pytest.approx(mine, abs=1e-9)


@needs_node
@pytest.mark.skipif(not native.available(), reason="the Python pimc plays out in the native core")
def test_a_browser_engine_whose_bots_nobody_seeded_plays_out_at_random():
    """A new engine's bots draw from generators seeded with their seat's number (an unseeded one
    would draw zeros for ever: every playout the same deal), so its playouts add what the Python
    bot seeded with the seat's number adds."""
    rng = random.Random(20261208)
    cases, expected = [], []
    while len(cases) < 6:
        game = round_in_play(Rules(players=3), len(cases), rng)
        if game.over or len(game.legal_moves()) < 3:
            continue
        view, legal = game.view(game.turn), game.legal_moves()
        cases.append({"view": view.to_json(), "playouts": 60})
        added = SolverBot(playouts=60, seed=view.seat).playout_points(view, legal)
        expected.append([added[code] for code in game.legal_codes()])
    seen = run_in_node(cases)
    assert len({round(points, 9) for case in expected for points in case}) > 10
    for mine, theirs in zip(expected, seen, strict=True):
        assert theirs == pytest.approx(mine, abs=1e-9)


def test_the_committed_engine_is_what_the_sources_build(tmp_path):
    if shutil.which("clang-14") is None or not Path("/usr/bin/wasm-ld-14").exists():
        pytest.skip("no clang-14 and wasm-ld-14 here (scripts/build-wasm.sh says what to install)")
    built = tmp_path / "engine.wasm"
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "build-wasm.sh"), str(built)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert built.read_bytes() == WASM.read_bytes(), "engine.wasm is stale: run bash scripts/build-wasm.sh"


@needs_node
def test_the_offline_grandmaster_plays_as_a_program_in_the_match_runner():
    """benchmarks/offline_bot.mjs (the browser's grandmaster as a pasur-bot/1 program, which
    docs/OFFLINE.md measures against the Python one) plays whole matches without a fault, and far
    above random."""
    bot = f"exec:node {ROOT / 'benchmarks' / 'offline_bot.mjs'}"
    command = [sys.executable, "-m", "pasur", "match", bot, "random", "--rounds", "2", "--jobs", "1", "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["faults"] == [] and result["bots"][0]["rounds"] >= 4
    assert result["bots"][0]["points_per_round"] > 2


@needs_node
@pytest.mark.skipif(not native.available(), reason="the Python solver is the native core")
def test_the_browser_solver_searches_the_others_each_for_themselves_as_the_python_one():
    """From the same view and seed the browser's solver means are the Python sampler's, with the
    others as one and each for itself (``others=each``), and the two differ somewhere."""
    rng = random.Random(20261208)
    cases, expected = [], []
    for index in range(10):
        game = round_in_play(Rules(players=(3, 4)[index % 2], partnership=False), index, rng)
        if game.over or len(game.legal_moves()) < 2:
            continue
        view = game.view(game.turn)
        evidence, _contexts = deal_plays(view)
        for each in (False, True):
            cases.append({"view": view.to_json(), "samples": 8, "seed": 100 + index, "each": each})
            sampling = Sampling(deal_only=True, evidence=tuple(evidence), temper=2.0, gift=1.0, each=each)
            means = sampled_values(Round.from_view(view, rng), 8, 100 + index, sampling).means()
            expected.append([means[code] for code in game.legal_codes()])
    seen = run_in_node(cases)
    assert len(expected) >= 12
    for mine, theirs in zip(expected, seen, strict=True):
        assert theirs == pytest.approx(mine, abs=1e-9)
    assert any(expected[i] != expected[i + 1] for i in range(0, len(expected), 2))
