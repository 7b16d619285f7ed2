/* The browser's engine: the C core built for WebAssembly (scripts/build-wasm.sh; clang's wasm32
 * target, no Python), holding one match at a time for the page's offline table
 * (static/js/engine.js reads it). The same headers as the Python extension (_native.c) make the
 * rules, the bots `random`, `greedy`, `expert`, `ismcts`, `pimc` and the solver bot's sampling; _match.h adds what a whole
 * match needs. Numbers pass through `io`, an exchange area of 32-bit words: a card mask or a
 * move code is two words, low first. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_engine.h"
#include "_solver.h"
#include "_solver_bounds.h"
#include "_solver_order.h"
#include "_solver_table.h"
#include "_solver_search.h"
#include "_model.h"
#include "_sampling.h"
#include "_simple.h"
#include "_expert.h"
#include "_ismcts.h"
#include "_pimc.h"
#include "_match.h"

#ifdef __wasm__
#define EXPORT(name) __attribute__((export_name(#name)))
#else /* a native compiler's check of the sources (tests/test_c_sources.py) */
#define EXPORT(name)
#endif
#define IO_WORDS 4096
/* The transposition table of the solver bot's deal-horizon searches (1 MB, as SolverBot's). */
#define SAMPLING_TABLE_BITS 15

static uint32_t io[IO_WORDS];
static scratch_t scratch;
static solver_t solver;
static table_t table;
static match_t match;
static twister_t bot_rng[4];
/* The ismcts bot's search under way, and the pimc bot's samples. */
static ismcts_t tree;
static pimc_t sampled;
/* The solver bot's decision under way: the legal moves, each one's weighted sum of values over
 * the deals solved so far, the weights' sum, the deals solved, and the others' plays. */
static struct {
    uint64_t codes[MAX_NODE_MOVES];
    double sums[MAX_NODE_MOVES], weight;
    int count, solved;
    evidence_t evidence[MAX_EVIDENCE];
    sampling_t how;
} decision;

static void put_mask(int at, uint64_t mask) {
    io[at] = (uint32_t)mask;
    io[at + 1] = (uint32_t)(mask >> 32);
}

static uint64_t get_mask(int at) { return (uint64_t)io[at] | (uint64_t)io[at + 1] << 32; }

EXPORT(pasur_io) uint32_t *pasur_io(void) { return io; }

/* A new match: the rules in io[0..9] (players, partnership, target, sur_cutoff (-1: none),
 * sur_cancel, sur_in_last_deal, compulsory_capture, bury_table_jack, redeal_on_faces, most_clubs)
 * and the seed's 32-bit words in io[11..] (io[10] of them, 1 to 8). 0, or -1 for rules or a seed
 * the match cannot take (nothing changes then). No round is dealt yet: pasur_deal deals one. */
EXPORT(pasur_new) int pasur_new(void) {
    rules_t rules = {(int)io[0], (int)io[1], (int)io[2], (int)io[3], (int)io[4],
                     (int)io[5], (int)io[6], (int)io[7], (int)io[8], (int)io[9]};
    int words = (int)io[10];
    if (rules.players < 2 || rules.players > 4 || rules.target < 1 || rules.sur_cutoff < -1 || words < 1 || words > 8)
        return -1;
    match_start(&match, &rules, io + 11, words);
    return 0;
}

/* The next round: shuffled by the match's generator (given 0) or dealt from the deck of 52 card
 * numbers in io[0..51] (given 1). 0, or the deck's problem (nothing changes then), or -1 when a
 * round is under way or the match is over. */
EXPORT(pasur_deal) int pasur_deal(int given) {
    if ((match.number && !match.round.over) || match.winner >= 0) return -1;
    uint8_t deck[52];
    for (int i = 0; i < 52; i++) deck[i] = (uint8_t)(io[i] > 51 ? 255 : io[i]);
    return match_deal(&match, given ? deck : NULL);
}

