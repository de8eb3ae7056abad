/* The fuzz harness's placement: rg_place_offline with memory requirements
 * from the input over real or decoded memory-type tables, the placement
 * checked against the resources' lifetimes, and the reports. */
#include "fuzz_graph.h"

static VkDeviceSize round64k(VkDeviceSize v)
{
    return v > UINT64_MAX - 65535 ? UINT64_MAX & ~(VkDeviceSize)65535 : (v + 65535) & ~(VkDeviceSize)65535;
}

static bool requirements(void *user, const char *nm, bool is_texture, uint32_t index, VkDeviceSize *size,
                         VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    fz *f = user;
    CHECK(nm != NULL, "requirements without a name");
    CHECK(index < f->res_count || f->res_count == MAX_RES, "requirements for index %u of %u", index, f->res_count);
    if (index >= MAX_RES)
        return false;
    const shadow *s = &f->res[index];
    CHECK(s->is_texture == is_texture, "requirements for index %u: is_texture %d", index, is_texture);
    CHECK(!s->imported, "requirements asked for an import");
    rd *r = f->r;
    const VkPhysicalDeviceMemoryProperties *p = f->props;
    bool transient = is_texture && rg_texture_is_transient(f->g, (rg_texture){s->id});
    uint32_t bits = is_texture ? table_image_bits(p, transient) : table_buffer_bits(p);
    if (f->req_mode == 0) {
        /* As a device would say. */
        uint64_t bytes = is_texture ? sat_mul(sat_mul(sat_mul((uint64_t)s->w, s->h), 4u * s->samples),
                                              (uint64_t)s->layers * (s->mips > 1 ? 2 : 1))
                                    : s->size;
        *size = round64k(bytes ? bytes : 1);
        *alignment = 65536;
        *type_bits = bits;
        *dedicated = false;
    } else {
        uint8_t b = rd_u8(r);
        if (b == 0xFF) {
            f->callback_failed = true;
            return false;
        }
        *size = (b & 1) ? rd_num64(r) : round64k(is_texture ? (uint64_t)s->w * 4u : s->size);
        uint8_t a = rd_u8(r);
        *alignment = a < 64 ? 1ull << a : a < 0xF0 ? (uint64_t)a : rd_num64(r); /* sometimes not a power of two */
        *type_bits = (b & 2) ? rd_raw32(r) : (b & 4) ? table_all_bits(p) : bits;
        *dedicated = b & 8;
    }
    f->reqs[index] = (req){true, *size, *alignment};
    return true;
}

/* A decoded memory-type table: any flags, up to 32 types. */
static void decode_props(rd *r, VkPhysicalDeviceMemoryProperties *p)
{
    memset(p, 0, sizeof *p);
    p->memoryTypeCount = rd_u8(r) % (VK_MAX_MEMORY_TYPES + 1);
    p->memoryHeapCount = 1 + rd_u8(r) % VK_MAX_MEMORY_HEAPS;
    for (uint32_t i = 0; i < p->memoryTypeCount; i++) {
        p->memoryTypes[i].propertyFlags = rd_u8(r) & 0x3F;
        p->memoryTypes[i].heapIndex = rd_u8(r) % p->memoryHeapCount;
    }
    for (uint32_t i = 0; i < p->memoryHeapCount; i++) {
        p->memoryHeaps[i].size = rd_num64(r);
        p->memoryHeaps[i].flags = rd_u8(r) & 1;
    }
}

/* Lifetimes and uses as the harness derives them from its own record of
 * the commands, the execution order and the rendering instances
 * (rg_command_get_rendering: spans of one instance share its number), to
 * judge a placement without the library's own rg_resource_info.first_use
 * and last_use. A merged instance binds, loads and stores every attachment
 * of its spans from its first begin to its last end (a DONT_CARE store at
 * its end is a write; the header's "Merging"), so such an attachment lives
 * from the instance's first position to its last, and is used by every
 * span of the instance (the aliasing rule's same-node uses: unordered with
 * anything inside the instance). So does a resolve target of one of its
 * spans: vkCmdBeginRendering binds it at the instance's begin. */
typedef struct lifetimes {
    bool known;                       /* false: the harness lost commands or uses */
    uint32_t first[MAX_RES], last[MAX_RES]; /* execution-order positions; UINT32_MAX: unused */
    uint32_t pos[MAX_CMDS];           /* per harness command; UINT32_MAX: culled */
    uint32_t inst[MAX_CMDS];          /* its rendering instance, UINT32_MAX: none */
    bool use[MAX_CMDS][MAX_RES];      /* kept command c uses resource r (below) */
    uint32_t *inst_first, *inst_last, *inst_spans; /* per instance */
} lifetimes;

