"""Invariants over thousands of random games of every player count and option set."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pasur import Match, Round, Rules, SeatView, deal_deck, from_record, to_record
from pasur.core.cards import FULL_DECK, mask_of

CONFIGS = [
    Rules(players=2),
    Rules(players=3),
    Rules(players=4),
    Rules(players=4, partnership=False),
    Rules(players=2, compulsory_capture=False, bury_table_jack=False, sur_cancel=False),
    Rules(players=3, haft_khaj="most", sur_in_last_deal=True, redeal_on_faces=False),
]


def accounted(game: Round) -> None:
    """Every card is in exactly one place: a hand, the table, a pile, or the pack."""
    places = [*game.hands, game.table, *game.captured, mask_of(game.deck[game.dealt :])]
    assert sum(place.bit_count() for place in places) == 52
    union = 0
    for place in places:
        union |= place
    if game.over and game.last_capturer < 0:
        assert union | mask_of(game.deck) == FULL_DECK  # the table was left to nobody
    else:
        assert union == FULL_DECK


@pytest.mark.parametrize("rules", CONFIGS, ids=lambda rules: json.dumps(rules.to_dict(True)))
def test_random_rounds_keep_every_card_and_always_have_a_move(rules):
    rng = random.Random(rules.players)
    for _ in range(600):
        game = Round(rules, deal_deck(rng, rules))
        accounted(game)
        while not game.over:
            codes = game.legal_codes()
            assert codes, "a running round always has a legal move"
            assert len(set(codes)) == len(codes)
            game.play_code(codes[rng.randrange(len(codes))])
            accounted(game)
        assert game.pack == 0 and not any(game.hands)
        assert len(game.history) == 48


@pytest.mark.parametrize("sur_cancel", [True, False])
def test_two_sides_always_share_twenty_points_plus_five_per_net_sur(sur_cancel):
    """With two sides the round points total 20 + 5 × net Surs (or × all Surs, no cancelling)."""
    for rules in (Rules(players=2, sur_cancel=sur_cancel), Rules(players=4, sur_cancel=sur_cancel)):
        rng = random.Random(7)
        for _ in range(1500):
            game = Round(rules, deal_deck(rng, rules))
            game.play_random(rng)
            assert game.last_capturer >= 0
            surs = abs(game.surs[0] - game.surs[1]) if sur_cancel else sum(game.surs)
            assert sum(game.points()) == 20 + 5 * surs
            assert sum(side.haft_khaj for side in game.breakdown()) == 7


@pytest.mark.parametrize("rules", CONFIGS, ids=lambda rules: json.dumps(rules.to_dict(True)))
def test_records_replay_to_the_same_scores(rules):
    rng = random.Random(11)
    for seed in range(60):
        match = Match(rules.with_options(target=30), seed=seed)
        while not match.over:
            codes = match.rounds[-1].legal_codes()
            match.play_code(codes[rng.randrange(len(codes))])
        replayed = from_record(json.loads(json.dumps(to_record(match))))
        assert replayed.scores == match.scores
        assert replayed.winner == match.winner
        assert [g.surs for g in replayed.rounds] == [g.surs for g in match.rounds]


def _shuffle_unseen(game: Round, seat: int, rng: random.Random) -> list[int]:
    """The deck of ``game`` with every card ``seat`` cannot see now moved to another unseen place."""
    unseen = mask_of(game.deck[game.dealt :])
    for other, hand in enumerate(game.hands):
        if other != seat:
            unseen |= hand
    places = [index for index, card in enumerate(game.deck) if unseen >> card & 1]
    shuffled = [game.deck[index] for index in places]
    rng.shuffle(shuffled)
    deck = list(game.deck)
    for index, card in zip(places, shuffled, strict=True):
        deck[index] = card
    return deck


@settings(max_examples=300, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    deal_seed=st.integers(0, 10**6),
    moves=st.integers(0, 47),
    seat=st.integers(0, 3),
    shuffle_seed=st.integers(0, 10**6),
    number=st.integers(1, 4),
)
def test_a_view_does_not_change_when_unseen_cards_are_reshuffled(players, deal_seed, moves, seat, shuffle_seed, number):
    rules = Rules(players=players)
    seat %= players
    rng = random.Random(deal_seed)
    game = Round(rules, deal_deck(rng, rules), number=number, banked=[3] * rules.sides)
    for _ in range(moves):
        codes = game.legal_codes()
        game.play_code(codes[rng.randrange(len(codes))])
    other = Round(
        rules, _shuffle_unseen(game, seat, random.Random(shuffle_seed)), number=number, banked=[3] * rules.sides
    )
    for code in game.history:
        assert code in other.legal_codes()
        other.play_code(code)
    assert other.view(seat) == game.view(seat)
    assert other.view(seat).to_json() == game.view(seat).to_json()
    assert other.masks(seat) == game.masks(seat) == game.view(seat).masks()
    assert SeatView.from_json(json.loads(json.dumps(game.view(seat).to_json()))) == game.view(seat)
    if game.turn == seat and not game.over:
        assert other.legal_codes() == game.legal_codes()


@settings(max_examples=200, deadline=None)
@given(
    rules=st.sampled_from(CONFIGS),
    deal_seed=st.integers(0, 10**6),
    moves=st.integers(0, 47),
    seat=st.integers(0, 3),
    sample_seed=st.integers(0, 10**6),
)
def test_determinizations_keep_the_view_and_every_card(rules, deal_seed, moves, seat, sample_seed):
    """Round.from_view and reshuffle_unseen deal only what the seat cannot see."""
    seat %= rules.players
    rng = random.Random(deal_seed)
    game = Round(rules, deal_deck(rng, rules), number=2, banked=[51] + [7] * (rules.sides - 1))
    for _ in range(moves):
        codes = game.legal_codes()
        game.play_code(codes[rng.randrange(len(codes))])
    view = game.view(seat)
    sampled = Round.from_view(view, random.Random(sample_seed))
    assert sampled.view(seat) == view
    accounted(sampled)
    assert [hand.bit_count() for hand in sampled.hands] == [hand.bit_count() for hand in game.hands]
    game.reshuffle_unseen(seat, random.Random(sample_seed))
    assert game.view(seat) == view
    accounted(game)
    if not game.over:
        sampled.play_random(random.Random(1))
        assert sampled.over and len(sampled.history) == 48


def test_copies_are_independent():
    import copy

    rules = Rules(players=3)
    game = Round(rules, deal_deck(random.Random(2), rules))
    for duplicate in (game.copy(), copy.deepcopy(game)):
        duplicate.play_random(random.Random(3))
        assert duplicate.over and not game.over
        assert game.history == [] and sum(hand.bit_count() for hand in game.hands) == 12
