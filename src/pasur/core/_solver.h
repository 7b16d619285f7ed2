/* The exact open-deck solver: the value of a round's position when every card's place is known,
 * by alpha-beta search to the round's end.
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
 * side's weight) is added as it is played, and the end-of-round sweep and Haft Khaj at the end. Everything that decides the rest
 * of the round is in the key of the transposition table: the cards in the hands (whose owner is
 * fixed within a search), the table, the cards dealt, the turn, the side that captured last and
 * the clubs taken so far while Haft Khaj is undecided. What was taken before only adds points, so
 * the stored values hold whatever the path. Techniques: principal-variation (null-window) search,
 * a two-way bucketed table of bounds with its size an option, moves ordered by the table's best
 * move and then by what they take, cheap bounds on the points still to win, and equivalent cards
 * (same rank, both plain or both clubs: nothing scores them apart) searched once.
 * Included by _native.c after _engine.h.
 */
#ifndef PASUR_SOLVER_H
#define PASUR_SOLVER_H

#include <math.h>
#include <stdlib.h>

#include "_engine.h"

#define CLUB_CARDS 0x1111111111111ULL
#define SUR_POINTS 5
#define HAFT_KHAJ_POINTS 7
#define HAFT_KHAJ_CLUBS 7
#define MAX_NODE_MOVES 1024
#define MAX_PLIES 64
#define UNBOUNDED 10000

typedef struct {
    mask_t hands[4], table;
    int dealt, turn, last, over, clubs[4]; /* last: the side that captured last, -1 none */
} position_t;

typedef struct {
    mask_t hands, table; /* the key: every hand's cards together (above them, with more than two
                            sides, sides 1-3's clubs), and the table */
    uint64_t best;       /* the best move found here, 0 when none */
    uint32_t small;      /* the key's small fields (bits 0-14), the cards left to play (16-23), the search (24-31) */
    int16_t lower, upper;
} entry_t;

typedef struct {
    int players, first, compulsory, most_clubs;
    int sides, me, weight; /* me: side 0 with two sides, else the side searched for; weight: sides - 1 */
    int side_of[4], sur_ok[4], last_deal_sur[4];
    uint8_t deck[52];
    mask_t pack_after[53]; /* the cards still in the pack once `dealt` are out */
    entry_t *entries;      /* NULL: no table */
    uint64_t entry_mask;
    uint32_t search_tag;   /* this search's number in bits 24-31: entries with another are empty */
    uint64_t nodes, node_limit;
    int horizon; /* 0: search to the round's end; else stop once more than this many cards are dealt */
    int error; /* 1: too many moves at a node, 2: the node limit */
    uint64_t moves[MAX_PLIES][MAX_NODE_MOVES];
} solver_t;

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

/* The table is kept from one search to the next (allocating and clearing it would cost more than
 * a whole deal's search); each search tags its entries, and the table is cleared once every 255. */
static entry_t *kept_entries;
static int kept_bits;
static uint32_t last_tag;

static int take_table(solver_t *S, int table_bits) {
    S->entries = NULL;
    S->entry_mask = 0;
    S->search_tag = 0;
    if (table_bits <= 0) return 0;
    size_t count = (size_t)1 << table_bits;
    if (table_bits != kept_bits) {
        free(kept_entries);
        kept_bits = 0;
        kept_entries = calloc(count, sizeof(entry_t));
        if (!kept_entries) return -1;
        kept_bits = table_bits;
        last_tag = 0;
    }
    last_tag = (last_tag + 1) & 0xFF;
    if (!last_tag) {
        memset(kept_entries, 0, count * sizeof(entry_t));
        last_tag = 1;
    }
    S->entries = kept_entries;
    S->entry_mask = count - 1;
    S->search_tag = last_tag << 24;
    return 0;
}

/* The pack's order, from round r. */
static void solver_take_deck(solver_t *S, const round_t *r) {
    memcpy(S->deck, r->deck, 52);
    S->pack_after[52] = 0;
    for (int i = 51; i >= 0; i--) S->pack_after[i] = S->pack_after[i + 1] | 1ULL << r->deck[i];
}

