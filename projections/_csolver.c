/* The compiled double-dummy search of vistlog.projections.solver: the same questions, the same answers.
 *
 * Solver (solver.py) is the reference; this file is its search loop in C, kept step for step alike: the same
 * legal moves, the same merging of equal cards, the same move order, the same sure-trick bounds and the same
 * table (partition search: per leader and suit lengths of every hand, patterns of who holds the live cards
 * from the top of each suit down to the lowest card that mattered, each with a lower and an upper bound of the
 * side's tricks to come), so that the same cards are tried. A bucket's patterns lie in groups, one a depth, each an
 * array read in a row (where a hash table per pattern cost a cache miss per depth, bench/analysis.py: 2 to 4 times
 * faster on Solo Whist deals); a position is matched against the groups in the order Solver._start reads them, the
 * group that answered last first (6 % fewer cards tried on the DDS deals, 13 % fewer instructions). Playing alone
 * for the fewest with no trump, the relaxed game of relaxed.py comes first where the exact table has no answer, with
 * a table of its own. Built at install where a C compiler exists (an optional extension: the install goes on
 * without it); tests compare both on every test position.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int popc64(uint64_t x) {
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__POPCNT__) || defined(__aarch64__))
    return __builtin_popcountll(x);
#else  /* without the instruction, a few operations in registers rather than a library call */
    x -= x >> 1 & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + (x >> 2 & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (int)(x * 0x0101010101010101ull >> 56);
#endif
}

static int low_index64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int i = 0;
    while (!(x & 1u)) { x >>= 1; i++; }
    return i;
#endif
}

static int highest64(uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return 63 - __builtin_clzll(x);
#else
    int i = 63;
    while (!(x >> i & 1u)) i--;
    return i;
#endif
}

typedef struct {  /* a pattern: in each pair of suits, the values its group's bits of the owner planes must have */
    uint64_t s01, s23;
    int8_t lo, hi;
} Pattern;

typedef struct {  /* the patterns of one depth: in each pair of suits, the owner planes' bits they keep */
    uint64_t m01, m23;
    uint32_t depth;  /* four bytes: how many live cards from the top of each suit */
    uint32_t n, cap;
    Pattern *pats;
} Group;

typedef struct {  /* a table of whole positions (Entry), open addressing */
    struct Entry *slots;
    size_t cap, count;
} Table;

typedef struct Entry {  /* a position of the exact table, with its bounds */
    uint64_t a, b;
    int8_t lo, hi;
    uint8_t used;
} Entry;

typedef struct {  /* the positions with one leader, talon trick and length of every hand in every suit */
    uint64_t lens;
    uint32_t lt;  /* leader << 2 | talon tricks done, + 1 (0: the slot is empty) */
    uint32_t n, cap;  /* its groups, the one that answered last first */
    Group *groups;
} Bucket;

typedef struct {
    PyObject_HEAD
    int n, fewest, trump, must_trump, taker, nt;
    int plain;  /* playing for the fewest: the exact table (Solver._plain) */
    int in_side[4], maxer[4];
    int mated[4];  /* the player has a camp-mate (Solver._mated) */
    int alone;  /* the side's one player playing for the fewest with no trump (Hints._under), else -1 */
    int talon[16];
    uint64_t talon_rest[17];
    Bucket *buckets;
    size_t cap, count;
    Table exact;  /* playing for the fewest: the table keyed by the whole squeezed position */
    Table relaxed;  /* the relaxed game's positions (relaxed.py), keyed with who leads (n: any of the others) */
    long long nodes;
    long long limit;  /* the cards a question may try before it stops unanswered (0: no limit) */
    long long check_at;  /* when the clock is read next */
    double deadline;  /* the clock's second it stops unanswered (0: none) */
    int stopped;  /* the question ran out of its budget: -1 came up through the search, nothing stored */
    uint64_t h[4];
    int tseat[4], tcard[4], tn;
} Search;

static const uint64_t SUIT_MASK[4] = {0xFFFFull, 0xFFFF0000ull, 0xFFFF00000000ull, 0xFFFF000000000000ull};

static int beats(int b, int best, int trump) {
    int s = b >> 4, t = best >> 4;
    if (s == t) return b > best;
    return s == trump;
}

static int led_of(const Search *s, int t) {
    if (t < s->nt) return s->talon[t] >> 4;
    return s->tn ? s->tcard[0] >> 4 : -1;
}

