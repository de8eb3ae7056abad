/* The fuzz harness's commands: user commands with accesses of every usage,
 * copies, clears, blits, spans with attachments and resolves, and calls
 * made wrongly on purpose (misuse), each checked against what the header
 * says it accepts. */
#include "fuzz_graph.h"

static bool noop(const rg_record_context *rc, void *user)
{
    (void)rc;
    (void)user;
    return true;
}

static void fz_range(fz *f, rg_range *out)
{
    rd *r = f->r;
    out->aspect = rd_pick(r, aspects, COUNT(aspects));
    out->base_mip = rd_num32(r);
    out->mip_count = rd_num32(r);
    out->base_layer = rd_num32(r);
    out->layer_count = rd_num32(r);
}

void op_user(fz *f)
{
    rd *r = f->r;
    const char *nm = fz_name(f);
    uint8_t kind = rd_u8(r), flags = rd_u8(r);
    uint32_t n = rd_u8(r) % 9;
    rg_access acc[8];
    uint32_t touch[8];
    bool writes[8];
    memset(acc, 0, sizeof acc);
    for (uint32_t i = 0; i < n; i++) {
        rg_access *a = &acc[i];
        uint8_t which = rd_u8(r);
        uint32_t d1 = UINT32_MAX, d2 = UINT32_MAX;
        if (which & 1)
            a->texture = tex_arg(f, &d1);
        if (which & 2)
            a->buffer = buf_arg(f, &d2);
        touch[i] = d1 != UINT32_MAX ? d1 : d2;
        uint8_t u = rd_u8(r);
        a->usage = (rg_usage)(u < 0xF0 ? u % (RG_USAGE_COUNT + 2) : (uint32_t)-1 - (u & 3u));
        a->whole = which & 4;
        a->undefined_ok = which & 32; /* else a read of nothing fails compile */
        if (!a->whole)
            fz_range(f, &a->range);
        if (a->usage == RG_USAGE_RAW || (which & 8)) {
            a->stage = rd_num64(r);
            a->access = rd_num64(r);
            a->layout = (VkImageLayout)rd_pick(r, layouts, COUNT(layouts));
            a->write = which & 16;
        }
        const rg_usage_info *info = rg_usage_get_info(a->usage);
        writes[i] = a->usage == RG_USAGE_RAW ? a->write : info && info->write;
    }
    rg_user_desc d = {.name = nm, .kind = (rg_command_kind)(kind < 0xF0 ? kind % 3 : kind),
                      .accesses = (flags & 2) ? NULL : acc, .access_count = n,
                      .record = (flags & 1) ? NULL : noop, .queue = (rg_queue)((flags >> 2) & 3)};
    rg_command c = rg_cmd_user(f->g, &d);
    if (!fz_accepted(f, c.id, "rg_cmd_user"))
        return;
    jcall *j = fz_jot(f, J_USER, nm, c.id, 0);
    j->u.user.desc = d;
    j->u.user.has_accesses = d.accesses != NULL;
    memcpy(j->u.user.accesses, acc, sizeof acc);
    uint32_t before = f->cmd_count;
    cmd_push(f, c, touch, writes, n);
    if (f->cmd_count > before)
        f->cmds[before].bare = n == 0 && !f->span_open;
}

uint64_t sat_mul(uint64_t a, uint64_t b)
{
    uint64_t p;
    return __builtin_mul_overflow(a, b, &p) ? UINT64_MAX : p;
}

/* Tightly packed bytes of a whole mip, n layers (0: one), of a texture's
 * one aspect in a buffer copy: rg_format_copy_size per texel block, whole
 * blocks of the format's extent across the mip (ceil(w/bw) * ceil(h/bh));
 * 0 when the format has no single copyable aspect, UINT64_MAX past 2^64. */
static uint64_t copy_bytes(const shadow *t, uint32_t mip, uint32_t n)
{
    rg_format_info fi = rg_format_get_info(t->format);
    uint64_t unit = rg_format_copy_size(t->format, fi.aspects);
    if (unit == 0 || fi.block_width == 0 || fi.block_height == 0)
        return 0;
    uint64_t w = mip < 32 && (t->w >> mip) ? t->w >> mip : 1, h = mip < 32 && (t->h >> mip) ? t->h >> mip : 1;
    uint64_t bx = (w + fi.block_width - 1) / fi.block_width, by = (h + fi.block_height - 1) / fi.block_height;
    return sat_mul(sat_mul(sat_mul(unit, bx), by), n ? n : 1);
}

