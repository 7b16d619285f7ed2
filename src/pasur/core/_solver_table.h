/* The solver's transposition table (see _solver.h): a four-way bucketed table of bounds, its size
 * an option, owned by the caller (table_t) and tagged search by search. Included by _native.c
 * after _solver.h. */
#ifndef PASUR_SOLVER_TABLE_H
#define PASUR_SOLVER_TABLE_H

#include "_solver.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

/* Zeroed room for `count` entries in t, whose pages are touched only when a search reaches them.
 * On Linux it is mapped from a 2 MB boundary and asked to be huge pages, so that the first part a
 * search uses lies in one page (a probe is otherwise a TLB miss as well as a cache miss). */
static entry_t *new_entries(table_t *t, size_t count) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    size_t huge = (size_t)2 << 20, bytes = count * sizeof(entry_t), size = bytes + huge;
    void *block = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (block == MAP_FAILED) return NULL;
    uintptr_t start = ((uintptr_t)block + huge - 1) & ~(uintptr_t)(huge - 1);
    madvise((void *)start, (bytes + huge - 1) & ~(huge - 1), MADV_HUGEPAGE);
    t->block = block;
    t->block_size = size;
    return (entry_t *)start;
#else
    t->block = calloc(count, sizeof(entry_t));
    return t->block;
#endif
}

/* Give t's entries back. */
static void free_entries(table_t *t) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (t->block) munmap(t->block, t->block_size);
#else
    free(t->block);
#endif
    t->block = NULL;
    t->entries = NULL;
}

#define WAYS 4 /* entries a bucket: a position's entries for other counts of clubs lie in one (look_up) */

#ifndef FIRST_ENTRIES
#define FIRST_ENTRIES ((size_t)1 << 15)
#endif

/* Point S at its owner's table, sized 2**table_bits entries (0: none), for a new search. */
static int take_table(solver_t *S, int table_bits) {
    table_t *t = S->table;
    S->entries = NULL;
    S->entry_mask = 0;
    S->search_tag = 0;
    if (table_bits <= 0) return 0;
    while ((1 << table_bits) < WAYS) table_bits++; /* one bucket at least */
    size_t count = (size_t)1 << table_bits;
    if (table_bits != t->bits || !t->entries) {
        free_entries(t);
        t->bits = 0;
        t->entries = new_entries(t, count);
        if (!t->entries) return -1;
        t->bits = table_bits;
        t->last_tag = 0;
    }
    t->last_tag = (t->last_tag + 1) & 0xFF;
    if (!t->last_tag) {
        memset(t->entries, 0, count * sizeof(entry_t));
        t->last_tag = 1;
    }
    S->entries = t->entries;
    S->full_mask = count - 1;
    S->entry_mask = (count < FIRST_ENTRIES ? count : FIRST_ENTRIES) - 1;
    S->stored = 0;
    S->search_tag = t->last_tag << 24;
    return 0;
}

/* Whether a side holds 7 clubs (Haft Khaj is then decided, scored either way). */
static inline int haft_khaj_decided(const solver_t *S, const position_t *p) {
    if (S->sides == 2) return (p->clubs[0] >= HAFT_KHAJ_CLUBS) | (p->clubs[1] >= HAFT_KHAJ_CLUBS);
    for (int side = 0; side < S->sides; side++)
        if (p->clubs[side] >= HAFT_KHAJ_CLUBS) return 1;
    return 0;
}

#define FIELD_BITS 0x00007FFFu /* in an entry: the key's small fields */
#define TAG_BITS 0xFF000000u   /* in an entry: the search's tag */
#define KEY_BITS (FIELD_BITS | TAG_BITS)
#define CARD_BITS ((1ULL << 52) - 1)

/* The key's small fields: the cards dealt, the turn and, with two sides, whether Haft Khaj is
 * decided (the table's key merges clubs with the other suits once it is); with more sides the
 * side that captured last and side 0's clubs. With two, those two are kept beside the key (an
 * entry's bounds speak for other counts and other last capturers too: look_up()). An entry holds
 * them with the search's tag above; the tag is no part of where the entry lies (entry_hash()). */
static inline uint32_t small_key(const solver_t *S, const position_t *p) {
    if (S->sides == 2) return (uint32_t)(p->dealt | p->turn << 6 | haft_khaj_decided(S, p) << 11);
    return (uint32_t)(p->dealt | p->turn << 6 | (p->last + 1) << 8 | p->clubs[0] << 11);
}

/* With two sides, how the side that captured last stands for side 0 (who takes the table left at
 * the round's end): 0 side 1, 1 nobody yet, 2 side 0; its value only grows with it. With more
 * sides 0 (the last capturer is in the key). */