/* The match and its round into io: [0] round number, [1] first, [2] turn, [3] deal, [4] cards
 * dealt, [5] over, [6] last capturer (-1 none), [7] winner (-1 none), [8..11] scores banked,
 * [12..15] Surs this round, [16..19] each hand's card count, [20..27] hands, [28..29] table,
 * [30..37] piles, [38..89] the deck, [90] plays this round, [91..] the plays (two words each). */
EXPORT(pasur_state) void pasur_state(void) {
    const round_t *r = &match.round;
    int head[8] = {match.number, r->first, r->turn, r->deal, r->dealt, r->over, r->last_capturer, match.winner};
    for (int i = 0; i < 8; i++) io[i] = (uint32_t)head[i];
    for (int i = 0; i < 4; i++) {
        io[8 + i] = (uint32_t)match.scores[i];
        io[12 + i] = (uint32_t)r->surs[i];
        io[16 + i] = (uint32_t)bits_count(r->hands[i]);
        put_mask(20 + 2 * i, r->hands[i]);
        put_mask(30 + 2 * i, r->captured[i]);
    }
    put_mask(28, r->table);
    for (int i = 0; i < 52; i++) io[38 + i] = r->deck[i];
    io[90] = (uint32_t)match.played;
    for (int i = 0; i < match.played; i++) put_mask(91 + 2 * i, match.plays[i]);
}

/* The match made from one seat's view (SeatView, BOT-PROTOCOL.md), as Round.from_view makes one
 * for search: the rules as pasur_new reads them in io[0..9], then [10] seat, [11..12] its hand,
 * [13..14] the table, [15..22] each side's pile, [23..26] each seat's card count, [27] cards
 * dealt, [28] deal, [29] round, [30] first, [31] turn, [32] last capturer (-1 none), [33..36]
 * each side's Surs, [37..40] each side's score banked, [41] plays this round, [42..] the plays
 * (two words each). The cards the seat cannot see are placed in the other hands and the pack in
 * card order (a search deals them again at random). 0, or -1 for a view that does not hold. */
EXPORT(pasur_from_view) int pasur_from_view(void) {
    rules_t rules = {(int)io[0], (int)io[1], (int)io[2], (int)io[3], (int)io[4],
                     (int)io[5], (int)io[6], (int)io[7], (int)io[8], (int)io[9]};
    int seat = (int)io[10], dealt = (int)io[27], played = (int)io[41], sides;
    if (rules.players < 2 || rules.players > 4 || seat < 0 || seat >= rules.players || dealt < 4 || dealt > 52 ||
        played < 0 || played > 52 || (int)io[31] >= rules.players || (int)io[30] >= rules.players)
        return -1;
    uint32_t key = 0;
    match_start(&match, &rules, &key, 1);
    sides = rules_sides(&rules);
    for (int side = 0; side < sides; side++) match.scores[side] = (int)io[37 + side];
    match.number = (int)io[29];
    round_t *r = &match.round;
    uint8_t deck[52];
    for (int i = 0; i < 52; i++) deck[i] = (uint8_t)i;
    round_start(r, &rules, deck, match.number > 0 ? match.number : 1, match.scores);
    mask_t seen = get_mask(11) | get_mask(13);
    r->hands[seat] = get_mask(11);
    r->table = get_mask(13);
    for (int side = 0; side < 4; side++) {
        r->captured[side] = side < sides ? get_mask(15 + 2 * side) : 0;
        r->surs[side] = side < sides ? (int)io[33 + side] : 0;
        seen |= r->captured[side];
    }
    mask_t unseen = FULL_DECK & ~seen;
    for (int other = 0; other < rules.players; other++) {
        if (other == seat) continue;
        r->hands[other] = 0;
        for (int k = 0; k < (int)io[23 + other] && unseen; k++, unseen &= unseen - 1) r->hands[other] |= unseen & -unseen;
    }
    if (bits_count(unseen) != 52 - dealt || bits_count(r->hands[seat]) != (int)io[23 + seat]) return -1;
    for (int i = dealt; i < 52; i++, unseen &= unseen - 1) r->deck[i] = (uint8_t)lowest(unseen);
    r->dealt = dealt;
    r->deal = (int)io[28];
    r->first = (int)io[30];
    r->turn = (int)io[31];
    r->last_capturer = (int)io[32];
    r->over = 0;
    match.played = played;
    for (int i = 0; i < played; i++) match.plays[i] = get_mask(42 + 2 * i);
    return 0;
}

