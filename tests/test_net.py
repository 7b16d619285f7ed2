"""The ``net`` bot: the shipped weights load, its features are the view just after each move (the
engine agrees), its NumPy forward pass is torch's, it plays only legal moves from a seat's view,
a weights file is named only on the command line, and a short training run completes."""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from importlib import resources
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy", reason="the net extra is installed by scripts/test.sh")

from pasur import Round, Rules, deal_deck  # noqa: E402
from pasur.bots import checked_choice, make_bot, validate_spec  # noqa: E402
from pasur.bots.base import Bot  # noqa: E402
from pasur.bots.expert import ExpertBot  # noqa: E402
from pasur.bots.judgement import Position  # noqa: E402
from pasur.bots.net import (  # noqa: E402
    CARD_BLOCKS,
    COUNTS,
    FEATURE_COUNT,
    FEATURES_VERSION,
    REPLIES,
    SHIPPED,
    SHIPPED_AT,
    Decision,
    NetBot,
    Network,
    move_features,
    network_from,
    python_features,
)
from pasur.bots.solver_bot import SolverBot  # noqa: E402
from pasur.core import Move, SeatView, native  # noqa: E402
from pasur.core.captures import capture_takes  # noqa: E402

from .helpers import ROUND_OPTIONS  # noqa: E402

needs_native = pytest.mark.skipif(not native.available(), reason="the native core was not built")


def block(row, name):
    """One card block of a feature row, as a card mask."""
    start = 52 * CARD_BLOCKS.index(name)
    return sum(1 << card for card in range(52) if row[start + card])


def count(row, name):
    return float(row[52 * len(CARD_BLOCKS) + COUNTS.index(name)])


def test_the_shipped_weights_load_and_are_small():
    assert SHIPPED_AT["2"] == SHIPPED
    for table, name in SHIPPED_AT.items():
        shipped = resources.files("pasur.bots").joinpath(name)
        assert shipped.is_file() and len(shipped.read_bytes()) < 5 * 1024 * 1024
        network = Network.load(shipped=name)
        assert network.table == table and network.meta["positions"] > 0  # trained at the table it serves
        assert network.w1.shape[0] == FEATURE_COUNT
        assert network.scores(np.zeros((3, FEATURE_COUNT), np.float32)).shape == (3,)
    assert set(NetBot().networks) == set(SHIPPED_AT)


def features_of(engine, view, codes):
    """The features as the native core or the Python reference computes them."""
    if engine == "python":
        return python_features(Decision.of(view), codes)
    if not native.available():
        pytest.skip("the native core was not built (or PASUR_ENGINE=python)")
    return move_features(view, codes)