/* `me`: the side searched for when there are more than two (ignored with two). */
static int solver_init(solver_t *S, const round_t *r, int sides, int me, int most_clubs, int table_bits) {
    S->players = r->players;
    S->first = r->first;
    S->compulsory = r->compulsory;
    S->most_clubs = most_clubs;
    S->sides = sides;
    S->me = sides == 2 ? 0 : me;
    S->weight = sides - 1;
    for (int i = 0; i < 4; i++) S->side_of[i] = r->side_of[i];
    for (int i = 0; i < 4; i++) {
        S->sur_ok[i] = r->sur_ok[i];
        S->last_deal_sur[i] = r->last_deal_sur[i];
    }
    solver_take_deck(S, r);
    S->nodes = 0;
    S->error = 0;
    S->horizon = 0;
    return take_table(S, table_bits);
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
    for (int side = 0; side < 4; side++) p.clubs[side] = __builtin_popcountll(r->captured[side] & CLUB_CARDS);
    return p;
}

/* 0 for me's coalition, 1 for the others'; with two sides, the side itself. */
static inline int coalition(const solver_t *S, int side) { return side != S->me; }

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
        p->clubs[side] += __builtin_popcountll(taken & CLUB_CARDS);
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

/* At the round's end: the sweep of the table to the last capturer, and Haft Khaj; for the side
 * whose turn it would be. */
