/* The native engine core, as Python sees it: the rules of a round (_engine.h, mirroring
 * pasur/core/captures.py and Round.play_code in pasur/core/game.py, the readable reference), the
 * exact solver (_solver.h and its parts), the solver bot's model of the others (_model.h), many
 * episodes at once (_vector.h) and the net bot's features and network (_net.h). Same encodings: a card is
 * rank * 4 + suit (rank 0 = Ace ... 9 = Ten, 10 Jack, 11 Queen, 12 King); a hand, the table and a
 * pile are 52-bit masks; a move is card | take << 6. Built by the normal install when a C compiler
 * exists; otherwise everything runs on the pure-Python engine.
 *
 * Nothing here keeps state between calls: the scratch space, the solver and its transposition
 * table belong to a Workspace that the caller holds (pasur.core.native keeps one a thread), and a
 * workspace serves one call at a time, so calls on many threads never share memory. The long
 * calls (random rounds, solving, many samples, stepping many episodes) release the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "_engine.h"
#include "_solver.h"
#include "_solver_bounds.h"
#include "_solver_order.h"
#include "_solver_table.h"
#include "_solver_search.h"
#include "_solver_maxn.h"
#include "_model.h"
#include "_sampling.h"
#include "_vector.h"
#include "_net.h"


/* -- Python: reading and writing a round's fields ------------------------------------------- */

/* Read `count` non-negative integers (cards, sides, counts or masks) from a sequence. */
static int read_values(PyObject *sequence, uint64_t *out, int count, const char *what) {
    PyObject *fast = PySequence_Fast(sequence, what);
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d items", what, count);
        Py_DECREF(fast);
        return -1;
    }
    for (int i = 0; i < count; i++) {
        out[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) {
            if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_Clear();
                PyErr_Format(PyExc_ValueError, "%s: values are whole numbers from 0 to 2**64 - 1", what);
            }
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    return 0;
}

/* The same, for small numbers (cards, sides, flags, counts). */
static int read_ints(PyObject *sequence, int *out, int count, const char *what) {
    uint64_t values[52];
    if (count > 52 || read_values(sequence, values, count, what) < 0) return -1;
    for (int i = 0; i < count; i++) {
        if (values[i] > 1000) {
            PyErr_Format(PyExc_ValueError, "%s: a value out of range", what);
            return -1;
        }
        out[i] = (int)values[i];
    }
    return 0;
}

/* The fields, in the order Round.native_fields gives them. */
static int read_round(PyObject *fields, round_t *r) {
    PyObject *players, *compulsory, *first, *side_of, *sur_ok, *last_deal_sur, *deck, *hands, *table, *captured, *surs,
        *last_capturer, *turn, *dealt, *deal, *over;
    if (!PyArg_ParseTuple(fields, "OOOOOOOOOOOOOOOO", &players, &compulsory, &first, &side_of, &sur_ok,
                          &last_deal_sur, &deck, &hands, &table, &captured, &surs, &last_capturer, &turn, &dealt,
                          &deal, &over))
        return -1;
    memset(r, 0, sizeof(*r));
    r->players = (int)PyLong_AsLong(players);
    if (r->players < 2 || r->players > 4) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "players: 2, 3 or 4");
        return -1;
    }
    int sides = (int)PySequence_Size(sur_ok);
    if (sides < 1 || sides > 4) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "sides: 1 to 4");
        return -1;
    }
    int deck_ints[52];
    r->compulsory = PyObject_IsTrue(compulsory);
    r->first = (int)PyLong_AsLong(first);
    if (read_ints(side_of, r->side_of, r->players, "side_of") < 0 || read_ints(sur_ok, r->sur_ok, sides, "sur_ok") < 0 ||
        read_ints(last_deal_sur, r->last_deal_sur, sides, "last_deal_sur") < 0 ||
        read_ints(deck, deck_ints, 52, "deck") < 0 || read_values(hands, r->hands, r->players, "hands") < 0 ||
        read_values(captured, r->captured, sides, "captured") < 0 || read_ints(surs, r->surs, sides, "surs") < 0)
        return -1;
    for (int i = 0; i < 52; i++) {
        if (deck_ints[i] < 0 || deck_ints[i] > 51) {
            PyErr_SetString(PyExc_ValueError, "deck: cards are 0 to 51");
            return -1;
        }
        r->deck[i] = (uint8_t)deck_ints[i];
    }
    r->table = PyLong_AsUnsignedLongLong(table);
    r->last_capturer = (int)PyLong_AsLong(last_capturer);
    r->turn = (int)PyLong_AsLong(turn);
    r->dealt = (int)PyLong_AsLong(dealt);
    r->deal = (int)PyLong_AsLong(deal);
    r->over = PyObject_IsTrue(over);
    if (PyErr_Occurred()) return -1;
    if (r->turn < 0 || r->turn >= r->players || r->dealt < 0 || r->dealt > 52 || r->first < 0 || r->first >= r->players) {
        PyErr_SetString(PyExc_ValueError, "turn, first or dealt out of range");
        return -1;
    }
    for (int seat = 0; seat < r->players; seat++) {
        if (r->side_of[seat] < 0 || r->side_of[seat] >= sides) {
            PyErr_SetString(PyExc_ValueError, "side_of: a side out of range");
            return -1;
        }
    }
    return sides;
}

/* Store `item` (a new reference, NULL when making it failed) at `index` of a new tuple or list;
 * -1, releasing the container, when it is NULL. */