/* The legal moves of the seat to play into io (two words each, in the engine's order); their count. */
EXPORT(pasur_legal) int pasur_legal(void) {
    const round_t *r = &match.round;
    if (!match.number || r->over) return 0;
    int count = hand_moves(&scratch, r->hands[r->turn], r->table, r->compulsory, scratch.codes, MAX_CODES);
    for (int i = 0; i < count && 2 * i + 1 < IO_WORDS; i++) put_mask(2 * i, scratch.codes[i]);
    return count;
}

/* Play `card` taking the cards of the mask in io[0..1], named as `named` cards (`take_given` 0:
 * not named). 0 when played (the round banked if it ended), else the refusal (find_code's), and
 * nothing changes. */
EXPORT(pasur_play) int pasur_play(int card, int named, int take_given) {
    if (match.winner >= 0) return MATCH_OVER;
    if (!match.number || match.round.over) return ROUND_OVER;
    if (card < 0 || card > 51) return NOT_IN_HAND;
    uint64_t code = 0;
    int refused = find_code(&scratch, &match.round, card, get_mask(0) & FULL_DECK, named, take_given, &code);
    if (refused) return refused;
    match_play(&match, code);
    return 0;
}

/* Each side's breakdown of the round so far into io (scoring.SideScore's nine lines a side, in
 * its order); the number of sides. */
EXPORT(pasur_breakdown) int pasur_breakdown(void) {
    side_score_t scores[4];
    int sides = rules_sides(&match.rules);
    round_breakdown(&match.round, sides, match.rules.most_clubs, match.rules.sur_cancel, scores);
    memcpy(io, scores, sizeof(side_score_t) * (size_t)sides);
    return sides;
}

/* Seed seat `seat`'s bot as random.Random(seed) seeds a Python bot: the seed's words in io[1..]
 * (io[0] of them, 1 to 8). */
EXPORT(pasur_seed_bot) int pasur_seed_bot(int seat) {
    int words = (int)io[0];
    if (seat < 0 || seat > 3 || words < 1 || words > 8) return -1;
    twister_seed_key(&bot_rng[seat], io + 1, words);
    return 0;
}

/* The move the bot `random` (`random` 1) or `greedy` (0) of the seat to play chooses, with its
 * generator, into io[0..1]; -1 when nobody is to play. */
EXPORT(pasur_simple_bot) int pasur_simple_bot(int random) {
    const round_t *r = &match.round;
    if (!match.number || r->over) return -1;
    put_mask(0, simple_choice(&scratch, r, random, &bot_rng[r->turn]));
    return 0;
}

/* What the move in io[0..1] gains at once for the seat to play (simple.immediate_value: the greedy
 * bot's measure, which the lesson's tips suggest by). */
EXPORT(pasur_move_value) double pasur_move_value(void) { return immediate_value(&match.round, get_mask(0)); }

/* The move the bot `expert` of the seat to play chooses, with its generator, into io[0..1]; -1 when
 * nobody is to play. */
EXPORT(pasur_expert_bot) int pasur_expert_bot(void) {
    const round_t *r = &match.round;
    if (!match.number || r->over) return -1;
    static uint64_t codes[MAX_CODES];
    put_mask(0, expert_choice(&scratch, r, rules_sides(&match.rules), match.rules.most_clubs, &bot_rng[r->turn], codes));
    return 0;
}

/* Start the ismcts bot's search for the seat to play, with its generator, UCB constant
 * `exploration` and playouts `greedy`; the legal moves' count (with one, nothing is searched or
 * drawn), or -1 when nobody is to play. */
