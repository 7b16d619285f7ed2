/* The native engine core: the rules of a round in C, mirroring pasur/core/captures.py and
 * Round.play_code in pasur/core/game.py (the readable reference). Same encodings: a card is
 * rank * 4 + suit (rank 0 = Ace ... 9 = Ten, 10 Jack, 11 Queen, 12 King); a hand, the table and a
 * pile are 52-bit masks; a move is card | take << 6. Built by the normal install when a C compiler
 * exists; otherwise everything runs on the pure-Python engine.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define JACK 10
#define LOW_NUMERALS ((1ULL << 20) - 1)
#define NUMERALS ((1ULL << 40) - 1)
#define JACKS (0xFULL << (JACK * 4))
#define NUMERALS_AND_JACKS (NUMERALS | JACKS)
#define MAX_PARTIAL 4096 /* subsets of the 20 low cards worth 10 or less: 3,451 at most */
#define MAX_CODES 32768

typedef uint64_t mask_t;

static inline int lowest(mask_t m) { return __builtin_ctzll(m); }
static inline mask_t up_to(int t) { return t >= 13 ? ~0ULL : ((1ULL << (4 * t)) - 1); }

/* -- captures (captures.py) ------------------------------------------------------------------ */

typedef struct {
    mask_t subset;
    int total;
} partial_t;

/* Append to codes[*count] every take of a numeral of value `value` on `table`, in the order
 * captures._compute_takes lists them. */
static int numeral_takes(mask_t table, int value, mask_t *takes, int *count, int limit) {
    int target = 11 - value;
    static partial_t partial[MAX_PARTIAL];
    /* found[s]: subsets summing to s, in the order _subset_sums finds them */
    static mask_t found[11][MAX_PARTIAL];
    int found_n[11] = {0};
    int n = 1;
    partial[0].subset = 0;
    partial[0].total = 0;
    found[0][found_n[0]++] = 0;
    /* _subset_sums walks every low card of the table (values up to 5), not only those <= target */
    mask_t walk = table & LOW_NUMERALS;
    while (walk) {
        mask_t bit = walk & -walk;
        walk ^= bit;
        int v = (lowest(bit) >> 2) + 1;
        int before = n;
        for (int i = 0; i < before; i++) {
            int total = partial[i].total + v;
            if (total <= 10) {
                if (n >= MAX_PARTIAL) return -1;
                partial[n].subset = partial[i].subset | bit;
                partial[n].total = total;
                found[total][found_n[total]++] = partial[n].subset;
                n++;
            }
        }
    }
    for (int i = 0; i < found_n[target]; i++) {
        if (*count >= limit) return -1;
        takes[(*count)++] = found[target][i];
    }
    mask_t high = table & up_to(target) & ~LOW_NUMERALS;
    while (high) {
        mask_t bit = high & -high;
        high ^= bit;
        int rest = target - ((lowest(bit) >> 2) + 1);
        for (int i = 0; i < found_n[rest]; i++) {
            if (*count >= limit) return -1;
            takes[(*count)++] = bit | found[rest][i];
        }
    }
    return 0;
}

/* Append the legal move codes of `card` on `table` (card_moves): its captures, then laying it
 * down when it has none or capture is not compulsory. */
static int card_moves(mask_t table, int card, int compulsory, uint64_t *codes, int *count, int limit) {
    static mask_t takes[MAX_CODES];
    int n = 0;
    int rank = card >> 2;
    if (rank < JACK) {
        if (numeral_takes(table, rank + 1, takes, &n, MAX_CODES) < 0) return -1;
    } else if (rank == JACK) {
        mask_t taken = table & NUMERALS_AND_JACKS;
        if (taken) takes[n++] = taken;
    } else {
        mask_t same = table & (0xFULL << (rank * 4));
        while (same) {
            mask_t bit = same & -same;
            same ^= bit;
            takes[n++] = bit;
        }
    }
    for (int i = 0; i < n; i++) {
        if (*count >= limit) return -1;
        codes[(*count)++] = (uint64_t)card | takes[i] << 6;
    }
    if (!n || !compulsory) {
        if (*count >= limit) return -1;
        codes[(*count)++] = (uint64_t)card;
    }
    return 0;
}

static int hand_moves(mask_t hand, mask_t table, int compulsory, uint64_t *codes, int limit) {
    int count = 0;
    while (hand) {
        mask_t bit = hand & -hand;
        hand ^= bit;
        if (card_moves(table, lowest(bit), compulsory, codes, &count, limit) < 0) return -1;
    }
    return count;
}

/* -- a round (game.Round) -------------------------------------------------------------------- */

