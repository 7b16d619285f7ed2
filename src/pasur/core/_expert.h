/* The bot `expert` (pasur/bots/expert.py and judgement.py, the readable reference) from the seat to
 * play's view of a round: the cards it has not seen are the other hands and the pack, whatever
 * they hold. With Python's own generator it chooses exactly as its Python bot with the same seed
 * (tests/test_wasm.py): the browser's `medium` level (_wasm.c). */
#ifndef PASUR_EXPERT_H
#define PASUR_EXPERT_H

#include "_engine.h"
#include "_simple.h"
#include "_solver.h"
#include "_twister.h"

/* ExpertBot.JACK_KEPT and ACE_KEPT: holding a Jack while deals remain, an Ace while the 10♦ is out */
#define EXPERT_JACK_KEPT 1.2
#define EXPERT_ACE_KEPT 0.4

/* judgement.Position: what the expert reads of the seat to play's view */
typedef struct {
    mask_t table, unseen;
    int side, my_sur, their_sur, next_hand, compulsory;
    double club_value;
} expert_view_t;

/* judgement.club_weight's race: 7 × (P(a reaches 7) − P(b reaches 7)) when `rest` clubs split
 * evenly at random */
static double club_race(int a, int b, int rest) {
    double total = 0.0, ways = 1.0; /* ways: comb(rest, gained), exact in a double */
    for (int gained = 0; gained <= rest; gained++) {
        double weight = ways / (double)(1ULL << rest);
        total += weight * ((a + gained >= HAFT_KHAJ_CLUBS) - (b + rest - gained >= HAFT_KHAJ_CLUBS));
        ways = ways * (rest - gained) / (gained + 1);
    }
    return HAFT_KHAJ_POINTS * total;
}

/* judgement.club_weight: one more club's worth to a side holding `mine` against `theirs` */
static double club_weight(int mine, int theirs, int remaining) {
    if (mine >= HAFT_KHAJ_CLUBS || theirs >= HAFT_KHAJ_CLUBS || remaining <= 0) return 0.0;
    return (club_race(mine + 1, theirs, remaining - 1) - club_race(mine, theirs + 1, remaining - 1)) / 2;
}

/* judgement.Position.of, for the seat to play of `r` (a round not over), with `sides` sides and
 * Haft Khaj to the side with the most clubs when `most_clubs` */
static expert_view_t expert_position(const round_t *r, int sides, int most_clubs) {
    expert_view_t p;
    int seat = r->turn, clubs[4] = {0}, most = 0;
    mask_t seen = r->hands[seat] | r->table;
    for (int side = 0; side < sides; side++) {
        seen |= r->captured[side];
        clubs[side] = club_count(r->captured[side]);
        if (clubs[side] > most) most = clubs[side];
    }
    p.table = r->table;
    p.unseen = ((1ULL << 52) - 1) & ~seen;
    p.side = r->side_of[seat];
    p.compulsory = r->compulsory;
    if (sides == 2)
        p.club_value = club_weight(clubs[p.side], clubs[1 - p.side], 13 - clubs[0] - clubs[1]);
    else
        p.club_value = !most_clubs && most >= HAFT_KHAJ_CLUBS ? 0.0 : HAFT_KHAJ_POINTS / 13.0 * 1.5;
    const int *counts = r->dealt < 52 ? r->sur_ok : r->last_deal_sur;
    p.my_sur = counts[p.side];
    p.their_sur = 0;
    for (int side = 0; side < sides; side++)
        if (side != p.side && counts[side]) p.their_sur = 1;
    int next = (seat + 1) % r->players;
    p.next_hand = bits_count(r->hands[next]);
    if (!p.next_hand && r->dealt < 52) p.next_hand = 4;
    return p;
}

/* Position.value: capturing these cards, the clubs weighed by the race */
static inline double expert_value(const expert_view_t *p, mask_t cards) {
    return card_points(cards) + p->club_value * club_count(cards);
}