static int set_item(PyObject *container, Py_ssize_t index, PyObject *item) {
    if (!item) {
        Py_DECREF(container);
        return -1;
    }
    if (PyList_Check(container))
        PyList_SET_ITEM(container, index, item);
    else
        PyTuple_SET_ITEM(container, index, item);
    return 0;
}

static PyObject *mask_tuple(const mask_t *masks, int count) {
    PyObject *tuple = PyTuple_New(count);
    if (!tuple) return NULL;
    for (int i = 0; i < count; i++)
        if (set_item(tuple, i, PyLong_FromUnsignedLongLong(masks[i])) < 0) return NULL;
    return tuple;
}

static PyObject *int_tuple(const int *values, int count) {
    PyObject *tuple = PyTuple_New(count);
    if (!tuple) return NULL;
    for (int i = 0; i < count; i++)
        if (set_item(tuple, i, PyLong_FromLong(values[i])) < 0) return NULL;
    return tuple;
}

/* A list of move codes. */
static PyObject *code_list(const uint64_t *codes, int count) {
    PyObject *list = PyList_New(count);
    if (!list) return NULL;
    for (int i = 0; i < count; i++)
        if (set_item(list, i, PyLong_FromUnsignedLongLong(codes[i])) < 0) return NULL;
    return list;
}

/* A list of (move, value) pairs, each value shifted by `base` and turned by `sign`. */
static PyObject *move_values(const uint64_t *codes, const int *values, int count, int base, int sign) {
    PyObject *list = PyList_New(count);
    if (!list) return NULL;
    for (int i = 0; i < count; i++)
        if (set_item(list, i, Py_BuildValue("(Ki)", (unsigned long long)codes[i], base + sign * values[i])) < 0)
            return NULL;
    return list;
}

/* What changes as a round is played: hands, table, captured, surs, last_capturer, turn, dealt,
 * deal, over. */
static PyObject *round_state(const round_t *r, int sides) {
    PyObject *hands = mask_tuple(r->hands, r->players), *captured = mask_tuple(r->captured, sides),
             *surs = int_tuple(r->surs, sides);
    if (!hands || !captured || !surs) {
        Py_XDECREF(hands);
        Py_XDECREF(captured);
        Py_XDECREF(surs);
        return NULL;
    }
    return Py_BuildValue("(NKNNiiiiO)", hands, (unsigned long long)r->table, captured, surs, r->last_capturer, r->turn,
                         r->dealt, r->deal, r->over ? Py_True : Py_False);
}

/* -- a workspace: what a caller lends the native calls ------------------------------------------ */

/* The scratch space for listing moves, the solver (its move lists and state, made at its first
 * use) and its transposition table, kept from call to call. A workspace serves one call at a
 * time: `busy` is read and set with the GIL held, so a second call (another thread's, while the
 * first runs without the GIL) is refused instead of sharing the memory. */
typedef struct {
    PyObject_HEAD
    int busy;
    scratch_t *scratch;
    solver_t *solver;
    table_t table;
} workspace_t;

static PyObject *workspace_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    if (PyTuple_GET_SIZE(args) || (kwargs && PyDict_GET_SIZE(kwargs)))
        return PyErr_Format(PyExc_TypeError, "Workspace() takes no arguments");
    workspace_t *w = (workspace_t *)type->tp_alloc(type, 0);
    if (!w) return NULL;
    w->scratch = malloc(sizeof(scratch_t));
    if (!w->scratch) {
        Py_DECREF(w);
        return PyErr_NoMemory();
    }
    return (PyObject *)w;
}

static void workspace_dealloc(workspace_t *w) {
    free(w->scratch);
    free(w->solver);
    free_entries(&w->table);
    Py_TYPE(w)->tp_free((PyObject *)w);
}

/* Run `body` on the workspace, refusing when it serves another call. */
#define SERVED(name)                                                                                      \
    static PyObject *name(PyObject *self, PyObject *args) {                                               \
        workspace_t *w = (workspace_t *)self;                                                             \
        if (w->busy)                                                                                      \
            return PyErr_Format(PyExc_RuntimeError, "this workspace is serving another call: use one a thread"); \
        w->busy = 1;                                                                                      \
        PyObject *result = name##_body(w, args);                                                          \
        w->busy = 0;                                                                                      \
        return result;                                                                                    \
    }

/* -- the rules --------------------------------------------------------------------------------- */

static PyObject *py_hand_moves_body(workspace_t *w, PyObject *args) {
    unsigned long long hand, table;
    int compulsory;
    if (!PyArg_ParseTuple(args, "KKp", &hand, &table, &compulsory)) return NULL;
    uint64_t *codes = w->scratch->codes;
    int count = hand_moves(w->scratch, hand, table, compulsory, codes, MAX_CODES);
    if (count < 0) return PyErr_Format(PyExc_OverflowError, "more moves than the engine holds");
    return code_list(codes, count);
}
SERVED(py_hand_moves)

/* Play move codes in a round (no scratch space needed: a module function). */
static PyObject *py_play(PyObject *self, PyObject *args) {
    PyObject *fields, *codes;
    if (!PyArg_ParseTuple(args, "OO", &fields, &codes)) return NULL;
    round_t r;
    int sides = read_round(fields, &r);
    if (sides < 0) return NULL;
    PyObject *fast = PySequence_Fast(codes, "codes");
    if (!fast) return NULL;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast) && !r.over; i++) {
        uint64_t code = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred()) {
            Py_DECREF(fast);
            return NULL;
        }
        play_code(&r, code);
    }
    Py_DECREF(fast);
    return round_state(&r, sides);
}

