/* The net bot's move features and network, mirroring pasur/bots/net.py (python_features and
 * Network.scores, the readable reference): the same float32 features, value for value, and the
 * same network (its sums taken in another order, so scores agree to float32 rounding). Included
 * by _native.c after _engine.h and _solver.h.
 */
#ifndef PASUR_NET_H
#define PASUR_NET_H

#include <math.h>

#include "_engine.h"
#include "_solver.h"

#define NET_CARD_VALUES (52 * 7)
#define NET_COUNTS 20
#define NET_FEATURES (NET_CARD_VALUES + NET_COUNTS + 13 * 4 + 13)
#define NET_BEFORE 8
#define NET_MAX_UNITS 4096

/* net.Decision: what no move of one decision changes. */
typedef struct {
    mask_t hand, table, own, others, unseen;
    int side_last, other_last, sur_ok, their_sur, own_surs;
    double club_value, chance;
    double before[NET_BEFORE];
} decision_t;

/* judgement.expected_best: the offers (gain, chance) taken best first, (gain, chance) descending. */
static double expected_best(double *gains, double *chances, int count) {
    for (int i = 1; i < count; i++) {
        double gain = gains[i], chance = chances[i];
        int j = i;
        while (j > 0 && (gains[j - 1] < gain || (gains[j - 1] == gain && chances[j - 1] < chance))) {
            gains[j] = gains[j - 1];
            chances[j] = chances[j - 1];
            j--;
        }
        gains[j] = gain;
        chances[j] = chance;
    }
    double expected = 0.0, none_better = 1.0;
    for (int i = 0; i < count; i++) {
        expected += gains[i] * chances[i] * none_better;
        none_better *= 1 - chances[i];
    }
    return expected;
}

/* net.reply_values: for each rank, what a card of it could take from `table` (4 values into
 * `out`), and the next player's expected best capture there. -1 when the moves overflow. */
static int reply_values(scratch_t *s, const decision_t *d, mask_t table, const int *unseen_ranks, float *out,
                        double *threat) {
    double gains[13], chances[13];
    int offers = 0;
    uint64_t *codes = s->codes;
    for (int rank = 0; rank < 13; rank++) {
        int count = 0;
        if (card_moves(s, table, 4 * rank + 2, 1, codes, &count, MAX_CODES) < 0) return -1;
        int most_points = 0, most_cards = 0, most_clubs = 0, clears = 0;
        double best = 0.0;
        for (int i = 0; i < count; i++) {
            mask_t take = codes[i] >> 6;
            if (!take) continue;
            int points = card_points(take), cards = bits_count(take), clubs = club_count(take);
            int sweeps = take == table && rank != JACK;
            if (points > most_points) most_points = points;
            if (cards > most_cards) most_cards = cards;
            if (clubs > most_clubs) most_clubs = clubs;
            clears = clears || sweeps;
            double gain = points + d->club_value * clubs + (sweeps && d->their_sur ? SUR_POINTS : 0);
            if (gain > best) best = gain;
        }
        out[4 * rank] = (float)(most_points / 4.0);
        out[4 * rank + 1] = (float)(most_cards / 8.0);
        out[4 * rank + 2] = (float)(most_clubs / 4.0);
        out[4 * rank + 3] = (float)clears;
        if (best > 0) {
            gains[offers] = best;
            chances[offers++] = 1 - pow(1 - d->chance, unseen_ranks[rank]);
        }
    }
    *threat = expected_best(gains, chances, offers);
    return 0;
}

/* One move's features (net.python_features' row) into `row`; -1 when the moves overflow. */
static int move_row(scratch_t *s, const decision_t *d, uint64_t code, float *row) {
    int card = (int)(code & 63);
    mask_t take = code >> 6, played = 1ULL << card;
    mask_t hand = d->hand & ~played, table, pile;
    int side_last, other_last;
    if (take) {
        table = d->table & ~take;
        pile = d->own | take | played;
        side_last = 1;
        other_last = 0;
    } else {
        table = d->table | played;
        pile = d->own;
        side_last = d->side_last;
        other_last = d->other_last;
    }
    int clears = take && !table;
    int sur = clears && (card >> 2) != JACK && d->sur_ok;
    mask_t blocks[7] = {hand, table, played, take, pile, d->others, d->unseen};
    for (int block = 0; block < 7; block++)
        for (int i = 0; i < 52; i++) row[52 * block + i] = (float)(blocks[block] >> i & 1);
    int unseen_ranks[13];
    for (int rank = 0; rank < 13; rank++) unseen_ranks[rank] = bits_count(d->unseen >> (4 * rank) & 15);
    float *counts = row + NET_CARD_VALUES;
    double threat;
    if (reply_values(s, d, table, unseen_ranks, counts + NET_COUNTS, &threat) < 0) return -1;
    int own_surs = d->own_surs + sur;
    double values[NET_COUNTS] = {
        take != 0,
        clears,
        sur,
        d->sur_ok,
        side_last,
        other_last,
        d->before[0],
        d->before[1],
        club_count(pile) / 13.0,
        d->before[2],
        card_points(pile) / 13.0,
        d->before[3],
        bits_count(pile) / 52.0,
        d->before[4],
        (own_surs < 4 ? own_surs : 4) / 4.0,
        d->before[5],
        d->before[6],
        d->before[7],
        d->club_value / 2,
        threat / 8,
    };
    for (int i = 0; i < NET_COUNTS; i++) counts[i] = (float)values[i];
    for (int rank = 0; rank < 13; rank++) counts[NET_COUNTS + 52 + rank] = (float)(unseen_ranks[rank] / 4.0);
    return 0;
}

/* The network's layers (Network: w1 features x first, b1, w2 first x second, b2, w3 second x 1, b3). */
typedef struct {
    const float *w1, *b1, *w2, *b2, *w3, *b3;
    int first, second;
} network_t;

/* into += x * weights, `count` values, in blocks of 8 that the compiler turns into vector code. */
static inline void add_scaled(float *into, const float *weights, float x, int count) {
    int blocks = count / 8;
    for (int block = 0; block < blocks; block++)
        for (int k = 0; k < 8; k++) into[8 * block + k] += x * weights[8 * block + k];
    for (int j = 8 * blocks; j < count; j++) into[j] += x * weights[j];
}

/* Network.scores for one row: ReLU(ReLU(row w1 + b1) w2 + b2) w3 + b3, each layer summed over
 * its non-zero inputs only (most of a row's values are cards absent). */
static double network_score(const network_t *n, const float *row) {
    float first[NET_MAX_UNITS], second[NET_MAX_UNITS];
    memcpy(first, n->b1, sizeof(float) * n->first);
    for (int i = 0; i < NET_FEATURES; i++)
        if (row[i] != 0) add_scaled(first, n->w1 + (size_t)i * n->first, row[i], n->first);
    memcpy(second, n->b2, sizeof(float) * n->second);
    for (int i = 0; i < n->first; i++)
        if (first[i] > 0) add_scaled(second, n->w2 + (size_t)i * n->second, first[i], n->second);
    float score = n->b3[0];
    for (int j = 0; j < n->second; j++)
        if (second[j] > 0) score += second[j] * n->w3[j];
    return score;
}

#endif
