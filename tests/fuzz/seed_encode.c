/* The fuzz harness's input encoder: see seed_encode.h. */
#include "seed_encode.h"

void e8(enc *e, uint32_t v)
{
    if (e->n < sizeof e->b)
        e->b[e->n++] = (uint8_t)v;
}

void e32(enc *e, uint32_t v)
{
    if (v < 0xE0) {
        e8(e, v);
        return;
    }
    e8(e, 0xF1);
    for (int k = 0; k < 4; k++)
        e8(e, v >> (8 * k));
}

void e64(enc *e, uint64_t v)
{
    if (v < 0x80) {
        e8(e, (uint32_t)v);
        return;
    }
    e8(e, 0xF1);
    for (int k = 0; k < 8; k++)
        e8(e, (uint32_t)(v >> (8 * k)));
}

void ename(enc *e, const char *s)
{
    size_t n = strlen(s);
    e8(e, (uint32_t)n + 1);
    for (size_t i = 0; i < n; i++)
        e8(e, (uint8_t)s[i]);
}

uint32_t index_of(const uint32_t *table, uint32_t n, uint32_t v)
{
    for (uint32_t i = 0; i < n; i++)
        if (table[i] == v)
            return i;
    fprintf(stderr, "seeds: value %u not in its table\n", v);
    exit(1);
}


/* Textures and buffers are named by their index among the current
 * declaration's textures (or buffers), below 32. */
static void s_tex_layers(enc *e, const char *nm, VkFormat f, uint32_t w, uint32_t h, uint32_t mips, uint32_t layers,
                         uint32_t samples)
{
    e8(e, OP_TEX_CREATE);
    ename(e, nm);
    EFMT(e, f);
    e32(e, w), e32(e, h), e32(e, mips), e32(e, layers), e32(e, samples);
    e8(e, RG_TRANSIENT_AUTO);
    e32(e, 0);
}

/* A history texture (rg_texture_create_history): the current half, then
 * the previous one, as the next two textures. */
void s_history(enc *e, const char *nm, VkFormat f, uint32_t w, uint32_t h)
{
    e8(e, OP_TEX_CREATE);
    ename(e, nm);
    EFMT(e, f);
    e32(e, w), e32(e, h), e32(e, 1), e32(e, 1), e32(e, 1);
    e8(e, 0xE0); /* the mode byte's history range */
    e32(e, 0);
}

void s_tex(enc *e, const char *nm, VkFormat f, uint32_t w, uint32_t h, uint32_t mips, uint32_t samples)
{
    s_tex_layers(e, nm, f, w, h, mips, 1, samples);
}

void s_import_layers(enc *e, const char *nm, VkFormat f, uint32_t w, uint32_t h, uint32_t mips,
                            uint32_t layers, VkImageLayout init, VkPipelineStageFlags2 init_stage,
                            VkImageLayout final)
{
    e8(e, OP_TEX_IMPORT);
    ename(e, nm);
    EFMT(e, f);
    e32(e, w), e32(e, h), e32(e, mips), e32(e, layers), e32(e, 1);
    ELAYOUT(e, init);
    e64(e, init_stage), e64(e, 0);
    ELAYOUT(e, final);
    e64(e, 0), e64(e, 0);
}

void s_import(enc *e, const char *nm, VkFormat f, uint32_t w, uint32_t h, VkImageLayout init,
                     VkPipelineStageFlags2 init_stage, VkImageLayout final)
{
    s_import_layers(e, nm, f, w, h, 1, 1, init, init_stage, final);
}

void s_buf(enc *e, const char *nm, uint64_t size, bool import)
{
    e8(e, import ? OP_BUF_IMPORT : OP_BUF_CREATE);
    ename(e, nm);
    e64(e, size);
    if (import)
        e64(e, VK_PIPELINE_STAGE_2_HOST_BIT), e64(e, VK_ACCESS_2_HOST_WRITE_BIT), e64(e, VK_PIPELINE_STAGE_2_HOST_BIT),
            e64(e, VK_ACCESS_2_HOST_READ_BIT);
    else
        e32(e, 0);
}

