/* The solver's search (see _solver.h): principal-variation search over the table, the bounds and
 * the ordered moves; the root's moves; plain minimax, the reference. Included by _native.c after
 * the other parts of the solver. */
#ifndef PASUR_SOLVER_SEARCH_H
#define PASUR_SOLVER_SEARCH_H

#include "_solver.h"
#include "_solver_bounds.h"
#include "_solver_order.h"
#include "_solver_table.h"

static int search(solver_t *S, const position_t *p, int alpha, int beta, int ply);

/* The value of the move to `child` (which took `gain`) for the side to move at `p`, searched with
 * the window (alpha, beta) of that side. */
static int child_search(solver_t *S, const position_t *p, const position_t *child, int gain, int alpha, int beta,
                        int ply) {
    if (coalition(S, S->side_of[p->turn]) == coalition(S, S->side_of[child->turn]))
        return gain + search(S, child, alpha - gain, beta - gain, ply);
    return gain - search(S, child, gain - beta, gain - alpha, ply);
}

/* Fail-soft principal-variation search: a value v with v <= alpha meaning "at most v", v >= beta
 * "at least v", anything between exact. */
static int search(solver_t *S, const position_t *p, int alpha, int beta, int ply) {
    S->nodes++;
    S->sweep_free = 1;
    if (p->over) {
        S->sweep_free = !card_points(p->table) && !club_count(p->table);
        return final_value(S, p);
    }
    if (S->horizon && p->dealt > S->horizon) return horizon_value(S, p);
    if (S->error || (S->node_limit && S->nodes > S->node_limit) || ply >= MAX_PLIES) {
        if (!S->error) S->error = 2;
        return 0;
    }
    mask_t hands = hands_key(S, p);
    uint32_t small = small_key(S, p);
    mask_t table = table_key(live_table(S, p), haft_khaj_decided(S, p));
    if (S->entries) prefetch_bucket(S, hands, table, small); /* its read overlaps the bounds' work */
    /* The cheap bounds only in the last deal (or the deal a horizon search ends with): before it
     * they count a Sur at every later play and come near a window only late in the deal before the
     * last, where a cut-off leaves a loose bound in the table that costs more searching than it
     * saved (without them there: 4% fewer nodes at two players, 1% at four). */
    int lower = -UNBOUNDED, upper = UNBOUNDED;
    if (p->dealt == 52 || S->horizon) {
        value_bounds(S, p, &lower, &upper);
        if (upper <= alpha) return upper;
        if (lower >= beta) return lower;
    }
    uint64_t hint = 0;
    int swept = 0; /* whether the result depends on who captured last (the table's left at the end) */
    int standing = club_standing(S, p), sweep = sweep_standing(S, p);
    if (S->entries) {
        int rising = S->sides > 2 ? 0 : coalition(S, S->side_of[p->turn]) == 0 ? 1 : -1;
        known_t known = look_up(S, hands, table, small, standing, sweep, rising);
        if (known.lower >= beta) {
            S->sweep_free = !known.lower_swept;
            return known.lower;
        }
        if (known.upper <= alpha) {
            S->sweep_free = !known.upper_swept;
            return known.upper;
        }
        if (known.lower == known.upper) { /* exact: by both bounds */
            S->sweep_free = !known.lower_swept && !known.upper_swept;
            return known.lower;
        }
        if (known.lower > lower) lower = known.lower; /* a narrower window: the result holds all the same */
        if (known.upper < upper) upper = known.upper;
        hint = known.best;
    }
    if (lower > alpha) alpha = lower;
    if (upper < beta) beta = upper;
    uint64_t *codes = S->moves[ply];
    /* The table's best move first, alone: the others are listed only when it does not cut off. It
     * is legal when its cards are here (it was found here, or where the table differs only by
     * equivalent cards: the same ranks, so the same captures and the same compulsion). */
    mask_t hint_take = hint >> 6;
    int staged = hint && (p->hands[p->turn] >> (hint & 63) & 1) && (hint_take & p->table) == hint_take;
    int count = staged ? 2 : ordered_moves(S, p, codes); /* staged: the count is found at the second */
    if (staged) codes[0] = hint;
    int best = -UNBOUNDED, floor = alpha;
    uint64_t best_code = 0;
    for (int i = 0; i < count; i++) {
        if (i == 1 && staged) { /* the rest, the hint's equivalents left out, after it */
            uint64_t signature = move_signature(hint);
            int listed = ordered_moves(S, p, codes), kept = 0;
            for (int j = 0; j < listed; j++)
                if (move_signature(codes[j]) != signature) codes[kept++] = codes[j];
            if (kept == MAX_NODE_MOVES) kept--;
            memmove(codes + 1, codes, (size_t)kept * sizeof(*codes));
            codes[0] = hint;
            count = kept + 1;
            if (count == 1) break;
        }
        position_t child = *p;
        int gain = solver_play(S, &child, codes[i]);
        int value;
        int laid = !(codes[i] >> 6); /* the child's last capturer is this one's */
        if (i == 0) {
            value = child_search(S, p, &child, gain, floor, beta, ply + 1);
        } else {
            value = child_search(S, p, &child, gain, floor, floor + 1, ply + 1);
            if (value > floor && value < beta) value = child_search(S, p, &child, gain, value - 1, beta, ply + 1);
        }
        swept |= laid && !S->sweep_free;
        if (value > best) {
            best = value;
            best_code = codes[i];
            if (value > floor) {
                floor = value;
                if (floor >= beta) break;
            }
        }
    }
    if (S->error) return 0;
    if (S->entries) {
        if (best <= alpha)
            store_entry(S, hands, table, small, standing, sweep, !swept, -UNBOUNDED, best, 0);
        else if (best >= beta)
            store_entry(S, hands, table, small, standing, sweep, !swept, best, UNBOUNDED, best_code);
        else
            store_entry(S, hands, table, small, standing, sweep, !swept, best, best, best_code);
    }
    S->sweep_free = !swept;
    return best;
}