/* The round's changing fields and its first 64 moves (a round has at most 48). */
static PyObject *state_and_moves(const round_t *r, int sides, const uint64_t *history, int played) {
    PyObject *state = round_state(r, sides);
    PyObject *moves = state ? code_list(history, played > 64 ? 64 : played) : NULL;
    if (!moves) {
        Py_XDECREF(state);
        return NULL;
    }
    return Py_BuildValue("(NN)", state, moves);
}

/* Play the round to its end with uniformly random legal moves; the final state and the moves. */
static PyObject *py_play_random_body(workspace_t *w, PyObject *args) {
    PyObject *fields;
    unsigned long long seed;
    int keep_history;
    if (!PyArg_ParseTuple(args, "OKp", &fields, &seed, &keep_history)) return NULL;
    round_t r;
    int sides = read_round(fields, &r);
    if (sides < 0) return NULL;
    uint64_t rng = seed, *codes = w->scratch->codes;
    uint64_t history[64];
    int played = 0;
    while (!r.over) {
        int count = hand_moves(w->scratch, r.hands[r.turn], r.table, r.compulsory, codes, MAX_CODES);
        if (count <= 0) return PyErr_Format(PyExc_RuntimeError, "no legal move in a round not over");
        uint64_t code = codes[next_random(&rng) % (uint64_t)count];
        if (played < 64) history[played] = code;
        played++;
        play_code(&r, code);
    }
    return keep_history ? state_and_moves(&r, sides, history, played) : round_state(&r, sides);
}
SERVED(py_play_random)

/* Finish the round with the playout policy of the search bots; the final state and the moves. */
static PyObject *py_play_mixed_body(workspace_t *w, PyObject *args) {
    PyObject *fields;
    unsigned long long seed;
    double greedy;
    if (!PyArg_ParseTuple(args, "OKd", &fields, &seed, &greedy)) return NULL;
    round_t r;
    int sides = read_round(fields, &r);
    if (sides < 0) return NULL;
    uint64_t rng = seed;
    uint64_t history[64];
    int played = 0;
    if (play_mixed(w->scratch, &r, &rng, greedy, history, &played) < 0)
        return PyErr_Format(PyExc_RuntimeError, "no legal move in a round not over");
    return state_and_moves(&r, sides, history, played);
}
SERVED(py_play_mixed)

/* Random rounds from a fixed start, many times, without the GIL: the moves played (for the
 * benchmark). */
static PyObject *py_random_rounds_body(workspace_t *w, PyObject *args) {
    PyObject *fields;
    unsigned long long seed;
    long rounds;
    if (!PyArg_ParseTuple(args, "OKl", &fields, &seed, &rounds)) return NULL;
    round_t start;
    if (read_round(fields, &start) < 0) return NULL;
    uint64_t rng = seed, *codes = w->scratch->codes;
    long long moves = 0;
    scratch_t *scratch = w->scratch;
    Py_BEGIN_ALLOW_THREADS;
    for (long i = 0; i < rounds; i++) {
        round_t r = start;
        while (!r.over) {
            int count = hand_moves(scratch, r.hands[r.turn], r.table, r.compulsory, codes, MAX_CODES);
            if (count <= 0) break;
            play_code(&r, codes[next_random(&rng) % (uint64_t)count]);
            moves++;
        }
    }
    Py_END_ALLOW_THREADS;
    return PyLong_FromLongLong(moves);
}
SERVED(py_random_rounds)


/* -- the solver ------------------------------------------------------------------------------ */

/* The workspace's solver, ready for a round read from Python, for the side to move when there are
 * more than two; NULL with the error set. */
static solver_t *read_solver(workspace_t *w, PyObject *fields, int most_clubs, int table_bits,
                             unsigned long long node_limit, round_t *r) {
    int sides = read_round(fields, r);
    if (sides < 0) return NULL;
    for (int seat = 0; seat < r->players; seat++) {
        if (sides == 2 ? r->side_of[seat] == r->side_of[(seat + 1) % r->players] : r->side_of[seat] != seat) {
            PyErr_SetString(PyExc_ValueError,
                            "the solver needs two sides playing in turn, or every player a side of its own");
            return NULL;
        }
    }
    if (table_bits < 0 || table_bits > 30) {
        PyErr_SetString(PyExc_ValueError, "table_bits: 0 (no table) to 30");
        return NULL;
    }
    if (!w->solver) {
        w->solver = malloc(sizeof(solver_t));
        if (!w->solver) {
            PyErr_NoMemory();
            return NULL;
        }
    }
    solver_t *S = w->solver;
    S->scratch = w->scratch;
    S->table = &w->table;
    solver_init(S, r, sides, r->side_of[r->turn], most_clubs);
    if (take_table(S, table_bits) < 0) {
        PyErr_NoMemory();
        return NULL;
    }
    S->node_limit = node_limit;
    return S;
}

/* The error of a search that stopped short (0 when none), set as a Python exception. */
static int solver_failed(const solver_t *S) {
    if (S->error == 1)
        PyErr_SetString(PyExc_OverflowError, "more moves at one position than the solver holds");
    else if (S->error)
        PyErr_Format(PyExc_RuntimeError, "the node limit (%llu) was reached before the position was solved",
                     (unsigned long long)S->node_limit);
    return S->error;
}

/* The principal line from `root` of value `value`: at each step the first move (in search order)
 * that keeps the value; its length, or -1 when none keeps it (S->error set when the search failed). */
