/* The bot `pimc` (pasur/bots/pimc.py, the readable reference): each sample deals the cards the seat
 * to play has not seen and plays every legal move on that deal, each followed by a playout with the
 * same luck; the move of best total is played. It draws from Python's own generator exactly as the
 * Python bot does with the native core's playouts, so with the same seed it makes the same move
 * (tests/test_wasm.py): the browser's `master` level (_wasm.c). */
#ifndef PASUR_PIMC_H
#define PASUR_PIMC_H

#include "_engine.h"
#include "_playout.h"

typedef struct {
    round_t base;           /* the round as the seat to play sees it, the unseen cards dealt anyhow */
    int seat, side, sides, most_clubs, sur_cancel, count;
    double greedy;
    twister_t *rng;
    uint64_t codes[MAX_NODE_MOVES];
    double totals[MAX_NODE_MOVES];
} pimc_t;

/* PimcBot.choose's start for the seat to play of `r` (a round not over): its legal moves, and with
 * more than one Round.from_view's deal of the unseen cards and every move's total at 0; -1 when
 * there are more moves than it holds. */
static int pimc_start(pimc_t *m, scratch_t *s, const round_t *r, int sides, int most_clubs, int sur_cancel,
                      double greedy, twister_t *rng) {
    m->count = hand_moves(s, r->hands[r->turn], r->table, r->compulsory, m->codes, MAX_NODE_MOVES);
    if (m->count < 0) return -1;
    if (m->count < 2) return 0; /* the one move is played; nothing is drawn */
    m->base = *r;
    m->seat = r->turn;
    m->side = r->side_of[r->turn];
    m->sides = sides;
    m->most_clubs = most_clubs;
    m->sur_cancel = sur_cancel;
    m->greedy = greedy;
    m->rng = rng;
    for (int i = 0; i < m->count; i++) m->totals[i] = 0.0;
    reshuffle_as_python(&m->base, m->seat, rng);
    return 0;
}

/* One sample: a fresh deal, then each move played on it and the round played out with the same
 * luck; -1 when a round not over has no move. */
static int pimc_sample(pimc_t *m, scratch_t *s) {
    round_t deal = m->base;
    reshuffle_as_python(&deal, m->seat, m->rng);
    uint64_t seed = float_seeded_bits64(twister_random(m->rng));
    for (int i = 0; i < m->count; i++) {
        round_t game = deal;
        uint64_t luck = seed;
        double rewards[4];
        play_code(&game, m->codes[i]);
        if (play_mixed(s, &game, &luck, m->greedy, NULL, NULL) < 0) return -1;
        playout_outcome(&game, m->sides, m->most_clubs, m->sur_cancel, rewards);
        m->totals[i] += rewards[m->side];
    }
    return 0;
}

/* The move of best total (the first of equals, in the engine's order). */
static uint64_t pimc_choice(const pimc_t *m) {
    int best = 0;
    for (int i = 1; i < m->count; i++)
        if (m->totals[i] > m->totals[best]) best = i;
    return m->codes[best];
}

#endif