static void life_use(lifetimes *l, uint32_t r, uint32_t first, uint32_t last)
{
    if (l->first[r] == UINT32_MAX || first < l->first[r])
        l->first[r] = first;
    if (l->last[r] == UINT32_MAX || last > l->last[r])
        l->last[r] = last;
}

static void lifetimes_make(const fz *f, lifetimes *l)
{
    memset(l, 0, sizeof *l);
    memset(l->first, 0xff, sizeof l->first);
    memset(l->last, 0xff, sizeof l->last);
    const rg_command *order = NULL;
    uint32_t n = rg_execution_order(f->g, &order), ni = rg_instance_count(f->g);
    l->known = !f->touches_lost && f->res_count < MAX_RES;
    l->inst_first = malloc(((size_t)ni + 1) * sizeof *l->inst_first);
    l->inst_last = malloc(((size_t)ni + 1) * sizeof *l->inst_last);
    l->inst_spans = calloc((size_t)ni + 1, sizeof *l->inst_spans);
    if (!l->inst_first || !l->inst_last || !l->inst_spans) {
        l->known = false;
        return;
    }
    memset(l->inst_first, 0xff, ((size_t)ni + 1) * sizeof *l->inst_first);
    memset(l->inst_last, 0xff, ((size_t)ni + 1) * sizeof *l->inst_last);
    /* The instances' positions and spans, from the order. */
    for (uint32_t p = 0; p < n; p++) {
        rg_command_rendering st;
        if (rg_command_get_rendering(f->g, order[p], &st) != RG_SUCCESS)
            continue;
        CHECK(st.instance < ni, "command %u in instance %u of %u", order[p].id, st.instance, ni);
        if (l->inst_first[st.instance] == UINT32_MAX)
            l->inst_first[st.instance] = p;
        CHECK(p == l->inst_last[st.instance] + 1 || l->inst_last[st.instance] == UINT32_MAX,
              "instance %u runs at %u and again at %u", st.instance, l->inst_last[st.instance], p);
        l->inst_last[st.instance] = p;
        l->inst_spans[st.instance] += info_of(f, order[p]).type == RG_COMMAND_TYPE_BEGIN_RENDERING;
    }
    for (uint32_t p = 0; p < n; p++) {
        rg_command_rendering st;
        if (rg_command_get_rendering(f->g, order[p], &st) == RG_SUCCESS)
            CHECK(st.merged == (l->inst_spans[st.instance] > 1), "command %u: merged %d, its instance has %u spans",
                  order[p].id, st.merged, l->inst_spans[st.instance]);
    }
    /* The commands' own uses. */
    for (uint32_t c = 0; c < f->cmd_count; c++) {
        const cmd_info *ci = &f->cmds[c];
        l->pos[c] = fz_position(order, n, ci->h);
        l->inst[c] = UINT32_MAX;
        rg_command_rendering st;
        if (l->pos[c] != UINT32_MAX && rg_command_get_rendering(f->g, ci->h, &st) == RG_SUCCESS)
            l->inst[c] = st.instance;
        for (uint32_t x = 0; x < ci->touch_count && l->pos[c] != UINT32_MAX; x++)
            if (ci->touch[x] < MAX_RES)
                life_use(l, ci->touch[x], l->pos[c], l->pos[c]);
    }
    /* A merged instance's attachments and resolve targets: from its first
     * begin to its last end. */
    for (uint32_t c = 0; c < f->cmd_count; c++) {
        const cmd_info *ci = &f->cmds[c];
        if (!ci->begin || l->inst[c] == UINT32_MAX || l->inst_spans[l->inst[c]] < 2)
            continue;
        for (uint32_t x = 0; x < ci->touch_count; x++)
            if (ci->touch[x] < MAX_RES)
                life_use(l, ci->touch[x], l->inst_first[l->inst[c]], l->inst_last[l->inst[c]]);
    }
    /* Who uses what: a kept command its touches, and every kept command of
     * a merged instance the instance's attachments. */
    for (uint32_t c = 0; c < f->cmd_count; c++) {
        const cmd_info *ci = &f->cmds[c];
        if (l->pos[c] == UINT32_MAX)
            continue; /* culled commands are not recorded: their uses hold no memory */
        for (uint32_t x = 0; x < ci->touch_count; x++)
            if (ci->touch[x] < MAX_RES)
                l->use[c][ci->touch[x]] = true;
        if (!ci->begin || l->inst[c] == UINT32_MAX || l->inst_spans[l->inst[c]] < 2)
            continue;
        for (uint32_t x = 0; x < ci->touch_count; x++)
            for (uint32_t d = 0; d < f->cmd_count && ci->touch[x] < MAX_RES; d++)
                if (l->inst[d] == l->inst[c])
                    l->use[d][ci->touch[x]] = true;
    }
}

