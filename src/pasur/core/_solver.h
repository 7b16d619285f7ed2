/* The exact open-deck solver: the value of a round's position when every card's place is known,
 * by alpha-beta search to the round's end. This file holds its state and how it scores a move;
 * the parts, as DDS splits its own: _solver_table.h (the transposition table), _solver_bounds.h
 * (cheap bounds, and the value at a deal's horizon), _solver_order.h (which moves, in which order)
 * and _solver_search.h (the search). The search state lives in a solver_t its caller owns (with the
 * scratch space and the table), never in globals, so that searches run at once on many threads.
 *
 * With two sides (2 players, or 4 in partnership) a position's value is the round's final point
 * difference still to come, from the side to move's point of view. With three or four sides (each
 * player alone) the search is two-sided all the same: one side (`me`, the player the search is
 * for) against the others as one coalition, the value being me's points times (sides - 1) minus
 * the others' points together, for me's coalition (the others' coalition gets its negation). That
 * margin is unchanged when every side's score moves by the same amount, so Surs, tit for tat or
 * not, count 5 each for their side, and it is the most the others could make me lose if they
 * played together (a paranoid search: a bound, not the value of a game they play each for
 * themselves). What a move takes (its card points, and 5 for a Sur that counts, scaled by its
 * side's weight) is added as it is played, and the end-of-round sweep and Haft Khaj at the end.
 * Everything that decides the rest of the round is in the key of the transposition table, or
 * beside it: the cards in the hands (whose owner is fixed within a search), the table, the cards
 * dealt, the turn, the side that captured last and the clubs taken so far (with two sides these
 * two are kept beside the key: side 0's value only grows with its clubs and with a last capture
 * of its own, so a bound found with one holds for others, one way). What was taken before only
 * adds points, so the stored values hold whatever the path. Techniques: principal-variation
 * (null-window) search, a four-way bucketed table of bounds with its size an option, moves
 * ordered by the table's best move and then by what they take, cheap bounds on the points still
 * to win in the last deal, and equivalent cards (same rank, both plain or both clubs: nothing
 * scores them apart) searched once and counted, not named, on the table in the key.
 * Included by _native.c after _engine.h.
 */
#ifndef PASUR_SOLVER_H
#define PASUR_SOLVER_H

#include <math.h>
#include <stdlib.h>

#include "_engine.h"

#define SUR_POINTS 5
#define HAFT_KHAJ_POINTS 7
#define HAFT_KHAJ_CLUBS 7
#define MAX_NODE_MOVES 1024
#define MAX_PLIES 64
#define UNBOUNDED 10000

/* For a small function of every node that the compiler would otherwise call. */
#if defined(__GNUC__) || defined(__clang__)
#define NODE_INLINE static inline __attribute__((always_inline))
#else
#define NODE_INLINE static inline
#endif

typedef struct {
    mask_t hands[4], table;
    int dealt, turn, last, over, clubs[4]; /* last: the side that captured last, -1 none */
} position_t;

typedef struct {
    mask_t hands, table; /* the key: every hand's cards together (above them, with more than two
                            sides, sides 1-3's clubs), and the table */
    uint64_t best;       /* the best move found here, 0 when none */
    uint32_t small;      /* the key's small fields (bits 0-14), where side 0 stands for Haft Khaj (16-19,
                            club_standing()) and for the last sweep (20-21, sweep_standing()), the
                            search (24-31) */
    int16_t lower, upper;
} entry_t;

/* A transposition table its owner keeps from one search to the next (allocating and clearing it
 * would cost more than a whole deal's search); each search tags its entries, and the table is
 * cleared once every 255 searches. */
typedef struct {
    entry_t *entries; /* NULL: none yet */
    void *block;      /* the memory they lie in, and its size */
    size_t block_size;
    int bits;         /* 2**bits entries */
    uint32_t last_tag;
} table_t;