/* Position.gain: the cards a move takes with the played one, and a Sur */
static double expert_gain(const expert_view_t *p, uint64_t code, int sur_allowed) {
    mask_t take = code >> 6;
    if (!take) return 0.0;
    int card = (int)(code & 63);
    double gained = expert_value(p, take | 1ULL << card);
    if (sur_allowed && take == p->table && (card >> 2) != JACK) gained += SUR_POINTS;
    return gained;
}

/* Position.threat: the next player's expected best gain on `table`, each unseen card held with
 * chance (their hand) / (cards unseen); the gains taken best first (judgement.expected_best) */
static double expert_threat(scratch_t *s, const expert_view_t *p, mask_t table) {
    int count = bits_count(p->unseen);
    if (!p->next_hand || !count) return 0.0;
    double chance = p->next_hand < count ? (double)p->next_hand / count : 1.0;
    double gains[52];
    int found = 0;
    for (mask_t walk = p->unseen; walk; walk &= walk - 1) {
        int card = lowest(walk), n = 0;
        if (card_moves(s, table, card, p->compulsory, s->codes, &n, MAX_CODES) < 0) n = 0;
        double best = 0.0;
        for (int i = 0; i < n; i++) {
            mask_t take = s->codes[i] >> 6;
            if (!take) continue;
            double gained = expert_value(p, take | 1ULL << card);
            if (p->their_sur && take == table && (card >> 2) != JACK) gained += SUR_POINTS;
            if (gained > best) best = gained;
        }
        if (best > 0) {
            int at = found++; /* kept sorted, highest first */
            while (at > 0 && gains[at - 1] < best) {
                gains[at] = gains[at - 1];
                at--;
            }
            gains[at] = best;
        }
    }
    double expected = 0.0, none_better = 1.0;
    for (int i = 0; i < found; i++) {
        expected += gains[i] * chance * none_better;
        none_better *= 1 - chance;
    }
    return expected;
}

/* ExpertBot.judge: a move's judged value in round points for the seat to play's side */
static double expert_judge(scratch_t *s, const round_t *r, const expert_view_t *p, uint64_t code) {
    int card = (int)(code & 63), rank = card >> 2;
    mask_t take = code >> 6;
    mask_t table_after = take ? p->table ^ take : p->table | 1ULL << card;
    double value = expert_gain(p, code, p->my_sur);
    int held = 0;
    for (int seat = 0; seat < r->players; seat++) held += bits_count(r->hands[seat]);
    if (r->dealt == 52 && held == 1) { /* the round's last card: the last to capture takes the rest */
        int last = take ? p->side : r->last_capturer;
        if (last >= 0) value += expert_value(p, table_after) * (last == p->side ? 1 : -1);
        return value;
    }
    value -= expert_threat(s, p, table_after);
    if (rank == JACK)
        value -= r->dealt < 52 ? EXPERT_JACK_KEPT : EXPERT_JACK_KEPT / 2;
    else if (rank == 0 && ((p->unseen | p->table) >> TEN_OF_DIAMONDS & 1))
        value -= EXPERT_ACE_KEPT;
    return value;
}

/* What expert_value reads: the scratch space, the round and the seat's view of it. */
typedef struct {
    scratch_t *scratch;
    const round_t *round;
    const expert_view_t *view;
} expert_context_t;

static double expert_value_of(const void *context, uint64_t code) {
    const expert_context_t *c = context;
    return expert_judge(c->scratch, c->round, c->view, code);
}

/* ExpertBot.choose for the seat to play of a round not over: the move of highest judged value,
 * ties broken by a random number drawn for every move (none when one move is legal). `codes`, the
 * caller's, holds MAX_CODES moves. */
static uint64_t expert_choice(scratch_t *s, const round_t *r, int sides, int most_clubs, twister_t *rng, uint64_t *codes) {
    int count = hand_moves(s, r->hands[r->turn], r->table, r->compulsory, codes, MAX_CODES);
    if (count == 1) return codes[0];
    expert_view_t p = expert_position(r, sides, most_clubs);
    expert_context_t context = {s, r, &p};
    return highest_valued(codes, count, expert_value_of, &context, rng);
}

#endif
