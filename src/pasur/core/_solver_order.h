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

/* The cards that could take `card` alone from the table: the numeral that makes 11 with it and the
 * Jacks for a numeral, the Jacks for a Jack, its rank's others for a King or a Queen. */
static inline mask_t single_takers(int card) {
    int rank = card >> 2;
    if (rank < JACK) return 0xFULL << (4 * (9 - rank)) | JACKS;
    return rank == JACK ? JACKS : 0xFULL << (4 * rank);
}

/* The cards in the hands of the side against the side to move. */
static inline mask_t against_hands(const solver_t *S, const position_t *p) {
    mask_t theirs = 0;
    for (unsigned seats = S->against[p->turn]; seats; seats &= seats - 1) theirs |= p->hands[bits_lowest(seats)];
    return theirs;
}

/* A move's place in the search order: captures by what they take (a Sur first), then the cards
 * laid down, the least valuable first, and after them those an opponent holds a card to take
 * alone (`theirs`: the opponents' cards, or none; 6% fewer nodes at two players, 7% at four). */
static int move_priority(const solver_t *S, const position_t *p, uint64_t code, mask_t theirs) {
    int card = (int)(code & 63);
    mask_t take = code >> 6;
    if (take) {
        int sur = makes_sur(p->table ^ take, card, S->side_of[p->turn], p->dealt, S->sur_ok, S->last_deal_sur);
        return 1000 + 100 * sur + 10 * card_points(take | 1ULL << card) +
               club_count(take | 1ULL << card) * 2 + bits_count(take);
    }
    return S->lay_priority[card] - 30 * (theirs && (theirs & single_takers(card)));
}

/* Whether two cards of one class lie on `table` (only then can two takes be equivalent). */
static inline int classes_repeat(mask_t table) {
    const mask_t low = 0x1111111111111ULL;
    mask_t group = table & ~(CLUB_CARDS | 1ULL << TEN_OF_DIAMONDS); /* the classes of three suits */
    mask_t count = (group >> 1 & low) + (group >> 2 & low) + (group >> 3 & low);
    return (count >> 1 & low) != 0;
}

/* Drop from codes[0..count) every move equivalent to one before it; the number kept. */
static int drop_equivalents(uint64_t *codes, int count) {
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

/* The legal moves at a node, one of each equivalent set (the first as hand_moves lists them), in
 * that order; their count. A card of a class that an earlier card of the hand has makes only
 * moves equivalent to that card's, so it is passed over; the moves of different classes of card
 * are never equivalent, so only each card's takes are compared, and only when the table holds
 * two cards of a class. */
static int distinct_moves(solver_t *S, const position_t *p, uint64_t *codes) {
    scratch_t *s = S->scratch;
    mask_t hand = p->hands[p->turn], table = p->table;
    int count = 0, found_n[11] = {0}, repeats = classes_repeat(table);
    uint32_t classes = 0;
    if ((hand & NUMERALS) && subset_sums(s, table, found_n) < 0) {
        S->error = 1;
        return 0;
    }
    for (; hand; hand &= hand - 1) {
        int card = lowest(hand), first = count;
        uint32_t class = 1u << card_class(card);
        if (classes & class) continue;
        classes |= class;
        if (summed_card_moves(s, table, card, S->compulsory, found_n, codes, &count, MAX_NODE_MOVES) < 0) {
            S->error = 1;
            return 0;
        }
        if (repeats && count - first > 1) count = first + drop_equivalents(codes + first, count - first);
    }
    return count;
}

/* The moves to search at a node: the legal ones, one of each equivalent set, the likeliest best first. */
static int ordered_moves(solver_t *S, const position_t *p, uint64_t *codes) {
    int kept = distinct_moves(S, p, codes);
    if (kept < 2) return kept;
    int priorities[MAX_NODE_MOVES];
    mask_t theirs = S->horizon ? 0 : against_hands(S, p); /* (a deal-horizon search gained nothing by it) */
    for (int i = 0; i < kept; i++) priorities[i] = move_priority(S, p, codes[i], theirs);
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