typedef struct {
    int players, first, compulsory, most_clubs;
    int sides, me, weight; /* me: side 0 with two sides, else the side searched for; weight: sides - 1 */
    int side_of[4], sur_ok[4], last_deal_sur[4];
    int surs_before_last, surs_in_last; /* whether a Sur can count for any side: before the last deal (in
                                           it or later), in the last deal */
    int16_t lay_priority[52]; /* each card laid down's place in the search order (_solver_order.h) */
    unsigned against[4];      /* each seat's opponents' seats, a bit a seat (the other coalition) */
    uint8_t deck[52];
    mask_t pack_after[53]; /* the cards still in the pack once `dealt` are out */
    scratch_t *scratch;    /* the owner's, for listing moves */
    table_t *table;        /* the owner's */
    entry_t *entries;      /* this search's view of the table; NULL: no table */
    uint64_t entry_mask, full_mask; /* the part of the table this search uses so far, and all of it */
    uint64_t stored;                /* this search's entries in the table */
    uint32_t search_tag;   /* this search's number in bits 24-31: entries with another are empty */
    uint64_t nodes, node_limit;
    int horizon; /* 0: search to the round's end; else stop once more than this many cards are dealt */
    int error; /* 1: too many moves at a node, 2: the node limit */
    int sweep_free; /* set by each search as it returns: whether its bound holds whoever captured last */
    uint64_t moves[MAX_PLIES][MAX_NODE_MOVES];
} solver_t;

/* Whether a Sur can still count for any side from position p on (in this deal or, before the
 * last, in a later one). */
static inline int surs_ahead(const solver_t *S, const position_t *p) {
    return p->dealt < 52 ? S->surs_before_last : S->surs_in_last;
}

/* Whether each side's Surs count at position p, by side: sur_ok before the last deal, last_deal_sur in it. */
static inline const int *surs_counting(const solver_t *S, const position_t *p) {
    return p->dealt < 52 ? S->sur_ok : S->last_deal_sur;
}

/* 0 for me's coalition, 1 for the others'; with two sides, the side itself. */
static inline int coalition(const solver_t *S, int side) { return side != S->me; }

/* The pack's order, from round r: the cards still in it after each count dealt. */
static void solver_take_deck(solver_t *S, const round_t *r) {
    memcpy(S->deck, r->deck, 52);
    S->pack_after[52] = 0;
    for (int i = 51; i >= 0; i--) S->pack_after[i] = S->pack_after[i + 1] | 1ULL << r->deck[i];
}

/* `me`: the side searched for when there are more than two (ignored with two). S->scratch and
 * S->table are the owner's and stay as they are; take_table (_solver_table.h) readies the table. */
static void solver_init(solver_t *S, const round_t *r, int sides, int me, int most_clubs) {
    S->players = r->players;
    S->first = r->first;
    S->compulsory = r->compulsory;
    S->most_clubs = most_clubs;
    S->sides = sides;
    S->me = sides == 2 ? 0 : me;
    S->weight = sides - 1;
    for (int i = 0; i < 4; i++) S->side_of[i] = r->side_of[i];
    S->surs_in_last = S->surs_before_last = 0;
    for (int i = 0; i < 4; i++) {
        S->sur_ok[i] = r->sur_ok[i];
        S->last_deal_sur[i] = r->last_deal_sur[i];
        S->surs_in_last |= r->last_deal_sur[i] != 0;
        S->surs_before_last |= r->sur_ok[i] || r->last_deal_sur[i];
    }
    solver_take_deck(S, r);
    for (int card = 0; card < 52; card++) /* the least valuable first: points, a club, a Jack */
        S->lay_priority[card] =
            (int16_t)(500 - 10 * card_points(1ULL << card) - 3 * ((card & 3) == 0) - 20 * ((card >> 2) == JACK));
    for (int seat = 0; seat < 4; seat++) {
        S->against[seat] = 0;
        for (int other = 0; other < S->players; other++)
            if (coalition(S, S->side_of[other]) != coalition(S, S->side_of[seat])) S->against[seat] |= 1u << other;
    }
    S->nodes = 0;
    S->error = 0;
    S->horizon = 0;
}

