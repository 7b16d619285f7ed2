/* The solver bot's model of the other players: how likely the plays another seat made in this deal
 * are with the hands of a sampled deal (bots/solver_bot.py weighs each deal by it). Not solving: it
 * judges plays, by their immediate gains or by what the solver finds they gave up. Included by
 * _native.c after the solver. */
#ifndef PASUR_MODEL_H
#define PASUR_MODEL_H

#include <math.h>

#include "_solver.h"
#include "_solver_bounds.h"
#include "_solver_search.h"


/* A play another seat made in this deal: the table it saw, its move, and the cards it played later
 * in the deal (so that its hand then was its hand now, the move's card and those). */
typedef struct {
    int seat;
    mask_t table, later;
    uint64_t code;
    /* for the solver's judgement: each seat's cards played later in the deal, and the side that
     * had captured last (-1 none) and each side's clubs before this play */
    mask_t laters[4];
    int last, clubs[4];
} evidence_t;

#define MAX_EVIDENCE 16

/* What a move takes at once, as a greedy player counts it: the cards' points and a Sur, less
 * `gift` times a Sur when it leaves a table that one card could sweep. */
static double greedy_value(const round_t *r, mask_t table, uint64_t code, int seat, double gift) {
    mask_t take = code >> 6;
    int card = (int)(code & 63);
    mask_t left = take ? table ^ take : table | 1ULL << card;
    double given = left && sur_cards(left) ? gift * SUR_POINTS : 0;
    if (!take) return -given;
    return card_points(take | 1ULL << card) - given +
           SUR_POINTS * makes_sur(table ^ take, card, r->side_of[seat], r->dealt, r->sur_ok, r->last_deal_sur);
}

/* How likely the plays in `evidence` are with the hands of `deal`, up to a constant, when a player
 * passes up an immediate gain g (greedy_value's, with `gift`) with likelihood exp(-g / temper). */
static double plays_likelihood(scratch_t *s, const round_t *deal, const evidence_t *evidence, int count,
                               double temper, double gift) {
    double shortfall = 0;
    uint64_t codes[MAX_NODE_MOVES];
    for (int i = 0; i < count; i++) {
        const evidence_t *e = evidence + i;
        mask_t hand = deal->hands[e->seat] | e->later | 1ULL << (e->code & 63);
        int n = hand_moves(s, hand, e->table, deal->compulsory, codes, MAX_NODE_MOVES);
        if (n < 0) return -1;
        double best = -1e9;
        for (int j = 0; j < n; j++) {
            double value = greedy_value(deal, e->table, codes[j], e->seat, gift);
            if (value > best) best = value;
        }
        shortfall += best - greedy_value(deal, e->table, e->code, e->seat, gift);
    }
    return exp(-shortfall / temper);
}

/* How likely the plays in `evidence` are with the hands of `deal`, up to a constant, when a player
 * gives up g points with likelihood exp(-g / temper), g what the solver finds the play loses to the
 * end of the deal against the best move with every hand of `deal` seen (with more than two sides,
 * as the play's coalition values it in the paranoid search); -1 when the search fails (S->error
 * says why). */
static double solved_likelihood(solver_t *S, const round_t *deal, const evidence_t *evidence, int count,
                                double temper) {
    uint64_t codes[MAX_NODE_MOVES];
    int values[MAX_NODE_MOVES];
    double shortfall = 0;
    for (int i = 0; i < count; i++) {
        const evidence_t *e = evidence + i;
        position_t p = position_of(deal);
        for (int seat = 0; seat < 4; seat++) p.hands[seat] |= e->laters[seat];
        p.hands[e->seat] |= 1ULL << (e->code & 63);
        p.table = e->table;
        p.turn = e->seat;
        p.last = e->last;
        memcpy(p.clubs, e->clubs, sizeof(p.clubs));
        int n = root_values(S, &p, deal->compulsory, codes, values);
        if (S->error) return -1;
        int best = -UNBOUNDED, played = -UNBOUNDED;
        for (int j = 0; j < n; j++) {
            if (values[j] > best) best = values[j];
            if (codes[j] == e->code) played = values[j];
        }
        if (played > -UNBOUNDED) shortfall += best - played;
    }
    return exp(-shortfall / temper);
}

#endif