/* The exact value (the mover's side's view) by a full window. */
static int exact_value(solver_t *S, const position_t *p) { return search(S, p, -UNBOUNDED, UNBOUNDED, 0); }

/* Every legal move at the root and its value by `move_value` (equivalent moves valued once); the
 * number of moves (S->error set on failure). */
static int root_moves(solver_t *S, const position_t *root, int compulsory, uint64_t *codes, int *values,
                      int (*move_value)(solver_t *, const position_t *, uint64_t)) {
    int count = hand_moves(S->scratch, root->hands[root->turn], root->table, compulsory, codes, MAX_NODE_MOVES);
    if (count < 0) {
        S->error = 1;
        return 0;
    }
    for (int i = 0; i < count && !S->error; i++) {
        uint64_t signature = move_signature(codes[i]);
        int j = 0;
        while (j < i && move_signature(codes[j]) != signature) j++;
        values[i] = j < i ? values[j] : move_value(S, root, codes[i]);
    }
    return count;
}

/* The exact value of the root's move `code` for the mover's side (what it takes, and the rest). */
static int exact_move_value(solver_t *S, const position_t *root, uint64_t code) {
    position_t child = *root;
    int gain = solver_play(S, &child, code);
    return combine(S, root, &child, gain, exact_value(S, &child));
}

/* Every legal move at the root and its exact value for the mover's side; the number of moves. */
static int root_values(solver_t *S, const position_t *root, int compulsory, uint64_t *codes, int *values) {
    return root_moves(S, root, compulsory, codes, values, exact_move_value);
}

/* Plain minimax: every legal move, no pruning, no table, no bounds, no merging; the reference the
 * tests hold the solver to. */
static int plain_minimax(solver_t *S, const position_t *p, int ply) {
    S->nodes++;
    if (p->over) return final_value(S, p);
    if (S->error || (S->node_limit && S->nodes > S->node_limit) || ply >= MAX_PLIES) {
        if (!S->error) S->error = 2;
        return 0;
    }
    uint64_t *codes = S->moves[ply];
    int count = hand_moves(S->scratch, p->hands[p->turn], p->table, S->compulsory, codes, MAX_NODE_MOVES);
    if (count < 0) {
        S->error = 1;
        return 0;
    }
    int best = -UNBOUNDED;
    for (int i = 0; i < count; i++) {
        position_t child = *p;
        int gain = solver_play(S, &child, codes[i]);
        int value = combine(S, p, &child, gain, plain_minimax(S, &child, ply + 1));
        if (value > best) best = value;
    }
    return best;
}

#endif