static int principal_line(solver_t *S, const position_t *root, int value, uint64_t *line) {
    position_t at = *root;
    int length = 0;
    while (!at.over && !S->error && !(S->horizon && at.dealt > S->horizon) && length < MAX_PLIES) {
        uint64_t *step = S->moves[MAX_PLIES - 1];
        int n = ordered_moves(S, &at, step);
        int found = 0;
        for (int i = 0; i < n && !found && !S->error; i++) {
            position_t child = at;
            int gain = solver_play(S, &child, step[i]);
            int rest = exact_value(S, &child);
            if (combine(S, &at, &child, gain, rest) == value) {
                line[length++] = step[i];
                at = child;
                value = rest;
                found = 1;
            }
        }
        if (!found && !S->error) return -1;
    }
    return length;
}

/* solve(fields, most_clubs, table_bits, node_limit[, deal_only, each]) -> (value, [(move, value)],
 * line, nodes): values are the round's final points under perfect play, side 0 minus side 1; with
 * more than two sides the mover's side's points times (sides - 1) minus the others' together, the
 * others playing as one, or with `each` every player for itself (_solver_maxn.h; no line). The
 * search runs without the GIL. */
static PyObject *py_solve_body(workspace_t *w, PyObject *args) {
    PyObject *fields;
    int most_clubs, table_bits;
    unsigned long long node_limit;
    int deal_only = 0, each = 0;
    if (!PyArg_ParseTuple(args, "OpiK|pp", &fields, &most_clubs, &table_bits, &node_limit, &deal_only, &each))
        return NULL;
    round_t r;
    solver_t *S = read_solver(w, fields, most_clubs, table_bits, node_limit, &r);
    if (!S) return NULL;
    if (deal_only) S->horizon = r.dealt;
    position_t root = position_of(&r);
    int base = points_taken(S, &r), sign = result_sign(S, &r);
    uint64_t codes[MAX_NODE_MOVES], line[MAX_PLIES];
    int values[MAX_NODE_MOVES], count = 0, best, length;
    Py_BEGIN_ALLOW_THREADS;
    each = each && S->sides > 2;
    count = root.over ? 0 : (each ? maxn_root_values : root_values)(S, &root, r.compulsory, codes, values);
    best = root.over ? final_value(S, &root) : -UNBOUNDED;
    for (int i = 0; i < count; i++)
        if (values[i] > best) best = values[i];
    length = S->error || each ? 0 : principal_line(S, &root, best, line);
    Py_END_ALLOW_THREADS;
    if (solver_failed(S)) return NULL;
    if (length < 0) return PyErr_Format(PyExc_RuntimeError, "the solver lost its principal line");
    PyObject *moves = move_values(codes, values, count, base, sign);
    PyObject *line_list = moves ? code_list(line, length) : NULL;
    if (!line_list) {
        Py_XDECREF(moves);
        return NULL;
    }
    return Py_BuildValue("(iNNK)", base + sign * best, moves, line_list, (unsigned long long)S->nodes);
}
SERVED(py_solve)

/* Each evidence play's context for the solver's judgement, from `contexts` (one (laters, last,
 * clubs) for each play: 4 masks, a side or -1, 4 counts); 0, or -1 with an exception set. */
static int read_contexts(PyObject *contexts, evidence_t *evidence, int count) {
    if (PySequence_Size(contexts) != count) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "contexts: one for each play of the evidence");
        return -1;
    }
    for (int i = 0; i < count; i++) {
        PyObject *item = PySequence_GetItem(contexts, i);
        evidence_t *e = evidence + i;
        unsigned long long laters[4];
        int *clubs = e->clubs;
        int ok = item && PyArg_ParseTuple(item, "(KKKK)i(iiii)", laters, laters + 1, laters + 2, laters + 3, &e->last,
                                          clubs, clubs + 1, clubs + 2, clubs + 3);
        Py_XDECREF(item);
        if (!ok) return -1;
        int valid = e->last >= -1 && e->last < 4;
        for (int side = 0; side < 4; side++) {
            e->laters[side] = laters[side] & ((1ULL << 52) - 1);
            valid &= clubs[side] >= 0 && clubs[side] <= 13;
        }
        if (!valid) {
            PyErr_SetString(PyExc_ValueError, "contexts: a side or -1 and club counts of 0 to 13");
            return -1;
        }
    }
    return 0;
}

/* The evidence plays ((seat, table, later, move) each) into `evidence`; their count, or -1 with
 * an exception set. */
static int read_evidence(PyObject *evidence_list, double temper, evidence_t *evidence) {
    if (!evidence_list || evidence_list == Py_None) return 0;
    Py_ssize_t size = PySequence_Size(evidence_list);
    if (size < 0 || size > MAX_EVIDENCE || !(temper > 0)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "evidence: at most 16 plays, and temper > 0");
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *item = PySequence_GetItem(evidence_list, i);
        evidence_t *e = evidence + i;
        unsigned long long table, later, code;
        int ok = item && PyArg_ParseTuple(item, "iKKK", &e->seat, &table, &later, &code);
        Py_XDECREF(item);
        if (!ok) return -1;
        if (e->seat < 0 || e->seat > 3) {
            PyErr_SetString(PyExc_ValueError, "evidence: a seat of the round");
            return -1;
        }
        e->table = table;
        e->later = later;
        e->code = code;
    }
    return (int)size;
}

