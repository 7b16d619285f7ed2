/* Python's own generator, random.Random (MT19937, seeded as random.Random(n) seeds it), so that C
 * shuffles and bots choose exactly as their Python references do with the same seed: the vector
 * environment's opponents (_vector.h) and the browser's match (_match.h). */
#ifndef PASUR_TWISTER_H
#define PASUR_TWISTER_H

#include <stdint.h>

#include "_bits.h"

typedef struct {
    uint32_t state[624];
    int index;
} twister_t;

static void twister_seed(twister_t *t, uint32_t seed) {
    t->state[0] = seed;
    for (int i = 1; i < 624; i++) t->state[i] = 1812433253U * (t->state[i - 1] ^ (t->state[i - 1] >> 30)) + (uint32_t)i;
    t->index = 624;
}

/* random.Random(n): the key is n's 32-bit words, lowest first (one word 0 for n = 0). */
static void twister_seed_key(twister_t *t, const uint32_t *key, int length) {
    uint32_t *mt = t->state;
    twister_seed(t, 19650218U);
    int i = 1, j = 0;
    for (int k = 624 > length ? 624 : length; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
        if (j >= length) j = 0;
    }
    for (int k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
}

static uint32_t twister_next(twister_t *t) {
    uint32_t *mt = t->state;
    if (t->index >= 624) {
        for (int k = 0; k < 624; k++) {
            uint32_t y = (mt[k] & 0x80000000U) | (mt[(k + 1) % 624] & 0x7fffffffU);
            mt[k] = mt[(k + 397) % 624] ^ (y >> 1) ^ (y & 1 ? 0x9908b0dfU : 0);
        }
        t->index = 0;
    }
    uint32_t y = mt[t->index++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    return y ^ (y >> 18);
}

/* random.random() */
static double twister_random(twister_t *t) {
    uint32_t a = twister_next(t) >> 5, b = twister_next(t) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* random.randrange(n), n >= 1: getrandbits(n.bit_length()) until below n */
static uint32_t twister_below(twister_t *t, uint32_t n) {
    int bits = bits_highest(n) + 1;
    uint32_t r;
    do r = twister_next(t) >> (32 - bits);
    while (r >= n);
    return r;
}

#endif
