/* The solver bot's sampling (bots/solver_bot.py, core/solver.py's sampled_values): deals of the
 * cards the mover cannot see dealt again at random, each solved, with every legal move's value
 * and the deal's weight from the others' plays (_model.h). Used by the Python extension's
 * solve_samples (_native.c) and the browser's engine (_wasm.c). Included after _model.h. */
#ifndef PASUR_SAMPLING_H
#define PASUR_SAMPLING_H

#include "_model.h"
#include "_solver_maxn.h"
#include "_solver_table.h"

/* Points taken so far this round that the rest cannot change (cards and Surs) as me's coalition
 * values them: side 0 minus side 1 with two sides. */
static int points_taken(const solver_t *S, const round_t *r) {
    int points[4];
    for (int side = 0; side < S->sides; side++) points[side] = card_points(r->captured[side]) + SUR_POINTS * r->surs[side];
    return margin(S, points);
}

/* Turns a value for the side to move into the solver's results' terms: side 0 minus side 1 with
 * two sides, else the mover's (me's) margin. */
static int result_sign(const solver_t *S, const round_t *r) { return coalition(S, r->side_of[r->turn]) == 0 ? 1 : -1; }

/* How deals are sampled: the table's size, the deal or round horizon, the others' plays weighed by
 * the solver's judgement (`judged`: their contexts are in the evidence) or by greedy gains, the
 * plays counted, their temper and gift, the nodes after which sampling stops (0: never), and with
 * more than two sides whether each deal is searched with every player for itself (`each`:
 * _solver_maxn.h) or the others as one coalition. */
typedef struct {
    int table_bits, deal_only, judged, evidence_count;
    double temper, gift;
    uint64_t node_budget;
    int each;
} sampling_t;

/* solver_bot.deal_plays: the plays the other seats made in round `r`'s current deal (the round's
 * `played` plays so far are `plays`), most recent first, each with the table it saw, the cards its
 * seat played after it in the deal, and for the solver's judgement every seat's cards played after
 * it, the side that had captured last and each side's clubs before it; at most MAX_EVIDENCE, into
 * `evidence`; their count. Only what every seat saw is read. */
static inline int deal_evidence(const round_t *r, const uint64_t *plays, int played, int seat, evidence_t *evidence) {
    int players = r->players, in_deal = played - (r->deal - 1) * players * 4, last = -1, count = 0;
    int last_before[52], clubs[4] = {0, 0, 0, 0};
    for (int i = 0; i < played; i++) {
        last_before[i] = last;
        if (plays[i] >> 6) last = r->side_of[(r->first + i) % players];
    }
    for (int side = 0; side < 4; side++) clubs[side] = club_count(r->captured[side]);
    mask_t table = r->table, later[4] = {0, 0, 0, 0};
    for (int i = played - 1; i >= played - (in_deal > 0 ? in_deal : 0) && count < MAX_EVIDENCE; i--) {
        int by = (r->first + i) % players, card = (int)(plays[i] & 63);
        mask_t taken = plays[i] >> 6;
        table = taken ? table | taken : table & ~(1ULL << card);
        if (taken) clubs[r->side_of[by]] -= club_count(taken | 1ULL << card);
        if (by != seat) {
            evidence_t *e = evidence + count++;
            e->seat = by;
            e->table = table;
            e->later = later[by];
            e->code = plays[i];
            e->last = last_before[i];
            for (int k = 0; k < 4; k++) {
                e->laters[k] = later[k];
                e->clubs[k] = clubs[k];
            }
        }
        later[by] |= 1ULL << card;
    }
    return count;
}

/* `samples` deals of the cards `seat` (the mover of round `r`) cannot see, dealt again from `seed`:
 * each of the `count` legal `codes`' values deal by deal into `out` (as solve() gives them) and
 * each deal's weight into `weights`. Stops early at a deal that reaches the node limit (S->error)
 * and after the deal with which the nodes searched (added to *nodes) reach the budget. The deals
 * solved, or -1 when the transposition table could not be had. */
static int sample_deals(solver_t *S, const round_t *r, int seat, int samples, uint64_t seed, const sampling_t *how,
                        const evidence_t *evidence, int count, int32_t *out, double *weights, uint64_t *nodes) {
    int base = points_taken(S, r), sign = result_sign(S, r), solved = 0, values[MAX_NODE_MOVES];
    uint64_t rng = seed, codes[MAX_NODE_MOVES];
    for (; solved < samples && !(how->node_budget && *nodes >= how->node_budget); solved++) {
        round_t deal = *r;
        reshuffle_unseen(&deal, seat, &rng);
        solver_take_deck(S, &deal);
        if (take_table(S, how->table_bits) < 0) return -1;
        S->nodes = 0;
        S->horizon = how->deal_only ? deal.dealt : 0;
        position_t root = position_of(&deal);
        if (how->each && S->sides > 2) {
            maxn_root_values(S, &root, r->compulsory, codes, values);
            /* the judgement's search keeps bounds, not the max-n's vectors: a table of its own */
            if (how->judged && take_table(S, how->table_bits) < 0) return -1;
        } else {
            root_values(S, &root, r->compulsory, codes, values);
        }
        if (S->error) break;
        for (int i = 0; i < count; i++) out[(size_t)solved * count + i] = base + sign * values[i];
        int plays = how->evidence_count;
        double weight = !plays        ? 1.0
                        : how->judged ? solved_likelihood(S, &deal, evidence, plays, how->temper)
                                      : plays_likelihood(S->scratch, &deal, evidence, plays, how->temper, how->gift);
        if (weight < 0 && !S->error) S->error = 1;
        weights[solved] = weight;
        *nodes += S->nodes;
        if (S->error) break;
    }
    return solved;
}

#endif
