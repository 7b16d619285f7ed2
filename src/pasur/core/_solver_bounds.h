/* The solver's bounds (see _solver.h): the value at a deal's horizon, and cheap bounds on the
 * points still to win. Included by _native.c after _solver.h. */
#ifndef PASUR_SOLVER_BOUNDS_H
#define PASUR_SOLVER_BOUNDS_H

#include "_solver.h"

/* The cards that would sweep `table` for a Sur (a table of numerals worth 10 or less together:
 * the numeral that makes 11; a lone King or Queen: another of its rank); 0 when none can. */
static mask_t sur_cards(mask_t table) {
    if (!table) return 0;
    if (!(table & NUMERALS)) {
        int rank = lowest(table) >> 2;
        return (table & (table - 1)) || rank == JACK ? 0 : 0xFULL << (4 * rank);
    }
    if (table & ~NUMERALS) return 0;
    int sum = 0;
    for (mask_t rest = table; rest; rest &= rest - 1) sum += (lowest(rest) >> 2) + 1;
    return sum <= 10 ? 0xFULL << (4 * (10 - sum)) : 0;
}

/* The chance that `hand` cards drawn from `pool` hold at least one of `wanted` of them. */
static double chance_of_any(int pool, int wanted, int hand) {
    double none = 1;
    for (int i = 0; i < hand && none > 0; i++) none *= (double)(pool - wanted - i) / (double)(pool - i);
    return 1 - none;
}

/* The chance that a side holding `clubs` ends with 7 or more when each of the `out` clubs still
 * out goes to it with chance 1/`sides`. */
static double chance_of_haft_khaj(int clubs, int out, int sides) {
    if (clubs >= HAFT_KHAJ_CLUBS) return 1;
    double chance = 0, each = 1.0 / sides, term = pow(1 - each, out); /* P(k of out), from k = 0 */
    for (int k = 0; k <= out; k++) {
        if (clubs + k >= HAFT_KHAJ_CLUBS) chance += term;
        term = term * (out - k) / (k + 1) * each / (1 - each);
    }
    return chance;
}

/* At the horizon (the end of the deal searched), for the side to move (the next deal's first
 * player): Haft Khaj as expected when each club still out goes to any side with even chances
 * (exact once decided; with more than two sides "the most clubs" is valued as "7 or more"), and a
 * Sur on the table left as expected when this player's four new cards are drawn from the pack (the
 * chance that one of them sweeps it, times the Sur and the points swept); to the nearest point.
 * The other points still to win are not guessed. */
static int horizon_value(const solver_t *S, const position_t *p) {
    double sur = 0;
    mask_t sweeping = sur_cards(p->table);
    int side = S->side_of[p->turn];
    if (sweeping && surs_counting(S, p)[side]) {
        mask_t pool = S->pack_after[S->horizon];
        sur = chance_of_any(bits_count(pool), bits_count(pool & sweeping), 4) *
              (SUR_POINTS + card_points(p->table)) * scale(S, side);
    }
    int out = 13;
    for (int other = 0; other < S->sides; other++) out -= p->clubs[other];
    double haft = 0;
    for (int other = 0; other < S->sides; other++) {
        int decided = p->clubs[other] >= HAFT_KHAJ_CLUBS;
        for (int rival = 0; rival < S->sides; rival++) decided |= p->clubs[rival] >= HAFT_KHAJ_CLUBS;
        double chance = decided ? p->clubs[other] >= HAFT_KHAJ_CLUBS : chance_of_haft_khaj(p->clubs[other], out, S->sides);
        haft += (other == S->me ? S->weight : -1) * HAFT_KHAJ_POINTS * chance;
    }
    return (int)lround((coalition(S, side) == 0 ? haft : -haft) + sur);
}

/* Cheap bounds on the value in the last deal, or in the deal a horizon search ends with (the
 * search uses them nowhere else): each coalition could win every point card in the hands and on
 * the table, a Sur at each of its plays where one could count, Haft Khaj while open (and, at a
 * deal horizon, the Sur expected after it: at most 5 and the points then on the table); scaled
 * by what its points are worth to it. */
static void value_bounds(const solver_t *S, const position_t *p, int *lower, int *upper) {
    mask_t hands = p->hands[0] | p->hands[1] | p->hands[2] | p->hands[3];
    mask_t cards = hands | p->table;
    int points = card_points(cards);
    int gains[2] = {points, points};
    if (S->horizon) gains[0] = gains[1] = points + SUR_POINTS + points;
    if (surs_ahead(S, p)) { /* else no Sur to count */
        const int *sur_ok = surs_counting(S, p);
        mask_t sweepers[2] = {0, 0}; /* each coalition's cards that could make a Sur (not Jacks) */
        for (int seat = 0; seat < S->players; seat++)
            if (sur_ok[S->side_of[seat]]) sweepers[coalition(S, S->side_of[seat])] |= p->hands[seat] & ~JACKS;
        gains[0] += SUR_POINTS * bits_count(sweepers[0]);
        gains[1] += SUR_POINTS * bits_count(sweepers[1]);
    }
    int haft = 0, decided = -1; /* Haft Khaj, for me's coalition, once a side holds 7 clubs */
    for (int side = 0; side < S->sides; side++)
        if (p->clubs[side] >= HAFT_KHAJ_CLUBS) decided = side;
    if (decided >= 0) {
        haft = decided == S->me ? S->weight * HAFT_KHAJ_POINTS : -HAFT_KHAJ_POINTS;
    } else {
        gains[0] += HAFT_KHAJ_POINTS;
        gains[1] += HAFT_KHAJ_POINTS;
    }
    int mine = coalition(S, S->side_of[p->turn]) == 0;
    int high = S->weight * gains[0] + haft, low = -gains[1] + haft; /* for me's coalition */
    *lower = mine ? low : -high;
    *upper = mine ? high : -low;
}

#endif