/* A buffer <-> texture copy, accepted or refused, against the rules the
 * header states: a whole mip of one aspect inside the texture, single
 * sampled, whose packed blocks fit the buffer from an offset that is a
 * multiple of the block size (4 for depth/stencil). */
static void check_image_copy(fz *f, const char *what, bool accepted, bool could, uint32_t db, uint32_t dt,
                             uint64_t off, uint32_t mip, uint32_t layer, uint32_t count)
{
    const shadow *t = &f->res[dt];
    rg_format_info fi = rg_format_get_info(t->format);
    bool two = fi.aspects == (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT);
    uint64_t unit = fi.numeric == RG_FORMAT_DEPTH_STENCIL ? 4 : fi.block_size;
    uint32_t n = count ? count : 1;
    bool inside = mip < t->mips && layer < t->layers && n <= t->layers - layer;
    uint64_t bytes = inside ? copy_bytes(t, mip, count) : 0, size = f->res[db].size;
    bool fits = bytes != 0 && bytes != UINT64_MAX && off <= size && bytes <= size - off;
    bool aligned = unit != 0 && off % unit == 0;
    if (accepted) {
        CHECK(!two, "%s accepted texture format %d, which has depth and stencil (a copy moves one aspect)", what,
              (int)t->format);
        CHECK(inside, "%s accepted mip %u layers %u+%u of a texture of %u mips, %u layers", what, mip, layer, n,
              t->mips, t->layers);
        CHECK(fits, "%s accepted %llu bytes at offset %llu of a %llu-byte buffer (format %d, %ux%u mip %u, %u layers)",
              what, (unsigned long long)bytes, (unsigned long long)off, (unsigned long long)size, (int)t->format,
              t->w, t->h, mip, n);
        CHECK(aligned, "%s accepted buffer offset %llu, not a multiple of %llu (format %d)", what,
              (unsigned long long)off, (unsigned long long)unit, (int)t->format);
    } else if (could) {
        CHECK(two || !inside || t->samples != 1 || !fits || !aligned, "%s refused a copy that follows every rule "
              "(format %d, %ux%u mip %u, %u layers, %llu bytes at offset %llu of %llu): %s", what, (int)t->format,
              t->w, t->h, mip, n, (unsigned long long)bytes, (unsigned long long)off, (unsigned long long)size,
              rg_graph_error_message(f->g));
    }
}