static void lifetimes_free(lifetimes *l)
{
    free(l->inst_first);
    free(l->inst_last);
    free(l->inst_spans);
}

/* Whether every use of a happens-before every use of b. */
static bool all_before(const fz *f, const lifetimes *l, uint32_t a, uint32_t b)
{
    for (uint32_t i = 0; i < f->cmd_count; i++) {
        if (!l->use[i][a])
            continue;
        for (uint32_t j = 0; j < f->cmd_count; j++)
            if (l->use[j][b] && !rg_happens_before(f->g, f->cmds[i].h, f->cmds[j].h))
                return false;
    }
    return true;
}

/* Bits of the queues whose recorded commands use resource r. */
static uint32_t queues_of(const fz *f, uint32_t r)
{
    uint32_t bits = 0;
    for (uint32_t i = 0; i < f->cmd_count; i++) {
        rg_command_info ci = info_of(f, f->cmds[i].h);
        for (uint32_t x = 0; x < f->cmds[i].touch_count && !ci.culled; x++)
            if (f->cmds[i].touch[x] == r)
                bits |= 1u << ci.queue;
    }
    return bits;
}

typedef struct where {
    rg_memory_kind kind;
    VkDeviceSize offset;
    uint32_t pool;
} where;

static where memory_of(const fz *f, uint32_t i)
{
    where w;
    w.kind = f->res[i].is_texture ? rg_texture_memory(f->g, (rg_texture){f->res[i].id}, &w.offset, &w.pool)
                                  : rg_buffer_memory(f->g, (rg_buffer){f->res[i].id}, &w.offset, &w.pool);
    return w;
}

static bool resource_info(const fz *f, uint32_t i, rg_resource_info *out)
{
    rg_result r = f->res[i].is_texture ? rg_texture_get_info(f->g, (rg_texture){f->res[i].id}, out)
                                       : rg_buffer_get_info(f->g, (rg_buffer){f->res[i].id}, out);
    return r == RG_SUCCESS;
}

/* Whether an accepted command of this declaration uses resource i. */
static bool used(const fz *f, uint32_t i)
{
    /* The two halves of a history texture are made together. */
    uint32_t pair = f->res[i].pair ? f->res[i].pair - 1 : i;
    for (uint32_t c = 0; c < f->cmd_count; c++) {
        rg_command_info info;
        if (rg_command_get_info(f->g, f->cmds[c].h, &info) == RG_SUCCESS && info.culled)
            continue; /* a culled command's resources are not created */
        for (uint32_t x = 0; x < f->cmds[c].touch_count; x++)
            if (f->cmds[c].touch[x] == i || f->cmds[c].touch[x] == pair)
                return true;
    }
    return false;
}

/* A declaration call succeeded: the order, barriers and memory plan of an
 * earlier compile or placement are no longer this declaration's and must
 * not be served (offline placement stands in for execute here: a
 * declaration extended after it must be compiled and placed again). */
void fz_appended(fz *f)
{
    if (f->compiled) {
        const rg_command *order = NULL;
        CHECK(rg_execution_order(f->g, &order) == 0 && order == NULL,
              "a declaration extended after a compile still has the older order");
        CHECK(rg_barrier_count(f->g) == 0, "a declaration extended after a compile still has barriers");
    }
    if (f->placed) {
        rg_memory_totals t = rg_memory_get_totals(f->g);
        CHECK(t.pools == 0 && t.pooled == 0 && t.unaliased == 0 && t.padding == 0 && t.lower_bound == 0 &&
                  t.lazy == 0 && t.dedicated == 0,
              "a declaration extended after a placement still has the older totals");
        for (uint32_t i = 0; i < f->res_count; i++)
            CHECK(memory_of(f, i).kind == RG_MEMORY_NOT_CREATED,
                  "a declaration extended after a placement still places resource %u", i);
        CHECK(rg_memory_report_json(f->g, "/dev/null") == RG_ERROR_NOT_PLACED,
              "a declaration extended after a placement still reports it");
    }
    f->compiled = f->placed = false;
}

