/* The solver's moves (see _solver.h): equivalent moves searched once, and the order the rest are
 * searched in. Included by _native.c after _solver.h. */
#ifndef PASUR_SOLVER_ORDER_H
#define PASUR_SOLVER_ORDER_H

#include "_solver.h"

/* Equivalent cards: one class per rank for the club and one for the other three suits, the 10 of
 * diamonds alone (it scores 3). A move's signature is its card's class and how many cards of each
 * class it takes (2 bits a class, 27 classes). */
static int card_class(int card) {
    if (card == TEN_OF_DIAMONDS) return 26;
    return (card >> 2) * 2 + ((card & 3) != 0);
}

static uint64_t move_signature(uint64_t code) {
    uint64_t signature = (uint64_t)card_class((int)(code & 63)) << 54;
    mask_t take = code >> 6;
    while (take) {
        signature += 1ULL << (2 * card_class(lowest(take)));
        take &= take - 1;
    }
    return signature;
}

/* A move's place in the search order: captures by what they take (a Sur first), then the cards
 * laid down, the least valuable first. */
static int move_priority(const solver_t *S, const position_t *p, uint64_t code) {
    int card = (int)(code & 63);
    mask_t take = code >> 6;
    if (take) {
        int sur = makes_sur(p->table ^ take, card, S->side_of[p->turn], p->dealt, S->sur_ok, S->last_deal_sur);
        return 1000 + 100 * sur + 10 * card_points(take | 1ULL << card) +
               bits_count((take | 1ULL << card) & CLUB_CARDS) * 2 + bits_count(take);
    }
    return 500 - 10 * card_points(1ULL << card) - 3 * (int)((card & 3) == 0) - 20 * ((card >> 2) == JACK);
}

/* The legal moves at a node, one of each equivalent set, in the order listed; their count. */
static int distinct_moves(solver_t *S, const position_t *p, uint64_t *codes) {
    int count = hand_moves(S->scratch, p->hands[p->turn], p->table, S->compulsory, codes, MAX_NODE_MOVES);
    if (count < 0) {
        S->error = 1;
        return 0;
    }
    uint64_t signatures[MAX_NODE_MOVES];
    int kept = 0;
    for (int i = 0; i < count; i++) {
        uint64_t signature = move_signature(codes[i]);
        int seen = 0;
        for (int j = 0; j < kept && !seen; j++) seen = signatures[j] == signature;
        if (seen) continue;
        signatures[kept] = signature;
        codes[kept++] = codes[i];
    }
    return kept;
}

/* The moves to search at a node: the legal ones, one of each equivalent set, the likeliest best first. */
static int ordered_moves(solver_t *S, const position_t *p, uint64_t *codes) {
    int kept = distinct_moves(S, p, codes);
    int priorities[MAX_NODE_MOVES];
    for (int i = 0; i < kept; i++) priorities[i] = move_priority(S, p, codes[i]);
    for (int i = 1; i < kept; i++) { /* insertion sort: a handful of moves */
        uint64_t code = codes[i];
        int priority = priorities[i], j = i - 1;
        while (j >= 0 && priorities[j] < priority) {
            codes[j + 1] = codes[j];
            priorities[j + 1] = priorities[j];
            j--;
        }
        codes[j + 1] = code;
        priorities[j + 1] = priority;
    }
    return kept;
}

#endif
