/* The native engine's random playout against a bare loop of the same bit operations.
 *
 * Both play random 2-player rounds from the same fresh deals with the same generator. The engine
 * loop is the one `pasur bench` times (hand_moves lists every legal move, play_code plays one).
 * The bare loop keeps the round's masks and dealing but replaces move generation with the least a
 * move needs: a random card of the hand, taking the first table card of its rank if there is one
 * (a capture by pairs), else laid down. The difference is what the rules' captures cost.
 * Built and run by benchmarks/bare_loop.py.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../src/pasur/core/_engine.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void fresh_round(round_t *r, uint64_t *rng) {
    memset(r, 0, sizeof(*r));
    r->players = 2;
    r->compulsory = 1;
    r->side_of[1] = 1;
    r->sur_ok[0] = r->sur_ok[1] = 1;
    r->last_capturer = -1;
    for (int i = 0; i < 52; i++) r->deck[i] = (uint8_t)i;
    for (int i = 51; i > 0; i--) { /* shuffle; the table's Jacks do not matter for timing */
        int j = (int)(next_random(rng) % (uint64_t)(i + 1));
        uint8_t card = r->deck[i];
        r->deck[i] = r->deck[j];
        r->deck[j] = card;
    }
    deal_hands(r);
    for (int i = 0; i < 4; i++) r->table |= 1ULL << r->deck[r->dealt + i];
    r->dealt += 4;
    r->deal = 1;
}

static uint64_t nth_bit(mask_t mask, int n) {
    while (n--) mask &= mask - 1;
    return mask & -mask;
}

int main(int argc, char **argv) {
    long rounds = argc > 1 ? atol(argv[1]) : 200000;
    scratch_t *scratch = malloc(sizeof(scratch_t));
    if (!scratch) return 1;
    uint64_t *codes = scratch->codes;
    uint64_t rng = 1, moves = 0;
    round_t start, r;
    double engine = 0, bare = 0;
    for (long i = 0; i < rounds; i++) {
        fresh_round(&start, &rng);
        double t0 = now();
        r = start;
        while (!r.over) {
            int count = hand_moves(scratch, r.hands[r.turn], r.table, r.compulsory, codes, MAX_CODES);
            play_code(&r, codes[next_random(&rng) % (uint64_t)count]);
            moves++;
        }
        double t1 = now();
        r = start;
        while (!r.over) {
            mask_t hand = r.hands[r.turn];
            mask_t bit = nth_bit(hand, (int)(next_random(&rng) % (uint64_t)__builtin_popcountll(hand)));
            int card = lowest(bit);
            mask_t same = r.table & (0xFULL << (card & ~3));
            play_code(&r, (uint64_t)card | (same & -same) << 6);
        }
        double t2 = now();
        engine += t1 - t0;
        bare += t2 - t1;
    }
    printf("{\"rounds\": %ld, \"moves\": %llu, \"engine_ns_per_move\": %.1f, \"bare_ns_per_move\": %.1f}\n", rounds,
           (unsigned long long)moves, engine / moves * 1e9, bare / moves * 1e9);
    free(scratch);
    return 0;
}
