/* A whole match in C for the browser's engine (_wasm.c), mirroring its readable reference: the
 * rules (rules.py), shuffling and the first deal's rules (deal.py, with Python's own generator, so
 * that a seed deals what Match(rules, seed) deals), a round's start (Round.__init__), the refusal
 * of a move that is not legal (notation.find_code's reasons) and banking a round (Match._bank).
 * tests/test_wasm.py plays both on thousands of matches and compares every step. */
#ifndef PASUR_MATCH_H
#define PASUR_MATCH_H

#include "_engine.h"
#include "_scoring.h"
#include "_solver.h"
#include "_twister.h"

#define FULL_DECK ((1ULL << 52) - 1)

/* Rules: the options of rules.Rules (sur_cutoff -1: none; most_clubs: haft_khaj="most"). */
typedef struct {
    int players, partnership, target, sur_cutoff;
    int sur_cancel, sur_in_last_deal, compulsory, bury_table_jack, redeal_on_faces, most_clubs;
} rules_t;

/* Rules.sides */
static inline int rules_sides(const rules_t *rules) {
    return rules->players == 4 && rules->partnership ? 2 : rules->players;
}

/* deal.table_problem's and deck_problem's reasons, in the order they are checked. */
enum { TABLE_STANDS, TWO_JACKS, JACK_NOT_BURIED, THREE_QUEENS, THREE_KINGS, NOT_A_DECK };

static int table_problem(mask_t table, const rules_t *rules) {
    int jacks = bits_count(table & JACKS);
    if (jacks >= 2) return TWO_JACKS;
    if (jacks == 1 && rules->bury_table_jack) return JACK_NOT_BURIED;
    if (rules->redeal_on_faces) {
        if (bits_count(table & 0xFULL << (QUEEN * 4)) >= 3) return THREE_QUEENS;
        if (bits_count(table & 0xFULL << (KING * 4)) >= 3) return THREE_KINGS;
    }
    return TABLE_STANDS;
}

static mask_t mask_of(const uint8_t *cards, int count) {
    mask_t mask = 0;
    for (int i = 0; i < count; i++) mask |= 1ULL << cards[i];
    return mask;
}

static int deck_problem(const uint8_t *deck, const rules_t *rules) {
    for (int i = 0; i < 52; i++)
        if (deck[i] > 51) return NOT_A_DECK;
    if (mask_of(deck, 52) != FULL_DECK) return NOT_A_DECK;
    return table_problem(mask_of(deck + 4 * rules->players, 4), rules);
}

/* deal.deal_deck: shuffle (random.shuffle), bury a single Jack on the table at a random place in
 * the pack (never on top) replacing it by the pack's top card, and deal again a table the rules
 * refuse; the pack top first into `cards`. */
static void deal_deck(twister_t *rng, const rules_t *rules, uint8_t *cards) {
    int start = 4 * rules->players;
    for (;;) {
        for (int i = 0; i < 52; i++) cards[i] = (uint8_t)i;
        for (int i = 51; i > 0; i--) {
            int j = (int)twister_below(rng, (uint32_t)(i + 1));
            uint8_t held = cards[i];
            cards[i] = cards[j];
            cards[j] = held;
        }
        uint8_t *table = cards + start;
        int jacks = 0, jack_at = 0;
        for (int i = 0; i < 4; i++)
            if (table[i] >> 2 == JACK) jacks++, jack_at = i;
        if (jacks == 1 && rules->bury_table_jack) {
            uint8_t jack = table[jack_at], *rest = cards + start + 4;
            int left = 52 - start - 4 - 1; /* the pack once its top card has gone to the table */
            table[jack_at] = rest[0];
            memmove(rest, rest + 1, (size_t)left);
            int at = 1 + (int)twister_below(rng, (uint32_t)left); /* list.insert(randrange(1, left + 1)) */
            memmove(rest + at + 1, rest + at, (size_t)(left - at));
            rest[at] = jack;
        }
        if (table_problem(mask_of(table, 4), rules) == TABLE_STANDS) return;
    }
}

/* scoring.sur_counts */
static int sur_counts(const rules_t *rules, int banked, int last_deal) {
    return (rules->sur_cutoff < 0 || banked < rules->sur_cutoff) && (!last_deal || rules->sur_in_last_deal);
}

/* Round.__init__: round `number` (from 1) dealt from `deck`, the sides having banked `banked`. */
static void round_start(round_t *r, const rules_t *rules, const uint8_t *deck, int number, const int *banked) {
    memset(r, 0, sizeof(*r));
    int sides = rules_sides(rules);
    r->players = rules->players;
    r->compulsory = rules->compulsory;
    r->first = (number - 1) % rules->players;
    for (int seat = 0; seat < rules->players; seat++) r->side_of[seat] = seat % sides;
    for (int side = 0; side < sides; side++) {
        r->sur_ok[side] = sur_counts(rules, banked[side], 0);
        r->last_deal_sur[side] = sur_counts(rules, banked[side], 1);
    }
    memcpy(r->deck, deck, 52);
    deal_hands(r);
    r->table = mask_of(deck + r->dealt, 4);
    r->dealt += 4;
    r->deal = 1;
    r->last_capturer = -1;
    r->turn = r->first;
}

