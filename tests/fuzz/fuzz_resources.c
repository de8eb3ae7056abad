/* The fuzz harness's resources: handles from the input (current, stale,
 * foreign, zero or garbage), names, the journal of accepted calls, and the
 * textures and buffers it declares with the shadow it keeps of them. */
#include "fuzz_graph.h"

/* A rejected call must leave an error code and a message. */
void expect_message(const fz *f, const char *what)
{
    CHECK(rg_graph_error_message(f->g) != NULL && rg_graph_error_message(f->g)[0] != '\0',
          "%s failed and left an empty message (error %s)", what, rg_result_string(rg_graph_error(f->g)));
}

/* A rejected declaration call: the error is kept, so no compile or
 * placement of this declaration follows. */
void fz_rejected(fz *f, const char *what)
{
    CHECK(rg_graph_error(f->g) != RG_SUCCESS, "%s returned 0 with no error kept", what);
    expect_message(f, what);
    f->compiled = f->placed = false;
}

/* Whether a declaration call (what) gave a handle (id); fz_rejected where
 * it did not. */
bool fz_accepted(fz *f, uint32_t id, const char *what)
{
    if (id == 0)
        fz_rejected(f, what);
    return id != 0;
}

/* Appends an accepted call to the journal (name: its name argument). */
jcall *fz_jot(fz *f, jkind kind, const char *nm, uint32_t made, uint32_t made2)
{
    if (f->journal_count == f->journal_cap) {
        uint32_t cap = f->journal_cap ? f->journal_cap * 2 : 64;
        jcall *j = realloc(f->journal, cap * sizeof *j);
        CHECK(j != NULL, "out of memory for the journal");
        f->journal = j;
        f->journal_cap = cap;
    }
    jcall *j = &f->journal[f->journal_count++];
    memset(j, 0, sizeof *j);
    j->kind = kind;
    j->named = nm != NULL;
    if (nm)
        snprintf(j->name, sizeof j->name, "%s", nm);
    j->made[0] = made;
    j->made[1] = made2;
    f->journal_gen++;
    return j;
}

/* Names: NULL, empty, or bytes of the stream (quotes, newlines, any byte). */
const char *fz_name(fz *f)
{
    uint8_t len = rd_u8(f->r);
    if (len == 0)
        return NULL;
    char *buf = f->name_buf[f->name_next++ % 8];
    uint32_t n = (uint32_t)(len - 1) % 100;
    for (uint32_t i = 0; i < n; i++) {
        uint8_t c = rd_u8(f->r);
        buf[i] = (char)(c ? c : '_');
    }
    buf[n] = '\0';
    return buf;
}

/* Handle selectors: high 3 bits the source, low 5 bits an index. */
static uint32_t handle_id(fz *f, bool texture, uint32_t *decl)
{
    uint8_t b = rd_u8(f->r);
    uint32_t idx = b & 31u;
    *decl = UINT32_MAX;
    switch (b >> 5) {
    case 0: case 1: case 2: case 3: {
        /* The idx-th current resource of the kind (wrapping). */
        uint32_t n = 0;
        for (uint32_t i = 0; i < f->res_count; i++)
            n += f->res[i].is_texture == texture;
        if (n == 0)
            return 0;
        uint32_t want = ((b >> 5) * 32u + idx) % n;
        for (uint32_t i = 0; i < f->res_count; i++)
            if (f->res[i].is_texture == texture && want-- == 0) {
                *decl = i;
                return f->res[i].id;
            }
        return 0;
    }
    case 4: return f->stale_count ? f->stale[idx % f->stale_count] : 0;
    case 5: return f->foreign_count ? f->foreign[idx % f->foreign_count] : 0;
    case 6: /* the other kind */
        for (uint32_t i = 0; i < f->res_count; i++)
            if (f->res[(i + idx) % f->res_count].is_texture != texture)
                return f->res[(i + idx) % f->res_count].id;
        return 0;
    default:
        if (idx == 0)
            return 0;
        if (idx == 1)
            return rd_raw32(f->r);
        /* a current handle's tag with an index beyond the declaration */
        return f->res_count ? (f->res[0].id & ~0xFFFFFu) | ((f->res_count + idx) & 0xFFFFFu) : idx;
    }
}

