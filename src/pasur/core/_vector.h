/* Many one-round episodes stepped at once for pasur.envs.vector: the agent's multi-step actions
 * (pasur/envs/encoding.py, MoveChooser), the observation (Observer), the opponents `random` and
 * `greedy` (pasur/bots/simple.py) with Python's own generator (MT19937, seeded as
 * random.Random(seed) seeds it) so that they choose exactly as the Python bots do, and the reward
 * of pasur/envs/gymnasium.py. Included by _native.c after _engine.h and _solver.h.
 */
#ifndef PASUR_VECTOR_H
#define PASUR_VECTOR_H

#include "_engine.h"
#include "_solver.h"

/* -- Python's random.Random -------------------------------------------------------------------- */

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

/* -- an episode -------------------------------------------------------------------------------- */

/* The actions and the observation's blocks, by the names of pasur/envs/encoding.py (a test holds
 * them equal through observation_layout()). */
#define ACTION_TAKE 52 /* TAKE */
#define ACTION_DONE 104 /* DONE */
#define ACTIONS 105 /* ACTION_COUNT */
#define OBSERVATION_VALUES 629 /* OBSERVATION_SIZE */
#define HAND 0
#define TABLE 52
#define CAPTURED 104
#define UNSEEN 312
#define CHOSEN 364
#define NAMED 416
#define TURN 468
#define HANDS 472
#define DEAL 488
#define LAST_CAPTURER 494
#define PLAYERS 499
#define PARTNERSHIP 502
#define SCORES 503
#define SURS 599
#define ROUND 619
#define SUR_SLOTS 5
#define POLICY_AGENT 0
#define POLICY_RANDOM 1
#define POLICY_GREEDY 2

typedef struct {
    round_t round;
    int sides, agent, most_clubs, sur_cancel;
    int policy[4];
    twister_t rng[4];
    int card; /* the agent's unfinished move: its card (-1: none) and the table cards named */
    mask_t named;
} episode_t;

/* simple.taken_value: points, a club counting its share of Haft Khaj */
static double taken_value(mask_t cards) {
    return card_points(cards) + HAFT_KHAJ_POINTS / 13.0 * bits_count(cards & CLUB_CARDS);
}

/* simple.immediate_value */
static double immediate_value(const round_t *r, uint64_t code) {
    int card = (int)(code & 63);
    mask_t take = code >> 6, card_mask = 1ULL << card;
    if (!take) {
        int rank = card >> 2;
        return -taken_value(card_mask) - 0.01 * (rank < JACK ? rank + 1 : 0);
    }
    int side = r->side_of[r->turn];
    int sur = makes_sur(r->table ^ take, card, side, r->dealt, r->sur_ok, r->last_deal_sur);
    return taken_value(take | card_mask) + SUR_POINTS * sur + 0.05 * bits_count(take);
}

/* The opponent to move plays as its Python bot would. */
static void opponent_plays(scratch_t *s, episode_t *e) {
    round_t *r = &e->round;
    uint64_t *codes = s->codes;
    int count = hand_moves(s, r->hands[r->turn], r->table, r->compulsory, codes, MAX_CODES);
    twister_t *rng = &e->rng[r->turn];
    uint64_t chosen = codes[0];
    if (e->policy[r->turn] == POLICY_RANDOM) {
        chosen = codes[twister_below(rng, (uint32_t)count)];
    } else { /* the highest immediate value, ties broken by a random number drawn for every move */
        double best_value = 0, best_draw = 0;
        for (int i = 0; i < count; i++) {
            double value = immediate_value(r, codes[i]), draw = twister_random(rng);
            if (i == 0 || value > best_value || (value == best_value && draw > best_draw)) {
                best_value = value;
                best_draw = draw;
                chosen = codes[i];
            }
        }
    }
    play_code(r, chosen);
}

/* scoring.breakdown's totals, and relative_points for the agent's side */
static double agent_reward(const episode_t *e) {
    const round_t *r = &e->round;
    int points[4], clubs[4], fewest = r->surs[0], most = 0, most_count = 0;
    for (int side = 0; side < e->sides; side++) {
        clubs[side] = bits_count(r->captured[side] & CLUB_CARDS);
        if (r->surs[side] < fewest) fewest = r->surs[side];
        if (clubs[side] > most) {
            most = clubs[side];
            most_count = 1;
        } else if (clubs[side] == most) {
            most_count++;
        }
    }
    int total = 0;
    for (int side = 0; side < e->sides; side++) {
        int haft = e->most_clubs ? (clubs[side] == most && most_count == 1) : clubs[side] >= HAFT_KHAJ_CLUBS;
        points[side] = HAFT_KHAJ_POINTS * haft + card_points(r->captured[side]) +
                       SUR_POINTS * (r->surs[side] - (e->sur_cancel ? fewest : 0));
        total += points[side];
    }
    int own = points[r->side_of[e->agent]];
    return own - (double)(total - own) / (e->sides - 1);
}

static void opponents_play(scratch_t *s, episode_t *e) {
    while (!e->round.over && e->round.turn != e->agent) opponent_plays(s, e);
}

/* encoding.is_prefix: `named` is the lowest cards of `take` */
static int is_prefix(mask_t named, mask_t take) {
    if (named & ~take) return 0;
    mask_t rest = take & ~named;
    return !named || !rest || bits_highest(named) < lowest(rest);
}