EXPORT(pasur_ismcts_start) int pasur_ismcts_start(double exploration, double greedy) {
    const round_t *r = &match.round;
    if (!match.number || r->over) return -1;
    int count = hand_moves(&scratch, r->hands[r->turn], r->table, r->compulsory, scratch.codes, MAX_CODES);
    tree.count = 0;
    if (count > 1)
        ismcts_start(&tree, r, rules_sides(&match.rules), match.rules.most_clubs, match.rules.sur_cancel,
                     exploration, greedy, &bot_rng[r->turn]);
    return count;
}

/* `iterations` more of the search under way; the nodes grown so far, or -1 when the tree is full. */
EXPORT(pasur_ismcts_run) int pasur_ismcts_run(int iterations) {
    if (!tree.count) return -1;
    for (int i = 0; i < iterations; i++)
        if (ismcts_iterate(&tree, &scratch) < 0) return -1;
    return tree.count;
}

/* The search's move into io[0..1]: the root's most visited (the only legal move when one was). */
EXPORT(pasur_ismcts_choose) int pasur_ismcts_choose(void) {
    const round_t *r = &match.round;
    if (!match.number || r->over) return -1;
    if (!tree.count) {
        if (hand_moves(&scratch, r->hands[r->turn], r->table, r->compulsory, scratch.codes, MAX_CODES) < 1) return -1;
        put_mask(0, scratch.codes[0]);
    } else {
        put_mask(0, ismcts_choice(&tree, &scratch));
    }
    return 0;
}

/* Start the pimc bot's samples for the seat to play, with its generator and playouts `greedy`; the
 * samples it takes (PimcBot: `playouts` shared among the legal moves, at least 1), 0 when one move
 * is legal (nothing is drawn: pasur_pimc_choose gives it), or -1 when nobody is to play. */
EXPORT(pasur_pimc_start) int pasur_pimc_start(int playouts, double greedy) {
    const round_t *r = &match.round;
    if (!match.number || r->over) return -1;
    if (pimc_start(&sampled, &scratch, r, rules_sides(&match.rules), match.rules.most_clubs, match.rules.sur_cancel,
                   greedy, &bot_rng[r->turn]) < 0)
        return -1;
    if (sampled.count < 2) return 0;
    int samples = playouts / sampled.count;
    return samples < 1 ? 1 : samples;
}

/* `samples` more samples of the pimc bot's decision under way; 0, or -1 on a fault. */
EXPORT(pasur_pimc_sample) int pasur_pimc_sample(int samples) {
    for (int i = 0; i < samples; i++)
        if (pimc_sample(&sampled, &scratch) < 0) return -1;
    return 0;
}

/* The pimc bot's move into io[0..1]: the best total so far. */
EXPORT(pasur_pimc_choose) int pasur_pimc_choose(void) {
    put_mask(0, pimc_choice(&sampled));
    return 0;
}

/* The others' plays in this deal as the solver bot of the seat to play weighs them (deal_evidence),
 * 20 words each into io: the seat, the table it saw, its seat's later cards, the move, every
 * seat's later cards, the side that had captured last (-1 none) and each side's clubs; their count. */
EXPORT(pasur_evidence) int pasur_evidence(void) {
    const round_t *r = &match.round;
    evidence_t evidence[MAX_EVIDENCE];
    int count = match.number && !r->over ? deal_evidence(r, match.plays, match.played, r->turn, evidence) : 0;
    for (int i = 0; i < count; i++) {
        const evidence_t *e = evidence + i;
        uint32_t *at = io + 20 * i;
        at[0] = (uint32_t)e->seat;
        put_mask(20 * i + 1, e->table);
        put_mask(20 * i + 3, e->later);
        put_mask(20 * i + 5, e->code);
        for (int k = 0; k < 4; k++) put_mask(20 * i + 7 + 2 * k, e->laters[k]);
        at[15] = (uint32_t)e->last;
        for (int k = 0; k < 4; k++) at[16 + k] = (uint32_t)e->clubs[k];
    }
    return count;
}

/* Start the solver bot's decision for the seat to play (SolverBot's defaults: the deal's horizon,
 * the others' plays in this deal weighed with `temper`, judged by the solver with two players and
 * by their greedy gains, leaving a sweep counting as `gift` Surs, with more; with more than two
 * sides the others searched each for itself when `each`, else as one); the legal moves' count, or
 * -1 when nobody is to play. */