void op_copy(fz *f, uint8_t which)
{
    rd *r = f->r;
    uint32_t d[2];
    bool writes[2] = {false, true};
    rg_command c = {0};
    const char *what = "copy";
    bool graphics_only = false;
    /* Whether nothing but the arguments can make the library refuse it. */
    bool could = rg_graph_error(f->g) == RG_SUCCESS && !f->span_open;
    if (which == 0) {
        rg_buffer s = buf_arg(f, &d[0]);
        uint64_t so = rd_num64(r);
        rg_buffer t = buf_arg(f, &d[1]);
        uint64_t to = rd_num64(r), size = rd_num64(r);
        c = rg_cmd_copy_buffer(f->g, s, so, t, to, size);
        what = "rg_cmd_copy_buffer";
        if (c.id) {
            jcall *j = fz_jot(f, J_COPY_BUFFER, NULL, c.id, 0);
            j->u.copy_buffer.src = s.id, j->u.copy_buffer.dst = t.id;
            j->u.copy_buffer.src_offset = so, j->u.copy_buffer.dst_offset = to, j->u.copy_buffer.size = size;
        }
    } else {
        bool to_tex = which == 1;
        uint32_t db, dt;
        rg_buffer b = buf_arg(f, &db);
        uint64_t off = rd_num64(r);
        rg_texture t = tex_arg(f, &dt);
        uint32_t mip = rd_num32(r), layer = rd_num32(r), count = rd_num32(r);
        c = to_tex ? rg_cmd_copy_buffer_to_texture(f->g, b, off, t, mip, layer, count)
                   : rg_cmd_copy_texture_to_buffer(f->g, t, mip, layer, count, b, off);
        what = to_tex ? "rg_cmd_copy_buffer_to_texture" : "rg_cmd_copy_texture_to_buffer";
        if (c.id) {
            jcall *j = fz_jot(f, to_tex ? J_COPY_TO_TEXTURE : J_COPY_TO_BUFFER, NULL, c.id, 0);
            j->u.copy_image.buffer = b.id, j->u.copy_image.texture = t.id, j->u.copy_image.offset = off;
            j->u.copy_image.mip = mip, j->u.copy_image.layer = layer, j->u.copy_image.count = count;
        }
        d[0] = db;
        d[1] = dt;
        writes[0] = !to_tex;
        writes[1] = to_tex;
        /* A copy into a history texture's previous half is refused: that
         * half is read-only ("History"). */
        bool into_previous = to_tex && dt != UINT32_MAX && f->res[dt].previous;
        if (db != UINT32_MAX && dt != UINT32_MAX)
            check_image_copy(f, what, c.id != 0, could && !into_previous, db, dt, off, mip, layer, count);
        /* What the header refuses off the graphics queue (unit-tested in
         * test_rg_queues.c): depth/stencil copies; unaligned ones on transfer. */
        rg_queue q = (rg_queue)(f->cmd_count % RG_QUEUE_COUNT);
        bool depth = dt != UINT32_MAX && !(rg_format_get_info(f->res[dt].format).aspects & VK_IMAGE_ASPECT_COLOR_BIT);
        graphics_only = (q != RG_QUEUE_GRAPHICS && depth) || (q == RG_QUEUE_TRANSFER && off % 4 != 0);
    }
    if (!fz_accepted(f, c.id, what))
        return;
    /* Copies may run on any queue: one in three stays graphics-only. */
    if (!graphics_only) {
        rg_command_allow_queue(f->g, c, (rg_queue)(f->cmd_count % RG_QUEUE_COUNT));
        CHECK(rg_graph_error(f->g) == RG_SUCCESS, "a copy refused for queue %u: %s", f->cmd_count % RG_QUEUE_COUNT,
              rg_graph_error_message(f->g));
        jcall *j = fz_jot(f, J_ALLOW_QUEUE, NULL, 0, 0);
        j->u.allow.command = c.id, j->u.allow.queue = (rg_queue)(f->cmd_count % RG_QUEUE_COUNT);
    }
    cmd_push(f, c, d, writes, 2);
}

void op_clear(fz *f)
{
    rd *r = f->r;
    uint32_t d;
    rg_texture t = tex_arg(f, &d);
    uint8_t flags = rd_u8(r);
    rg_range rr;
    fz_range(f, &rr);
    VkClearValue v;
    memset(&v, 0, sizeof v);
    v.color.uint32[0] = rd_raw32(r);
    rg_command c = rg_cmd_clear_texture(f->g, t, (flags & 1) ? NULL : &rr, (flags & 2) ? NULL : &v);
    if (!fz_accepted(f, c.id, "rg_cmd_clear_texture"))
        return;
    jcall *j = fz_jot(f, J_CLEAR, NULL, c.id, 0);
    j->u.clear.texture = t.id, j->u.clear.range = rr, j->u.clear.value = v;
    j->u.clear.has_range = !(flags & 1), j->u.clear.has_value = !(flags & 2);
    /* vkCmdClearColorImage cannot clear block-compressed formats. */
    if (d != UINT32_MAX)
        CHECK(rg_format_get_info(f->res[d].format).block_width == 1 &&
                  rg_format_get_info(f->res[d].format).block_height == 1,
              "rg_cmd_clear_texture accepted a texture of block-compressed format %d", (int)f->res[d].format);
    cmd_push(f, c, &d, (const bool[]){true}, 1);
}