static void check_placement(fz *f)
{
    rg_memory_totals t = rg_memory_get_totals(f->g);
    where w[MAX_RES];
    VkDeviceSize sizes = 0;
    for (uint32_t i = 0; i < f->res_count; i++) {
        w[i] = memory_of(f, i);
        if (f->res[i].imported)
            CHECK(w[i].kind == RG_MEMORY_IMPORTED, "import %u placed as %d", i, w[i].kind);
        else if (!f->touches_lost)
            /* Created resources get memory exactly when some command uses them. */
            CHECK((w[i].kind != RG_MEMORY_NOT_CREATED) == used(f, i), "created %s %u, %s, placed as %d",
                  f->res[i].is_texture ? "texture" : "buffer", i, used(f, i) ? "used" : "unused", w[i].kind);
        /* History halves keep their contents across frames: their own memory. */
        CHECK(!f->res[i].pair || w[i].kind == RG_MEMORY_NOT_CREATED || w[i].kind == RG_MEMORY_DEDICATED,
              "history texture half %u placed as %d", i, w[i].kind);
        if (w[i].kind != RG_MEMORY_POOLED)
            continue;
        sizes += f->reqs[i].size;
        const req *q = &f->reqs[i];
        CHECK(q->asked, "pooled resource %u without requirements", i);
        CHECK(w[i].pool < t.pools, "pool %u of %u", w[i].pool, t.pools);
        CHECK(q->alignment == 0 || w[i].offset % q->alignment == 0, "offset %llu not aligned to %llu",
              (unsigned long long)w[i].offset, (unsigned long long)q->alignment);
        CHECK(w[i].offset <= t.pooled && q->size <= t.pooled - w[i].offset,
              "resource %u at %llu + %llu outside the pools (%llu bytes)", i, (unsigned long long)w[i].offset,
              (unsigned long long)q->size, (unsigned long long)t.pooled);
    }
    CHECK(t.lower_bound <= t.pooled || t.pools == 0, "lower bound %llu above pooled %llu",
          (unsigned long long)t.lower_bound, (unsigned long long)t.pooled);
    /* unaliased: the pools had every pooled resource its own range, their
     * sizes plus the alignment padding reported; what no aliasing gives. */
    CHECK(t.padding <= t.unaliased, "padding %llu above unaliased %llu", (unsigned long long)t.padding,
          (unsigned long long)t.unaliased);
    if (f->res_count < MAX_RES)
        CHECK(t.unaliased - t.padding == sizes, "unaliased %llu less padding %llu is not the pooled sizes %llu",
              (unsigned long long)t.unaliased, (unsigned long long)t.padding, (unsigned long long)sizes);
    CHECK(t.lower_bound <= t.unaliased - t.padding, "lower bound %llu above the pooled sizes %llu",
          (unsigned long long)t.lower_bound, (unsigned long long)(t.unaliased - t.padding));
    if (f->no_aliasing)
        CHECK(t.pooled == t.unaliased, "pooled %llu differs from unaliased %llu in a graph without aliasing",
              (unsigned long long)t.pooled, (unsigned long long)t.unaliased);

    /* Sharing bytes needs every use of one before every use of the other:
     * by default lifetimes apart in the execution order (the alias barrier
     * orders them), as the harness computes them. */
    lifetimes *life = malloc(sizeof *life);
    if (!life)
        return;
    lifetimes_make(f, life);
    for (uint32_t i = 0; i < f->res_count; i++)
        for (uint32_t j = i + 1; j < f->res_count; j++) {
            if (w[i].kind != RG_MEMORY_POOLED || w[j].kind != RG_MEMORY_POOLED || w[i].pool != w[j].pool)
                continue;
            VkDeviceSize ai = w[i].offset, bi = ai + f->reqs[i].size, aj = w[j].offset, bj = aj + f->reqs[j].size;
            if (!(ai < bj && aj < bi))
                continue;
            CHECK(!f->no_aliasing, "resources %u and %u share bytes of pool %u in a graph without aliasing", i, j,
                  w[i].pool);
            /* By default the execution order with the alias barrier orders
             * them; under alias_proven_only the dependencies must. */
            rg_resource_info ri, rj;
            bool apart = life->known ? life->first[i] != UINT32_MAX && life->first[j] != UINT32_MAX &&
                                           (life->last[i] < life->first[j] || life->last[j] < life->first[i])
                                    : resource_info(f, i, &ri) && resource_info(f, j, &rj) &&
                                          (ri.last_use < rj.first_use || rj.last_use < ri.first_use);
            bool proven = f->alias_proven_only || queues_of(f, i) != queues_of(f, j) ||
                          (queues_of(f, i) & (queues_of(f, i) - 1));
            CHECK(proven ? all_before(f, life, i, j) || all_before(f, life, j, i) : apart,
                  "resources %u and %u share bytes of pool %u without being ordered (lifetimes %u..%u and "
                  "%u..%u)", i, j, w[i].pool, life->first[i], life->last[i], life->first[j], life->last[j]);
        }
    lifetimes_free(life);
    free(life);
}