/* A handle and, when it names a current resource of the kind however it
 * was made (raw bytes that happen to match included), which one. */
static uint32_t handle_known(fz *f, bool texture, uint32_t *decl)
{
    uint32_t id = handle_id(f, texture, decl);
    for (uint32_t i = 0; id && *decl == UINT32_MAX && i < f->res_count; i++)
        if (f->res[i].id == id && f->res[i].is_texture == texture)
            *decl = i;
    return id;
}

rg_texture tex_arg(fz *f, uint32_t *decl) { return (rg_texture){handle_known(f, true, decl)}; }
rg_buffer buf_arg(fz *f, uint32_t *decl) { return (rg_buffer){handle_known(f, false, decl)}; }


/* Records a successful command, the resources it uses and which of those
 * uses write (writes NULL: none). */
void cmd_push(fz *f, rg_command h, const uint32_t *touch, const bool *writes, uint32_t n)
{
    CHECK(h.id != 0, "cmd_push of a 0 handle");
    CHECK(rg_graph_error(f->g) == RG_SUCCESS, "a command handle with an error kept");
    fz_appended(f);
    if (f->cmd_count == MAX_CMDS) {
        f->touches_lost = true;
        return;
    }
    cmd_info *c = &f->cmds[f->cmd_count++];
    c->h = h;
    c->touch_count = 0;
    c->span = f->span_open ? f->span_seq : 0;
    c->begin = c->bare = false;
    c->resolves = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (touch[i] == UINT32_MAX)
            continue;
        if (c->touch_count == MAX_TOUCH) {
            f->touches_lost = true;
            break;
        }
        c->write[c->touch_count] = writes && writes[i];
        CHECK(!c->write[c->touch_count] || touch[i] >= f->res_count || !f->res[touch[i]].previous,
              "a write to the read-only half of history texture %u accepted", touch[i]);
        c->touch[c->touch_count++] = touch[i];
    }
}

/* ------------------------------------------------------------- resources */

static uint32_t subres_estimate(uint32_t mips, uint32_t layers)
{
    uint64_t s = 2ull * (mips ? mips : 1) * (layers ? layers : 1);
    return s > (1u << 25) ? (1u << 25) : (uint32_t)s;
}

/* Whether the harness lets a texture through: one the library would take
 * must keep the declaration's subresources small enough for quick
 * compiles (the library's own limit is far above what fuzzing can afford). */
static bool texture_affordable(fz *f, uint32_t mips, uint32_t layers)
{
    uint32_t s = subres_estimate(mips, layers);
    if (s > (1u << 24) * 2u) /* the library rejects it before allocating anything */
        return true;
    if (f->subs + s > SUB_CAP)
        return false;
    f->subs += s;
    return true;
}

static void shadow_push(fz *f, const shadow *s)
{
    fz_appended(f);
    if (f->res_count < MAX_RES)
        f->res[f->res_count++] = *s;
}

/* A texture's zero mip, layer and sample counts as the graph reads them: 1. */
static void shadow_defaults(shadow *s)
{
    s->mips = s->mips ? s->mips : 1;
    s->layers = s->layers ? s->layers : 1;
    s->samples = s->samples ? s->samples : 1;
}

/* An import's stage and access masks, read in that order. */
static void read_sync(rd *r, VkPipelineStageFlags2 *stage, VkAccessFlags2 *access)
{
    *stage = rd_num64(r);
    *access = rd_num64(r);
}