/* solve_samples(fields, most_clubs, table_bits, node_limit, deal_only, seat, samples, seed
 * [, evidence, temper, node_budget, gift, contexts, each]) -> (codes, values, solved, nodes, weights):
 * the legal moves, and for each of `samples` deals of the cards `seat` (the mover) cannot see,
 * dealt again at random from `seed`, every move's value as solve() gives it (int32s, deal by deal)
 * and the deal's weight (doubles): how likely the plays of `evidence` ((seat, table, later, move)
 * each) are with its hands, passing up a gain g having likelihood exp(-g / temper) (a play leaving
 * a table one card could sweep giving up `gift` times a Sur more); with `contexts`
 * (read_contexts), what each play gave up is what the solver finds it lost instead. Stops early,
 * with the deals solved so far, at a deal that reaches the node limit, and after the deal with
 * which the nodes searched reach `node_budget` (0: none). With `each` (more than two sides, the
 * deal's horizon) every player plays for itself in the search (_solver_maxn.h). The deals are
 * solved without the GIL. */
static PyObject *py_solve_samples_body(workspace_t *w, PyObject *args) {
    PyObject *fields, *evidence_list = NULL, *context_list = NULL;
    int most_clubs, table_bits, deal_only, seat, samples, each = 0;
    unsigned long long node_limit, seed, node_budget = 0;
    double temper = 1, gift = 0;
    if (!PyArg_ParseTuple(args, "OpiKpiiK|OdKdOp", &fields, &most_clubs, &table_bits, &node_limit, &deal_only, &seat,
                          &samples, &seed, &evidence_list, &temper, &node_budget, &gift, &context_list, &each))
        return NULL;
    int judged = context_list && context_list != Py_None;
    evidence_t evidence[MAX_EVIDENCE];
    int evidence_count = read_evidence(evidence_list, temper, evidence);
    if (evidence_count < 0) return NULL;
    if (judged && read_contexts(context_list, evidence, evidence_count) < 0) return NULL;
    round_t r;
    solver_t *S = read_solver(w, fields, most_clubs, table_bits, node_limit, &r);
    if (!S) return NULL;
    for (int i = 0; i < evidence_count; i++) {
        if (evidence[i].seat >= r.players) {
            PyErr_SetString(PyExc_ValueError, "evidence: a seat of the round");
            return NULL;
        }
    }
    if (seat != r.turn || samples < 0 || r.over) {
        PyErr_SetString(PyExc_ValueError, "the seat to move, samples >= 0, and a round not over");
        return NULL;
    }
    uint64_t codes[MAX_NODE_MOVES];
    int count = hand_moves(w->scratch, r.hands[r.turn], r.table, r.compulsory, codes, MAX_NODE_MOVES);
    if (count <= 0) {
        PyErr_SetString(PyExc_OverflowError, "more moves at one position than the solver holds");
        return NULL;
    }
    int32_t *out = malloc(sizeof(int32_t) * (size_t)count * (size_t)(samples ? samples : 1));
    double *weights = malloc(sizeof(double) * (size_t)(samples ? samples : 1));
    if (!out || !weights) {
        free(out);
        free(weights);
        return PyErr_NoMemory();
    }
    sampling_t how = {table_bits, deal_only, judged, evidence_count, temper, gift, node_budget, each};
    int solved;
    uint64_t nodes = 0;
    Py_BEGIN_ALLOW_THREADS;
    solved = sample_deals(S, &r, seat, samples, seed, &how, evidence, count, out, weights, &nodes);
    Py_END_ALLOW_THREADS;
    int no_table = solved < 0;
    PyObject *result = NULL;
    if (no_table) {
        PyErr_NoMemory();
    } else if (S->error != 1) { /* a deal that reached the node limit ends the sampling, not the call */
        PyObject *move_list = code_list(codes, count);
        if (move_list)
            result = Py_BuildValue("(Ny#iKy#)", move_list, (const char *)out,
                                   (Py_ssize_t)(sizeof(int32_t) * (size_t)count * (size_t)solved), solved,
                                   (unsigned long long)nodes, (const char *)weights,
                                   (Py_ssize_t)(sizeof(double) * (size_t)solved));
    } else {
        solver_failed(S);
    }
    free(out);
    free(weights);
    return result;
}
SERVED(py_solve_samples)

/* minimax(fields, most_clubs, node_limit) -> (value, [(move, value)], nodes) by plain minimax,
 * without the GIL. */
static PyObject *py_minimax_body(workspace_t *w, PyObject *args) {
    PyObject *fields;
    int most_clubs;
    unsigned long long node_limit;
    if (!PyArg_ParseTuple(args, "OpK", &fields, &most_clubs, &node_limit)) return NULL;
    round_t r;
    solver_t *S = read_solver(w, fields, most_clubs, 0, node_limit, &r);
    if (!S) return NULL;
    position_t root = position_of(&r);
    int base = points_taken(S, &r), sign = result_sign(S, &r);
    uint64_t codes[MAX_NODE_MOVES];
    int values[MAX_NODE_MOVES], count, best;
    Py_BEGIN_ALLOW_THREADS;
    count = root.over ? 0 : hand_moves(S->scratch, root.hands[root.turn], root.table, r.compulsory, codes, MAX_NODE_MOVES);
    if (count < 0) S->error = 1;
    best = root.over ? final_value(S, &root) : -UNBOUNDED;
    for (int i = 0; i < count && !S->error; i++) {
        position_t child = root;
        int gain = solver_play(S, &child, codes[i]);
        values[i] = combine(S, &root, &child, gain, plain_minimax(S, &child, 1));
        if (values[i] > best) best = values[i];
    }
    Py_END_ALLOW_THREADS;
    if (solver_failed(S)) return NULL;
    PyObject *moves = move_values(codes, values, count, base, sign);
    if (!moves) return NULL;
    return Py_BuildValue("(iNK)", base + sign * best, moves, (unsigned long long)S->nodes);
}
SERVED(py_minimax)


