/* The solver each for themselves (see _solver.h): with three or four sides, a max-n search to the
 * end of the current deal, in which every player plays for its own margin (its points times
 * (sides - 1) minus the others' together) rather than the others playing as one coalition against
 * `me`. A position's value is a vector: each side's points still to come in the deal (at the
 * deal's horizon, Haft Khaj and a Sur left on the table as expected, as horizon_value() counts
 * them), in 1/SHARE_UNIT points. A player indifferent between moves plays the one worst for `me`
 * (the paranoid search's choice; preferred()). No pruning: every position is searched once, the vectors kept in
 * the transposition table (packed where a bound search keeps its best move; a search uses one kind
 * of entry, and the tags keep searches apart). Included by _native.c after _solver_search.h. */
#ifndef PASUR_SOLVER_MAXN_H
#define PASUR_SOLVER_MAXN_H

#include "_solver.h"
#include "_solver_bounds.h"
#include "_solver_order.h"
#include "_solver_table.h"

#define SHARE_UNIT 16

/* A side's margin from the sides' shares: its share times (sides - 1) minus the others'. */
static inline int32_t share_margin(const solver_t *S, int side, const int32_t *shares) {
    int32_t value = 0;
    for (int other = 0; other < S->sides; other++) value += other == side ? S->weight * shares[other] : -shares[other];
    return value;
}

static inline uint64_t pack_shares(const int32_t *shares) {
    uint64_t packed = 0;
    for (int side = 0; side < 4; side++) packed |= (uint64_t)(uint16_t)shares[side] << (16 * side);
    return packed;
}

static inline void unpack_shares(uint64_t packed, int32_t *shares) {
    for (int side = 0; side < 4; side++) shares[side] = (int16_t)(packed >> (16 * side) & 0xFFFF);
}

/* Whether `mover` plays to the shares `found` rather than to `kept`: a better margin for itself;
 * at equal margins the worse for me; then the smaller margins, side by side (so that the choice
 * never depends on the order the moves are searched in). */
static int preferred(const solver_t *S, int mover, const int32_t *found, const int32_t *kept) {
    int32_t difference = share_margin(S, mover, found) - share_margin(S, mover, kept);
    if (difference) return difference > 0;
    difference = share_margin(S, S->me, found) - share_margin(S, S->me, kept);
    for (int side = 0; !difference && side < S->sides; side++)
        difference = share_margin(S, side, found) - share_margin(S, side, kept);
    return difference < 0;
}

/* The shares at the round's end (final_points()). */
static void final_shares(const solver_t *S, const position_t *p, int32_t *shares) {
    int points[4];
    final_points(S, p, points);
    for (int side = 0; side < 4; side++) shares[side] = points[side] * SHARE_UNIT;
}

/* The shares at the deal's horizon: each side's Haft Khaj as expected, and the Sur the next player
 * may make on the table left, as horizon_value() values them. */
static void horizon_shares(const solver_t *S, const position_t *p, int32_t *shares) {
    double expected[4] = {0, 0, 0, 0};
    int out = 13, decided = 0;
    for (int side = 0; side < S->sides; side++) {
        out -= p->clubs[side];
        decided |= p->clubs[side] >= HAFT_KHAJ_CLUBS;
    }
    for (int side = 0; side < S->sides; side++)
        expected[side] = HAFT_KHAJ_POINTS * (decided ? p->clubs[side] >= HAFT_KHAJ_CLUBS
                                                     : chance_of_haft_khaj(p->clubs[side], out, S->sides));
    mask_t sweeping = sur_cards(p->table);
    int mover = S->side_of[p->turn];
    if (sweeping && surs_counting(S, p)[mover]) {
        mask_t pool = S->pack_after[S->horizon];
        expected[mover] += chance_of_any(bits_count(pool), bits_count(pool & sweeping), 4) *
                           (SUR_POINTS + card_points(p->table));
    }
    for (int side = 0; side < 4; side++) shares[side] = (int32_t)lround(expected[side] * SHARE_UNIT);
}

/* Each side's share of the points still to come at p when every player plays for itself. */
static void maxn_search(solver_t *S, const position_t *p, int ply, int32_t *shares) {
    S->nodes++;
    if (p->over) {
        final_shares(S, p, shares);
        return;
    }
    if (S->horizon && p->dealt > S->horizon) {
        horizon_shares(S, p, shares);
        return;
    }
    memset(shares, 0, 4 * sizeof(*shares));
    if (S->error || (S->node_limit && S->nodes > S->node_limit) || ply >= MAX_PLIES) {
        if (!S->error) S->error = 2;
        return;
    }
    mask_t hands = hands_key(S, p);
    uint32_t small = small_key(S, p);
    mask_t table = table_key(live_table(S, p), haft_khaj_decided(S, p));
    if (S->entries) {
        entry_t *e = find_entry(S, hands, table, small, club_standing(S, p), sweep_standing(S, p));
        if (e) {
            unpack_shares(e->best, shares);
            return;
        }
    }
    uint64_t *codes = S->moves[ply];
    int count = distinct_moves(S, p, codes), mover = S->side_of[p->turn];
    for (int i = 0; i < count && !S->error; i++) {
        position_t child = *p;
        int32_t found[4];
        int gain = solver_play(S, &child, codes[i]) / scale(S, mover);
        maxn_search(S, &child, ply + 1, found);
        found[mover] += gain * SHARE_UNIT;
        if (i == 0 || preferred(S, mover, found, shares)) memcpy(shares, found, sizeof(found));
    }
    if (S->error) return;
    if (S->entries) {
        int was_there;
        entry_t *e = claim_entry(S, hands, table, small, club_standing(S, p), sweep_standing(S, p), 0, &was_there);
        e->lower = e->upper = 0;
        e->best = pack_shares(shares);
    }
}

/* Me's margin after the root's move `code` (the mover is me), each for themselves, to the nearest
 * point: root_moves()' value of a move. */
static int maxn_move_value(solver_t *S, const position_t *root, uint64_t code) {
    position_t child = *root;
    int32_t shares[4];
    int mover = S->side_of[root->turn], gain = solver_play(S, &child, code) / scale(S, mover);
    maxn_search(S, &child, 1, shares);
    shares[mover] += gain * SHARE_UNIT;
    return (int)lround((double)share_margin(S, S->me, shares) / SHARE_UNIT);
}

/* root_values() each for themselves. */
static int maxn_root_values(solver_t *S, const position_t *root, int compulsory, uint64_t *codes, int *values) {
    return root_moves(S, root, compulsory, codes, values, maxn_move_value);
}

#endif