static inline int sweep_standing(const solver_t *S, const position_t *p) {
    return S->sides > 2 ? 0 : p->last == 0 ? 2 : p->last < 0 ? 1 : 0;
}

/* Where side 0 stands for Haft Khaj, kept beside the key: with two sides 0 once side 1 holds 7
 * clubs and 15 once side 0 does (the clubs then matter no more), else side 0's clubs and one; it
 * only grows with side 0's clubs, as side 0's value does (look_up()). With more sides, side 0's
 * clubs. */
static inline int club_standing(const solver_t *S, const position_t *p) {
    if (S->sides > 2) return p->clubs[0];
    if (p->clubs[0] >= HAFT_KHAJ_CLUBS) return 15;
    if (p->clubs[1] >= HAFT_KHAJ_CLUBS) return 0;
    return p->clubs[0] + 1;
}

/* Side 0's standing at an entry's position (club_standing()), and its sweep standing
 * (sweep_standing()). */
static inline int entry_standing(const entry_t *e) { return (int)(e->small >> 16 & 0xF); }
static inline int entry_sweep(const entry_t *e) { return (int)(e->small >> 20 & 0x3); }
/* Whether an entry's bounds hold whoever captured last (bit 22: sweep_free in the search). */
static inline int entry_sweep_free(const entry_t *e) { return (int)(e->small >> 22 & 1); }

/* How many cards are left to play at an entry's position (in the hands and the pack). */
static inline int cards_left(const entry_t *e) { return bits_count(e->hands & CARD_BITS) + 52 - (int)(e->small & 63); }

/* Whether entry e is this search's, of the key (hands, table, small). */
static inline int entry_is(const solver_t *S, const entry_t *e, mask_t hands, mask_t table, uint32_t small) {
    return e->hands == hands && e->table == table && (e->small & KEY_BITS) == (small | S->search_tag);
}

/* The key's cards: every hand's together, and above them sides 1-3's clubs when there are more
 * than two sides. */
static inline mask_t hands_key(const solver_t *S, const position_t *p) {
    mask_t hands = p->hands[0] | p->hands[1] | p->hands[2] | p->hands[3];
    if (S->sides > 2) hands |= (mask_t)(p->clubs[1] | p->clubs[2] << 4 | p->clubs[3] << 8) << 52;
    return hands;
}

/* Where the key's entries lie: by the key alone, not the search's tag, so that a position's bucket,
 * and so the nodes a search takes, do not depend on how many searches the table served before. */
static inline uint64_t entry_hash(mask_t hands, mask_t table, uint32_t small) {
    uint64_t h = hands * 0x9E3779B97F4A7C15ULL ^ table * 0xC2B2AE3D27D4EB4FULL ^ small * 0x165667B19E3779F9ULL;
    return h ^ h >> 31;
}

static inline entry_t *bucket_of(const solver_t *S, mask_t hands, mask_t table, uint32_t small) {
    return S->entries + ((entry_hash(hands, table, small) & S->entry_mask) & ~(uint64_t)(WAYS - 1));
}

/* Ask for a bucket's cache line ahead of its probe (a hint; nothing where the compiler has none). */
static inline void prefetch_bucket(const solver_t *S, mask_t hands, mask_t table, uint32_t small) {
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(bucket_of(S, hands, table, small));
#else
    (void)S, (void)hands, (void)table, (void)small;
#endif
}

/* Double the part of the table this search uses, moving its entries to where the larger part
 * hashes them (each bucket's entries stay in it or move to the one `size` above, which no entry
 * of this search uses yet). */
static void grow_table(solver_t *S) {
    uint64_t size = S->entry_mask + 1;
    S->entry_mask = 2 * size - 1;
    for (uint64_t b = 0; b < size; b += WAYS) {
        entry_t *moved = S->entries + b + size;
        for (int i = 0; i < WAYS; i++) moved[i].small = 0;
        for (int i = 0; i < WAYS; i++) {
            entry_t *e = S->entries + b + i;
            if ((e->small & TAG_BITS) != S->search_tag) continue;
            if (bucket_of(S, e->hands, e->table, e->small & FIELD_BITS) == S->entries + b) continue;
            *moved++ = *e;
            e->small = 0;
        }
    }
}

/* The table as the key holds it: cards that nothing tells apart (_solver_order.h's classes) told
 * apart on it by their number alone, each class's cards counted into its lowest suits. Once Haft
 * Khaj is decided (`clubs_decided`) a club scores as its rank's other suits do, the 2 of clubs
 * (2 points) and the 10 of diamonds (3) aside. */