@pytest.mark.parametrize("engine", ["native", "python"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_features_are_the_seats_view_just_after_each_move(players, engine):
    rules = Rules(players=players)
    rng = random.Random(players)
    checked = 0
    for _ in range(6):
        game = Round(rules, deal_deck(rng, rules), check_deck=False)
        while not game.over:
            seat, codes = game.turn, game.legal_codes()
            rows = features_of(engine, game.masks(seat), codes)
            assert rows.shape == (len(codes), FEATURE_COUNT)
            before = game.masks(seat)
            for row, code in zip(rows, codes, strict=True):
                after = game.copy()
                after.play_code(code)
                if after.deal != game.deal or after.over:
                    continue  # a new deal (or the round's end) changes more than the move did
                seen = after.masks(seat)
                side = seen.side
                assert block(row, "hand") == seen.hand and block(row, "table") == seen.table
                assert block(row, "own pile") == seen.captured[side]
                assert block(row, "other piles") == sum(seen.captured) - seen.captured[side]
                assert block(row, "unseen") == before.unseen
                assert block(row, "card") == 1 << (code & 63) and block(row, "take") == code >> 6
                assert count(row, "a Sur") == seen.surs[side] - before.surs[side]
                assert count(row, "this side captured last") == (seen.last_capturer == side)
                replies = row[52 * len(CARD_BLOCKS) + len(COUNTS) :]
                for rank in range(13):  # what a card of each rank could take from the table left
                    takes = capture_takes(seen.table, rank * 4)
                    most = max((take.bit_count() for take in takes), default=0)
                    assert replies[len(REPLIES) * rank + 1] == pytest.approx(most / 8)
                    assert replies[13 * len(REPLIES) + rank] == (before.unseen >> 4 * rank & 15).bit_count() / 4
                checked += 1
            game.play_code(rng.choice(codes))
    assert checked > 100


@needs_native
def test_the_native_features_and_scores_are_the_python_ones_on_every_option():
    rng = random.Random(34)
    network = network_from("")
    decisions = 0
    for index, options in enumerate(ROUND_OPTIONS):
        rules = Rules(**{**options.to_dict(), "haft_khaj": ("seven", "most")[index % 2]})
        banked = [rng.choice((0, 30, 49, 50, 70)) for _ in range(rules.sides)]
        game = Round(rules, deal_deck(rng, rules), number=rng.randint(1, 5), banked=banked, check_deck=False)
        while not game.over:
            codes = game.legal_codes()
            decision = Decision.of(game.masks(game.turn))
            reference = python_features(decision, codes)
            assert native.net_features(decision.fields(), codes) == reference.tobytes(), (rules, decision)
            scores = native.net_scores(decision.fields(), codes, network.layers)
            assert np.allclose(scores, network.scores(reference), rtol=1e-5, atol=1e-5)
            decisions += 1
            game.play_code(rng.choice(codes))
    assert decisions > 2000


def disjoint_masks(cards, sizes):
    """Masks of the given sizes, no card in two, from a shuffled list of the 52 cards."""
    masks, start = [], 0
    for size in sizes:
        masks.append(sum(1 << card for card in cards[start : start + size]))
        start += size
    return masks


@needs_native
@settings(max_examples=300, deadline=None)
@given(
    cards=st.permutations(range(52)),
    sizes=st.tuples(*(st.integers(0, top) for top in (4, 12, 16, 16))),
    flags=st.tuples(*(st.booleans() for _ in range(4))),
    own_surs=st.integers(0, 6),
    numbers=st.tuples(st.floats(0, 3), st.floats(0, 1), *(st.floats(0, 1) for _ in range(8))),
    codes_drawn=st.data(),
)
def test_odd_decisions_have_the_same_native_and_python_features(cards, sizes, flags, own_surs, numbers, codes_drawn):
    hand, table, own, others = disjoint_masks(cards, sizes)
    unseen = ((1 << 52) - 1) & ~(hand | table | own | others)
    decision = Decision(hand, table, own, others, unseen, *flags, own_surs, numbers[0], numbers[1], numbers[2:])
    in_hand = [card for card in range(52) if hand >> card & 1] or [cards[-1]]
    codes = []
    for card in codes_drawn.draw(st.lists(st.sampled_from(in_hand), min_size=1, max_size=6)):
        take = codes_drawn.draw(st.sampled_from([0, table, table & -table]))
        codes.append(card | take << 6)
    assert native.net_features(decision.fields(), codes) == python_features(decision, codes).tobytes()


@needs_native
def test_the_native_core_refuses_what_does_not_fit():
    decision = Decision.of(Round(Rules(), deal_deck(random.Random(1), Rules()), check_deck=False).masks(0))
    layers = network_from("").layers
    with pytest.raises(ValueError, match="do not fit"):
        native.net_scores(decision.fields(), [0], [layers[0][:-1], *layers[1:]])
    with pytest.raises(ValueError, match="do not fit"):
        native.net_scores(decision.fields(), [0], [layer.astype(np.float64) for layer in layers])
    with pytest.raises(ValueError, match="cards 0 to 51"):
        native.net_features(decision.fields(), [63])
    with pytest.raises(ValueError, match="cards 0 to 51"):
        native.net_features((1 << 60, *decision.fields()[1:]), [0])
    with pytest.raises(TypeError, match="5 masks"):
        native.net_features(decision.fields()[:-1], [0])


def test_the_numpy_forward_pass_is_torchs():
    torch = pytest.importorskip("torch", reason="the train extra is installed by scripts/test.sh")
    from pasur.train.fit import Settings, from_network, make_model, to_network

    torch.manual_seed(3)
    model = make_model(Settings(hidden=32))
    network = to_network(model, {"features": FEATURES_VERSION})
    inputs = np.random.default_rng(4).random((7, FEATURE_COUNT), dtype=np.float32)
    with torch.no_grad():
        expected = model(torch.from_numpy(inputs)).squeeze(1).numpy()
    assert np.allclose(network.scores(inputs), expected, atol=1e-5)
    # and the shipped network, read back into torch, gives the same scores as NumPy
    shipped = Network.load()
    model = from_network(shipped)
    with torch.no_grad():
        expected = model(torch.from_numpy(inputs)).squeeze(1).numpy()
    assert np.allclose(shipped.scores(inputs), expected, atol=1e-4)


def test_the_policy_loss_is_each_positions_cross_entropy_and_least_at_the_values():
    torch = pytest.importorskip("torch", reason="the train extra is installed by scripts/test.sh")
    from pasur.train.fit import policy_loss

    values = torch.tensor([0.5, -0.5, 1.0, 0.0, -1.0, 2.0])
    groups = torch.tensor([0, 0, 1, 1, 1, 2])  # three positions: two moves, three, one
    scores = torch.tensor([3.0, 1.0, -2.0, 0.5, 0.7, 9.0])
    temperature = 0.4
    by_hand = sum(
        -(torch.softmax(values[part] / temperature, 0) * torch.log_softmax(scores[part] / temperature, 0)).sum()
        for part in (slice(0, 2), slice(2, 5), slice(5, 6))
    )
    assert torch.isclose(policy_loss(scores, values, groups, 3, temperature), by_hand / 3)
    # least where the scores are the values, whatever each position's shift
    shifted = values + torch.tensor([4.0, 4.0, -1.0, -1.0, -1.0, 7.0])
    least = policy_loss(shifted, values, groups, 3, temperature)
    for move in range(5):
        nudged = shifted.clone()
        nudged[move] += 0.3
        assert policy_loss(nudged, values, groups, 3, temperature) > least


@pytest.mark.parametrize("players", [2, 3, 4])
def test_net_plays_only_legal_moves_from_a_seats_view(players):
    rules = Rules(players=players)
    bot = make_bot("net", seed=1)
    rng = random.Random(10 + players)
    chosen = set()
    for _ in range(5):
        game = Round(rules, deal_deck(rng, rules), check_deck=False)
        while not game.over:
            legal = game.legal_moves()
            move = checked_choice(bot, game.view(game.turn), legal)  # BotError unless legal
            chosen.add(len(legal) > 1 and legal.index(move))
            game.play(move)
    assert len(chosen) > 2  # not always the first legal move


def test_net_prefers_what_its_network_scores_highest():
    game = Round(Rules(), deal_deck(random.Random(5), Rules()), check_deck=False)
    while len(game.legal_codes()) < 3:
        game.play_code(game.legal_codes()[0])
    view, legal = game.view(game.turn), game.legal_moves()
    bot = NetBot(ties=0)
    network = bot.networks["2"]
    scores = network.scores(move_features(view.masks(), [move.code for move in legal]))
    assert bot.choose(view, legal) == legal[int(np.argmax(scores))]
    # with the network's last layer negated, it plays the move it scored lowest
    negated = {"w1": network.w1, "b1": network.b1, "w2": network.w2, "b2": network.b2, "w3": -network.w3}
    bot.networks["2"] = Network({**negated, "b3": -network.b3}, network.meta)
    assert bot.choose(view, legal) == legal[int(np.argmin(scores))]


def rounds_played(player: Bot, seed: int, rounds: int) -> Iterator[tuple[int, SeatView, list[Move], Move]]:
    """Each decision of ``rounds`` 2-player rounds that ``player`` plays in every seat, as (the
    round's number, the view, the legal moves, its move), its move played after each."""
    rng = random.Random(seed)
    for number in range(rounds):
        game = Round(Rules(), deal_deck(rng, Rules()), check_deck=False)
        while not game.over:
            view, legal = game.view(game.turn), game.legal_moves()
            move = player.choose(view, legal)
            yield number, view, legal, move
            game.play(move)


@needs_native
def test_net_solves_the_last_deal_exactly_and_plays_its_network_before():
    solving, network_only = make_bot("net", seed=1), make_bot("net:endgame=net", seed=1)
    exact = SolverBot(samples=1, temper=0, seed=2)
    last_deal, network_short, before = 0, 0, 0
    for _, view, legal, move in rounds_played(solving, 31, 12):
        if len(legal) > 1 and view.pack == 0:
            values = exact.mean_values(view, legal)
            assert values is not None
            best = max(values.values())
            assert values[move.code] == best
            network_short += values[network_only.choose(view, legal).code] < best - 1e-9
            last_deal += 1
        elif len(legal) > 1:
            assert move == network_only.choose(view, legal)
            before += 1
    assert last_deal > 40 and before > 200
    assert network_short > 0  # the network alone does give up points there
    with pytest.raises(ValueError, match="endgame"):
        validate_spec("net:endgame=maybe")


@needs_native
def test_net_late_lets_the_solver_choose_in_the_deal_before_the_last():
    late_deal, differs = 0, 0
    for number, view, legal, move in rounds_played(make_bot("net:late=0", seed=1), 32, 6):
        if len(legal) > 1 and view.pack == 8:
            # a fresh pair with one seed: the same sampled deals in both
            values = SolverBot(samples=8, seed=number).mean_values(view, legal)
            late = make_bot("net:late=8", seed=number).choose(view, legal)
            assert values is not None and values[late.code] == max(values.values())
            by_default = SolverBot(samples=16, seed=number).mean_values(view, legal)  # net's default late=16
            chosen = make_bot("net", seed=number).choose(view, legal)
            assert by_default is not None and by_default[chosen.code] == max(by_default.values())
            differs += late != move
            late_deal += 1
        elif len(legal) > 1:
            assert make_bot("net:late=8", seed=number).choose(view, legal) == move
    assert late_deal > 20 and differs > 0
    with pytest.raises(ValueError, match="late"):
        validate_spec("net:late=100000")


def test_net_ties_lets_expert_choose_among_the_moves_scored_near_the_best():
    near_ties, differs = 0, 0
    judge = ExpertBot()
    plain = make_bot("net:endgame=net,late=0,ties=0", seed=1)
    for _, view, legal, move in rounds_played(make_bot("net:endgame=net,late=0,ties=0.1", seed=1), 33, 6):
        if len(legal) == 1:
            continue
        scores = dict(zip(legal, plain.scores(view.masks(), [each.code for each in legal]), strict=True))
        near = [each for each in legal if scores[each] >= max(scores.values()) - 0.1]
        position = Position.of(view)
        # expert's best judged of the near moves, the higher score of equals
        assert move == max(near, key=lambda each: (judge.judge(position, each.code), scores[each]))
        near_ties += len(near) > 1
        differs += move != plain.choose(view, legal)
    assert near_ties > 20 and differs > 0
    for hostile in ("5", "-1", "nan", "inf", "a"):
        with pytest.raises(ValueError, match="ties"):
            validate_spec(f"net:ties={hostile}")


def test_a_weights_file_is_named_only_on_the_command_line(tmp_path):
    with pytest.raises(ValueError, match="only be named on the command line"):
        validate_spec("net:weights=/etc/passwd")
    with pytest.raises(ValueError, match="cannot read weights"):
        validate_spec(f"net:weights={tmp_path / 'none.npz'}", allow_exec=True)
    (tmp_path / "bad.npz").write_bytes(b"not a zip file")
    with pytest.raises(ValueError, match="cannot read weights"):
        make_bot(f"net:weights={tmp_path / 'bad.npz'}", allow_exec=True)
    shipped = Network.load()
    layers = {name: getattr(shipped, name) for name in Network.LAYERS}
    meta = np.array(json.dumps(shipped.meta))
    np.savez(tmp_path / "shapes.npz", meta=meta, **{**layers, "w2": np.zeros((3, 3), np.float32)})
    np.savez(tmp_path / "meta.npz", meta=np.array("[1, 2"), **layers)
    np.savez(tmp_path / "pickled.npz", meta=meta, **{**layers, "w1": np.array([{"a": 1}], dtype=object)})
    for name, said in [("shapes", "do not fit together"), ("meta", "cannot read"), ("pickled", "cannot read")]:
        with pytest.raises(ValueError, match=said):
            make_bot(f"net:weights={tmp_path / name}.npz", allow_exec=True)


def write_targets(path, header, lines):
    with gzip.open(path, "wt", encoding="utf-8") as sink:
        sink.write(json.dumps(header) + "\n")
        sink.writelines(line + "\n" for line in lines)


def test_a_bad_targets_file_gets_one_line_naming_what_is_wrong(tmp_path):
    pytest.importorskip("torch", reason="the train extra is installed by scripts/test.sh")
    from pasur.train.targets import FORMAT, position_line

    game = Round(Rules(), deal_deck(random.Random(2), Rules()), check_deck=False)
    while len(game.legal_codes()) < 2:
        game.play_code(game.legal_codes()[0])
    view, legal = game.view(game.turn), game.legal_moves()
    good = position_line(view, legal, {move.code: 0.0 for move in legal})
    short = json.loads(good)
    short["moves"] = short["moves"][:1]  # not every legal move
    header = {"format": FORMAT, "rules": {}}
    cases = {
        "no-format.gz": ({"format": "other/1"}, [good], "is not a pasur-targets/1 file"),
        "missing.gz": (header, [json.dumps(short)], "line 2: the moves are not the view's legal moves"),
        "long.gz": (header, ["x" * 70_000], "line 2: longer than"),
        "broken.gz": (header, [good, "{"], "line 3:"),
        "no-rules.gz": ({"format": FORMAT}, [good], "line 1: rules must be a JSON object"),
        "samples.gz": ({"format": FORMAT, "rules": {}, "samples": "many"}, [good], "line 1: samples must be"),
    }
    for name, (header, lines, said) in cases.items():
        write_targets(tmp_path / name, header, lines)
        done = subprocess.run(
            [sys.executable, "-m", "pasur.train", "fit", str(tmp_path / name), "--out", str(tmp_path / "w.npz")],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 1 and said in done.stderr and "Traceback" not in done.stderr, (name, done.stderr)
        assert done.stderr.count("\n") == 1, done.stderr
        assert not (tmp_path / "w.npz").exists()


@pytest.mark.skipif(not native.available(), reason="making targets needs the native core")
def test_a_short_training_run_makes_weights_that_play(tmp_path):
    pytest.importorskip("torch", reason="the train extra is installed by scripts/test.sh")
    data, weights = tmp_path / "targets.jsonl.gz", tmp_path / "net.npz"
    train = [sys.executable, "-m", "pasur.train"]
    made = [*train, "targets", "--positions", "300", "--samples", "8", "--jobs", "1", "--out", str(data)]
    done = subprocess.run(made, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    with gzip.open(data, "rt", encoding="utf-8") as stream:
        assert json.loads(stream.readline())["format"] == "pasur-targets/1"
        assert sum(1 for _ in stream) == 300
    fitted = [*train, "fit", str(data), "--out", str(weights), "--epochs", "2", "--hidden", "16"]
    fitted += ["--plot", str(tmp_path / "loss.png")]
    done = subprocess.run(fitted, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "epoch   2" in done.stdout and (tmp_path / "loss.png").stat().st_size > 1000
    history = json.loads(weights.with_suffix(".json").read_text())
    assert [entry["epoch"] for entry in history] == [1, 2]
    network = Network.load(weights)
    assert network.w1.shape == (FEATURE_COUNT, 16) and network.meta["positions"] == 300
    # trained further from those weights, at a rate too small to move them: they are the start's
    further = tmp_path / "further.npz"
    more = [*train, "fit", str(data), "--out", str(further), "--epochs", "1", "--start", str(weights), "--rate", "1e-9"]
    done = subprocess.run(more, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    continued = Network.load(further)
    assert continued.meta["positions"] == 600 and continued.meta["started_from"] == str(weights)
    assert all(np.allclose(a, b, atol=1e-5) for a, b in zip(continued.layers, network.layers, strict=True))
    match = [sys.executable, "-m", "pasur", "match", f"net:weights={weights}", "random", "--rounds", "2", "--jobs", "1"]
    done = subprocess.run(match, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "net" in done.stdout, done.stderr


@pytest.mark.skipif(not native.available(), reason="making targets needs the native core")
def test_a_network_trained_at_three_players_plays_there_and_expert_plays_elsewhere(tmp_path):
    pytest.importorskip("torch", reason="the train extra is installed by scripts/test.sh")
    data, other, weights = tmp_path / "3p.jsonl.gz", tmp_path / "2p.jsonl.gz", tmp_path / "net-3p.npz"
    train = [sys.executable, "-m", "pasur.train"]
    for table, out, positions in (("3", data, "120"), ("2", other, "20")):
        made = [*train, "targets", "--table", table, "--positions", positions, "--samples", "4", "--jobs", "1"]
        done = subprocess.run([*made, "--out", str(out)], capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stderr
    with gzip.open(data, "rt", encoding="utf-8") as stream:
        assert json.loads(stream.readline())["rules"]["players"] == 3
    fit = [*train, "fit", "--out", str(weights), "--epochs", "1", "--hidden", "16"]
    done = subprocess.run([*fit, str(data)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    # targets of two tables cannot be fitted into one set of weights
    mixed = subprocess.run([*fit, str(data), str(other)], capture_output=True, text=True, timeout=600)
    assert mixed.returncode != 0 and "one table" in mixed.stderr and "Traceback" not in mixed.stderr
    bot = NetBot(weights=str(weights), ties=0, late=0)
    assert list(bot.networks) == ["3"] and Network.load(weights).table == "3"
    for rules in (Rules(players=3), Rules()):
        game = Round(rules, deal_deck(random.Random(9), rules), check_deck=False)
        while len(game.legal_codes()) < 3:
            game.play_code(game.legal_codes()[0])
        view, legal = game.view(game.turn), game.legal_moves()
        if rules.players == 3:  # its network chooses
            scores = bot.networks["3"].scores(move_features(view.masks(), [move.code for move in legal]))
            assert bot.choose(view, legal) == legal[int(np.argmax(scores))]
        else:  # no network for two players in this file: expert's move
            assert bot.choose(view, legal) == ExpertBot(seed=0).choose(view, legal)


@pytest.mark.skipif(not native.available(), reason="making targets needs the native core")
def test_reproduce_makes_both_rounds_from_nothing(tmp_path):
    pytest.importorskip("torch", reason="the train extra is installed by scripts/test.sh")
    command = [sys.executable, "-m", "pasur.train", "reproduce", "--dir", str(tmp_path), "--positions", "150"]
    command += ["--own-play", "120", "--samples", "4", "--jobs", "1", "--policy", "0.5"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr
    with gzip.open(tmp_path / "round2.jsonl.gz", "rt", encoding="utf-8") as stream:
        header = json.loads(stream.readline())
        assert header["player"] == "net" and header["weights"] == "net-round1.npz"
        assert sum(1 for _ in stream) == 120
    shipped_like = Network.load(tmp_path / "net-2p.npz")
    assert shipped_like.meta["positions"] == 270 and shipped_like.meta["started_from"] == str(
        tmp_path / "net-round1.npz"
    )
    assert [entry["player"] for entry in shipped_like.meta["targets"]] == ["solver", "net"]
    assert shipped_like.meta["settings"]["policy"] == 0.5 and shipped_like.meta["settings"]["epochs"] == 4
    assert Network.load(tmp_path / "net-round1.npz").meta["settings"]["policy"] == 0.5
    assert len(json.loads((tmp_path / "net-round1.json").read_text())) == 12
    assert len(json.loads((tmp_path / "net-2p.json").read_text())) == 4
    assert (tmp_path / "net-round2-loss.png").stat().st_size > 1000


def test_the_pettingzoo_env_seats_net_as_an_opponent():
    pytest.importorskip("pettingzoo", reason="the rl extra is installed by scripts/test.sh")
    from pasur.envs.pettingzoo import env

    game = env(players=2)
    game.reset(seed=4)
    deck = game.unwrapped.game.deck
    bot, again = NetBot(seed=1), NetBot(seed=1)  # its sampling in the deal before the last: the same draws
    steps = 0
    while not all(game.terminations.values()):
        game.step(game.bot_action(bot))
        steps += 1
    played = Round(Rules(), deck)
    while not played.over:
        played.play(again.choose(played.view(played.turn), played.legal_moves()))
    assert game.unwrapped.game.history == played.history  # the env played net's moves
    assert steps > len(played.history)  # some captures took more than one action


def test_the_gymnasium_env_takes_net_as_its_opponent():
    gymnasium = pytest.importorskip("gymnasium", reason="the rl extra is installed by scripts/test.sh")
    import pasur.envs.gymnasium  # noqa: F401  (registers pasur/Pasur-v0)

    env = gymnasium.make("pasur/Pasur-v0", opponents="net")
    observation, _ = env.reset(seed=2)
    assert [bot.name for bot in env.unwrapped.host.bots.values()] == ["net"]
    rng = np.random.default_rng(2)
    done, steps = False, 0
    while not done:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, _, terminated, truncated, _ = env.step(action)
        done, steps = terminated or truncated, steps + 1
    assert env.unwrapped.game.over and steps >= 24  # the agent's 24 cards, net playing the other seat


def test_solver_can_ask_net_to_tell_apart_moves_of_equal_value():
    assert make_bot("solver:ties=net")._judge.name == "net"
    assert make_bot("solver")._judge.name == "expert"
    with pytest.raises(ValueError, match='ties must be "expert" or "net"'):
        make_bot("solver:ties=coin")


@pytest.mark.skipif(not native.available(), reason="making targets needs the native core")
def test_the_targets_are_the_same_whatever_the_number_of_processes(tmp_path):
    from pasur.train.targets import Plan, generate

    plan = Plan(Rules(), samples=2, seed=9)  # a task writes about 160 positions: 400 take three
    contents = []
    for jobs in (1, 2):
        out = tmp_path / f"jobs{jobs}.jsonl.gz"
        assert generate(plan, 400, out, jobs) == 400
        with gzip.open(out, "rt", encoding="utf-8") as stream:
            contents.append(stream.read())
    assert contents[0] == contents[1] and contents[0].count("\n") == 401


def test_targets_refuse_net_weights_that_do_not_load(tmp_path):
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not weights")
    made = [sys.executable, "-m", "pasur.train", "targets", "--positions", "5", "--jobs", "1"]
    made += ["--player", "net", "--net-weights", str(bad), "--out", str(tmp_path / "t.jsonl.gz")]
    done = subprocess.run(made, capture_output=True, text=True, timeout=600)
    assert done.returncode == 1 and "cannot read weights" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "t.jsonl.gz").exists()


def test_targets_can_follow_nets_own_play(tmp_path):
    from pasur.train.targets import Plan, generate, read_targets

    shipped = Network.load()  # played with its scores negated: its worst moves, not the shipped net's
    layers = {**dict(zip(Network.LAYERS, shipped.layers, strict=True)), "w3": -shipped.w3, "b3": -shipped.b3}
    weights = str(tmp_path / "contrary.npz")
    Network(layers, shipped.meta).save(weights)
    out = tmp_path / "net.jsonl.gz"
    generate(Plan(Rules(), samples=2, explore=0, seed=3, player="net", weights=weights), 120, out, 1)
    header, positions = read_targets(out)
    assert header["player"] == "net" and header["weights"] == "contrary.npz"
    views = [view for view, _ in positions]
    bot, followed = NetBot(weights=weights, endgame="net", late=0, ties=0), 0  # the network alone, in every deal
    for earlier, later in pairwise(views):
        played = len(earlier.history)
        if later.history[:played] != earlier.history or len(later.history) <= played:
            continue  # a new round began
        legal = earlier.legal_moves()
        chosen = bot.choose(earlier, legal).to_json()
        assert later.history[played].to_json() == {"seat": earlier.seat, **chosen}
        followed += 1
    assert followed > 50


def test_the_onnx_model_scores_as_numpy_does(tmp_path):
    pytest.importorskip("onnx", reason="the train extra is installed by scripts/test.sh")
    from onnx.reference import ReferenceEvaluator

    out = tmp_path / "net.onnx"
    done = subprocess.run(
        [sys.executable, "-m", "pasur.train", "onnx", "--out", str(out)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    game = Round(Rules(), deal_deck(random.Random(8), Rules()), check_deck=False)
    network, model = Network.load(), ReferenceEvaluator(str(out))
    while not game.over:
        codes = game.legal_codes()
        features = move_features(game.masks(game.turn), codes)
        (scores,) = model.run(None, {"features": features})
        assert np.allclose(scores, network.scores(features), atol=1e-5)
        game.play_code(codes[0])
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not weights")
    done = subprocess.run(
        [sys.executable, "-m", "pasur.train", "onnx", "--weights", str(bad), "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1 and "cannot read weights" in done.stderr and "Traceback" not in done.stderr