static void reports(fz *f, bool placed)
{
    FILE *null = fopen("/dev/null", "w");
    rg_result a = null ? rg_memory_report_print(f->g, null) : RG_SUCCESS;
    if (null)
        fclose(null);
    rg_result b = rg_memory_report_json(f->g, "/dev/null");
    rg_result c = rg_memory_timeline_svg(f->g, "/dev/null");
    if (placed)
        CHECK(a == RG_SUCCESS && b == RG_SUCCESS && c == RG_SUCCESS, "reports of a placed graph: %d %d %d", a, b, c);
    CHECK(b == c && (a == RG_SUCCESS || a == RG_ERROR_NOT_PLACED), "reports disagree: %d %d %d", a, b, c);
    CHECK(rg_memory_report_print(f->g, NULL) == RG_ERROR_INVALID_ARGUMENT, "print to NULL");
    CHECK(rg_memory_report_json(NULL, "/dev/null") == RG_ERROR_INVALID_ARGUMENT, "json of NULL");
}

/* Places over props, requirements as a device would say (req_mode 0) or
 * decoded from the stream (1), and checks the plan. */
rg_result fz_place(fz *f, const VkPhysicalDeviceMemoryProperties *props, uint32_t req_mode)
{
    f->props = props;
    f->req_mode = req_mode;
    memset(f->reqs, 0, sizeof f->reqs);
    f->callback_failed = false;
    rg_result res = rg_place_offline(f->g, f->props, requirements, f);
    if (fz_verbose)
        fprintf(stderr, "  place: %s %s (%u pools, %llu pooled bytes, %llu lazy)\n", rg_result_string(res),
                rg_graph_error_message(f->g), rg_memory_get_totals(f->g).pools,
                (unsigned long long)rg_memory_get_totals(f->g).pooled,
                (unsigned long long)rg_memory_get_totals(f->g).lazy);
    if (res != RG_SUCCESS) {
        expect_message(f, "rg_place_offline");
        CHECK(!f->callback_failed || res == RG_ERROR_CALLBACK || rg_graph_error(f->g) != RG_SUCCESS,
              "a failed callback gave %s", rg_result_string(res));
    } else {
        f->placed = true;
        dump_state(f, "place");
        check_placement(f);
        const rg_command *order = NULL;
        uint32_t n = rg_execution_order(f->g, &order);
        check_barriers(f, order, n);
        check_queues(f, order, n);
        if (f->req_mode == 0) {
            /* The same inputs give the same plan. */
            where before[MAX_RES];
            rg_memory_totals t0 = rg_memory_get_totals(f->g);
            for (uint32_t i = 0; i < f->res_count; i++)
                before[i] = memory_of(f, i);
            CHECK(rg_place_offline(f->g, f->props, requirements, f) == RG_SUCCESS, "placing again failed: %s",
                  rg_graph_error_message(f->g));
            rg_memory_totals t1 = rg_memory_get_totals(f->g);
            CHECK(t0.pooled == t1.pooled && t0.unaliased == t1.unaliased && t0.padding == t1.padding &&
                      t0.lower_bound == t1.lower_bound && t0.lazy == t1.lazy && t0.dedicated == t1.dedicated &&
                      t0.pools == t1.pools,
                  "placing again changed the totals");
            for (uint32_t i = 0; i < f->res_count; i++) {
                where w = memory_of(f, i);
                CHECK(w.kind == before[i].kind && w.offset == before[i].offset && w.pool == before[i].pool,
                      "placing again moved resource %u", i);
            }
        }
    }
    reports(f, res == RG_SUCCESS);
    f->props = NULL;
    return res;
}

void op_place(fz *f)
{
    rd *r = f->r;
    uint8_t t = rd_u8(r);
    VkPhysicalDeviceMemoryProperties decoded;
    const VkPhysicalDeviceMemoryProperties *props = &decoded;
    if (t % (device_table_count + 1) == device_table_count)
        decode_props(r, &decoded);
    else
        props = &device_tables[t % (device_table_count + 1)].props;
    uint32_t mode = rd_u8(r) & 1;
    (void)fz_place(f, props, mode);
}

