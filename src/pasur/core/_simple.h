/* The two simplest bots, `random` and `greedy` (pasur/bots/simple.py, the readable reference), with
 * Python's own generator so that each chooses exactly as its Python bot with the same seed: the
 * vector environment's opponents (_vector.h) and the browser's (_wasm.c). */
#ifndef PASUR_SIMPLE_H
#define PASUR_SIMPLE_H

#include "_engine.h"
#include "_solver.h"
#include "_twister.h"

/* simple.taken_value: points, a club counting its share of Haft Khaj */
static double taken_value(mask_t cards) {
    return card_points(cards) + HAFT_KHAJ_POINTS / 13.0 * club_count(cards);
}

/* simple.immediate_value */
static double immediate_value(const round_t *r, uint64_t code) {
    int card = (int)(code & 63);
    mask_t take = code >> 6, card_mask = 1ULL << card;
    if (!take) {
        int rank = card >> 2;
        return -taken_value(card_mask) - 0.01 * (rank < JACK ? rank + 1 : 0);
    }
    int side = r->side_of[r->turn];
    int sur = makes_sur(r->table ^ take, card, side, r->dealt, r->sur_ok, r->last_deal_sur);
    return taken_value(take | card_mask) + SUR_POINTS * sur + 0.05 * bits_count(take);
}

/* A move's value to a bot, from what `context` holds. */
typedef double (*move_value_t)(const void *context, uint64_t code);

/* The first of the moves of highest value, equal values told apart by a random number drawn for
 * every move: Python's max(legal, key=lambda move: (value(move), rng.random())). */
static uint64_t highest_valued(const uint64_t *codes, int count, move_value_t value, const void *context, twister_t *rng) {
    uint64_t chosen = codes[0];
    double best_value = 0, best_draw = 0;
    for (int i = 0; i < count; i++) {
        double worth = value(context, codes[i]), draw = twister_random(rng);
        if (i == 0 || worth > best_value || (worth == best_value && draw > best_draw)) {
            best_value = worth;
            best_draw = draw;
            chosen = codes[i];
        }
    }
    return chosen;
}

static double immediate_value_of(const void *round, uint64_t code) { return immediate_value((const round_t *)round, code); }

/* The move RandomBot (`random`, nonzero) or GreedyBot chooses for the seat to move of a round not
 * over, with that bot's generator: greedy takes the highest immediate value. */
static uint64_t simple_choice(scratch_t *s, const round_t *r, int random, twister_t *rng) {
    uint64_t *codes = s->codes;
    int count = hand_moves(s, r->hands[r->turn], r->table, r->compulsory, codes, MAX_CODES);
    if (random) return codes[twister_below(rng, (uint32_t)count)];
    return highest_valued(codes, count, immediate_value_of, r, rng);
}

#endif
