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
#include "_simple.h"
#include "_scoring.h"

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

/* The opponent to move plays as its Python bot would. */
static void opponent_plays(scratch_t *s, episode_t *e) {
    round_t *r = &e->round;
    play_code(r, simple_choice(s, r, e->policy[r->turn] == POLICY_RANDOM, &e->rng[r->turn]));
}

/* scoring.breakdown's totals, and relative_points for the agent's side */
static double agent_reward(const episode_t *e) {
    const round_t *r = &e->round;
    side_score_t scores[4];
    round_breakdown(r, e->sides, e->most_clubs, e->sur_cancel, scores);
    int points[4], total = 0;
    for (int side = 0; side < e->sides; side++) total += points[side] = score_total(scores + side);
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