static inline mask_t table_key(mask_t table, int clubs_decided) {
    const mask_t low = 0x1111111111111ULL, tens = 0xFULL << 36, twos = 0xFULL << 4;
    if (!clubs_decided) { /* each rank's suits but the club (the 10s': but the club and the diamond) */
        mask_t kept = table & (CLUB_CARDS | 1ULL << TEN_OF_DIAMONDS), group = table & ~kept;
        mask_t count = (group >> 1 & low) + (group >> 2 & low) + (group >> 3 & low);
        mask_t one = (count | count >> 1) & low, two = count >> 1 & low, three = count & count >> 1 & low;
        mask_t counted = one << 1 | two << 2 | three << 3;
        return kept | (counted & ~tens) | ((one << 2 | two << 3) & tens);
    }
    /* every rank's four suits but the 2 of clubs and the 10 of diamonds */
    mask_t kept = table & (1ULL << TWO_OF_CLUBS | 1ULL << TEN_OF_DIAMONDS), group = table & ~kept;
    mask_t count = (group & low) + (group >> 1 & low) + (group >> 2 & low) + (group >> 3 & low);
    mask_t c0 = count & low, c1 = count >> 1 & low, c2 = count >> 2 & low;
    mask_t one = c0 | c1 | c2, two = c1 | c2, three = c2 | (c1 & c0), four = c2;
    mask_t counted = one | two << 1 | three << 2 | four << 3;
    mask_t twos_counted = (one << 1 | two << 2 | three << 3) & twos, tens_counted = (one | two << 2 | three << 3) & tens;
    return kept | (counted & ~(tens | twos)) | twos_counted | tens_counted;
}

/* The table as it matters for the rest of the round. A card no card left to play (in a hand or the
 * pack) can ever take stays on the table to the round's end: a numeral once no Jack is left and no
 * numeral low enough to make 11 with it, and (without compulsory capture) a Queen or King once no
 * card of its rank is left. Such a card that scores nothing at the end (not an Ace, the 2 of clubs
 * or the 10 of diamonds, nor a club while Haft Khaj is open) matters only by being there, which
 * keeps the table from being swept for a Sur: these are set aside, one of them kept while a Sur
 * can still count. The faces: 30% fewer nodes without compulsory capture, where they pile up (with
 * it they leave the table in pairs, and the check cost 1.5% for nothing); the numerals: 6% fewer at
 * four players, 1.4% at two. */
static inline mask_t live_table(const solver_t *S, const position_t *p) {
    const mask_t plain_faces = 0xEEULL << (4 * QUEEN);
    mask_t table = p->table, dead = 0;
    mask_t left = p->hands[0] | p->hands[1] | p->hands[2] | p->hands[3] | S->pack_after[p->dealt];
    if (!(left & JACKS) && (table & NUMERALS & ~ACES)) {
        mask_t numerals = left & NUMERALS;
        int first_dead = numerals ? 10 - (lowest(numerals) >> 2) : 0; /* the lowest rank none of them can take */
        if (first_dead < 10) {
            dead = table & NUMERALS & ~ACES & (~0ULL << (4 * first_dead));
            dead &= ~(1ULL << TWO_OF_CLUBS | 1ULL << TEN_OF_DIAMONDS);
            if (!haft_khaj_decided(S, p)) dead &= ~CLUB_CARDS;
        }
    }
    if (!S->compulsory && (table & plain_faces)) {
        for (int rank = QUEEN; rank <= KING; rank++) {
            mask_t suits = 0xFULL << (4 * rank);
            if (!(left & suits)) dead |= table & suits & ~CLUB_CARDS;
        }
    }
    if (!dead) return table;
    table &= ~dead;
    if (surs_ahead(S, p)) table |= dead & -dead;
    return table;
}

/* Whether entry e is where a result of the position of key (hands, table, small) at `standing` and
 * `sweep` goes: that position's own, or, for a result that holds whoever captured last
 * (`sweep_free`), an entry of such results at another sweep standing. */
static inline int entry_for(const solver_t *S, const entry_t *e, mask_t hands, mask_t table, uint32_t small,
                            int standing, int sweep, int sweep_free) {
    return entry_is(S, e, hands, table, small) && entry_standing(e) == standing &&
           (entry_sweep(e) == sweep || (sweep_free && entry_sweep_free(e)));
}

/* The entry of the key (hands, table, small) where side 0 stands at `standing` and `sweep`, or
 * NULL. */
static entry_t *find_entry(const solver_t *S, mask_t hands, mask_t table, uint32_t small, int standing, int sweep) {
    entry_t *bucket = bucket_of(S, hands, table, small);
    for (int i = 0; i < WAYS; i++)
        if (entry_for(S, bucket + i, hands, table, small, standing, sweep, 0)) return bucket + i;
    return NULL;
}

/* What the table knows of a position: bounds on its value for the side to move and the best move
 * found (0: none). */
typedef struct {
    int lower, upper;
    uint64_t best;
    int lower_swept, upper_swept; /* whether the bound depends on who captured last (its entry's) */
} known_t;