/* The chosen card's legal moves that still fit the named cards; their count. */
static int fitting_moves(scratch_t *s, const episode_t *e, uint64_t *codes) {
    const round_t *r = &e->round;
    int count = 0, kept = 0;
    if (card_moves(s, r->table, e->card, r->compulsory, codes, &count, MAX_CODES) < 0) return 0;
    for (int i = 0; i < count; i++)
        if (is_prefix(e->named, codes[i] >> 6)) codes[kept++] = codes[i];
    return kept;
}

/* The legal actions: bits 0-51 cards, 52-103 table cards to name, bit 104 (in *done) done. */
static mask_t allowed_actions(scratch_t *s, const episode_t *e, int *done) {
    *done = 0;
    if (e->card < 0) return e->round.hands[e->agent];
    uint64_t *codes = s->codes;
    int count = fitting_moves(s, e, codes);
    mask_t names = 0;
    for (int i = 0; i < count; i++) {
        mask_t rest = (codes[i] >> 6) & ~e->named;
        if (rest)
            names |= rest & -rest;
        else
            *done = 1;
    }
    return names;
}

/* MoveChooser.step and PasurEnv.step: 1 when the action was not legal (nothing changes), else 0
 * with *reward what the round paid the agent if it ended. */
static int episode_step(scratch_t *s, episode_t *e, long action, double *reward) {
    round_t *r = &e->round;
    uint64_t *codes = s->codes;
    uint64_t code = 0;
    int decided = 0;
    *reward = 0;
    if (r->over || r->turn != e->agent) return 1;
    if (e->card < 0) {
        if (action < 0 || action >= ACTION_TAKE || !(r->hands[e->agent] >> action & 1)) return 1;
        int count = 0;
        if (card_moves(s, r->table, (int)action, r->compulsory, codes, &count, MAX_CODES) < 0 || !count) return 1;
        if (count == 1) {
            code = codes[0];
            decided = 1;
        } else {
            e->card = (int)action;
            e->named = 0;
        }
    } else {
        int done;
        mask_t names = allowed_actions(s, e, &done);
        if (action == ACTION_DONE && done) {
            code = (uint64_t)e->card | e->named << 6;
            decided = 1;
        } else if (action >= ACTION_TAKE && action < ACTION_DONE && names >> (action - ACTION_TAKE) & 1) {
            e->named |= 1ULL << (action - ACTION_TAKE);
            int count = fitting_moves(s, e, codes);
            if (count == 1) {
                code = codes[0];
                decided = 1;
            }
        } else {
            return 1;
        }
    }
    if (decided) {
        e->card = -1;
        e->named = 0;
        play_code(r, code);
        opponents_play(s, e);
        if (r->over) *reward = agent_reward(e);
    }
    return 0;
}

static inline void set_ones(int8_t *out, int at, int count) {
    for (int i = 0; i < count; i++) out[at + i] = 1;
}

static inline void set_mask(int8_t *out, int at, mask_t mask) {
    while (mask) {
        out[at + lowest(mask)] = 1;
        mask &= mask - 1;
    }
}

/* Observer.observe, from the agent's seat: the observation and the action mask. */
static void episode_observe(scratch_t *s, const episode_t *e, int8_t *observation, int8_t *action_mask) {
    const round_t *r = &e->round;
    int seat = e->agent, side = r->side_of[seat], players = r->players, sides = e->sides;
    memset(observation, 0, OBSERVATION_VALUES);
    memset(action_mask, 0, ACTIONS);
    mask_t hand = r->hands[seat], seen = hand | r->table;
    set_mask(observation, HAND, hand);
    set_mask(observation, TABLE, r->table);
    for (int slot = 0; slot < sides; slot++) {
        set_mask(observation, CAPTURED + 52 * slot, r->captured[(side + slot) % sides]);
        seen |= r->captured[(side + slot) % sides];
    }
    set_mask(observation, UNSEEN, ((1ULL << 52) - 1) & ~seen);
    if (!r->over && r->turn == seat) {
        int done;
        mask_t allowed = allowed_actions(s, e, &done);
        set_mask(action_mask, e->card < 0 ? 0 : ACTION_TAKE, allowed);
        action_mask[ACTION_DONE] = (int8_t)done;
        if (e->card >= 0) {
            observation[CHOSEN + e->card] = 1;
            set_mask(observation, NAMED, e->named);
        }
    }
    observation[TURN + ((r->turn - seat) % players + players) % players] = 1;
    for (int slot = 0; slot < players; slot++) {
        int held = bits_count(r->hands[(seat + slot) % players]);
        set_ones(observation, HANDS + 4 * slot, held < 4 ? held : 4);
    }
    observation[DEAL + (r->deal < 6 ? r->deal : 6) - 1] = 1;
    observation[LAST_CAPTURER + (r->last_capturer < 0 ? 4 : ((r->last_capturer - side) % sides + sides) % sides)] = 1;
    observation[PLAYERS + players - 2] = 1;
    observation[PARTNERSHIP] = (int8_t)(players == 4 && sides == 2);
    for (int slot = 0; slot < sides; slot++) { /* banked scores (SCORES) are 0 in a one-round episode */
        int surs = r->surs[(side + slot) % sides];
        set_ones(observation, SURS + SUR_SLOTS * slot, surs < SUR_SLOTS ? surs : SUR_SLOTS);
    }
    observation[ROUND] = 1; /* round 1 */
}

#endif