static position_t position_of(const round_t *r) {
    position_t p;
    memset(&p, 0, sizeof(p));
    for (int i = 0; i < 4; i++) p.hands[i] = r->hands[i];
    p.table = r->table;
    p.dealt = r->dealt;
    p.turn = r->turn;
    p.last = r->last_capturer;
    p.over = r->over;
    for (int side = 0; side < 4; side++) p.clubs[side] = club_count(r->captured[side]);
    return p;
}

/* What a point taken by `side` is worth to its coalition. */
static inline int scale(const solver_t *S, int side) { return side == S->me ? S->weight : 1; }

/* Side points (each side's) as me's coalition values them. */
static int margin(const solver_t *S, const int *points) {
    int value = 0;
    for (int side = 0; side < S->sides; side++) value += side == S->me ? S->weight * points[side] : -points[side];
    return value;
}

/* The value of a child position, for the side to move at `p`, from what the move took (`gain`)
 * and the child's value for its own side to move. */
static inline int combine(const solver_t *S, const position_t *p, const position_t *child, int gain, int rest) {
    int same = coalition(S, S->side_of[p->turn]) == coalition(S, S->side_of[child->turn]);
    return same ? gain + rest : gain - rest;
}

/* Play a move; what it takes for the mover's side (card points, and a Sur). */
static int solver_play(const solver_t *S, position_t *p, uint64_t code) {
    int card = (int)(code & 63);
    mask_t take = code >> 6;
    int seat = p->turn;
    int gain = 0;
    p->hands[seat] ^= 1ULL << card;
    if (take) {
        mask_t taken = take | 1ULL << card;
        int side = S->side_of[seat];
        p->table ^= take;
        p->clubs[side] += club_count(taken);
        p->last = side;
        gain = card_points(taken);
        if (makes_sur(p->table, card, side, p->dealt, S->sur_ok, S->last_deal_sur)) gain += SUR_POINTS;
        gain *= scale(S, side);
    } else {
        p->table |= 1ULL << card;
    }
    seat = seat + 1 == S->players ? 0 : seat + 1;
    p->turn = seat;
    if (!p->hands[seat]) {
        if (p->dealt < 52) {
            deal_from(S->deck, &p->dealt, p->hands, S->first, S->players);
        } else {
            p->over = 1;
        }
    }
    return gain;
}

/* Add Haft Khaj to each side's points: 7 or more clubs, or the most clubs (a tie scores nobody). */
static void add_haft_khaj(const solver_t *S, const int *clubs, int *points) {
    int most = 0, holders = 0;
    for (int side = 0; side < S->sides; side++) {
        if (clubs[side] > most) {
            most = clubs[side];
            holders = 0;
        }
        holders += clubs[side] == most;
    }
    for (int side = 0; side < S->sides; side++)
        if (S->most_clubs ? clubs[side] == most && holders == 1 : clubs[side] >= HAFT_KHAJ_CLUBS)
            points[side] += HAFT_KHAJ_POINTS;
}

/* Each side's points at the round's end: the sweep of the table to the last capturer, and Haft Khaj. */
static void final_points(const solver_t *S, const position_t *p, int *points) {
    int clubs[4];
    memcpy(clubs, p->clubs, sizeof(clubs));
    memset(points, 0, 4 * sizeof(*points));
    if (p->last >= 0) {
        points[p->last] += card_points(p->table);
        clubs[p->last] += club_count(p->table);
    }
    add_haft_khaj(S, clubs, points);
}

/* The value at the round's end (final_points()), for the side whose turn it would be. */
static int final_value(const solver_t *S, const position_t *p) {
    int points[4];
    final_points(S, p, points);
    int value = margin(S, points);
    return coalition(S, S->side_of[p->turn]) == 0 ? value : -value;
}

#endif