void op_blit(fz *f)
{
    rd *r = f->r;
    uint32_t d[2];
    rg_texture s = tex_arg(f, &d[0]);
    uint32_t sm = rd_num32(r);
    rg_texture t = tex_arg(f, &d[1]);
    uint32_t tm = rd_num32(r);
    VkFilter filter = (VkFilter)rd_pick(r, filters, COUNT(filters));
    rg_command c = rg_cmd_blit(f->g, s, sm, t, tm, filter);
    if (!fz_accepted(f, c.id, "rg_cmd_blit"))
        return;
    jcall *j = fz_jot(f, J_BLIT, NULL, c.id, 0);
    j->u.blit.src = s.id, j->u.blit.src_mip = sm, j->u.blit.dst = t.id, j->u.blit.dst_mip = tm;
    j->u.blit.filter = filter;
    if (d[0] != UINT32_MAX && d[1] != UINT32_MAX) {
        /* vkCmdBlitImage's format rules, whatever the device. */
        VkFormat fs = f->res[d[0]].format, ft = f->res[d[1]].format;
        rg_format_numeric a = rg_format_get_info(fs).numeric, b = rg_format_get_info(ft).numeric;
        bool depth = a == RG_FORMAT_DEPTH_STENCIL || b == RG_FORMAT_DEPTH_STENCIL;
        bool integer = a == RG_FORMAT_UINT || a == RG_FORMAT_SINT || b == RG_FORMAT_UINT || b == RG_FORMAT_SINT;
        CHECK(!depth || (fs == ft && filter == VK_FILTER_NEAREST),
              "rg_cmd_blit accepted depth/stencil formats %d -> %d with filter %d", (int)fs, (int)ft, (int)filter);
        CHECK(!integer || (a == b && filter == VK_FILTER_NEAREST),
              "rg_cmd_blit accepted integer formats %d (kind %d) -> %d (kind %d) with filter %d", (int)fs, (int)a,
              (int)ft, (int)b, (int)filter);
    }
    cmd_push(f, c, d, (const bool[]){false, true}, 2);
}

/* The declaration indices an attachment names (UINT32_MAX: none or not a
 * current texture). */
typedef struct att_decl {
    uint32_t tex, resolve;
} att_decl;

static void attachment(fz *f, rg_attachment *a, att_decl *ad)
{
    rd *r = f->r;
    uint8_t flags = rd_u8(r);
    a->texture = tex_arg(f, &ad->tex);
    ad->resolve = UINT32_MAX;
    a->mip = rd_num32(r);
    a->base_layer = rd_num32(r);
    a->layer_count = rd_num32(r);
    a->load = (VkAttachmentLoadOp)rd_pick(r, load_ops, COUNT(load_ops));
    a->store = (VkAttachmentStoreOp)rd_pick(r, store_ops, COUNT(store_ops));
    a->clear.color.float32[0] = 1.0f;
    if (flags & 1) {
        a->resolve = tex_arg(f, &ad->resolve);
        a->resolve_mip = rd_num32(r);
        a->resolve_layer = rd_num32(r);
        a->resolve_mode = (VkResolveModeFlagBits)rd_pick(r, resolve_modes, COUNT(resolve_modes));
    }
}

/* What an accepted span promises of one attachment: its view and its
 * resolve target's view lie inside their textures, and the resolve mode is
 * one the source's format allows (float color: AVERAGE; integer color:
 * SAMPLE_ZERO; depth/stencil: SAMPLE_ZERO, MIN or MAX; 0 picks one). */
static void check_attachment(const fz *f, const rg_attachment *a, const att_decl *ad, bool depth)
{
    if (ad->tex == UINT32_MAX)
        return;
    const shadow *t = &f->res[ad->tex];
    uint32_t n = a->layer_count ? a->layer_count : 1;
    CHECK(a->mip < t->mips && a->base_layer < t->layers && n <= t->layers - a->base_layer,
          "rg_begin_rendering accepted an attachment at mip %u layers %u+%u of a texture of %u mips, %u layers",
          a->mip, a->base_layer, n, t->mips, t->layers);
    if (a->resolve.id == 0 || ad->resolve == UINT32_MAX)
        return;
    const shadow *q = &f->res[ad->resolve];
    CHECK(a->resolve_mip < q->mips && a->resolve_layer < q->layers && n <= q->layers - a->resolve_layer,
          "rg_begin_rendering accepted a resolve target at mip %u layers %u+%u of a texture of %u mips, %u layers",
          a->resolve_mip, a->resolve_layer, n, q->mips, q->layers);
    rg_format_numeric k = rg_format_get_info(t->format).numeric;
    VkResolveModeFlagBits m = a->resolve_mode;
    bool ok = m == 0;
    if (depth || k == RG_FORMAT_DEPTH_STENCIL)
        ok = ok || m == VK_RESOLVE_MODE_SAMPLE_ZERO_BIT || m == VK_RESOLVE_MODE_MIN_BIT || m == VK_RESOLVE_MODE_MAX_BIT;
    else if (k == RG_FORMAT_UINT || k == RG_FORMAT_SINT)
        ok = ok || m == VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
    else
        ok = ok || m == VK_RESOLVE_MODE_AVERAGE_BIT;
    CHECK(ok, "rg_begin_rendering accepted resolve mode 0x%x for a %s attachment of format %d", (unsigned)m,
          depth ? "depth" : "color", (int)t->format);
}