typedef struct {
    int players, compulsory, first;
    int side_of[4], sur_ok[4], last_deal_sur[4];
    uint8_t deck[52];
    mask_t hands[4], table, captured[4];
    int surs[4];
    int last_capturer, turn, dealt, deal, over;
} round_t;

static void deal_hands(round_t *r) {
    for (int offset = 0; offset < r->players; offset++) {
        mask_t hand = 0;
        for (int i = 0; i < 4; i++) hand |= 1ULL << r->deck[r->dealt + i];
        r->hands[(r->first + offset) % r->players] = hand;
        r->dealt += 4;
    }
}

static void play_code(round_t *r, uint64_t code) {
    int card = (int)(code & 63);
    mask_t take = code >> 6;
    int seat = r->turn;
    r->hands[seat] ^= 1ULL << card;
    if (take) {
        mask_t table = r->table ^ take;
        r->table = table;
        int side = r->side_of[seat];
        r->captured[side] |= take | 1ULL << card;
        r->last_capturer = side;
        if (!table && (card >> 2) != JACK && (r->dealt < 52 ? r->sur_ok : r->last_deal_sur)[side]) r->surs[side]++;
    } else {
        r->table |= 1ULL << card;
    }
    seat += 1;
    if (seat == r->players) seat = 0;
    r->turn = seat;
    if (!r->hands[seat]) {
        if (r->dealt < 52) {
            deal_hands(r);
            r->deal += 1;
        } else {
            if (r->last_capturer >= 0) {
                r->captured[r->last_capturer] |= r->table;
                r->table = 0;
            }
            r->over = 1;
        }
    }
}

/* splitmix64: the playouts' generator (its stream differs from Python's random). */
static inline uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t codes_buffer[MAX_CODES];

#define ACES 0xFULL
#define TWO_OF_CLUBS 4
#define TEN_OF_DIAMONDS 37

/* scoring.card_points */
static inline int card_points(mask_t cards) {
    return __builtin_popcountll(cards & ACES) + __builtin_popcountll(cards & JACKS) + 2 * (int)(cards >> TWO_OF_CLUBS & 1) +
           3 * (int)(cards >> TEN_OF_DIAMONDS & 1);
}

static inline double uniform(uint64_t *rng) { return (double)(next_random(rng) >> 11) * (1.0 / 9007199254740992.0); }

/* bots/playout.playout: with probability `greedy` the capture taking the most points (a Sur
 * counting 5; a random move when nothing can be taken), otherwise a uniformly random move. */
static int play_mixed(round_t *r, uint64_t *rng, double greedy, uint64_t *history, int *played) {
    while (!r->over) {
        int count = hand_moves(r->hands[r->turn], r->table, r->compulsory, codes_buffer, MAX_CODES);
        if (count <= 0) return -1;
        uint64_t chosen;
        if (count > 1 && uniform(rng) < greedy) {
            mask_t table = r->table;
            chosen = codes_buffer[(int)(uniform(rng) * count)];
            double best_value = 0.0;
            for (int i = 0; i < count; i++) {
                uint64_t code = codes_buffer[i];
                mask_t take = code >> 6;
                if (!take) continue;
                int card = (int)(code & 63);
                double value = card_points(take | 1ULL << card) + 0.3 * __builtin_popcountll(take);
                if (take == table && (card >> 2) != JACK) value += 5;
                if (value > best_value) {
                    chosen = code;
                    best_value = value;
                }
            }
        } else {
            chosen = codes_buffer[(int)(uniform(rng) * count)];
        }
        if (history && *played < 64) history[*played] = chosen;
        if (played) (*played)++;
        play_code(r, chosen);
    }
    return 0;
}

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

/* The fields, in the order pasur.core.native.round_fields gives them. */
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

static PyObject *mask_tuple(const mask_t *masks, int count) {
    PyObject *tuple = PyTuple_New(count);
    if (!tuple) return NULL;
    for (int i = 0; i < count; i++) PyTuple_SET_ITEM(tuple, i, PyLong_FromUnsignedLongLong(masks[i]));
    return tuple;
}

static PyObject *int_tuple(const int *values, int count) {
    PyObject *tuple = PyTuple_New(count);
    if (!tuple) return NULL;
    for (int i = 0; i < count; i++) PyTuple_SET_ITEM(tuple, i, PyLong_FromLong(values[i]));
    return tuple;
}

/* What changes as a round is played: hands, table, captured, surs, last_capturer, turn, dealt,
 * deal, over. */
static PyObject *round_state(const round_t *r, int sides) {
    return Py_BuildValue("(NKNNiiiiO)", mask_tuple(r->hands, r->players), (unsigned long long)r->table,
                         mask_tuple(r->captured, sides), int_tuple(r->surs, sides), r->last_capturer, r->turn,
                         r->dealt, r->deal, r->over ? Py_True : Py_False);
}

