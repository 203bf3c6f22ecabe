/* The compiled double-dummy search of vistlog.projections.solver: the same questions, the same answers.
 *
 * Solver (solver.py) is the reference; this file is its search loop in C, kept step for step alike:
 * the same legal moves, the same merging of equal cards, the same move order, the same transposition
 * table (keyed by the hands squeezed to the live cards of each suit, each entry a lower and an upper
 * bound of the declarer's tricks to come). Built at install where a C compiler exists (an optional
 * extension: the install goes on without it); tests compare both on every test position.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static uint8_t SQUEEZE[65536];

static int popc(uint32_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcount(x);
#else
    int n = 0;
    while (x) { x &= x - 1; n++; }
    return n;
#endif
}

static int low_index(uint32_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctz(x);
#else
    int i = 0;
    while (!(x & 1u)) { x >>= 1; i++; }
    return i;
#endif
}

typedef struct {
    uint64_t a, b;
    int8_t lo, hi;
    uint8_t used;
} Entry;

typedef struct {
    PyObject_HEAD
    int declarer, trump, misere;
    int maxer[3];
    Entry *table;
    size_t cap, count;
    long long nodes;
    uint32_t h[3];
    int tseat[3], tcard[3], tn;
} Search;

static const uint32_t SUIT_MASK[4] = {0xFFu, 0xFF00u, 0xFF0000u, 0xFF000000u};

static int beats(int b, int best, int trump) {
    int s = b >> 3, t = best >> 3;
    if (s == t) return b > best;
    return s == trump;
}

static uint32_t legal_of(const Search *s, uint32_t hand, int led) {
    if (led < 0) return hand;
    uint32_t same = hand & SUIT_MASK[led];
    if (same) return same;
    if (s->trump >= 0) {
        uint32_t trumps = hand & SUIT_MASK[s->trump];
        if (trumps) return trumps;
    }
    return hand;
}

static uint64_t mix(uint64_t a, uint64_t b) {
    uint64_t x = a ^ (b * 0x9E3779B97F4A7C15ull);
    x ^= x >> 31; x *= 0xBF58476D1CE4E5B9ull; x ^= x >> 29;
    return x;
}

static int grow(Search *s) {
    size_t cap = s->cap ? s->cap * 2 : 1u << 14;
    Entry *t = (Entry *)calloc(cap, sizeof(Entry));
    if (!t) return -1;
    for (size_t i = 0; i < s->cap; i++) {
        Entry *e = &s->table[i];
        if (!e->used) continue;
        size_t j = mix(e->a, e->b) & (cap - 1);
        while (t[j].used) j = (j + 1) & (cap - 1);
        t[j] = *e;
    }
    free(s->table);
    s->table = t;
    s->cap = cap;
    return 0;
}

/* The entry for (a, b), made with bounds [0, r] when new; NULL when memory runs out. */
static Entry *entry(Search *s, uint64_t a, uint64_t b, int r) {
    if ((s->count + 1) * 2 > s->cap && grow(s) < 0) return NULL;
    size_t j = mix(a, b) & (s->cap - 1);
    while (s->table[j].used) {
        if (s->table[j].a == a && s->table[j].b == b) return &s->table[j];
        j = (j + 1) & (s->cap - 1);
    }
    Entry *e = &s->table[j];
    e->a = a; e->b = b; e->lo = 0; e->hi = (int8_t)r; e->used = 1;
    s->count++;
    return e;
}

static int card(Search *s, int seat, int k);

static int start(Search *s, int leader, int k) {
    if (k <= 0) return 1;
    int r = popc(s->h[leader]);
    if (k > r) return 0;
    uint32_t h0 = s->h[0], h1 = s->h[1], alive = h0 | h1 | s->h[2];
    uint64_t key[4];
    for (int i = 0; i < 4; i++) {
        int shift = 8 * i;
        uint32_t a = (alive >> shift & 0xFFu) << 8;
        key[i] = (uint64_t)popc(a) << 16 | (uint64_t)SQUEEZE[a | (h0 >> shift & 0xFFu)] << 8
                 | SQUEEZE[a | (h1 >> shift & 0xFFu)];
    }
    uint64_t ka = (uint64_t)leader << 60 | key[0] << 40 | key[1] << 20 | key[2], kb = key[3];
    Entry *e = entry(s, ka, kb, r);
    if (!e) return -1;
    if (e->lo >= k) return 1;
    if (e->hi < k) return 0;
    int ok = card(s, leader, k);
    if (ok < 0) return -1;
    e = entry(s, ka, kb, r);  /* the table may have grown meanwhile */
    if (!e) return -1;
    if (ok) { if (k > e->lo) e->lo = (int8_t)k; }
    else if (k - 1 < e->hi) e->hi = (int8_t)(k - 1);
    return ok;
}

static int winner(const Search *s) {
    int seat = s->tseat[0], best = s->tcard[0];
    for (int i = 1; i < s->tn; i++)
        if (beats(s->tcard[i], best, s->trump)) { seat = s->tseat[i]; best = s->tcard[i]; }
    return seat;
}