void op_begin(fz *f)
{
    rd *r = f->r;
    rg_rendering_desc d;
    memset(&d, 0, sizeof d);
    d.name = fz_name(f);
    uint8_t cc = rd_u8(r);
    d.color_count = cc < 0xF0 ? cc % 10 : UINT32_MAX - (cc & 7u);
    att_decl ad[9];
    for (uint32_t i = 0; i < d.color_count && i < 8; i++)
        attachment(f, &d.colors[i], &ad[i]);
    uint8_t flags = rd_u8(r);
    ad[8] = (att_decl){UINT32_MAX, UINT32_MAX};
    if (flags & 1)
        attachment(f, &d.depth, &ad[8]);
    d.depth_read_only = flags & 2;
    if (flags & 4) {
        d.area.offset.x = (int32_t)rd_num32(r);
        d.area.offset.y = (int32_t)rd_num32(r);
        d.area.extent.width = rd_num32(r);
        d.area.extent.height = rd_num32(r);
    }
    rg_command c = rg_begin_rendering(f->g, &d);
    if (!fz_accepted(f, c.id, "rg_begin_rendering"))
        return;
    fz_jot(f, J_BEGIN, d.name, c.id, 0)->u.begin = d;
    /* The uses: color attachments and resolve targets are written; depth is
     * written unless read-only, and read-only depth still is by a load other
     * than LOAD or a store other than NONE. */
    uint32_t touch[18], n = 0;
    bool writes[18], resolve[18];
    uint32_t ext_w = 0, ext_h = 0; /* the first attachment's extent at its mip */
    for (uint32_t i = 0; i < 9; i++) {
        if (i < 8 && i >= d.color_count)
            continue;
        const rg_attachment *a = i < 8 ? &d.colors[i] : &d.depth;
        if (a->texture.id == 0)
            continue;
        check_attachment(f, a, &ad[i], i == 8);
        /* Without an area every attachment has one extent. */
        if (ad[i].tex != UINT32_MAX && (d.area.extent.width == 0 || d.area.extent.height == 0)) {
            const shadow *t = &f->res[ad[i].tex];
            uint32_t w = t->w >> a->mip ? t->w >> a->mip : 1, h = t->h >> a->mip ? t->h >> a->mip : 1;
            if (ext_w == 0) {
                ext_w = w;
                ext_h = h;
            }
            CHECK(w == ext_w && h == ext_h, "rg_begin_rendering accepted attachments of %ux%u and %ux%u without an "
                  "area", ext_w, ext_h, w, h);
        }
        touch[n] = ad[i].tex;
        resolve[n] = false;
        writes[n++] = i < 8 || !d.depth_read_only || a->load != VK_ATTACHMENT_LOAD_OP_LOAD ||
                      a->store != VK_ATTACHMENT_STORE_OP_NONE;
        if (a->resolve.id) {
            touch[n] = ad[i].resolve;
            resolve[n] = true;
            writes[n++] = true;
        }
    }
    f->span_seq++;
    f->span_open = true;
    uint32_t before = f->cmd_count;
    cmd_push(f, c, touch, writes, n);
    f->open_begin = f->cmd_count > before ? before : UINT32_MAX;
    if (f->cmd_count > before) {
        cmd_info *ci = &f->cmds[before];
        ci->begin = true;
        /* Which of the uses cmd_push kept (known textures) are resolve targets. */
        for (uint32_t i = 0, k = 0; i < n && k < ci->touch_count; i++)
            if (touch[i] != UINT32_MAX)
                ci->resolves |= (uint32_t)resolve[i] << k++;
    }
}

