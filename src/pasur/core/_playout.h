/* What the search bots `ismcts` and `pimc` share (pasur/bots/playout.py, with the native core's
 * playouts, play_mixed in _engine.h): deals of the unseen cards and seeds drawn from Python's own
 * generator as the Python bots draw them, and a round's outcome as their rewards. */
#ifndef PASUR_PLAYOUT_H
#define PASUR_PLAYOUT_H

#include <math.h>

/* The round points against the others' mean that span a playout's reward from 0 to 1. */
#define REWARD_SPAN 60.0

#include "_engine.h"
#include "_scoring.h"
#include "_twister.h"

/* Round.reshuffle_unseen with Python's generator (deal.share_unseen): the cards `seat` cannot see,
 * in card order, shuffled as random.shuffle does, then dealt to the other hands in seat order
 * (each keeping its size) and the rest to the pack. */
static void reshuffle_as_python(round_t *r, int seat, twister_t *rng) {
    uint8_t cards[52];
    int count = unseen_cards(r, seat, cards);
    for (int i = count - 1; i > 0; i--) {
        int j = (int)twister_below(rng, (uint32_t)(i + 1));
        uint8_t card = cards[i];
        cards[i] = cards[j];
        cards[j] = card;
    }
    deal_unseen_cards(r, seat, cards);
}

/* random.getrandbits(64): the low word drawn first */
static uint64_t twister_bits64(twister_t *t) {
    uint64_t low = twister_next(t);
    return low | (uint64_t)twister_next(t) << 32;
}

/* random.Random(luck).getrandbits(64) for a float 0 <= luck < 1: Python seeds a generator with a
 * float's hash (_Py_HashDouble, modulo 2**61 - 1) split into 32-bit words, low first. */
static uint64_t float_seeded_bits64(double luck) {
    const uint64_t modulus = (1ULL << 61) - 1;
    int exponent;
    double mantissa = frexp(luck, &exponent);
    uint64_t hash = 0;
    while (mantissa != 0.0) {
        hash = ((hash << 28) & modulus) | hash >> (61 - 28);
        mantissa *= 268435456.0;
        exponent -= 28;
        uint64_t whole = (uint64_t)mantissa;
        mantissa -= (double)whole;
        hash += whole;
        if (hash >= modulus) hash -= modulus;
    }
    exponent = exponent >= 0 ? exponent % 61 : 61 - 1 - ((-1 - exponent) % 61);
    hash = ((hash << exponent) & modulus) | hash >> (61 - exponent);
    uint32_t key[2] = {(uint32_t)hash, (uint32_t)(hash >> 32)};
    twister_t generator;
    twister_seed_key(&generator, key, key[1] ? 2 : 1);
    return twister_bits64(&generator);
}

/* playout.outcome: each of `sides` sides' reward in [0, 1], its round points against the mean of
 * the others' */
static void playout_outcome(const round_t *r, int sides, int most_clubs, int sur_cancel, double *rewards) {
    side_score_t scores[4];
    double sum = 0;
    round_breakdown(r, sides, most_clubs, sur_cancel, scores);
    for (int side = 0; side < sides; side++) sum += score_total(scores + side);
    for (int side = 0; side < sides; side++) {
        int own = score_total(scores + side);
        double reward = 0.5 + (own - (sum - own) / (sides - 1)) / REWARD_SPAN;
        rewards[side] = reward < 0.0 ? 0.0 : reward > 1.0 ? 1.0 : reward;
    }
}

#endif
