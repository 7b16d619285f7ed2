/* The bot `ismcts` (pasur/bots/ismcts.py, the readable reference): information-set Monte Carlo tree
 * search over the rest of the round from the seat to play's view. It draws from Python's own
 * generator exactly as the Python bot does with the native core's playouts (each deal of the unseen
 * cards a random.shuffle, each new node a random.random(), each playout seeded by getrandbits(64)),
 * so with the same seed it makes the same tree and the same move (tests/test_wasm.py): the
 * browser's `hard` level (_wasm.c). */
#ifndef PASUR_ISMCTS_H
#define PASUR_ISMCTS_H

#include <math.h>

#include "_engine.h"
#include "_playout.h"

/* The nodes one search may grow: one an iteration, and the root. */
#define ISMCTS_NODES 8192

typedef struct {
    uint64_t code;          /* the move that led here */
    int side;               /* the side that made it (-1: the root) */
    int child, sibling;     /* the first child and the next sibling (-1: none), children in the order made */
    int visits, available;  /* walks through this node, and walks where its move was legal */
    double total;           /* the side's rewards over those walks */
} ismcts_node_t;

typedef struct {
    round_t base;           /* the round as the seat to play sees it, the unseen cards dealt anyhow */
    int seat, sides, most_clubs, sur_cancel, count;
    double exploration, greedy;
    twister_t *rng;
    ismcts_node_t nodes[ISMCTS_NODES];
    uint64_t codes[MAX_CODES]; /* the legal moves at a node of the walk */
    int untried[MAX_CODES], path[MAX_PLIES + 1];
} ismcts_t;

static int ismcts_new_node(ismcts_t *m, uint64_t code, int side) {
    if (m->count >= ISMCTS_NODES) return -1;
    ismcts_node_t *node = m->nodes + m->count;
    node->code = code;
    node->side = side;
    node->child = node->sibling = -1;
    node->visits = node->available = 0;
    node->total = 0.0;
    return m->count++;
}

/* The child of `parent` reached by `code`, or -1. */
static int ismcts_child(const ismcts_t *m, int parent, uint64_t code) {
    for (int at = m->nodes[parent].child; at >= 0; at = m->nodes[at].sibling)
        if (m->nodes[at].code == code) return at;
    return -1;
}

/* IsmctsBot.choose's start for the seat to play of `r` (a round not over): Round.from_view's deal
 * of the unseen cards (it draws from the generator as a reshuffle does), and the root. */
static void ismcts_start(ismcts_t *m, const round_t *r, int sides, int most_clubs, int sur_cancel, double exploration,
                         double greedy, twister_t *rng) {
    m->base = *r;
    m->seat = r->turn;
    m->sides = sides;
    m->most_clubs = most_clubs;
    m->sur_cancel = sur_cancel;
    m->exploration = exploration;
    m->greedy = greedy;
    m->rng = rng;
    m->count = 0;
    reshuffle_as_python(&m->base, m->seat, rng);
    ismcts_new_node(m, 0, -1);
}

/* IsmctsBot._iterate on a fresh deal: walk the tree by UCB among the moves legal in this deal, add
 * one node, play the round out, and score every node on the path for the side that moved into it.
 * -1 when the tree is full or a round not over has no move. */
static int ismcts_iterate(ismcts_t *m, scratch_t *s) {
    uint64_t *codes = m->codes;
    int *untried = m->untried, *path = m->path;
    round_t game = m->base;
    reshuffle_as_python(&game, m->seat, m->rng);
    int node = 0, length = 0;
    path[length++] = 0;
    while (!game.over) {
        int count = hand_moves(s, game.hands[game.turn], game.table, game.compulsory, codes, MAX_CODES);
        if (count <= 0) return -1;
        int open = 0;
        for (int i = 0; i < count; i++) {
            int child = ismcts_child(m, node, codes[i]);
            if (child >= 0)
                m->nodes[child].available++;
            else
                untried[open++] = i;
        }
        if (open) {
            uint64_t code = codes[untried[(int)(twister_random(m->rng) * open)]];
            int child = ismcts_new_node(m, code, game.side_of[game.turn]);
            if (child < 0) return -1;
            ismcts_node_t *made = m->nodes + child, *parent = m->nodes + node;
            made->available = 1;
            if (parent->child < 0) {
                parent->child = child;
            } else {
                int last = parent->child;
                while (m->nodes[last].sibling >= 0) last = m->nodes[last].sibling;
                m->nodes[last].sibling = child;
            }
            play_code(&game, code);
            path[length++] = child;
            break;
        }
        int best = -1;
        double best_score = -INFINITY;
        for (int i = 0; i < count; i++) {
            const ismcts_node_t *child = m->nodes + ismcts_child(m, node, codes[i]);
            double score = child->total / child->visits +
                           m->exploration * sqrt(log((double)child->available) / child->visits);
            if (score > best_score || best < 0) {
                best = ismcts_child(m, node, codes[i]);
                best_score = score;
            }
        }
        node = best;
        play_code(&game, m->nodes[node].code);
        if (length > MAX_PLIES) return -1;
        path[length++] = node;
    }
    uint64_t seed = twister_bits64(m->rng); /* drawn even when the walk reached the round's end */
    if (play_mixed(s, &game, &seed, m->greedy, NULL, NULL) < 0) return -1;
    double rewards[4];
    playout_outcome(&game, m->sides, m->most_clubs, m->sur_cancel, rewards);
    for (int i = 0; i < length; i++) {
        ismcts_node_t *visited = m->nodes + path[i];
        visited->visits++;
        if (visited->side >= 0) visited->total += rewards[visited->side];
    }
    return 0;
}

/* The root's most visited move among those legal at the root (the first of equals, in the engine's
 * order); a move never tried counts as visited -1 times. */
static uint64_t ismcts_choice(ismcts_t *m, scratch_t *s) {
    uint64_t *codes = m->codes;
    const round_t *r = &m->base;
    int count = hand_moves(s, r->hands[r->turn], r->table, r->compulsory, codes, MAX_CODES);
    uint64_t best = codes[0];
    int best_visits = -2;
    for (int i = 0; i < count; i++) {
        int child = ismcts_child(m, 0, codes[i]);
        int visits = child >= 0 ? m->nodes[child].visits : -1;
        if (visits > best_visits) {
            best = codes[i];
            best_visits = visits;
        }
    }
    return best;
}

#endif