/* -- many episodes at once (pasur.envs.vector) ------------------------------------------------ */

/* The episodes live in a writable buffer of count * sizeof(episode_t) bytes owned by Python. */
static episode_t *episodes_in(Py_buffer *buffer, Py_ssize_t *count) {
    if (buffer->len % (Py_ssize_t)sizeof(episode_t)) {
        PyErr_SetString(PyExc_ValueError, "episodes: not a whole number of episodes");
        return NULL;
    }
    *count = buffer->len / (Py_ssize_t)sizeof(episode_t);
    return (episode_t *)buffer->buf;
}

static PyObject *py_episode_size(PyObject *self, PyObject *args) { return PyLong_FromSize_t(sizeof(episode_t)); }

/* episode_reset(episodes, index, fields, agent, policies, keys, most_clubs, sur_cancel): start
 * episode `index` on a round (its fields), the opponents seeded with the 32-bit words `keys[seat]`;
 * the opponents then play until the agent is to move. */
static PyObject *py_episode_reset_body(workspace_t *w, PyObject *args) {
    Py_buffer buffer;
    Py_ssize_t index, count;
    PyObject *fields, *policies, *keys;
    int agent, most_clubs, sur_cancel;
    if (!PyArg_ParseTuple(args, "w*nOiOOpp", &buffer, &index, &fields, &agent, &policies, &keys, &most_clubs,
                          &sur_cancel))
        return NULL;
    episode_t *episodes = episodes_in(&buffer, &count);
    PyObject *result = NULL;
    if (!episodes) goto done;
    if (index < 0 || index >= count) {
        PyErr_SetString(PyExc_IndexError, "episode index out of range");
        goto done;
    }
    episode_t *e = episodes + index;
    memset(e, 0, sizeof(*e));
    int sides = read_round(fields, &e->round);
    if (sides < 0) goto done;
    int players = e->round.players;
    if (agent < 0 || agent >= players || read_ints(policies, e->policy, players, "policies") < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "agent: a seat of the round");
        goto done;
    }
    PyObject *fast = PySequence_Fast(keys, "keys");
    if (!fast) goto done;
    if (PySequence_Fast_GET_SIZE(fast) != players) {
        PyErr_SetString(PyExc_ValueError, "keys: one a seat");
        Py_DECREF(fast);
        goto done;
    }
    for (int seat = 0; seat < players; seat++) {
        uint64_t words[8];
        PyObject *key = PySequence_Fast_GET_ITEM(fast, seat);
        Py_ssize_t length = PySequence_Size(key);
        if (length < 1 || length > 8 || read_values(key, words, (int)length, "key") < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "key: 1 to 8 words of 32 bits");
            Py_DECREF(fast);
            goto done;
        }
        uint32_t key_words[8];
        for (int i = 0; i < length; i++) key_words[i] = (uint32_t)words[i];
        twister_seed_key(&e->rng[seat], key_words, (int)length);
    }
    Py_DECREF(fast);
    e->sides = sides;
    e->agent = agent;
    e->most_clubs = most_clubs;
    e->sur_cancel = sur_cancel;
    e->card = -1;
    e->policy[agent] = POLICY_AGENT;
    opponents_play(w->scratch, e);
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&buffer);
    return result;
}
SERVED(py_episode_reset)

/* episode_step(episodes, actions, skip, rewards, terminated, illegal): one action for every
 * episode not skipped (int64 actions; uint8 skip, terminated, illegal; float64 rewards). An
 * illegal action ends its episode with -1, as PasurEnv does. Runs without the GIL. */
static PyObject *py_episode_step_body(workspace_t *w, PyObject *args) {
    Py_buffer buffers[6];
    if (!PyArg_ParseTuple(args, "w*y*y*w*w*w*", &buffers[0], &buffers[1], &buffers[2], &buffers[3], &buffers[4],
                          &buffers[5]))
        return NULL;
    Py_ssize_t count;
    PyObject *result = NULL;
    episode_t *episodes = episodes_in(&buffers[0], &count);
    if (episodes) {
        if (buffers[1].len != count * 8 || buffers[2].len != count || buffers[3].len != count * 8 ||
            buffers[4].len != count || buffers[5].len != count) {
            PyErr_SetString(PyExc_ValueError, "one action, skip flag, reward and flag an episode");
        } else {
            const int64_t *actions = buffers[1].buf;
            const uint8_t *skip = buffers[2].buf;
            double *rewards = buffers[3].buf;
            uint8_t *terminated = buffers[4].buf, *illegal = buffers[5].buf;
            scratch_t *scratch = w->scratch;
            Py_BEGIN_ALLOW_THREADS;
            for (Py_ssize_t i = 0; i < count; i++) {
                rewards[i] = 0;
                terminated[i] = illegal[i] = 0;
                if (skip[i]) continue;
                if (episode_step(scratch, &episodes[i], (long)actions[i], &rewards[i])) {
                    rewards[i] = -1.0;
                    terminated[i] = illegal[i] = 1;
                } else {
                    terminated[i] = (uint8_t)episodes[i].round.over;
                }
            }
            Py_END_ALLOW_THREADS;
            result = Py_NewRef(Py_None);
        }
    }
    for (int i = 0; i < 6; i++) PyBuffer_Release(&buffers[i]);
    return result;
}
SERVED(py_episode_step)