EXPORT(pasur_solver_start) int pasur_solver_start(double temper, double gift, int each) {
    const round_t *r = &match.round;
    if (!match.number || r->over) return -1;
    memset(&decision, 0, sizeof(decision));
    decision.count = hand_moves(&scratch, r->hands[r->turn], r->table, r->compulsory, decision.codes, MAX_NODE_MOVES);
    int judged = r->players == 2;
    int plays = temper > 0 ? deal_evidence(r, match.plays, match.played, r->turn, decision.evidence) : 0;
    sampling_t how = {SAMPLING_TABLE_BITS, 1, judged, plays, temper > 0 ? temper : 1.0, gift, 0, each};
    decision.how = how;
    solver.scratch = &scratch;
    solver.table = &table;
    return decision.count;
}

/* `samples` more deals solved for the decision under way, dealt from the seed in io[0..1], the
 * search of each bounded by `node_limit` nodes (0: none); the deals solved in all, or -1 when the
 * table could not be had. */
EXPORT(pasur_solver_sample) int pasur_solver_sample(int samples, double node_limit) {
    const round_t *r = &match.round;
    static int32_t values[32 * MAX_NODE_MOVES];
    static double weights[32];
    if (samples > 32) samples = 32;
    int sides = rules_sides(&match.rules);
    solver_init(&solver, r, sides, r->side_of[r->turn], match.rules.most_clubs);
    solver.node_limit = (uint64_t)node_limit;
    if (take_table(&solver, SAMPLING_TABLE_BITS) < 0) return -1;
    uint64_t nodes = 0;
    int solved = sample_deals(&solver, r, r->turn, samples, get_mask(0), &decision.how, decision.evidence,
                              decision.count, values, weights, &nodes);
    if (solved < 0) return -1;
    /* two sides: side 0 minus side 1; more: the mover's points times (sides - 1) minus the others' */
    double scale = sides == 2 ? (r->side_of[r->turn] == 0 ? 1 : -1) : 1.0 / (sides - 1);
    for (int s = 0; s < solved; s++) {
        decision.weight += weights[s];
        for (int i = 0; i < decision.count; i++) decision.sums[i] += weights[s] * scale * values[s * decision.count + i];
    }
    decision.solved += solved;
    return decision.solved;
}

/* The round points against the others' mean that `playouts` samples of the pimc decision under way
 * give the move `code` (SolverBot.playout_points); 0 when there are none. */
static double playout_points(uint64_t code, int playouts) {
    for (int j = 0; playouts > 0 && j < sampled.count; j++)
        if (sampled.codes[j] == code) return (sampled.totals[j] / playouts - 0.5) * REWARD_SPAN;
    return 0.0;
}

/* The decision's move into io[0..1]: the best weighted mean over the deals solved, to which
 * `playouts` samples of a pimc decision for the same position (pasur_pimc_start; 0: none) add
 * their mean points, equal means told apart by the greedy bot's immediate value, then the engine's
 * order; -1 when no deal weighed anything (the caller plays the greedy bot's move then). Each
 * move's mean goes to io as doubles from word 2. */
EXPORT(pasur_solver_choose) int pasur_solver_choose(int playouts) {
    if (!(decision.weight > 0)) return -1;
    const round_t *r = &match.round;
    int best = 0;
    double best_mean = -1e300, best_value = -1e300;
    for (int i = 0; i < decision.count; i++) {
        double mean = decision.sums[i] / decision.weight + playout_points(decision.codes[i], playouts);
        double value = immediate_value(r, decision.codes[i]);
        if (2 + 2 * i + 1 < IO_WORDS) memcpy(io + 2 + 2 * i, &mean, sizeof(mean));
        if (mean > best_mean + 1e-9 || (mean >= best_mean - 1e-9 && value > best_value)) {
            best = i;
            best_mean = mean > best_mean ? mean : best_mean;
            best_value = value;
        }
    }
    put_mask(0, decision.codes[best]);
    return 0;
}