static int final_value(const solver_t *S, const position_t *p) {
    int clubs[4], points[4] = {0};
    memcpy(clubs, p->clubs, sizeof(clubs));
    if (p->last >= 0) {
        points[p->last] += card_points(p->table);
        clubs[p->last] += __builtin_popcountll(p->table & CLUB_CARDS);
    }
    add_haft_khaj(S, clubs, points);
    int value = margin(S, points);
    return coalition(S, S->side_of[p->turn]) == 0 ? value : -value;
}

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
    if (sweeping && (p->dealt < 52 ? S->sur_ok : S->last_deal_sur)[side]) {
        mask_t pool = S->pack_after[S->horizon];
        sur = chance_of_any(__builtin_popcountll(pool), __builtin_popcountll(pool & sweeping), 4) *
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

/* 0-13: side 0's clubs while Haft Khaj is open; 14 or 15 once a side holds 7 (it is then decided
 * both ways of scoring it, since the other side can have at most 6). */
static int club_state(const position_t *p) {
    if (p->clubs[0] >= HAFT_KHAJ_CLUBS) return 14;
    if (p->clubs[1] >= HAFT_KHAJ_CLUBS) return 15;
    return p->clubs[0];
}

/* Cheap bounds on the value: each coalition could win every point card still in play, a Sur at
 * each of its plays where one could count, Haft Khaj while open (and, at a deal horizon, the Sur
 * expected after it: at most 5 and the points then on the table); scaled by what its points are
 * worth to it. */
static void value_bounds(const solver_t *S, const position_t *p, int *lower, int *upper) {
    mask_t hands = p->hands[0] | p->hands[1] | p->hands[2] | p->hands[3];
    mask_t cards = hands | p->table | (S->horizon ? 0 : S->pack_after[p->dealt]);
    int points = card_points(cards);
    int later_deals = S->horizon ? 0 : (52 - p->dealt) / (4 * S->players);
    int gains[2] = {points, points};
    if (S->horizon) gains[0] = gains[1] = points + SUR_POINTS + points;
    for (int seat = 0; seat < S->players; seat++) {
        int side = S->side_of[seat], now = __builtin_popcountll(p->hands[seat]);
        int surs = now * (p->dealt < 52 ? S->sur_ok : S->last_deal_sur)[side];
        if (later_deals) surs += 4 * (later_deals - 1) * S->sur_ok[side] + 4 * S->last_deal_sur[side];
        gains[coalition(S, side)] += SUR_POINTS * surs;
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

/* -- the transposition table ----------------------------------------------------------------- */

#define KEY_BITS 0xFF007FFFu /* the small fields and the search's tag */
#define CARD_BITS ((1ULL << 52) - 1)

static inline uint32_t small_key(const solver_t *S, const position_t *p) {
    int clubs = S->sides == 2 ? club_state(p) : p->clubs[0];
    return (uint32_t)(p->dealt | p->turn << 6 | (p->last + 1) << 8 | clubs << 11) | S->search_tag;
}

/* The key's cards: every hand's together, and above them sides 1-3's clubs when there are more
 * than two sides. */
static inline mask_t hands_key(const solver_t *S, const position_t *p) {
    mask_t hands = p->hands[0] | p->hands[1] | p->hands[2] | p->hands[3];
    if (S->sides > 2) hands |= (mask_t)(p->clubs[1] | p->clubs[2] << 4 | p->clubs[3] << 8) << 52;
    return hands;
}

static entry_t *find_entry(const solver_t *S, mask_t hands, const position_t *p, uint32_t small) {
    uint64_t h = hands * 0x9E3779B97F4A7C15ULL ^ p->table * 0xC2B2AE3D27D4EB4FULL ^ small * 0x165667B19E3779F9ULL;
    h ^= h >> 31;
    entry_t *bucket = S->entries + ((h & S->entry_mask) & ~1ULL);
    for (int i = 0; i < 2; i++) {
        entry_t *e = bucket + i;
        if (e->hands == hands && e->table == p->table && (e->small & KEY_BITS) == small) return e;
    }
    return NULL;
}

static void store_entry(solver_t *S, mask_t hands, const position_t *p, uint32_t small, int lower, int upper,
                        uint64_t best) {
    uint64_t h = hands * 0x9E3779B97F4A7C15ULL ^ p->table * 0xC2B2AE3D27D4EB4FULL ^ small * 0x165667B19E3779F9ULL;
    h ^= h >> 31;
    entry_t *bucket = S->entries + ((h & S->entry_mask) & ~1ULL);
    uint32_t left = (uint32_t)(__builtin_popcountll(hands & CARD_BITS) + 52 - p->dealt);
    entry_t *e = NULL;
    for (int i = 0; i < 2 && !e; i++)
        if (bucket[i].hands == hands && bucket[i].table == p->table && (bucket[i].small & KEY_BITS) == small)
            e = bucket + i;
    if (e) {
        /* every stored bound is a true bound of the same position: keep the tightest */
        if (e->lower > lower) lower = e->lower;
        if (e->upper < upper) upper = e->upper;
        if (!best) best = e->best;
    } else {
        /* replace an entry of an earlier search, else the one with the fewer cards left to play
         * (the cheaper one to find again) */
        uint32_t tag = S->search_tag;
        if ((bucket[0].small & 0xFF000000u) != tag)
            e = bucket;
        else if ((bucket[1].small & 0xFF000000u) != tag)
            e = bucket + 1;
        else
            e = (bucket[0].small >> 16 & 0xFF) <= (bucket[1].small >> 16 & 0xFF) ? bucket : bucket + 1;
    }
    e->hands = hands;
    e->table = p->table;
    e->small = small | left << 16;
    e->lower = (int16_t)lower;
    e->upper = (int16_t)upper;
    e->best = best;
}

/* -- moves ----------------------------------------------------------------------------------- */

/* A move's place in the search order: captures by what they take (a Sur first), then the cards
 * laid down, the least valuable first. */
static int move_priority(const solver_t *S, const position_t *p, uint64_t code) {
    int card = (int)(code & 63);
    mask_t take = code >> 6;
    if (take) {
        int sur = makes_sur(p->table ^ take, card, S->side_of[p->turn], p->dealt, S->sur_ok, S->last_deal_sur);
        return 1000 + 100 * sur + 10 * card_points(take | 1ULL << card) +
               __builtin_popcountll((take | 1ULL << card) & CLUB_CARDS) * 2 + __builtin_popcountll(take);
    }
    return 500 - 10 * card_points(1ULL << card) - 3 * (int)((card & 3) == 0) - 20 * ((card >> 2) == JACK);
}

/* The moves to search at a node: the legal ones, one of each equivalent set, best first. */
static int ordered_moves(solver_t *S, const position_t *p, uint64_t *codes, uint64_t hint) {
    int count = hand_moves(p->hands[p->turn], p->table, S->compulsory, codes, MAX_NODE_MOVES);
    if (count < 0) {
        S->error = 1;
        return 0;
    }
    uint64_t signatures[MAX_NODE_MOVES];
    int priorities[MAX_NODE_MOVES];
    int kept = 0;
    for (int i = 0; i < count; i++) {
        uint64_t signature = move_signature(codes[i]);
        int seen = 0;
        for (int j = 0; j < kept && !seen; j++) seen = signatures[j] == signature;
        if (seen) continue;
        signatures[kept] = signature;
        codes[kept] = codes[i];
        priorities[kept] = codes[i] == hint ? 1 << 20 : move_priority(S, p, codes[i]);
        kept++;
    }
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

/* -- the search ------------------------------------------------------------------------------ */

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
    if (p->over) return final_value(S, p);
    if (S->horizon && p->dealt > S->horizon) return horizon_value(S, p);
    if (S->error || (S->node_limit && S->nodes > S->node_limit) || ply >= MAX_PLIES) {
        if (!S->error) S->error = 2;
        return 0;
    }
    int lower, upper;
    value_bounds(S, p, &lower, &upper);
    if (upper <= alpha) return upper;
    if (lower >= beta) return lower;
    mask_t hands = hands_key(S, p);
    uint32_t small = small_key(S, p);
    uint64_t hint = 0;
    if (S->entries) {
        entry_t *e = find_entry(S, hands, p, small);
        if (e) {
            if (e->lower >= beta) return e->lower;
            if (e->upper <= alpha) return e->upper;
            if (e->lower == e->upper) return e->lower;
            if (e->lower > lower) lower = e->lower;
            if (e->upper < upper) upper = e->upper;
            hint = e->best;
        }
    }
    if (lower > alpha) alpha = lower;
    if (upper < beta) beta = upper;
    uint64_t *codes = S->moves[ply];
    int count = ordered_moves(S, p, codes, hint);
    int best = -UNBOUNDED, floor = alpha;
    uint64_t best_code = 0;
    for (int i = 0; i < count; i++) {
        position_t child = *p;
        int gain = solver_play(S, &child, codes[i]);
        int value;
        if (i == 0) {
            value = child_search(S, p, &child, gain, floor, beta, ply + 1);
        } else {
            value = child_search(S, p, &child, gain, floor, floor + 1, ply + 1);
            if (value > floor && value < beta) value = child_search(S, p, &child, gain, value - 1, beta, ply + 1);
        }
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
            store_entry(S, hands, p, small, -UNBOUNDED, best, 0);
        else if (best >= beta)
            store_entry(S, hands, p, small, best, UNBOUNDED, best_code);
        else
            store_entry(S, hands, p, small, best, best, best_code);
    }
    return best;
}

/* The exact value (the mover's side's view) by a full window. */
static int exact_value(solver_t *S, const position_t *p) { return search(S, p, -UNBOUNDED, UNBOUNDED, 0); }

/* Every legal move at the root and its exact value for the mover's side (what it takes, and the
 * rest), equivalent moves searched once; the number of moves (S->error set on failure). */
static int root_values(solver_t *S, const position_t *root, int compulsory, uint64_t *codes, int *values) {
    int count = hand_moves(root->hands[root->turn], root->table, compulsory, codes, MAX_NODE_MOVES);
    if (count < 0) {
        S->error = 1;
        return 0;
    }
    for (int i = 0; i < count && !S->error; i++) {
        uint64_t signature = move_signature(codes[i]);
        int j = 0;
        while (j < i && move_signature(codes[j]) != signature) j++;
        if (j < i) {
            values[i] = values[j];
        } else {
            position_t child = *root;
            int gain = solver_play(S, &child, codes[i]);
            values[i] = combine(S, root, &child, gain, exact_value(S, &child));
        }
    }
    return count;
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
    int count = hand_moves(p->hands[p->turn], p->table, S->compulsory, codes, MAX_NODE_MOVES);
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

/* -- what the others' plays say about their hands --------------------------------------------- */

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
static double plays_likelihood(const round_t *deal, const evidence_t *evidence, int count, double temper,
                               double gift) {
    double shortfall = 0;
    static uint64_t codes[MAX_NODE_MOVES];
    for (int i = 0; i < count; i++) {
        const evidence_t *e = evidence + i;
        mask_t hand = deal->hands[e->seat] | e->later | 1ULL << (e->code & 63);
        int n = hand_moves(hand, e->table, deal->compulsory, codes, MAX_NODE_MOVES);
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
    static uint64_t codes[MAX_NODE_MOVES];
    static int values[MAX_NODE_MOVES];
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