void op_end(fz *f)
{
    rg_command c = rg_end_rendering(f->g);
    if (!fz_accepted(f, c.id, "rg_end_rendering"))
        return;
    fz_jot(f, J_END, NULL, c.id, 0);
    /* The end keeps the begin's attachments alive: the same uses, in the
     * same span (so never ordered against the begin). */
    uint32_t none = UINT32_MAX;
    uint32_t before = f->cmd_count;
    if (f->open_begin < f->cmd_count)
        cmd_push(f, c, f->cmds[f->open_begin].touch, f->cmds[f->open_begin].write,
                 f->cmds[f->open_begin].touch_count);
    else
        cmd_push(f, c, &none, NULL, 1);
    if (f->cmd_count > before && f->open_begin < f->cmd_count)
        f->cmds[before].resolves = f->cmds[f->open_begin].resolves;
    f->open_begin = UINT32_MAX;
    f->span_open = false;
}

/* A declaration call given a NULL descriptor returns the invalid handle. */
#define NULL_DESC_REFUSED(call)                                                                                       \
    do {                                                                                                              \
        if (call(f->g, NULL).id == 0)                                                                                 \
            fz_rejected(f, #call "(NULL desc)");                                                                      \
    } while (0)

/* Calls with NULL graphs or descriptors, and re-pointing imports. */
void op_misuse(fz *f)
{
    rd *r = f->r;
    uint8_t which = rd_u8(r);
    uint32_t d;
    switch (which % 10) {
    case 0: CHECK(rg_texture_create(NULL, &(rg_texture_desc){0}).id == 0, "NULL graph"); break;
    case 1: NULL_DESC_REFUSED(rg_texture_create); break;
    case 2: NULL_DESC_REFUSED(rg_texture_import); break;
    case 3: NULL_DESC_REFUSED(rg_buffer_create); break;
    case 4: NULL_DESC_REFUSED(rg_cmd_user); break;
    case 5: NULL_DESC_REFUSED(rg_begin_rendering); break;
    case 6: {
        rg_texture t = tex_arg(f, &d);
        /* The import's own shape, and every usage: only the handle decides. */
        const shadow *s = d == UINT32_MAX ? NULL : &f->res[d];
        rg_import_image image = {.image = (VkImage)(uintptr_t)0x1000, .format = VK_FORMAT_R8G8B8A8_UNORM,
                                 .width = 1, .height = 1, .usage = ~(VkImageUsageFlags)0};
        if (s && s->is_texture) {
            image.format = s->format;
            image.width = s->w;
            image.height = s->h;
            image.mip_levels = s->mips;
            image.array_layers = s->layers;
            image.samples = (VkSampleCountFlagBits)s->samples;
        }
        rg_result res = rg_texture_set_image(f->g, t, &image);
        CHECK(res == RG_SUCCESS || res == RG_ERROR_INVALID_HANDLE || res == RG_ERROR_INVALID_ARGUMENT, "%d", res);
        CHECK(d == UINT32_MAX || (res == RG_SUCCESS) == f->res[d].imported, "set_image on declared texture: %d",
              res);
        break;
    }
    case 7: {
        rg_buffer b = buf_arg(f, &d);
        VkDeviceSize size = d != UINT32_MAX && !f->res[d].is_texture && f->res[d].size ? f->res[d].size : 1;
        rg_result res = rg_buffer_set_buffer(f->g, b, &(rg_import_buffer){.size = size,
                                                                           .usage = ~(VkBufferUsageFlags)0});
        CHECK(d == UINT32_MAX || (res == RG_SUCCESS) == f->res[d].imported, "set_buffer: %d", res);
        break;
    }
    case 8:
        CHECK(rg_compile(NULL) == RG_ERROR_INVALID_ARGUMENT, "compile(NULL)");
        CHECK(rg_graph_error(NULL) == RG_ERROR_INVALID_ARGUMENT, "error(NULL)");
        CHECK(rg_graph_error_message(NULL) != NULL, "message(NULL)");
        CHECK(rg_end_rendering(NULL).id == 0, "end(NULL)");
        break;
    default: {
        rg_usage u = (rg_usage)rd_num32(r);
        const rg_usage_info *info = rg_usage_get_info(u);
        CHECK(((unsigned)u < RG_USAGE_COUNT) == (info != NULL), "usage info %u", (unsigned)u);
        if (info)
            CHECK(info->name != NULL, "usage %u has no name", (unsigned)u);
        break;
    }
    }
}

