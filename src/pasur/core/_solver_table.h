/* The solver's transposition table (see _solver.h): a two-way bucketed table of bounds, its size
 * an option, owned by the caller (table_t) and tagged search by search. Included by _native.c
 * after _solver.h. */
#ifndef PASUR_SOLVER_TABLE_H
#define PASUR_SOLVER_TABLE_H

#include "_solver.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

/* Zeroed room for `count` entries (calloc: the pages a search never reaches are never touched); on
 * Linux the large table's whole 2 MB pages are asked to be huge pages (a probe of a 16 MB table is
 * otherwise a TLB miss as well as a cache miss). */
static entry_t *new_entries(size_t count) {
    entry_t *entries = calloc(count, sizeof(entry_t));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    size_t huge = (size_t)2 << 20;
    uintptr_t start = ((uintptr_t)entries + huge - 1) & ~(uintptr_t)(huge - 1);
    uintptr_t end = ((uintptr_t)entries + count * sizeof(entry_t)) & ~(uintptr_t)(huge - 1);
    if (entries && end > start) madvise((void *)start, end - start, MADV_HUGEPAGE);
#endif
    return entries;
}

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
    size_t count = (size_t)1 << table_bits;
    if (table_bits != t->bits || !t->entries) {
        free(t->entries);
        t->bits = 0;
        t->entries = new_entries(count);
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

/* 0-13: side 0's clubs while Haft Khaj is open; 14 or 15 once a side holds 7 (it is then decided
 * both ways of scoring it, since the other side can have at most 6). */
static int club_state(const position_t *p) {
    if (p->clubs[0] >= HAFT_KHAJ_CLUBS) return 14;
    if (p->clubs[1] >= HAFT_KHAJ_CLUBS) return 15;
    return p->clubs[0];
}

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

static inline uint64_t entry_hash(mask_t hands, mask_t table, uint32_t small) {
    uint64_t h = hands * 0x9E3779B97F4A7C15ULL ^ table * 0xC2B2AE3D27D4EB4FULL ^ small * 0x165667B19E3779F9ULL;
    return h ^ h >> 31;
}

static inline entry_t *bucket_of(const solver_t *S, mask_t hands, mask_t table, uint32_t small) {
    return S->entries + ((entry_hash(hands, table, small) & S->entry_mask) & ~1ULL);
}

/* Double the part of the table this search uses, moving its entries to where the larger part
 * hashes them (each bucket's entries stay in it or move to the one `size` above, which no entry
 * of this search uses yet). */
static void grow_table(solver_t *S) {
    uint64_t size = S->entry_mask + 1;
    S->entry_mask = 2 * size - 1;
    for (uint64_t b = 0; b < size; b += 2) {
        entry_t *moved = S->entries + b + size;
        moved[0].small = moved[1].small = 0;
        for (int i = 0; i < 2; i++) {
            entry_t *e = S->entries + b + i;
            if ((e->small & 0xFF000000u) != S->search_tag) continue;
            if (bucket_of(S, e->hands, e->table, e->small & KEY_BITS) == S->entries + b) continue;
            *moved++ = *e;
            e->small = 0;
        }
    }
}

static entry_t *find_entry(const solver_t *S, mask_t hands, const position_t *p, uint32_t small) {
    entry_t *bucket = bucket_of(S, hands, p->table, small);
    for (int i = 0; i < 2; i++) {
        entry_t *e = bucket + i;
        if (e->hands == hands && e->table == p->table && (e->small & KEY_BITS) == small) return e;
    }
    return NULL;
}

static void store_entry(solver_t *S, mask_t hands, const position_t *p, uint32_t small, int lower, int upper,
                        uint64_t best) {
    if (S->stored * 4 > 3 * (S->entry_mask + 1) && S->entry_mask < S->full_mask) grow_table(S);
    entry_t *bucket = bucket_of(S, hands, p->table, small);
    uint32_t left = (uint32_t)(bits_count(hands & CARD_BITS) + 52 - p->dealt);
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
        if ((e->small & 0xFF000000u) != S->search_tag) S->stored++;
    }
    e->hands = hands;
    e->table = p->table;
    e->small = small | left << 16;
    e->lower = (int16_t)lower;
    e->upper = (int16_t)upper;
    e->best = best;
}

#endif