/* What the table knows of the position of key (hands, table, small) where side 0 stands at
 * `standing` (club_standing()) and `sweep` (sweep_standing()). With two sides more clubs for side 0
 * can only raise its value, by at most 14 (they count for nothing but Haft Khaj, whose margin only
 * grows with them, from -7 to 7 at most), and so can a last capture of its own, which may win it
 * the table left at the end; so the entries of the same position where it stands otherwise speak
 * too. A lower bound found where the mover stood no better, and an upper bound found where it stood
 * no worse, hold here as they are; where only the clubs stood the other way, off by 14 (a lower
 * bound less 14, an upper bound plus 14). `rising` is 1 when the mover's value grows with side 0's
 * standing (the mover is side 0), -1 when it falls, 0 with more sides: then the entry of this
 * standing alone. */
static known_t look_up(const solver_t *S, mask_t hands, mask_t table, uint32_t small, int standing, int sweep,
                       int rising) {
    known_t known = {-UNBOUNDED, UNBOUNDED, 0, 0, 0};
    entry_t *bucket = bucket_of(S, hands, table, small);
    for (int i = 0; i < WAYS; i++) {
        const entry_t *e = bucket + i;
        if (!entry_is(S, e, hands, table, small)) continue;
        int swept = !entry_sweep_free(e), at = entry_standing(e), at_sweep = swept ? entry_sweep(e) : sweep;
        int here = at == standing && at_sweep == sweep;
        if (!rising && !here) continue;
        int clubs_worse = rising > 0 ? at < standing : at > standing, clubs_better = at != standing && !clubs_worse;
        int sweep_worse = rising > 0 ? at_sweep < sweep : at_sweep > sweep, sweep_better = at_sweep != sweep && !sweep_worse;
        int lower = e->lower - (clubs_better ? 2 * HAFT_KHAJ_POINTS : 0);
        int upper = e->upper + (clubs_worse ? 2 * HAFT_KHAJ_POINTS : 0);
        if (!sweep_better && lower > known.lower) {
            known.lower = lower;
            known.lower_swept = swept;
        }
        if (!sweep_worse && upper < known.upper) {
            known.upper = upper;
            known.upper_swept = swept;
        }
        if (e->best && (here || !known.best)) known.best = e->best;
    }
    return known;
}

/* The entry a search stores a position in: its own if there (*found set), else the one it
 * replaces: one of an earlier search, else the one with the fewest cards left to play (the
 * cheapest to find again). Its key is written; its values are the caller's to write. */
NODE_INLINE entry_t *claim_entry(solver_t *S, mask_t hands, mask_t table, uint32_t small, int standing, int sweep,
                                 int sweep_free, int *found) {
    if (S->stored * 4 > 3 * (S->entry_mask + 1) && S->entry_mask < S->full_mask) grow_table(S);
    entry_t *bucket = bucket_of(S, hands, table, small), *e = NULL;
    for (int i = 0; i < WAYS; i++) {
        if ((bucket[i].small & TAG_BITS) != S->search_tag) { /* an earlier search's: free */
            if (!e) e = bucket + i;
        } else if (entry_for(S, bucket + i, hands, table, small, standing, sweep, sweep_free)) {
            *found = 1;
            return bucket + i;
        }
    }
    *found = 0;
    if (e) {
        S->stored++;
    } else {
        int left = cards_left(bucket);
        e = bucket;
        for (int i = 1; i < WAYS; i++) {
            int here = cards_left(bucket + i);
            if (here < left) {
                e = bucket + i;
                left = here;
            }
        }
    }
    e->hands = hands;
    e->table = table;
    e->small = small | S->search_tag | (uint32_t)standing << 16 | (uint32_t)sweep << 20;
    return e;
}

/* Store bounds found for the position of key (hands, table, small) at `standing` and `sweep`; with
 * `sweep_free` they hold whoever captured last. */
NODE_INLINE void store_entry(solver_t *S, mask_t hands, mask_t table, uint32_t small, int standing, int sweep,
                             int sweep_free, int lower, int upper, uint64_t best) {
    int found;
    entry_t *e = claim_entry(S, hands, table, small, standing, sweep, sweep_free, &found);
    if (found) {
        /* every stored bound is a true bound of the same position: keep the tightest (and they
         * hold whoever captured last only if both did) */
        if (e->lower > lower) lower = e->lower;
        if (e->upper < upper) upper = e->upper;
        if (!best) best = e->best;
        sweep_free = sweep_free && entry_sweep_free(e);
    }
    e->small = (e->small & ~(1u << 22)) | (uint32_t)sweep_free << 22;
    e->lower = (int16_t)lower;
    e->upper = (int16_t)upper;
    e->best = best;
}

#endif