static int card(Search *s, int seat, int k) {
    uint32_t hand = s->h[seat];
    int n = s->tn;
    int led = n ? s->tcard[0] >> 3 : -1;
    uint32_t legal = legal_of(s, hand, led);
    uint32_t alive = s->h[0] | s->h[1] | s->h[2];
    for (int i = 0; i < n; i++) alive |= 1u << s->tcard[i];
    int moves[10], nm = 0;
    uint32_t m = legal;
    while (m && nm < 10) {
        uint32_t low = m & (~m + 1u);
        m ^= low;
        int b = low_index(low);
        uint32_t above = alive & SUIT_MASK[b >> 3] & ~((low << 1) - 1u);
        if (!((above & (~above + 1u)) & hand)) moves[nm++] = b;
    }
    int maxer = s->maxer[seat];
    int order[10], no = 0;
    if (n == 0) {
        if (seat == s->declarer && s->misere) for (int i = 0; i < nm; i++) order[no++] = moves[i];
        else for (int i = nm - 1; i >= 0; i--) order[no++] = moves[i];
    } else if (nm < 2) {
        for (int i = 0; i < nm; i++) order[no++] = moves[i];
    } else {
        int w_seat = s->tseat[0], w_card = s->tcard[0];
        for (int i = 1; i < n; i++)
            if (beats(s->tcard[i], w_card, s->trump)) { w_seat = s->tseat[i]; w_card = s->tcard[i]; }
        int wins[10], nw = 0, rest[10], nr = 0;
        for (int i = 0; i < nm; i++) {
            if (beats(moves[i], w_card, s->trump)) wins[nw++] = moves[i];
            else rest[nr++] = moves[i];
        }
        int decl = s->declarer;
        if ((w_seat == decl) == maxer) {
            for (int i = 0; i < nr; i++) order[no++] = rest[i];
            for (int i = 0; i < nw; i++) order[no++] = wins[i];
        } else if ((seat == decl) == maxer) {
            for (int i = 0; i < nw; i++) order[no++] = wins[i];
            for (int i = 0; i < nr; i++) order[no++] = rest[i];
        } else {
            for (int i = nr - 1; i >= 0; i--) order[no++] = rest[i];
            for (int i = 0; i < nw; i++) order[no++] = wins[i];
        }
    }
    s->nodes += no;
    for (int i = 0; i < no; i++) {
        int b = order[i];
        s->h[seat] = hand & ~(1u << b);
        s->tseat[n] = seat; s->tcard[n] = b; s->tn = n + 1;
        int ok;
        if (n == 2) {
            int w = winner(s);
            int saved[3] = {s->tseat[0], s->tseat[1], s->tseat[2]}, savedc[3] = {s->tcard[0], s->tcard[1], s->tcard[2]};
            s->tn = 0;
            ok = start(s, w, k - (w == s->declarer));
            memcpy(s->tseat, saved, sizeof saved); memcpy(s->tcard, savedc, sizeof savedc);
        } else {
            ok = card(s, (seat + 1) % 3, k);
        }
        s->tn = n;
        s->h[seat] = hand;
        if (ok < 0) return -1;
        if (ok == maxer) return ok;
    }
    return !maxer;
}

static int Search_init(Search *self, PyObject *args, PyObject *kwds) {
    int declarer, trump, misere;
    if (!PyArg_ParseTuple(args, "iii", &declarer, &trump, &misere)) return -1;
    if (declarer < 0 || declarer > 2 || trump < -1 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "declarer 0..2, trump -1..3");
        return -1;
    }
    self->declarer = declarer; self->trump = trump; self->misere = misere ? 1 : 0;
    for (int i = 0; i < 3; i++) self->maxer[i] = (i == declarer) != self->misere;
    free(self->table);
    self->table = NULL; self->cap = 0; self->count = 0; self->nodes = 0;
    if (grow(self) < 0) { PyErr_NoMemory(); return -1; }
    return 0;
}

static void Search_dealloc(Search *self) {
    free(self->table);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Search_ge(Search *self, PyObject *args) {
    unsigned long h0, h1, h2;
    int seat, k;
    PyObject *trick;
    if (!PyArg_ParseTuple(args, "kkkiO!i", &h0, &h1, &h2, &seat, &PyList_Type, &trick, &k)) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(trick);
    if (n % 2 || n > 4 || seat < 0 || seat > 2) {
        PyErr_SetString(PyExc_ValueError, "a trick under way is up to two (seat, card) pairs");
        return NULL;
    }
    self->h[0] = (uint32_t)h0; self->h[1] = (uint32_t)h1; self->h[2] = (uint32_t)h2;
    self->tn = (int)(n / 2);
    for (Py_ssize_t i = 0; i < n / 2; i++) {
        long st = PyLong_AsLong(PyList_GET_ITEM(trick, 2 * i));
        long cd = PyLong_AsLong(PyList_GET_ITEM(trick, 2 * i + 1));
        if (PyErr_Occurred()) return NULL;
        self->tseat[i] = (int)st; self->tcard[i] = (int)cd;
    }
    long long before = self->nodes;
    int ok = self->tn ? card(self, seat, k) : start(self, seat, k);
    if (ok < 0) return PyErr_NoMemory();
    return Py_BuildValue("(OL)", ok ? Py_True : Py_False, self->nodes - before);
}

static PyMethodDef Search_methods[] = {
    {"ge", (PyCFunction)Search_ge, METH_VARARGS,
     "ge(h0, h1, h2, seat, trick, k) -> (bool, nodes): can the declarer's tricks to come be made at least k?"},
    {NULL, NULL, 0, NULL}
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "vistlog.projections._csolver.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One deal's search: Search(declarer, trump, misere); its table is shared by every question.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_csolver", "The compiled search of vistlog.projections.solver.", -1, NULL,
};

PyMODINIT_FUNC PyInit__csolver(void) {
    for (int a = 0; a < 256; a++)
        for (int h = 0; h < 256; h++) {
            if (h & ~a) continue;
            int j = 0, out = 0;
            for (int i = 0; i < 8; i++)
                if (a >> i & 1) { if (h >> i & 1) out |= 1 << j; j++; }
            SQUEEZE[a << 8 | h] = (uint8_t)out;
        }
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType); Py_DECREF(m); return NULL;
    }
    return m;
}
