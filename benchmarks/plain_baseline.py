"""A plain, list-based Pasur engine: the yardstick for `pasur bench`.

Cards are (rank, suit) tuples in lists, captures are found with itertools.combinations,
nothing is precomputed. It plays the default 2-player rules of RULES.md (first deal with the
Jack buried and the redeals, compulsory capture, Sur with its exceptions, last capturer takes
the rest) and is used only to measure how much faster the real engine is.
"""

from __future__ import annotations

import itertools
import random
import time

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["C", "D", "H", "S"]


def value(card: tuple[str, str]) -> int:
    """Numeral value of a card, 0 for J, Q and K."""
    rank = card[0]
    if rank in ("J", "Q", "K"):
        return 0
    return RANKS.index(rank) + 1


def captures(card: tuple[str, str], table: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """Every set of table cards that `card` may take."""
    rank = card[0]
    if rank == "J":
        taken = [c for c in table if c[0] not in ("Q", "K")]
        return [taken] if taken else []
    if rank in ("Q", "K"):
        return [[c] for c in table if c[0] == rank]
    numerals = [c for c in table if value(c) > 0]
    options = []
    for size in range(1, len(numerals) + 1):
        for combo in itertools.combinations(numerals, size):
            if sum(value(c) for c in combo) + value(card) == 11:
                options.append(list(combo))
    return options


def deal_first(rng: random.Random) -> tuple[list[tuple[str, str]], list[list[tuple[str, str]]], list[tuple[str, str]]]:
    """Shuffle and make the first deal: the pack left, two hands and the table."""
    while True:
        pack = [(r, s) for r in RANKS for s in SUITS]
        rng.shuffle(pack)
        hands = [pack[0:4], pack[4:8]]
        table = pack[8:12]
        pack = pack[12:]
        jacks = [c for c in table if c[0] == "J"]
        if len(jacks) == 1:
            table.remove(jacks[0])
            pack.insert(rng.randrange(1, len(pack) + 1), jacks[0])
            table.append(pack.pop(0))
        ranks = [c[0] for c in table]
        if ranks.count("J") or ranks.count("Q") >= 3 or ranks.count("K") >= 3:
            continue
        return pack, hands, table


def play_round(rng: random.Random) -> list[int]:
    """Play one 2-player round with uniformly random legal moves; return the round points."""
    pack, hands, table = deal_first(rng)
    piles: list[list[tuple[str, str]]] = [[], []]
    surs = [0, 0]
    last = -1
    player = 0
    while True:
        if not hands[0] and not hands[1]:
            if not pack:
                break
            hands = [pack[0:4], pack[4:8]]
            pack = pack[8:]
        last_deal = not pack
        moves: list[tuple[tuple[str, str], list[tuple[str, str]]]] = []
        for card in hands[player]:
            options = captures(card, table)
            if options:
                moves.extend((card, taken) for taken in options)
            else:
                moves.append((card, []))
        card, taken = rng.choice(moves)
        hands[player].remove(card)
        if taken:
            for c in taken:
                table.remove(c)
            piles[player].extend(taken)
            piles[player].append(card)
            last = player
            if not table and card[0] != "J" and not last_deal:
                surs[player] += 1
        else:
            table.append(card)
        player = 1 - player
    if last >= 0:
        piles[last].extend(table)
    points = []
    for side in range(2):
        pile = piles[side]
        clubs = sum(1 for c in pile if c[1] == "C")
        score = 7 if clubs >= 7 else 0
        score += sum(1 for c in pile if c[0] in ("A", "J"))
        score += 2 if ("2", "C") in pile else 0
        score += 3 if ("10", "D") in pile else 0
        score += 5 * max(0, surs[side] - surs[1 - side])
        points.append(score)
    return points


def rounds_per_second(seconds: float = 2.0, seed: int = 1) -> float:
    """Complete random 2-player rounds per second on one core."""
    rng = random.Random(seed)
    count = 0
    start = time.perf_counter()
    while True:
        play_round(rng)
        count += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return count / elapsed


if __name__ == "__main__":
    print(f"plain baseline: {rounds_per_second():.0f} rounds/s")