/* A user command eligible for queue q (the flags byte's bits 2-3). */
void s_user_q(enc *e, const char *nm, rg_command_kind kind, const s_acc *a, uint32_t n, rg_queue q)
{
    e8(e, OP_USER);
    ename(e, nm);
    e8(e, kind), e8(e, (uint32_t)q << 2), e8(e, n);
    for (uint32_t i = 0; i < n; i++) {
        e8(e, (a[i].tex >= 0 ? 1u : 0u) | (a[i].buf >= 0 ? 2u : 0u) | (a[i].aspect ? 0u : 4u)); /* 4: whole */
        if (a[i].tex >= 0)
            e8(e, (uint32_t)a[i].tex);
        if (a[i].buf >= 0)
            e8(e, (uint32_t)a[i].buf);
        e8(e, a[i].usage);
        if (a[i].aspect) {
            e8(e, index_of(aspects, COUNT(aspects), a[i].aspect));
            e32(e, 0), e32(e, 1), e32(e, 0), e32(e, 1);
        }
    }
}

void s_user(enc *e, const char *nm, rg_command_kind kind, const s_acc *a, uint32_t n)
{
    s_user_q(e, nm, kind, a, n, RG_QUEUE_GRAPHICS);
}

static void s_attachment(enc *e, const s_att *a)
{
    e8(e, a->resolve >= 0 ? 1 : 0);
    e8(e, (uint32_t)a->tex);
    e32(e, a->mip), e32(e, a->layer), e32(e, 0);
    e8(e, index_of(load_ops, COUNT(load_ops), (uint32_t)a->load));
    e8(e, index_of(store_ops, COUNT(store_ops), (uint32_t)a->store));
    if (a->resolve >= 0) {
        e8(e, (uint32_t)a->resolve);
        e32(e, a->resolve_mip), e32(e, a->resolve_layer);
        e8(e, index_of(resolve_modes, COUNT(resolve_modes), (uint32_t)a->mode));
    }
}

/* A span; depth_ro makes its depth attachment read-only. */
void s_span(enc *e, const char *nm, const s_att *colors, uint32_t n, const s_att *depth, bool depth_ro)
{
    e8(e, OP_BEGIN);
    ename(e, nm);
    e8(e, n);
    for (uint32_t i = 0; i < n; i++)
        s_attachment(e, &colors[i]);
    e8(e, (depth ? 1u : 0u) | (depth_ro ? 2u : 0u));
    if (depth)
        s_attachment(e, depth);
}

void s_begin(enc *e, const char *nm, const s_att *colors, uint32_t n, const s_att *depth)
{
    s_span(e, nm, colors, n, depth, false);
}

void s_drawn(enc *e, const char *nm, const s_att *colors, uint32_t n, const s_att *depth)
{
    s_begin(e, nm, colors, n, depth);
    s_user(e, "draw", RG_COMMAND_DRAW, NULL, 0);
    s_op(e, OP_END);
}

void s_op(enc *e, uint32_t op) { e8(e, op); }

void s_blit_filter(enc *e, int src, uint32_t src_mip, int dst, uint32_t dst_mip, VkFilter filter)
{
    e8(e, OP_BLIT);
    e8(e, (uint32_t)src), e32(e, src_mip), e8(e, (uint32_t)dst), e32(e, dst_mip);
    e8(e, index_of(filters, COUNT(filters), (uint32_t)filter));
}

void s_blit(enc *e, int src, uint32_t src_mip, int dst, uint32_t dst_mip)
{
    s_blit_filter(e, src, src_mip, dst, dst_mip, VK_FILTER_LINEAR);
}

/* A whole mip, one layer, of texture tex from (to_tex) or into buffer buf at offset. */
void s_copy(enc *e, bool to_tex, int buf, uint64_t offset, int tex, uint32_t mip)
{
    e8(e, to_tex ? OP_COPY_B2T : OP_COPY_T2B);
    e8(e, (uint32_t)buf), e64(e, offset), e8(e, (uint32_t)tex), e32(e, mip), e32(e, 0), e32(e, 1);
}

uint32_t table_index(const char *table)
{
    uint32_t t = 0;
    while (t < device_table_count && strcmp(device_tables[t].name, table) != 0)
        t++;
    return t;
}

void s_place(enc *e, const char *table)
{
    e8(e, OP_PLACE), e8(e, table_index(table)), e8(e, 0); /* recorded requirements as the device would say */
}

/* OP_EXTEND: compile and place over `table`, then the `ops` declaration ops
 * the caller encodes next, compile and place again, then `after`: 0 keep,
 * 1 reset, 2 destroy and create a new graph. */
void s_extend(enc *e, const char *table, uint32_t ops, uint32_t after)
{
    e8(e, OP_EXTEND), e8(e, table_index(table) | after << 4), e8(e, ops - 1);
}