/* -- the module's functions ------------------------------------------------------------------ */

static PyObject *py_hand_moves(PyObject *self, PyObject *args) {
    unsigned long long hand, table;
    int compulsory;
    if (!PyArg_ParseTuple(args, "KKp", &hand, &table, &compulsory)) return NULL;
    int count = hand_moves(hand, table, compulsory, codes_buffer, MAX_CODES);
    if (count < 0) return PyErr_Format(PyExc_OverflowError, "more moves than the engine holds");
    PyObject *list = PyList_New(count);
    if (!list) return NULL;
    for (int i = 0; i < count; i++) PyList_SET_ITEM(list, i, PyLong_FromUnsignedLongLong(codes_buffer[i]));
    return list;
}

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

/* Play the round to its end with uniformly random legal moves; the final state and the moves. */
static PyObject *py_play_random(PyObject *self, PyObject *args) {
    PyObject *fields;
    unsigned long long seed;
    int keep_history;
    if (!PyArg_ParseTuple(args, "OKp", &fields, &seed, &keep_history)) return NULL;
    round_t r;
    int sides = read_round(fields, &r);
    if (sides < 0) return NULL;
    uint64_t rng = seed;
    uint64_t history[64];
    int played = 0;
    while (!r.over) {
        int count = hand_moves(r.hands[r.turn], r.table, r.compulsory, codes_buffer, MAX_CODES);
        if (count <= 0) return PyErr_Format(PyExc_RuntimeError, "no legal move in a round not over");
        uint64_t code = codes_buffer[next_random(&rng) % (uint64_t)count];
        if (played < 64) history[played] = code;
        played++;
        play_code(&r, code);
    }
    PyObject *state = round_state(&r, sides);
    if (!state || !keep_history) return state;
    PyObject *moves = PyList_New(played < 64 ? played : 64);
    for (int i = 0; i < played && i < 64; i++) PyList_SET_ITEM(moves, i, PyLong_FromUnsignedLongLong(history[i]));
    return Py_BuildValue("(NN)", state, moves);
}

/* Finish the round with the playout policy of the search bots; the final state. */
static PyObject *py_play_mixed(PyObject *self, PyObject *args) {
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
    if (play_mixed(&r, &rng, greedy, history, &played) < 0)
        return PyErr_Format(PyExc_RuntimeError, "no legal move in a round not over");
    PyObject *moves = PyList_New(played < 64 ? played : 64);
    if (!moves) return NULL;
    for (int i = 0; i < played && i < 64; i++) PyList_SET_ITEM(moves, i, PyLong_FromUnsignedLongLong(history[i]));
    return Py_BuildValue("(NN)", round_state(&r, sides), moves);
}

/* Random rounds from a fixed start, many times: rounds played (for the benchmark). */
static PyObject *py_random_rounds(PyObject *self, PyObject *args) {
    PyObject *fields;
    unsigned long long seed;
    long rounds;
    if (!PyArg_ParseTuple(args, "OKl", &fields, &seed, &rounds)) return NULL;
    round_t start;
    if (read_round(fields, &start) < 0) return NULL;
    uint64_t rng = seed;
    long long moves = 0;
    Py_BEGIN_ALLOW_THREADS;
    for (long i = 0; i < rounds; i++) {
        round_t r = start;
        while (!r.over) {
            int count = hand_moves(r.hands[r.turn], r.table, r.compulsory, codes_buffer, MAX_CODES);
            if (count <= 0) break;
            play_code(&r, codes_buffer[next_random(&rng) % (uint64_t)count]);
            moves++;
        }
    }
    Py_END_ALLOW_THREADS;
    return PyLong_FromLongLong(moves);
}

static PyMethodDef methods[] = {
    {"hand_moves", py_hand_moves, METH_VARARGS, "hand_moves(hand, table, compulsory) -> the legal move codes"},
    {"play", py_play, METH_VARARGS, "play(fields, codes) -> the round's changing fields after the moves"},
    {"play_random", py_play_random, METH_VARARGS,
     "play_random(fields, seed, keep_history) -> the fields at the round's end (and its first 64 moves)"},
    {"play_mixed", py_play_mixed, METH_VARARGS,
     "play_mixed(fields, seed, greedy) -> the fields at the round's end and the moves, played as bots/playout.py plays"},
    {"random_rounds", py_random_rounds, METH_VARARGS, "random_rounds(fields, seed, rounds) -> moves played"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_native", "The native engine core (see native.py).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&module); }
