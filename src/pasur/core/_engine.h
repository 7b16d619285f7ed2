/* The rules of a round in C, mirroring pasur/core/captures.py and Round.play_code in
 * pasur/core/game.py (the readable reference): captures, dealing, a play, the playout policies.
 * Included by _native.c (one translation unit); every function is static, and none keeps state
 * of its own: what a call needs beyond its stack is passed in (scratch_t). */
#ifndef PASUR_ENGINE_H
#define PASUR_ENGINE_H

#include <stdint.h>
#include <string.h>

#include "_bits.h"


#define JACK 10
#define QUEEN 11
#define KING 12
#define LOW_NUMERALS ((1ULL << 20) - 1)
#define NUMERALS ((1ULL << 40) - 1)
#define JACKS (0xFULL << (JACK * 4))
#define NUMERALS_AND_JACKS (NUMERALS | JACKS)
#define MAX_PARTIAL 4096 /* subsets of the 20 low cards worth 10 or less: 3,451 at most */
#define MAX_CODES 32768

typedef uint64_t mask_t;

static inline int lowest(mask_t m) { return bits_lowest(m); }
static inline mask_t up_to(int t) { return t >= 13 ? ~0ULL : ((1ULL << (4 * t)) - 1); }

/* -- captures (captures.py) ------------------------------------------------------------------ */

typedef struct {
    mask_t subset;
    int total;
} partial_t;

/* The space a caller lends for listing moves (about 1 MB, too large for a thread's stack). The
 * caller owns it: two calls running at once never share one. */
typedef struct {
    partial_t partial[MAX_PARTIAL];
    mask_t found[11][MAX_PARTIAL]; /* found[s]: subsets summing to s, in the order _subset_sums finds them */
    mask_t takes[MAX_CODES];
    uint64_t codes[MAX_CODES];
} scratch_t;

/* The subsets of `table`'s low cards (values up to 5) summing to each value up to 10, into
 * s->found, their numbers into found_n, in the order captures._subset_sums finds them: a table's
 * part of every numeral's takes, found once for all the numerals of a hand. */
static int subset_sums(scratch_t *s, mask_t table, int *found_n) {
    partial_t *partial = s->partial;
    mask_t (*found)[MAX_PARTIAL] = s->found;
    memset(found_n, 0, 11 * sizeof(*found_n));
    int n = 1;
    partial[0].subset = 0;
    partial[0].total = 0;
    found[0][found_n[0]++] = 0;
    /* _subset_sums walks every low card of the table (values up to 5), not only those <= target */
    mask_t walk = table & LOW_NUMERALS;
    while (walk) {
        mask_t bit = walk & -walk;
        walk ^= bit;
        int v = (lowest(bit) >> 2) + 1;
        int before = n;
        for (int i = 0; i < before; i++) {
            int total = partial[i].total + v;
            if (total <= 10) {
                if (n >= MAX_PARTIAL) return -1;
                partial[n].subset = partial[i].subset | bit;
                partial[n].total = total;
                found[total][found_n[total]++] = partial[n].subset;
                n++;
            }
        }
    }
    return 0;
}

/* Append to takes[*count] every take of a numeral of value `value` on `table`, in the order
 * captures._compute_takes lists them, from the table's subset sums (subset_sums). */
static int numeral_takes(const scratch_t *s, mask_t table, int value, const int *found_n, mask_t *takes, int *count,
                         int limit) {
    int target = 11 - value;
    const mask_t (*found)[MAX_PARTIAL] = s->found;
    for (int i = 0; i < found_n[target]; i++) {
        if (*count >= limit) return -1;
        takes[(*count)++] = found[target][i];
    }
    mask_t high = table & up_to(target) & ~LOW_NUMERALS;
    while (high) {
        mask_t bit = high & -high;
        high ^= bit;
        int rest = target - ((lowest(bit) >> 2) + 1);
        for (int i = 0; i < found_n[rest]; i++) {
            if (*count >= limit) return -1;
            takes[(*count)++] = bit | found[rest][i];
        }
    }
    return 0;
}

/* Append the legal move codes of `card` on `table`: its captures, then laying it down when it
 * has none or capture is not compulsory. A numeral's takes come from the table's subset sums,
 * already in s->found and found_n (subset_sums). */