/* episode_observe(episodes, observations, action_masks): every episode's observation (int8, 629
 * each) and action mask (int8, 105 each), from the agent's seat; without the GIL. */
static PyObject *py_episode_observe_body(workspace_t *w, PyObject *args) {
    Py_buffer buffers[3];
    if (!PyArg_ParseTuple(args, "y*w*w*", &buffers[0], &buffers[1], &buffers[2])) return NULL;
    Py_ssize_t count;
    PyObject *result = NULL;
    episode_t *episodes = episodes_in(&buffers[0], &count);
    if (episodes) {
        if (buffers[1].len != count * OBSERVATION_VALUES || buffers[2].len != count * ACTIONS) {
            PyErr_SetString(PyExc_ValueError, "one observation and one action mask an episode");
        } else {
            scratch_t *scratch = w->scratch;
            Py_BEGIN_ALLOW_THREADS;
            for (Py_ssize_t i = 0; i < count; i++)
                episode_observe(scratch, &episodes[i], (int8_t *)buffers[1].buf + i * OBSERVATION_VALUES,
                                (int8_t *)buffers[2].buf + i * ACTIONS);
            Py_END_ALLOW_THREADS;
            result = Py_NewRef(Py_None);
        }
    }
    for (int i = 0; i < 3; i++) PyBuffer_Release(&buffers[i]);
    return result;
}
SERVED(py_episode_observe)

/* -- the net bot (_net.h) ---------------------------------------------------------------------- */

#define ALL_CARDS ((1ULL << 52) - 1)

/* A net.Decision's fields (Decision.fields: 5 masks, 5 small integers, 10 floats). */
static int read_decision(PyObject *fields, decision_t *d) {
    unsigned long long masks[5];
    if (!PyArg_ParseTuple(fields, "KKKKKiiiiidddddddddd;a decision is 5 masks, 5 integers and 10 numbers", &masks[0],
                          &masks[1], &masks[2], &masks[3], &masks[4], &d->side_last, &d->other_last, &d->sur_ok,
                          &d->their_sur, &d->own_surs, &d->club_value, &d->chance, &d->before[0], &d->before[1],
                          &d->before[2], &d->before[3], &d->before[4], &d->before[5], &d->before[6], &d->before[7]))
        return -1;
    for (int i = 0; i < 5; i++) {
        if (masks[i] & ~ALL_CARDS) {
            PyErr_SetString(PyExc_ValueError, "a decision's masks hold cards 0 to 51");
            return -1;
        }
    }
    d->hand = masks[0], d->table = masks[1], d->own = masks[2], d->others = masks[3], d->unseen = masks[4];
    return 0;
}

/* Move codes (card | take << 6, cards 0 to 51) from a sequence, into a new array (free it). */
static uint64_t *read_codes(PyObject *sequence, Py_ssize_t *count) {
    PyObject *fast = PySequence_Fast(sequence, "codes: a sequence of move codes");
    if (!fast) return NULL;
    *count = PySequence_Fast_GET_SIZE(fast);
    uint64_t *codes = malloc(sizeof(uint64_t) * (*count ? *count : 1));
    if (!codes) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < *count; i++) {
        codes[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (PyErr_Occurred() || (codes[i] & 63) > 51 || codes[i] >> 58) {
            if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_Clear();
                PyErr_SetString(PyExc_ValueError, "codes: card | take << 6, cards 0 to 51");
            }
            Py_DECREF(fast);
            free(codes);
            return NULL;
        }
    }
    Py_DECREF(fast);
    return codes;
}

/* net_features(decision, codes) -> float32 bytes, a row of net.FEATURE_COUNT values a move. */
static PyObject *py_net_features_body(workspace_t *w, PyObject *args) {
    PyObject *fields, *sequence;
    decision_t d;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "OO", &fields, &sequence) || read_decision(fields, &d) < 0) return NULL;
    uint64_t *codes = read_codes(sequence, &count);
    if (!codes) return NULL;
    PyObject *result = PyBytes_FromStringAndSize(NULL, count * NET_FEATURES * (Py_ssize_t)sizeof(float));
    if (result) {
        float *rows = (float *)PyBytes_AS_STRING(result);
        for (Py_ssize_t i = 0; i < count; i++) {
            if (move_row(w->scratch, &d, codes[i], rows + i * NET_FEATURES) < 0) {
                Py_CLEAR(result);
                PyErr_SetString(PyExc_OverflowError, "more moves than the engine holds");
                break;
            }
        }
    }
    free(codes);
    return result;
}
SERVED(py_net_features)

/* The network's six float32 layers, of sizes that fit together. */
static int read_network(Py_buffer *layers, network_t *n) {
    n->first = (int)(layers[1].len / (Py_ssize_t)sizeof(float));
    n->second = (int)(layers[3].len / (Py_ssize_t)sizeof(float));
    Py_ssize_t unit = sizeof(float);
    if (n->first < 1 || n->first > NET_MAX_UNITS || n->second < 1 || n->second > NET_MAX_UNITS ||
        layers[0].len != NET_FEATURES * n->first * unit || layers[1].len != n->first * unit ||
        layers[2].len != (Py_ssize_t)n->first * n->second * unit || layers[3].len != n->second * unit ||
        layers[4].len != n->second * unit || layers[5].len != unit) {
        PyErr_SetString(PyExc_ValueError, "the network's layers do not fit together (float32, at most 4096 units)");
        return -1;
    }
    const float **arrays[6] = {&n->w1, &n->b1, &n->w2, &n->b2, &n->w3, &n->b3};
    for (int i = 0; i < 6; i++) *arrays[i] = (const float *)layers[i].buf;
    return 0;
}