/* The reasons a move is refused (errors.IllegalMove's `reason`), MOVE_LEGAL when it is not. */
enum {
    MOVE_LEGAL,
    NOT_IN_HAND,
    SAY_WHICH,
    NAMED_TWICE,
    MUST_CAPTURE,
    NOT_ON_TABLE,
    ONLY_LAY_DOWN,
    CANNOT_TAKE,
    ROUND_OVER,
    MATCH_OVER,
};

/* notation.find_code: the legal move of round `r` that plays `card` taking `take`, named as
 * `named` cards (they may repeat one); `take_given` 0: the take left unnamed, allowed when the card
 * has one legal choice. Its code in *code, or the reason there is none. */
static int find_code(scratch_t *s, const round_t *r, int card, mask_t take, int named, int take_given, uint64_t *code) {
    if (r->over) return ROUND_OVER;
    uint64_t *codes = s->codes;
    int count = hand_moves(s, r->hands[r->turn], r->table, r->compulsory, codes, MAX_CODES);
    uint64_t wanted = (uint64_t)card | take << 6;
    int choices = 0, captures = 0;
    for (int i = 0; i < count; i++) {
        if (take_given && bits_count(take) == named && codes[i] == wanted) {
            *code = wanted;
            return MOVE_LEGAL;
        }
        if ((int)(codes[i] & 63) == card) {
            choices++;
            captures += (codes[i] >> 6) != 0;
            if (!take_given) *code = codes[i];
        }
    }
    if (!(r->hands[r->turn] >> card & 1)) return NOT_IN_HAND;
    if (!take_given) return choices == 1 ? MOVE_LEGAL : SAY_WHICH;
    if (bits_count(take) != named) return NAMED_TWICE;
    if (!take) return MUST_CAPTURE;
    if (take & ~r->table) return NOT_ON_TABLE;
    return captures ? CANNOT_TAKE : ONLY_LAY_DOWN;
}

/* A match (game.Match): its rules, the generator that shuffles each round, the banked scores, the
 * winner (-1: none yet), and the round under way or last played with its plays. */
typedef struct {
    rules_t rules;
    twister_t rng;
    int scores[4], winner, number;
    round_t round;
    uint64_t plays[52];
    int played;
} match_t;

/* Match.next_round: the next round shuffled by the match's generator, or dealt from `deck`
 * (NULL: shuffled); the deck's problem when it cannot start one. */
static int match_deal(match_t *m, const uint8_t *deck) {
    uint8_t shuffled[52];
    if (!deck) {
        deal_deck(&m->rng, &m->rules, shuffled);
        deck = shuffled;
    } else {
        int problem = deck_problem(deck, &m->rules);
        if (problem) return problem;
    }
    m->number += 1;
    round_start(&m->round, &m->rules, deck, m->number, m->scores);
    m->played = 0;
    return TABLE_STANDS;
}

/* Match(rules, seed) before its first deal: the generator seeded as random.Random(seed) with the
 * seed's 32-bit words, lowest first. */
static void match_start(match_t *m, const rules_t *rules, const uint32_t *key, int key_length) {
    memset(m, 0, sizeof(*m));
    m->rules = *rules;
    twister_seed_key(&m->rng, key, key_length);
    m->winner = -1;
}

/* Match._bank: the finished round's points added to the scores, and the winner if a side has
 * reached the target alone at the top (the next round is dealt by match_deal). */
static void match_bank(match_t *m) {
    int sides = rules_sides(&m->rules), best = -1, at_best = 0, best_side = 0;
    side_score_t scores[4];
    round_breakdown(&m->round, sides, m->rules.most_clubs, m->rules.sur_cancel, scores);
    for (int side = 0; side < sides; side++) m->scores[side] += score_total(scores + side);
    for (int side = 0; side < sides; side++) {
        if (m->scores[side] > best) {
            best = m->scores[side];
            at_best = 1;
            best_side = side;
        } else if (m->scores[side] == best) {
            at_best++;
        }
    }
    if (best >= m->rules.target && at_best == 1) m->winner = best_side;
}

/* Match.play for a move already found legal (find_code): played, and the round banked if it ends. */
static void match_play(match_t *m, uint64_t code) {
    play_code(&m->round, code);
    m->plays[m->played++] = code;
    if (m->round.over) match_bank(m);
}

#endif