void op_texture(fz *f, bool import)
{
    rd *r = f->r;
    const char *nm = fz_name(f);
    shadow s = {.is_texture = true, .imported = import};
    s.format = (VkFormat)rd_pick(r, formats, COUNT(formats));
    s.w = rd_num32(r);
    s.h = rd_num32(r);
    s.mips = rd_num32(r);
    s.layers = rd_num32(r);
    s.samples = rd_num32(r);
    if (f->res_count >= MAX_RES || !texture_affordable(f, s.mips, s.layers))
        return;
    rg_texture t;
    if (!import) {
        uint8_t mode = rd_u8(r);
        rg_texture_desc d = {.name = nm, .format = s.format, .width = s.w, .height = s.h, .mip_levels = s.mips,
                             .array_layers = s.layers, .samples = (VkSampleCountFlagBits)s.samples,
                             .transient = (rg_transient)(mode < 0xF0 ? mode % 3 : mode),
                             .extra_usage = (VkImageUsageFlags)rd_num32(r)};
        if (mode >= 0xE0 && mode < 0xF0) {
            /* A history texture: current and previous, two shadows. */
            d.transient = RG_TRANSIENT_AUTO;
            rg_texture prev = {0};
            if (f->res_count + 1 >= MAX_RES || !texture_affordable(f, s.mips, s.layers))
                return;
            t = rg_texture_create_history(f->g, &d, &prev);
            CHECK((t.id == 0) == (prev.id == 0), "history texture %u with previous %u", t.id, prev.id);
            if (!fz_accepted(f, t.id, "rg_texture_create_history"))
                return;
            shadow_defaults(&s);
            s.id = t.id;
            s.pair = f->res_count + 2;
            shadow_push(f, &s);
            s.id = prev.id;
            s.pair = f->res_count;
            s.previous = true;
            shadow_push(f, &s);
            fz_jot(f, J_HISTORY, nm, t.id, prev.id)->u.texture = d;
            return;
        }
        t = rg_texture_create(f->g, &d);
        if (t.id)
            fz_jot(f, J_TEXTURE, nm, t.id, 0)->u.texture = d;
        CHECK(d.transient <= RG_TRANSIENT_FORBID || t.id == 0, "transient mode %d accepted", (int)d.transient);
    } else {
        rg_texture_import_desc d = {.name = nm, .format = s.format, .width = s.w, .height = s.h,
                                    .mip_levels = s.mips, .array_layers = s.layers,
                                    .samples = (VkSampleCountFlagBits)s.samples};
        d.initial_layout = (VkImageLayout)rd_pick(r, layouts, COUNT(layouts));
        read_sync(r, &d.initial_stage, &d.initial_access);
        d.final_layout = (VkImageLayout)rd_pick(r, layouts, COUNT(layouts));
        read_sync(r, &d.final_stage, &d.final_access);
        t = rg_texture_import(f->g, &d);
        if (t.id)
            fz_jot(f, J_TEXTURE_IMPORT, nm, t.id, 0)->u.import = d;
    }
    if (!fz_accepted(f, t.id, import ? "rg_texture_import" : "rg_texture_create"))
        return;
    /* Copy sizes, resolve modes, filters and barrier aspects follow from the
     * format: one the engine does not know (multi-planar) must be refused. */
    CHECK(rg_format_get_info(s.format).block_size != 0, "%s accepted format %d, unknown to the engine's table",
          import ? "rg_texture_import" : "rg_texture_create", (int)s.format);
    shadow_defaults(&s);
    s.id = t.id;
    shadow_push(f, &s);
}

void op_buffer(fz *f, bool import)
{
    rd *r = f->r;
    const char *nm = fz_name(f);
    shadow s = {.is_texture = false, .imported = import, .size = rd_num64(r)};
    if (f->res_count >= MAX_RES)
        return;
    rg_buffer b;
    if (!import) {
        rg_buffer_desc d = {.name = nm, .size = s.size, .extra_usage = (VkBufferUsageFlags)rd_num32(r)};
        b = rg_buffer_create(f->g, &d);
        if (b.id)
            fz_jot(f, J_BUFFER, nm, b.id, 0)->u.buffer = d;
    } else {
        rg_buffer_import_desc d = {.name = nm, .size = s.size};
        read_sync(r, &d.initial_stage, &d.initial_access);
        read_sync(r, &d.final_stage, &d.final_access);
        b = rg_buffer_import(f->g, &d);
        if (b.id)
            fz_jot(f, J_BUFFER_IMPORT, nm, b.id, 0)->u.buffer_import = d;
    }
    if (!fz_accepted(f, b.id, import ? "rg_buffer_import" : "rg_buffer_create"))
        return;
    s.id = b.id;
    shadow_push(f, &s);
}