static int summed_card_moves(scratch_t *s, mask_t table, int card, int compulsory, const int *found_n, uint64_t *codes,
                             int *count, int limit) {
    mask_t *takes = s->takes;
    int n = 0;
    int rank = card >> 2;
    if (rank < JACK) {
        if (numeral_takes(s, table, rank + 1, found_n, takes, &n, MAX_CODES) < 0) return -1;
    } else if (rank == JACK) {
        mask_t taken = table & NUMERALS_AND_JACKS;
        if (taken) takes[n++] = taken;
    } else {
        mask_t same = table & (0xFULL << (rank * 4));
        while (same) {
            mask_t bit = same & -same;
            same ^= bit;
            takes[n++] = bit;
        }
    }
    for (int i = 0; i < n; i++) {
        if (*count >= limit) return -1;
        codes[(*count)++] = (uint64_t)card | takes[i] << 6;
    }
    if (!n || !compulsory) {
        if (*count >= limit) return -1;
        codes[(*count)++] = (uint64_t)card;
    }
    return 0;
}

/* Append the legal move codes of `card` on `table` (card_moves). */
static int card_moves(scratch_t *s, mask_t table, int card, int compulsory, uint64_t *codes, int *count, int limit) {
    int found_n[11] = {0};
    if (card >> 2 < JACK && subset_sums(s, table, found_n) < 0) return -1;
    return summed_card_moves(s, table, card, compulsory, found_n, codes, count, limit);
}

/* The legal move codes of `hand` on `table` into codes (at most `limit`); their count, or -1 when
 * there are more. */
static int hand_moves(scratch_t *s, mask_t hand, mask_t table, int compulsory, uint64_t *codes, int limit) {
    int count = 0, found_n[11] = {0};
    if ((hand & NUMERALS) && subset_sums(s, table, found_n) < 0) return -1;
    for (; hand; hand &= hand - 1)
        if (summed_card_moves(s, table, lowest(hand), compulsory, found_n, codes, &count, limit) < 0) return -1;
    return count;
}

/* -- a round (game.Round) -------------------------------------------------------------------- */

typedef struct {
    int players, compulsory, first;
    int side_of[4], sur_ok[4], last_deal_sur[4];
    uint8_t deck[52];
    mask_t hands[4], table, captured[4];
    int surs[4];
    int last_capturer, turn, dealt, deal, over;
} round_t;

/* Deal 4 cards to each hand from deck[*dealt], the first player first. */
static void deal_from(const uint8_t *deck, int *dealt, mask_t *hands, int first, int players) {
    for (int offset = 0; offset < players; offset++) {
        mask_t hand = 0;
        for (int i = 0; i < 4; i++) hand |= 1ULL << deck[*dealt + i];
        hands[(first + offset) % players] = hand;
        *dealt += 4;
    }
}

static void deal_hands(round_t *r) { deal_from(r->deck, &r->dealt, r->hands, r->first, r->players); }

/* A Sur (scoring.clears_table and sur_counts): a capture by a card that is not a Jack leaves the
 * table empty, for a side whose Surs count in this deal (the last deal, or an earlier one). */
static inline int makes_sur(mask_t table_left, int card, int side, int dealt, const int *sur_ok, const int *last_deal_sur) {
    return !table_left && (card >> 2) != JACK && (dealt < 52 ? sur_ok : last_deal_sur)[side];
}

static void play_code(round_t *r, uint64_t code) {
    int card = (int)(code & 63);
    mask_t take = code >> 6;
    int seat = r->turn;
    r->hands[seat] ^= 1ULL << card;
    if (take) {
        mask_t table = r->table ^ take;
        r->table = table;
        int side = r->side_of[seat];
        r->captured[side] |= take | 1ULL << card;
        r->last_capturer = side;
        if (makes_sur(table, card, side, r->dealt, r->sur_ok, r->last_deal_sur)) r->surs[side]++;
    } else {
        r->table |= 1ULL << card;
    }
    seat += 1;
    if (seat == r->players) seat = 0;
    r->turn = seat;
    if (!r->hands[seat]) {
        if (r->dealt < 52) {
            deal_hands(r);
            r->deal += 1;
        } else {
            if (r->last_capturer >= 0) {
                r->captured[r->last_capturer] |= r->table;
                r->table = 0;
            }
            r->over = 1;
        }
    }
}