static uint64_t legal_of(const Search *s, uint64_t hand, int led) {
    if (led < 0) return hand;
    uint64_t same = hand & SUIT_MASK[led];
    if (same) return same;
    if (s->must_trump && s->trump >= 0) {
        uint64_t trumps = hand & SUIT_MASK[s->trump];
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
    size_t cap = s->cap ? s->cap * 2 : 1u << 12;
    Bucket *t = (Bucket *)calloc(cap, sizeof(Bucket));
    if (!t) return -1;
    for (size_t i = 0; i < s->cap; i++) {
        Bucket *e = &s->buckets[i];
        if (!e->lt) continue;
        size_t j = mix(e->lens, e->lt) & (cap - 1);
        while (t[j].lt) j = (j + 1) & (cap - 1);
        t[j] = *e;
    }
    free(s->buckets);
    s->buckets = t;
    s->cap = cap;
    return 0;
}

/* The bucket of (lens, lt), made empty when new; NULL when memory runs out. */
static Bucket *bucket(Search *s, uint64_t lens, uint32_t lt) {
    if ((s->count + 1) * 2 > s->cap && grow(s) < 0) return NULL;
    size_t j = mix(lens, lt) & (s->cap - 1);
    while (s->buckets[j].lt) {
        if (s->buckets[j].lens == lens && s->buckets[j].lt == lt) return &s->buckets[j];
        j = (j + 1) & (s->cap - 1);
    }
    Bucket *e = &s->buckets[j];
    e->lens = lens; e->lt = lt; e->n = e->cap = 0; e->groups = NULL;
    s->count++;
    return e;
}

/* A table entry's bounds narrowed by the answer ok to "at least k?"; the answer (questions._narrowed). */
static int narrow(int8_t *lo, int8_t *hi, int k, int ok) {
    if (ok) { if (k > *lo) *lo = (int8_t)k; }
    else if (k - 1 < *hi) *hi = (int8_t)(k - 1);
    return ok;
}

/* One card of each run of legal cards (a hand's cards with no other alive card between them play alike): those whose
   next live card up the suit is not hand's, lowest first, into moves; how many (cardbits._runs). */
static int runs(uint64_t legal, uint64_t hand, uint64_t alive, int moves[16]) {
    int nm = 0;
    while (legal && nm < 16) {
        uint64_t low = legal & (~legal + 1u);
        legal ^= low;
        int b = low_index64(low);
        uint64_t above = alive & SUIT_MASK[b >> 4] & ~((low << 1) - 1u);
        if (!((above & (~above + 1u)) & hand)) moves[nm++] = b;
    }
    return nm;
}

/* An array of n items of size bytes with room for *cap, with room for one more (moved, maybe); NULL when memory
   runs out (the array is still there). */
static void *room(void *items, uint32_t n, uint32_t *cap, size_t size) {
    if (n < *cap) return items;
    uint32_t more = *cap ? *cap * 2 : 4;
    void *p = realloc(items, more * size);
    if (p) *cap = more;
    return p;
}

static void free_buckets(Search *s) {
    for (size_t i = 0; i < s->cap; i++) {
        for (uint32_t g = 0; g < s->buckets[i].n; g++) free(s->buckets[i].groups[g].pats);
        free(s->buckets[i].groups);
    }
    free(s->buckets);
    s->buckets = NULL; s->cap = 0; s->count = 0;
}

static uint8_t SQUEEZE[65536];

static uint32_t squeeze16(uint64_t a, uint64_t m) {
    uint32_t lo = (uint32_t)(a & 0xFFu) << 8, hi = (uint32_t)(a >> 8 & 0xFFu) << 8;
    return SQUEEZE[lo | (m & 0xFFu)] | (uint32_t)SQUEEZE[hi | (m >> 8 & 0xFFu)] << popc64(a & 0xFFu);
}

static int grow_table(Table *tb) {
    size_t cap = tb->cap ? tb->cap * 2 : 1u << 14;
    Entry *t = (Entry *)calloc(cap, sizeof(Entry));
    if (!t) return -1;
    for (size_t i = 0; i < tb->cap; i++) {
        Entry *e = &tb->slots[i];
        if (!e->used) continue;
        size_t j = mix(e->a, e->b) & (cap - 1);
        while (t[j].used) j = (j + 1) & (cap - 1);
        t[j] = *e;
    }
    free(tb->slots);
    tb->slots = t;
    tb->cap = cap;
    return 0;
}

static void free_table(Table *tb) {
    free(tb->slots);
    tb->slots = NULL; tb->cap = 0; tb->count = 0;
}

/* The table's entry for (a, b), made with bounds [0, r] when new; NULL when memory runs out. */
static Entry *table_entry(Table *tb, uint64_t a, uint64_t b, int r) {
    if ((tb->count + 1) * 2 > tb->cap && grow_table(tb) < 0) return NULL;
    size_t j = mix(a, b) & (tb->cap - 1);
    while (tb->slots[j].used) {
        if (tb->slots[j].a == a && tb->slots[j].b == b) return &tb->slots[j];
        j = (j + 1) & (tb->cap - 1);
    }
    Entry *e = &tb->slots[j];
    e->a = a; e->b = b; e->lo = 0; e->hi = (int8_t)r; e->used = 1;
    tb->count++;
    return e;
}

/* Per suit, who holds each live card: two planes of a bit a live card (Solver._owners). */
static void owners(const Search *s, uint64_t alive, int t, uint32_t out[4]) {
    uint64_t x = s->n == 4 ? s->h[3] : s->talon_rest[t];
    uint64_t m0 = s->h[1] | x, m1 = s->h[2] | x;
    for (int su = 0; su < 4; su++) {
        uint64_t a = alive >> (16 * su) & 0xFFFFu;
        out[su] = squeeze16(a, m0 >> (16 * su) & 0xFFFFu) | squeeze16(a, m1 >> (16 * su) & 0xFFFFu) << 16;
    }
}

/* Both planes' bits of the top depth of count live cards (Solver._top). */
static uint32_t top_of(int count, int depth) {
    uint32_t m = (uint32_t)((1u << count) - (1u << (count - depth)));
    return m | m << 16;
}

/* The top depth[s] live cards of each suit s. */
static uint64_t pins(uint64_t alive, uint32_t depth) {
    uint64_t out = 0;
    for (int su = 0; su < 4; su++) {
        uint64_t a = alive >> (16 * su) & 0xFFFFu;
        for (int i = 0; i < (int)(depth >> (8 * su) & 0xFFu); i++) {
            int b = highest64(a);
            a ^= 1ull << b;
            out |= 1ull << (16 * su + b);
        }
    }
    return out;
}

/* The tricks the leader takes in a row whatever the others do, and those cards (Hints._quick). */
static int quick(const Search *s, int leader, uint64_t alive, uint64_t *rel) {
    uint64_t hand = s->h[leader];
    int mine = s->in_side[leader];
    uint64_t ruffers[4];
    int nr = 0;
    if (s->trump >= 0)
        for (int i = 0; i < s->n; i++)
            if ((s->in_side[i] != mine || s->must_trump) && i != leader && (s->h[i] & SUIT_MASK[s->trump]))
                ruffers[nr++] = s->h[i];
    int q = 0;
    *rel = 0;
    for (int su = 0; su < 4; su++) {
        uint64_t a = alive >> (16 * su) & 0xFFFFu, own = hand >> (16 * su) & 0xFFFFu;
        int top = 0;
        while (a && (own >> highest64(a) & 1)) {
            int b = highest64(a);
            a ^= 1ull << b;
            *rel |= 1ull << (16 * su + b);
            top++;
        }
        if (top && su != s->trump)
            for (int i = 0; i < nr; i++) {
                int len = popc64(ruffers[i] >> (16 * su) & 0xFFFFu);
                if (len < top) top = len;
            }
        q += top;
    }
    return q;
}

/* The top trumps held by one camp (Hints._top_trumps): *camp, the most one player holds, *rel those cards. */
static int top_trumps(const Search *s, uint64_t alive, int *camp, uint64_t *rel) {
    uint64_t a = alive >> (16 * s->trump) & 0xFFFFu;
    int count[4] = {0, 0, 0, 0}, g = 0, c = -1;
    *rel = 0;
    while (a) {
        int b = highest64(a);
        a ^= 1ull << b;
        uint64_t bit = 1ull << (16 * s->trump + b);
        int owner = -1;
        for (int i = 0; i < s->n; i++) if (s->h[i] & bit) { owner = i; break; }
        if (owner < 0) break;
        if (c < 0) c = s->in_side[owner];
        else if (s->in_side[owner] != c) break;
        *rel |= bit;
        if (++count[owner] > g) g = count[owner];
    }
    *camp = c > 0;
    return g;
}

/* At a trick's start, playing for the most, the bounds sure tricks give the side's r tricks to come, and the cards
   each rests on (Hints._sure). */
static void sure(const Search *s, int leader, uint64_t alive, int r, int *lo, int *hi, uint64_t *lo_rel,
                 uint64_t *hi_rel) {
    uint64_t q_rel, g_rel;
    int q = quick(s, leader, alive, &q_rel), camp;
    *lo = 0; *hi = r; *lo_rel = *hi_rel = 0;
    if (s->in_side[leader]) { if (q > *lo) { *lo = q; *lo_rel = q_rel; } }
    else if (r - q < *hi) { *hi = r - q; *hi_rel = q_rel; }
    if (s->trump >= 0) {
        int g = top_trumps(s, alive, &camp, &g_rel);
        if (camp && g > *lo) { *lo = g; *lo_rel = g_rel; }
        if (!camp && r - g < *hi) { *hi = r - g; *hi_rel = g_rel; }
    }
}

static int card(Search *s, int seat, int t, int k, uint64_t *rel);
static int relaxed_start(Search *s, int lead, int k);
static int winner(const Search *s, int t);

static double monotonic_now(void) {
    struct timespec ts;
#if defined(CLOCK_MONOTONIC)
    clock_gettime(CLOCK_MONOTONIC, &ts);
#else
    timespec_get(&ts, TIME_UTC);
#endif
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Out of budget: the cards tried past the limit, or (read every 65,536 cards) the clock past the deadline. */
static int spent(Search *s) {
    if (s->limit && s->nodes > s->limit) return s->stopped = 1;
    if (s->deadline > 0 && s->nodes >= s->check_at) {
        s->check_at = s->nodes + 65536;
        if (monotonic_now() > s->deadline) return s->stopped = 1;
    }
    return 0;
}
static uint64_t decided(const Search *s, int t, int w);

/* The exact table (Solver._start_exact): the whole position squeezed to its live cards is the key. */
static int start_exact(Search *s, int leader, int t, int k, int r) {
    uint32_t own[4];
    uint64_t alive = t < s->nt ? s->talon_rest[t] : 0;
    for (int i = 0; i < s->n; i++) alive |= s->h[i];
    owners(s, alive, t, own);
    uint64_t part[4];  /* per suit: the live cards' count and the two planes, 13 bits each at most */
    for (int su = 0; su < 4; su++)
        part[su] = (uint64_t)popc64(alive >> (16 * su) & 0xFFFFu) << 26 | (uint64_t)(own[su] & 0x1FFFu) << 13
                   | (own[su] >> 16 & 0x1FFFu);
    uint64_t ka = (uint64_t)leader << 62 | (uint64_t)t << 60 | part[0] << 30 | part[1];
    uint64_t kb = part[2] << 30 | part[3];
    Entry *e = table_entry(&s->exact, ka, kb, r);
    if (!e) return -1;
    if (e->lo >= k) return 1;
    if (e->hi < k) return 0;
    if (s->alone >= 0 && t >= s->nt) {  /* the relaxed game first: fewer than k there is fewer here (relaxed.py) */
        int made = relaxed_start(s, leader, k);
        if (made < 0) return -1;
        if (!made) {
            e = table_entry(&s->exact, ka, kb, r);
            if (!e) return -1;
            return narrow(&e->lo, &e->hi, k, 0);
        }
    }
    uint64_t found;
    int ok = card(s, leader, t, k, &found);
    if (ok < 0) return -1;
    e = table_entry(&s->exact, ka, kb, r);  /* the table may have grown meanwhile */
    if (!e) return -1;
    return narrow(&e->lo, &e->hi, k, ok);
}

/* In one suit, is the i-th lowest card of d under the i-th lowest of o, for every i both have (in Hints._under)? */
static int under_all(uint64_t d, uint64_t o) {
    while (d && o) {
        if ((d & (~d + 1u)) > (o & (~o + 1u))) return 0;
        d &= d - 1u;
        o &= o - 1u;
    }
    return 1;
}

/* Can the side's lone player play under every card for good, on lead or not (Hints._under)? */
static int under(const Search *s, int leader, int t) {
    int seat = s->alone;
    if (seat < 0 || t < s->nt) return 0;
    uint64_t mine = s->h[seat], others = 0;
    for (int i = 0; i < s->n; i++) if (i != seat) others |= s->h[i];
    int lead = !s->in_side[leader];  /* a safe lead found, or none needed */
    for (int su = 0; su < 4; su++) {
        uint64_t d = mine >> (16 * su) & 0xFFFFu, o = others >> (16 * su) & 0xFFFFu;
        if (!under_all(d, o)) return 0;
        if (!lead && d && o && under_all(d & (d - 1u), o)) lead = 1;  /* his (i+1)-th lowest under their i-th */
    }
    return lead;
}

static int start(Search *s, int leader, int t, int k, uint64_t *rel) {
    *rel = 0;
    if (k <= 0) return 1;
    int r = popc64(s->h[leader]);
    if (k > r) return 0;
    if (r == 1 && t >= s->nt) {  /* the last trick: a card a hand, no table (Solver._last) */
        for (int i = 0; i < s->n; i++) {  /* the trick's cards are free here: a new trick starts */
            s->tseat[i] = (leader + i) % s->n;
            s->tcard[i] = low_index64(s->h[s->tseat[i]]);
        }
        s->tn = s->n;
        int w = winner(s, t);
        *rel = decided(s, t, w);
        s->tn = 0;
        s->nodes += s->n;
        return s->in_side[w];
    }
    if (s->plain) return under(s, leader, t) ? 0 : start_exact(s, leader, t, k, r);
    uint64_t alive = t < s->nt ? s->talon_rest[t] : 0;
    for (int i = 0; i < s->n; i++) alive |= s->h[i];
    int lo = 0, hi = r;
    uint64_t lo_rel = 0, hi_rel = 0;
    if (!s->fewest && t >= s->nt) {  /* sure tricks first: where they answer, the table is not read */
        sure(s, leader, alive, r, &lo, &hi, &lo_rel, &hi_rel);
        if (lo >= k) { *rel = lo_rel; return 1; }
        if (hi < k) { *rel = hi_rel; return 0; }
    }
    int sure_lo = lo, sure_hi = hi;
    uint64_t lens = 0;
    for (int i = 0; i < s->n; i++)
        for (int su = 0; su < 4; su++) lens = lens << 4 | (uint64_t)popc64(s->h[i] >> (16 * su) & 0xFFFFu);
    uint32_t lt = (uint32_t)(leader << 2 | t) + 1;
    uint32_t own[4];
    owners(s, alive, t, own);
    int counts[4];
    for (int su = 0; su < 4; su++) counts[su] = popc64(alive >> (16 * su) & 0xFFFFu);
    Bucket *bk = bucket(s, lens, lt);
    if (!bk) return -1;
    uint64_t o01 = own[0] | (uint64_t)own[1] << 32, o23 = own[2] | (uint64_t)own[3] << 32;
    uint32_t lo_d = 0, hi_d = 0;  /* the depths the bounds come from: their cards pinned once, after */
    for (uint32_t g = 0; g < bk->n; g++) {
        const Group *gr = &bk->groups[g];
        uint64_t a = o01 & gr->m01, b = o23 & gr->m23;
        for (uint32_t i = 0; i < gr->n; i++) {
            const Pattern *p = &gr->pats[i];
            if (p->s01 != a || p->s23 != b) continue;
            if (p->lo > lo) { lo = p->lo; lo_d = gr->depth; }
            if (p->hi < hi) { hi = p->hi; hi_d = gr->depth; }
            break;
        }
        if (lo >= k || hi < k) {  /* answered: the group moves to the front, the groups after it are not read */
            if (g) {
                Group first = *gr;
                memmove(&bk->groups[1], &bk->groups[0], g * sizeof(Group));
                bk->groups[0] = first;
            }
            break;
        }
    }
    if (lo > sure_lo) lo_rel = pins(alive, lo_d);
    if (hi < sure_hi) hi_rel = pins(alive, hi_d);
    if (lo >= k) { *rel = lo_rel; return 1; }
    if (hi < k) { *rel = hi_rel; return 0; }
    uint64_t found;
    int ok = card(s, leader, t, k, &found);
    if (ok < 0) return -1;
    /* each suit pinned down to its lowest card that mattered and on through the same hand's cards below it */
    uint64_t x = s->n == 4 ? s->h[3] : s->talon_rest[t];
    uint64_t holders[4] = {s->h[0], s->h[1], s->h[2], x};
    uint32_t depth = 0;
    for (int su = 0; su < 4; su++) {
        uint64_t a = alive >> (16 * su) & 0xFFFFu, mine = found >> (16 * su) & 0xFFFFu;
        int d = 0;
        if (mine) {
            int b = low_index64(mine);
            uint64_t hand = 0;
            for (int i = 0; i < 4; i++) if (holders[i] >> (16 * su + b) & 1) { hand = holders[i] >> (16 * su); break; }
            uint64_t below = a & ((1ull << b) - 1u);
            while (below && (hand >> highest64(below) & 1)) { b = highest64(below); below ^= 1ull << b; }
            d = popc64(a >> b);
        }
        depth |= (uint32_t)d << (8 * su);
    }
    found = pins(alive, depth);
    bk = bucket(s, lens, lt);  /* the table may have grown meanwhile */
    if (!bk) return -1;
    uint64_t m01 = top_of(counts[0], depth & 0xFFu) | (uint64_t)top_of(counts[1], depth >> 8 & 0xFFu) << 32;
    uint64_t m23 = top_of(counts[2], depth >> 16 & 0xFFu) | (uint64_t)top_of(counts[3], depth >> 24) << 32;
    uint64_t s01 = o01 & m01, s23 = o23 & m23;
    Group *gr = NULL;
    for (uint32_t g = 0; g < bk->n && !gr; g++) if (bk->groups[g].depth == depth) gr = &bk->groups[g];
    if (!gr) {  /* a new depth: its group first */
        Group *groups = (Group *)room(bk->groups, bk->n, &bk->cap, sizeof(Group));
        if (!groups) return -1;
        bk->groups = groups;
        memmove(&bk->groups[1], &bk->groups[0], bk->n * sizeof(Group));
        gr = &bk->groups[0];
        gr->m01 = m01; gr->m23 = m23; gr->depth = depth; gr->n = gr->cap = 0; gr->pats = NULL;
        bk->n++;
    }
    Pattern *p = NULL;
    for (uint32_t i = 0; i < gr->n && !p; i++) if (gr->pats[i].s01 == s01 && gr->pats[i].s23 == s23) p = &gr->pats[i];
    if (!p) {
        Pattern *pats = (Pattern *)room(gr->pats, gr->n, &gr->cap, sizeof(Pattern));
        if (!pats) return -1;
        gr->pats = pats;
        p = &gr->pats[gr->n++];
        p->s01 = s01; p->s23 = s23; p->lo = 0; p->hi = (int8_t)r;
    }
    *rel = found;
    return narrow(&p->lo, &p->hi, k, ok);
}

/* Who wins the full trick: a seat, or -1 for the player who sits out (a talon trick nobody wins). */
static int winner(const Search *s, int t) {
    if (t >= s->nt) {
        int seat = s->tseat[0], best = s->tcard[0];
        for (int i = 1; i < s->tn; i++)
            if (beats(s->tcard[i], best, s->trump)) { seat = s->tseat[i]; best = s->tcard[i]; }
        return seat;
    }
    int lead = s->talon[t], led = lead >> 4;
    int seat = s->tseat[0], best = -1, top = 0;
    for (int i = 0; i < s->tn; i++) {
        int c = s->tcard[i], suit = c >> 4;
        int score = suit == s->trump ? 100 + (c & 15) : suit == led ? (c & 15) + 1 : 0;
        if (score > top) { top = score; seat = s->tseat[i]; best = c; }
    }
    if (top == 0) return s->taker ? -1 : s->tseat[0];
    if (s->taker && (best >> 4) != s->trump && (lead & 15) > (best & 15)) return -1;
    return seat;
}

/* The cards whose ranks decided the full trick (Solver._decided). */
static uint64_t decided(const Search *s, int t, int w) {
    if (t < s->nt) {
        uint64_t out = 1ull << s->talon[t];
        for (int i = 0; i < s->tn; i++) out |= 1ull << s->tcard[i];
        return out;
    }
    int best = -1;
    for (int i = 0; i < s->tn; i++) if (s->tseat[i] == w) { best = s->tcard[i]; break; }
    for (int i = 0; i < s->tn; i++)
        if (s->tcard[i] >> 4 == best >> 4 && s->tcard[i] != best) return 1ull << best;
    return 0;
}

/* Of the hands after seat to the trick under way, the highest card of suit su in his camp-mates' hands and in the
   others' (-1: none), and whether one of the others can ruff it (Hints._after). */
static void after(const Search *s, int seat, int su, int *mate_top, int *their_top, int *ruff) {
    *mate_top = *their_top = -1;
    *ruff = 0;
    for (int i = s->tn + 1; i < s->n; i++) {
        int p = (seat + i - s->tn) % s->n;
        uint64_t in = s->h[p] & SUIT_MASK[su];
        int top = in ? highest64(in) : -1;
        if (s->in_side[p] == s->in_side[seat]) { if (top > *mate_top) *mate_top = top; }
        else {
            if (top > *their_top) *their_top = top;
            if (!in && s->trump >= 0 && su != s->trump && (s->h[p] & SUIT_MASK[s->trump])) *ruff = 1;
        }
    }
}

static int card(Search *s, int seat, int t, int k, uint64_t *rel) {
    uint64_t hand = s->h[seat];
    int n = s->tn;
    int led = led_of(s, t);
    uint64_t legal = legal_of(s, hand, led);
    uint64_t alive = t < s->nt ? s->talon_rest[t] : 0;
    for (int i = 0; i < s->n; i++) alive |= s->h[i];
    for (int i = 0; i < n; i++) alive |= 1ull << s->tcard[i];
    int moves[16];
    int nm = runs(legal, hand, alive, moves);
    int maxer = s->maxer[seat];
    int order[16], no = 0;
    if (n == 0) {
        int weight[16], low_first = s->in_side[seat] && s->fewest, ruffed = 0;  /* suits the other camp can ruff */
        if (!s->fewest && s->trump >= 0)
            for (int o = 0; o < s->n; o++)
                if (s->in_side[o] != s->in_side[seat] && (s->h[o] & SUIT_MASK[s->trump]))
                    for (int su = 0; su < 4; su++) ruffed |= (su != s->trump && !(s->h[o] & SUIT_MASK[su])) << su;
        for (int i = 0; i < nm; i++) {
            int b = moves[i], w = 32 + (b & 15);
            uint64_t above = alive & SUIT_MASK[b >> 4] & ~((2ull << b) - 1u);
            if (above && s->fewest) w = b & 15;
            else if (above) {  /* under the suit's top card: low first towards a camp-mate's, else by the camp */
                int top = highest64(above), holder = -1;
                for (int o = 0; o < s->n; o++) if (s->h[o] >> top & 1) { holder = o; break; }
                if (holder >= 0 && holder != seat && s->in_side[holder] == s->in_side[seat]) w = 48 + 15 - (b & 15);
                else w = s->mated[seat] ? 15 - (b & 15) + 8 * (holder == (seat + 1) % s->n) : b & 15;
            }
            w -= (ruffed >> (b >> 4) & 1) * 64;  /* a lead into a ruff: last */
            weight[i] = low_first ? -w : w;
        }
        for (int i = 0; i < nm; i++) {  /* by weight, high first, ties as they come */
            int j = i;
            while (j > 0 && weight[order[j - 1]] < weight[i]) { order[j] = order[j - 1]; j--; }
            order[j] = i;
            no++;
        }
        for (int i = 0; i < no; i++) order[i] = moves[order[i]];
    } else if (nm < 2) {
        for (int i = 0; i < nm; i++) order[no++] = moves[i];
    } else {
        int w_seat = s->tseat[0], w_card = s->tcard[0];
        for (int i = 1; i < n; i++)
            if (beats(s->tcard[i], w_card, s->trump)) { w_seat = s->tseat[i]; w_card = s->tcard[i]; }
        int wins[16], nw = 0, rest[16], nr = 0;
        for (int i = 0; i < nm; i++) {
            if (beats(moves[i], w_card, s->trump)) wins[nw++] = moves[i];
            else rest[nr++] = moves[i];
        }
        if (nr > 1 && (rest[0] >> 4) != (rest[nr - 1] >> 4)) {  /* discards: by rank, then suit */
            for (int i = 1; i < nr; i++) {
                int x = rest[i], j = i;
                while (j > 0 && (rest[j - 1] & 15) > (x & 15)) { rest[j] = rest[j - 1]; j--; }
                rest[j] = x;
            }
        }
        int going = s->in_side[w_seat] == maxer;  /* the trick goes the player's way so far */
        if (going && !s->fewest && n == s->n - 2) {  /* unless the last hand, of the other camp, can take it */
            int last = (seat + 1) % s->n, ws = w_card >> 4;
            uint64_t lh = s->h[last];
            if (s->in_side[last] != s->in_side[seat]) {
                if (lh & SUIT_MASK[ws]) going = highest64(lh & SUIT_MASK[ws]) < w_card;
                else if (s->trump >= 0 && ws != s->trump && (lh & SUIT_MASK[s->trump]))
                    going = 0;  /* void in the suit led (the card winning so far is of it), he ruffs */
            }
        }
        /* for the most, before the last hand, the trick not ruffed: who after him holds what of the suit led */
        int ahead = !s->fewest && t >= s->nt && n < s->n - 1 && w_card >> 4 == led, mate_top = -1, their_top = -1;
        int ruff = 0, first = -1;
        if (ahead) after(s, seat, led, &mate_top, &their_top, &ruff);
        if (ahead && !going && mate_top > w_card && mate_top > their_top && !ruff)
            going = 1;  /* a camp-mate after him takes it whatever the others play */
        if (ahead && !going)
            for (int i = 0; i < nw && first < 0; i++) if (wins[i] >> 4 == led && wins[i] > their_top) first = i;
        if (going && s->in_side[seat] && s->fewest) {  /* keeping his low cards */
            for (int i = nr - 1; i >= 0; i--) order[no++] = rest[i];
            for (int i = 0; i < nw; i++) order[no++] = wins[i];
        } else if (going || (ahead && first < 0 && nw && wins[nw - 1] >> 4 == led)) {  /* his or beyond his reach: low */
            for (int i = 0; i < nr; i++) order[no++] = rest[i];
            for (int i = 0; i < nw; i++) order[no++] = wins[i];
        } else if (s->in_side[seat] == maxer) {  /* the cheapest card none after him can beat first, then the rest up */
            if (first >= 0) order[no++] = wins[first];
            for (int i = 0; i < nw; i++) if (i != first) order[no++] = wins[i];
            for (int i = 0; i < nr; i++) order[no++] = rest[i];
        } else {
            for (int i = nr - 1; i >= 0; i--) order[no++] = rest[i];
            for (int i = 0; i < nw; i++) order[no++] = wins[i];
        }
    }
    s->nodes += no;
    if (spent(s)) return -1;
    int last = n == s->n - 1;
    uint64_t seen = 0;
    for (int i = 0; i < no; i++) {
        int b = order[i];
        s->h[seat] = hand & ~(1ull << b);
        s->tseat[n] = seat; s->tcard[n] = b; s->tn = n + 1;
        int ok;
        uint64_t r;
        if (last) {
            int w = winner(s, t);
            uint64_t why = s->plain ? 0 : decided(s, t, w);
            int nt = t + (t < s->nt);
            int saved[4], savedc[4];
            memcpy(saved, s->tseat, sizeof saved); memcpy(savedc, s->tcard, sizeof savedc);
            s->tn = 0;
            ok = w < 0 ? start(s, 0, nt, k, &r) : start(s, w, nt, k - s->in_side[w], &r);
            memcpy(s->tseat, saved, sizeof saved); memcpy(s->tcard, savedc, sizeof savedc);
            r |= why;
        } else {
            ok = card(s, (seat + 1) % s->n, t, k, &r);
        }
        s->tn = n;
        s->h[seat] = hand;
        if (ok < 0) return -1;
        if (ok == maxer) { *rel = r; return ok; }
        seen |= r;
    }
    *rel = seen;
    return !maxer;
}

/* The relaxed game (relaxed.py): the others choose which of them leads after every trick the lone player for the
   fewest does not take. A position's key (the same positions alike as Relaxed._relaxed_key, written otherwise): per
   suit, the live cards' count and their holders from the lowest, two bits a card, the others' cards between two of
   his in seat order. */
static void relaxed_key(const Search *s, uint64_t *ka, uint64_t *kb) {
    int d = s->alone;
    uint64_t part[4];
    for (int su = 0; su < 4; su++) {
        uint64_t x[4] = {0, 0, 0, 0}, live = 0;
        for (int i = 0; i < s->n; i++) { x[i] = s->h[i] >> (16 * su) & 0xFFFFu; live |= x[i]; }
        uint64_t code = 0, rest = x[d], done = 0;
        for (;;) {
            uint64_t upto = 0xFFFFu;  /* the stretch up to his next card, or to the top */
            int b = -1;
            if (rest) { b = low_index64(rest); rest &= rest - 1u; upto = (1ull << b) - 1u; }
            for (int i = 0; i < s->n; i++) {
                if (i == d) continue;
                for (int c = popc64(x[i] & upto & ~done); c > 0; c--) code = code << 2 | (uint64_t)i;
            }
            if (b < 0) break;
            code = code << 2 | (uint64_t)d;
            done = (2ull << b) - 1u;
        }
        part[su] = (uint64_t)popc64(live) << 26 | code;
    }
    *ka = part[0] << 30 | part[1];
    *kb = part[2] << 30 | part[3];
}

static int relaxed_trick(Search *s, int seat, int k);

/* At the start of a trick, lead to lead (n: any of the others): can the others make him take at least k tricks more
   in the relaxed game (Relaxed._relaxed_start)? 1 yes, 0 no (proved for the real game too), -1 stopped. */
static int relaxed_start(Search *s, int lead, int k) {
    int d = s->alone, r = popc64(s->h[d]);
    if (k <= 0) return 1;
    if (k > r) return 0;
    if (under(s, lead == s->n ? (d + 1) % s->n : lead, s->nt)) return 0;  /* under every card for good */
    uint64_t ka, kb;
    relaxed_key(s, &ka, &kb);
    ka |= (uint64_t)lead << 60;
    Entry *e = table_entry(&s->relaxed, ka, kb, r);
    if (!e) return -1;
    if (e->lo >= k) return 1;
    if (e->hi < k) return 0;
    int ok = 0;
    if (lead == s->n) {
        for (int seat = 0; seat < s->n && !ok; seat++) {
            if (seat == d) continue;
            ok = relaxed_trick(s, seat, k);
            if (ok < 0) return -1;
        }
    } else {
        ok = relaxed_trick(s, lead, k);
        if (ok < 0) return -1;
    }
    e = table_entry(&s->relaxed, ka, kb, r);  /* the table may have grown meanwhile */
    if (!e) return -1;
    return narrow(&e->lo, &e->hi, k, ok);
}

/* The moves of the relaxed game, in the order tried (Relaxed._relaxed_moves). */
static int relaxed_moves(const Search *s, int seat, uint64_t legal, int moves[16]) {
    int d = s->alone, n = s->tn, nm = 0;
    if (seat == d) {
        uint64_t alive = 0;
        for (int i = 0; i < s->n; i++) alive |= s->h[i];
        for (int i = 0; i < n; i++) alive |= 1ull << s->tcard[i];
        int raw[16], nr = runs(legal, s->h[d], alive, raw);
        int led = n ? s->tcard[0] >> 4 : -1;
        if (!n) {
            for (int i = 0; i < nr; i++) moves[nm++] = raw[i];
        } else if (nr && raw[0] >> 4 != led) {  /* void: a discard, highest first */
            for (int i = 0; i < nr; i++) {
                int x = raw[i], j = nm++;
                while (j > 0 && (moves[j - 1] & 15) < (x & 15)) { moves[j] = moves[j - 1]; j--; }
                moves[j] = x;
            }
        } else {  /* under the card winning the trick highest first, then over it lowest first */
            int top = -1;
            for (int i = 0; i < n; i++) if (s->tcard[i] >> 4 == led && s->tcard[i] > top) top = s->tcard[i];
            for (int i = nr - 1; i >= 0; i--) if (raw[i] < top) moves[nm++] = raw[i];
            for (int i = 0; i < nr; i++) if (raw[i] > top) moves[nm++] = raw[i];
        }
        return nm;
    }
    uint64_t bounds = s->h[d], m = legal;
    for (int i = 0; i < n; i++) if (s->tseat[i] == d) bounds |= 1ull << s->tcard[i];
    int last = -1;
    while (m && nm < 16) {  /* one card of each stretch of a suit between two of his, lowest first */
        uint64_t low = m & (~m + 1u);
        m ^= low;
        int b = low_index64(low);
        int band = (b >> 4) << 5 | popc64(bounds & SUIT_MASK[b >> 4] & (low - 1u));
        if (band != last) { moves[nm++] = b; last = band; }
    }
    return nm;
}

/* seat to play to the relaxed trick under way (Relaxed._relaxed_trick): 1 the others can make him take at least k
   tricks more, 0 not, -1 stopped. */
static int relaxed_trick(Search *s, int seat, int k) {
    int d = s->alone, n = s->tn;
    uint64_t hand = s->h[seat];
    int moves[16];
    int nm = relaxed_moves(s, seat, legal_of(s, hand, led_of(s, s->nt)), moves);
    s->nodes += nm;
    if (spent(s)) return -1;
    int catcher = seat != d;
    for (int i = 0; i < nm; i++) {
        int b = moves[i], made;
        s->h[seat] = hand & ~(1ull << b);
        s->tseat[n] = seat; s->tcard[n] = b; s->tn = n + 1;
        if (n + 1 == s->n) {
            int taker = winner(s, s->nt), saved[4], savedc[4];
            memcpy(saved, s->tseat, sizeof saved); memcpy(savedc, s->tcard, sizeof savedc);
            s->tn = 0;
            made = taker == d ? relaxed_start(s, d, k - 1) : relaxed_start(s, s->n, k);
            memcpy(s->tseat, saved, sizeof saved); memcpy(s->tcard, savedc, sizeof savedc);
        } else {
            made = relaxed_trick(s, (seat + 1) % s->n, k);
        }
        s->tn = n;
        s->h[seat] = hand;
        if (made < 0) return -1;
        if (made == catcher) return made;
    }
    return !catcher;
}

static int Search_init(Search *self, PyObject *args, PyObject *kwds) {
    int n, side, fewest, trump, must_trump, taker;
    PyObject *talon;
    if (!PyArg_ParseTuple(args, "iiiiiO!i", &n, &side, &fewest, &trump, &must_trump, &PyList_Type, &talon, &taker))
        return -1;
    Py_ssize_t nt = PyList_GET_SIZE(talon);
    if (n < 3 || n > 4 || side <= 0 || side >= (1 << n) || trump < -1 || trump > 3 || nt > 16) {
        PyErr_SetString(PyExc_ValueError, "3 or 4 seats, a side among them, trump -1..3, up to 16 talon leads");
        return -1;
    }
    self->n = n; self->fewest = fewest ? 1 : 0; self->trump = trump;
    self->must_trump = must_trump ? 1 : 0; self->taker = taker ? 1 : 0; self->nt = (int)nt;
    self->plain = self->fewest;
    self->alone = -1;
    if (self->fewest && trump < 0 && popc64((uint64_t)side) == 1) self->alone = low_index64((uint64_t)side);
    for (int i = 0; i < 4; i++) {
        self->in_side[i] = i < n && (side >> i & 1);
        self->maxer[i] = self->in_side[i] != self->fewest;
    }
    for (int i = 0; i < 4; i++) {
        self->mated[i] = 0;
        for (int o = 0; o < n; o++) self->mated[i] |= i < n && o != i && self->in_side[o] == self->in_side[i];
    }
    for (Py_ssize_t i = 0; i < nt; i++) {
        long b = PyLong_AsLong(PyList_GET_ITEM(talon, i));
        if (b == -1 && PyErr_Occurred()) return -1;
        if (b < 0 || b > 63) { PyErr_SetString(PyExc_ValueError, "a card is a bit 0..63"); return -1; }
        self->talon[i] = (int)b;
    }
    for (int t = 0; t <= self->nt; t++) {
        uint64_t rest = 0;
        for (int i = t; i < self->nt; i++) rest |= 1ull << self->talon[i];
        self->talon_rest[t] = rest;
    }
    free_buckets(self);
    free_table(&self->exact);
    free_table(&self->relaxed);
    self->nodes = 0;
    if (grow(self) < 0 || grow_table(&self->exact) < 0) { PyErr_NoMemory(); return -1; }
    return 0;
}

static void Search_dealloc(Search *self) {
    free_buckets(self);
    free_table(&self->exact);
    free_table(&self->relaxed);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Search_ge(Search *self, PyObject *args) {
    PyObject *hands, *trick;
    int seat, t, k;
    long long limit = 0;
    double seconds = 0;
    if (!PyArg_ParseTuple(args, "O!iO!ii|Ld", &PyTuple_Type, &hands, &seat, &PyList_Type, &trick, &t, &k, &limit,
                          &seconds))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(trick);
    if (PyTuple_GET_SIZE(hands) != self->n || n % 2 || n / 2 >= self->n || seat < 0 || seat >= self->n
        || t < 0 || t > self->nt) {
        PyErr_SetString(PyExc_ValueError, "a hand a seat, a trick under way of (seat, card) pairs, a talon trick");
        return NULL;
    }
    for (int i = 0; i < self->n; i++) {
        self->h[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(hands, i));
        if (PyErr_Occurred()) return NULL;
    }
    self->tn = (int)(n / 2);
    for (Py_ssize_t i = 0; i < n / 2; i++) {
        long st = PyLong_AsLong(PyList_GET_ITEM(trick, 2 * i));
        long cd = PyLong_AsLong(PyList_GET_ITEM(trick, 2 * i + 1));
        if (PyErr_Occurred()) return NULL;
        self->tseat[i] = (int)st; self->tcard[i] = (int)cd;
    }
    long long before = self->nodes;
    self->limit = limit > 0 ? before + limit : 0;
    self->deadline = seconds > 0 ? monotonic_now() + seconds : 0;
    self->check_at = before;
    self->stopped = 0;
    uint64_t rel;
    int ok = self->tn ? card(self, seat, t, k, &rel) : start(self, seat, t, k, &rel);
    if (ok < 0 && self->stopped) return Py_BuildValue("(OL)", Py_None, self->nodes - before);
    if (ok < 0) return PyErr_NoMemory();
    return Py_BuildValue("(OL)", ok ? Py_True : Py_False, self->nodes - before);
}

static PyMethodDef Search_methods[] = {
    {"ge", (PyCFunction)Search_ge, METH_VARARGS,
     "ge(hands, seat, trick, t, k[, limit, seconds]) -> (bool or None, nodes): can the side's tricks to come be "
     "made at least k? None: the question tried more than limit cards or took more than seconds (0: no limit)"},
    {NULL, NULL, 0, NULL}
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "vistlog.projections._csolver.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One deal's search: Search(n, side, fewest, trump, must_trump, talon, taker); one table for every question.",
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