/* net_scores(decision, codes, w1, b1, w2, b2, w3, b3) -> the network's score of each move. */
static PyObject *py_net_scores_body(workspace_t *w, PyObject *args) {
    PyObject *fields, *sequence, *result = NULL;
    Py_buffer layers[6];
    decision_t d;
    network_t n;
    Py_ssize_t count;
    if (!PyArg_ParseTuple(args, "OOy*y*y*y*y*y*", &fields, &sequence, &layers[0], &layers[1], &layers[2], &layers[3],
                          &layers[4], &layers[5]))
        return NULL;
    uint64_t *codes = NULL;
    if (read_decision(fields, &d) == 0 && read_network(layers, &n) == 0 && (codes = read_codes(sequence, &count))) {
        result = PyList_New(count);
        float row[NET_FEATURES];
        for (Py_ssize_t i = 0; result && i < count; i++) {
            if (move_row(w->scratch, &d, codes[i], row) < 0) {
                Py_CLEAR(result);
                PyErr_SetString(PyExc_OverflowError, "more moves than the engine holds");
            } else if (set_item(result, i, PyFloat_FromDouble(network_score(&n, row))) < 0) {
                result = NULL;
            }
        }
    }
    free(codes);
    for (int i = 0; i < 6; i++) PyBuffer_Release(&layers[i]);
    return result;
}
SERVED(py_net_scores)

/* The observation's blocks and the actions as _vector.h writes them, by encoding.py's names. */
static PyObject *py_observation_layout(PyObject *self, PyObject *args) {
    return Py_BuildValue("{sisisisisisisisisisisisisisisisisisisi}", "HAND", HAND, "TABLE", TABLE, "CAPTURED", CAPTURED,
                         "UNSEEN", UNSEEN, "CHOSEN", CHOSEN, "NAMED", NAMED, "TURN", TURN, "HANDS", HANDS, "DEAL", DEAL,
                         "LAST_CAPTURER", LAST_CAPTURER, "PLAYERS", PLAYERS, "PARTNERSHIP", PARTNERSHIP, "SCORES",
                         SCORES, "SURS", SURS, "ROUND", ROUND, "SUR_SLOTS", SUR_SLOTS, "OBSERVATION_SIZE",
                         OBSERVATION_VALUES, "TAKE", ACTION_TAKE, "DONE", ACTION_DONE, "ACTION_COUNT", ACTIONS);
}

static PyMethodDef workspace_methods[] = {
    {"hand_moves", py_hand_moves, METH_VARARGS, "hand_moves(hand, table, compulsory) -> the legal move codes"},
    {"play_random", py_play_random, METH_VARARGS,
     "play_random(fields, seed, keep_history) -> the fields at the round's end (and its first 64 moves)"},
    {"play_mixed", py_play_mixed, METH_VARARGS,
     "play_mixed(fields, seed, greedy) -> the fields at the round's end and the moves, played as bots/playout.py plays"},
    {"random_rounds", py_random_rounds, METH_VARARGS, "random_rounds(fields, seed, rounds) -> moves played"},
    {"solve", py_solve, METH_VARARGS,
     "solve(fields, most_clubs, table_bits, node_limit[, deal_only, each]) -> (value, [(move, value)], line, nodes), "
     "side 0 minus side 1 (more sides: the mover's margin; with each, every player for itself, no line)"},
    {"solve_samples", py_solve_samples, METH_VARARGS,
     "solve_samples(fields, most_clubs, table_bits, node_limit, deal_only, seat, samples, seed[, evidence, temper, "
     "node_budget, gift, contexts, each]) -> (codes, values, solved, nodes, weights)"},
    {"minimax", py_minimax, METH_VARARGS, "minimax(fields, most_clubs, node_limit) -> (value, [(move, value)], nodes)"},
    {"episode_reset", py_episode_reset, METH_VARARGS,
     "episode_reset(episodes, index, fields, agent, policies, keys, most_clubs, sur_cancel)"},
    {"episode_step", py_episode_step, METH_VARARGS, "episode_step(episodes, actions, skip, rewards, terminated, illegal)"},
    {"episode_observe", py_episode_observe, METH_VARARGS, "episode_observe(episodes, observations, action_masks)"},
    {"net_features", py_net_features, METH_VARARGS, "net_features(decision, codes) -> float32 bytes, a row a move"},
    {"net_scores", py_net_scores, METH_VARARGS,
     "net_scores(decision, codes, w1, b1, w2, b2, w3, b3) -> the net's score of each move"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject workspace_type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pasur.core._native.Workspace",
    .tp_doc = "Workspace(): the scratch space, solver and transposition table one caller lends the native calls; "
              "one call at a time.",
    .tp_basicsize = sizeof(workspace_t),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = workspace_new,
    .tp_dealloc = (destructor)workspace_dealloc,
    .tp_methods = workspace_methods,
};

static PyMethodDef methods[] = {
    {"play", py_play, METH_VARARGS, "play(fields, codes) -> the round's changing fields after the moves"},
    {"episode_size", py_episode_size, METH_NOARGS, "episode_size() -> the bytes of one episode"},
    {"observation_layout", py_observation_layout, METH_NOARGS,
     "observation_layout() -> {name: offset or size} of the observation and the actions"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_native", "The native engine core (see native.py).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__native(void) {
    if (PyType_Ready(&workspace_type) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddObjectRef(m, "Workspace", (PyObject *)&workspace_type) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