/* splitmix64: the playouts' generator (its stream differs from Python's random). */
static inline uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The cards `seat` cannot see (the other hands and the pack) into cards[], in card order, so that
 * a deal of them depends on what is unseen only; their count. */
static int unseen_cards(const round_t *r, int seat, uint8_t *cards) {
    mask_t unseen = 0;
    for (int other = 0; other < r->players; other++)
        if (other != seat) unseen |= r->hands[other];
    for (int i = r->dealt; i < 52; i++) unseen |= 1ULL << r->deck[i];
    int count = 0;
    for (; unseen; unseen &= unseen - 1) cards[count++] = (uint8_t)lowest(unseen);
    return count;
}

/* Deal the unseen cards, shuffled, back: to the other hands in seat order (each keeping its size),
 * the rest to the pack (deal.share_unseen). */
static void deal_unseen_cards(round_t *r, int seat, const uint8_t *cards) {
    int next = 0;
    for (int other = 0; other < r->players; other++) {
        if (other == seat) continue;
        int size = bits_count(r->hands[other]);
        r->hands[other] = 0;
        for (int k = 0; k < size; k++) r->hands[other] |= 1ULL << cards[next++];
    }
    for (int i = r->dealt; i < 52; i++) r->deck[i] = cards[next++];
}

/* Deal again at random every card `seat` cannot see (the other hands and the pack), each hand
 * keeping its size: Round.reshuffle_unseen with this generator. */
static void reshuffle_unseen(round_t *r, int seat, uint64_t *rng) {
    uint8_t cards[52];
    int count = unseen_cards(r, seat, cards);
    for (int i = count - 1; i > 0; i--) {
        int j = (int)(next_random(rng) % (uint64_t)(i + 1));
        uint8_t card = cards[i];
        cards[i] = cards[j];
        cards[j] = card;
    }
    deal_unseen_cards(r, seat, cards);
}

#define ACES 0xFULL
#define TWO_OF_CLUBS 4
#define TEN_OF_DIAMONDS 37

#define CLUB_CARDS 0x1111111111111ULL

/* How many of a nibble's 4 bits are set (n < 16): the counts of all 16, a nibble each. */
static inline int nibble_bits(mask_t n) { return (int)(0x4332322132212110ULL >> (4 * n) & 0xF); }

/* scoring.card_points: the Aces and the Jacks are one nibble each. */
static inline int card_points(mask_t cards) {
    return nibble_bits(cards & ACES) + nibble_bits(cards >> (4 * JACK) & 0xF) + 2 * (int)(cards >> TWO_OF_CLUBS & 1) +
           3 * (int)(cards >> TEN_OF_DIAMONDS & 1);
}

/* How many clubs: they lie one a nibble, so one multiplication sums them into the top nibble
 * (at most 13, so no nibble carries). */
static inline int club_count(mask_t cards) { return (int)((cards & CLUB_CARDS) * 0x1111111111111111ULL >> 60); }

static inline double uniform(uint64_t *rng) { return (double)(next_random(rng) >> 11) * (1.0 / 9007199254740992.0); }

/* bots/playout.playout: with probability `greedy` the capture taking the most points (a Sur
 * counting 5; a random move when nothing can be taken), otherwise a uniformly random move. */
static int play_mixed(scratch_t *s, round_t *r, uint64_t *rng, double greedy, uint64_t *history, int *played) {
    uint64_t *codes = s->codes;
    while (!r->over) {
        int count = hand_moves(s, r->hands[r->turn], r->table, r->compulsory, codes, MAX_CODES);
        if (count <= 0) return -1;
        uint64_t chosen;
        if (count > 1 && uniform(rng) < greedy) {
            mask_t table = r->table;
            chosen = codes[(int)(uniform(rng) * count)];
            double best_value = 0.0;
            for (int i = 0; i < count; i++) {
                uint64_t code = codes[i];
                mask_t take = code >> 6;
                if (!take) continue;
                int card = (int)(code & 63);
                double value = card_points(take | 1ULL << card) + 0.3 * bits_count(take);
                if (take == table && (card >> 2) != JACK) value += 5;
                if (value > best_value) {
                    chosen = code;
                    best_value = value;
                }
            }
        } else {
            chosen = codes[(int)(uniform(rng) * count)];
        }
        if (history && *played < 64) history[*played] = chosen;
        if (played) (*played)++;
        play_code(r, chosen);
    }
    return 0;
}

#endif
