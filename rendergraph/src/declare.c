/* Declaration: the graph object, resources, commands and spans.
 *
 * Every call validates what it can see at once (handles, ranges, sizes, span
 * nesting, command kinds, attachments) so the message names the command and
 * the resource while they are at hand. The first error is sticky: later
 * declaration calls are ignored and return handle 0, and rg_compile returns
 * it. Each record is hashed as it is appended (handles as indices, never the
 * re-pointable Vulkan objects) so compile can tell an unchanged declaration.
 */
#include "graph_internal.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

const char *rg_result_string(rg_result result)
{
    switch (result) {
    case RG_SUCCESS: return "success";
    case RG_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case RG_ERROR_INVALID_HANDLE: return "invalid handle (0, stale or foreign)";
    case RG_ERROR_BAD_RANGE: return "subresource range outside the resource or not concrete";
    case RG_ERROR_UNBALANCED_SPAN: return "begin_rendering without end_rendering";
    case RG_ERROR_NESTED_SPAN: return "begin_rendering inside a span";
    case RG_ERROR_END_WITHOUT_BEGIN: return "end_rendering without begin_rendering";
    case RG_ERROR_DRAW_OUTSIDE_SPAN: return "draw command outside a span";
    case RG_ERROR_TRANSFER_IN_SPAN: return "copy, clear or blit inside a span";
    case RG_ERROR_ATTACHMENT_LAYOUT: return "attachment layout not legal for rendering";
    case RG_ERROR_ATTACHMENT_OVERLAP: return "two attachments on one subresource";
    case RG_ERROR_FEEDBACK_LOOP: return "interior access touches an attachment (feedback loop)";
    case RG_ERROR_TRANSITION_IN_SPAN: return "intra-span hazard needs a layout transition";
    case RG_ERROR_NOT_COMPILED: return "graph not compiled";
    case RG_ERROR_OUT_OF_MEMORY: return "out of memory";
    case RG_ERROR_CALLBACK: return "record callback failed";
    case RG_ERROR_VULKAN: return "Vulkan call failed";
    case RG_ERROR_HAZARD_IN_SPAN: return "intra-span hazard needs a barrier inside the render pass";
    case RG_ERROR_OUTSIDE_IN_SPAN: return "outside-kind command inside a span";
    case RG_RESULT_COUNT: break;
    }
    return "invalid rg_result value";
}

rg_result rg__fail(rg_graph *g, rg_result r, const char *fmt, ...)
{
    if (g->error != RG_SUCCESS)
        return g->error;
    g->error = r;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->message, sizeof g->message, fmt, ap);
    va_end(ap);
    return r;
}

/* ------------------------------------------------------------- internals */

/* Every declaration append passes here: the compiled plan no longer
 * matches until rg_compile runs again. */
static void hash_bytes(rg_graph *g, const void *p, size_t n)
{
    g->compiled = false;
    /* FNV-1a over 8-byte words (then the tail bytes): the multiply chain is
     * the cost, so a word per step keeps declaring cheap. */
    const unsigned char *b = p;
    uint64_t h = g->declaration_hash;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = (h ^ w) * FNV_PRIME;
    }
    for (; i < n; i++)
        h = (h ^ b[i]) * FNV_PRIME;
    g->declaration_hash = h;
}

static void hash_u32(rg_graph *g, uint32_t v) { hash_bytes(g, &v, sizeof v); }

/* Geometric growth keeps appends amortised O(1). */
static bool grow(rg_graph *g, void **p, uint32_t *cap, uint32_t need, size_t elem)
{
    if (need <= *cap)
        return true;
    uint32_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, (size_t)n * elem);
    if (!q) {
        rg__fail(g, RG_ERROR_OUT_OF_MEMORY, "out of memory growing the declaration to %u entries", need);
        return false;
    }
    *p = q;
    *cap = n;
    return true;
}

/* Every command is named: a plain bounded copy, since snprintf's format
 * machinery was a tenth of declaring a command. */
static void copy_name(char *dst, const char *src, const char *fallback)
{
    const char *from = src && src[0] ? src : fallback;
    size_t n = 0;
    while (n < RG_NAME_MAX - 1 && from[n]) {
        dst[n] = from[n];
        n++;
    }
    dst[n] = '\0';
}

static uint32_t make_id(const rg_graph *g, uint32_t index) { return (g->tag << RG_INDEX_BITS) | (index + 1); }

static uint32_t resource_index(const rg_graph *g, uint32_t id, bool texture)
{
    if (!g || id == 0 || (id >> RG_INDEX_BITS) != g->tag)
        return RG_NONE;
    uint32_t i = (id & RG_INDEX_MASK) - 1;
    if (i >= g->resource_count || g->resources[i].is_texture != texture)
        return RG_NONE;
    return i;
}

uint32_t rg__texture_index(const rg_graph *g, rg_texture t) { return resource_index(g, t.id, true); }
uint32_t rg__buffer_index(const rg_graph *g, rg_buffer b) { return resource_index(g, b.id, false); }

uint32_t rg__sub_slot(const rg_resource *r, VkImageAspectFlagBits aspect, uint32_t mip, uint32_t layer)
{
    if (!r->is_texture)
        return r->sub_base;
    uint32_t a = (uint32_t)__builtin_popcount(r->aspects & ((uint32_t)aspect - 1u));
    return r->sub_base + (a * r->mip_levels + mip) * r->array_layers + layer;
}

static VkImageAspectFlags format_aspects(VkFormat f)
{
    VkImageAspectFlags a = 0;
    if (eng_format_has_depth(f))
        a |= VK_IMAGE_ASPECT_DEPTH_BIT;
    if (eng_format_has_stencil(f))
        a |= VK_IMAGE_ASPECT_STENCIL_BIT;
    return a ? a : VK_IMAGE_ASPECT_COLOR_BIT;
}

/* Declaration calls are ignored once an error is kept. */
static bool usable(const rg_graph *g) { return g && g->error == RG_SUCCESS; }

/* ------------------------------------------------------------------ graph */

static uint32_t next_tag(void)
{
    /* Distinct tags across graphs and resets catch foreign and stale handles. */
    static atomic_uint counter;
    return atomic_fetch_add(&counter, 1u) % ((1u << (32 - RG_INDEX_BITS)) - 1u) + 1u;
}

static void declaration_clear(rg_graph *g)
{
    g->resource_count = 0;
    g->cmd_count = 0;
    g->access_count = 0;
    g->span_count = 0;
    g->open_span = RG_NONE;
    g->sub_total = 0;
    g->error = RG_SUCCESS;
    g->message[0] = '\0';
    g->declaration_hash = FNV_OFFSET;
    g->tag = next_tag();
}

rg_result rg_graph_create(const rg_graph_desc *desc, rg_graph **out)
{
    if (!out)
        return RG_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    if (!desc)
        return RG_ERROR_INVALID_ARGUMENT;
    rg_graph *g = calloc(1, sizeof *g);
    if (!g)
        return RG_ERROR_OUT_OF_MEMORY;
    copy_name(g->name, desc->name, "graph");
    g->ctx = desc->ctx;
    declaration_clear(g);
    *out = g;
    return RG_SUCCESS;
}

void rg_graph_destroy(rg_graph *graph)
{
    if (!graph)
        return;
    rg__placement_free(graph);
    rg__compiled_free(graph);
    free(graph->resources);
    free(graph->cmds);
    free(graph->accesses);
    free(graph->spans);
    free(graph);
}

void rg_graph_reset(rg_graph *graph)
{
    if (!graph)
        return;
    /* The compiled arrays stay: an identical re-declaration reuses them (see
     * rg_compile). Placed memory belongs to the old resources. */
    rg__placement_free(graph);
    graph->compiled = false;
    declaration_clear(graph);
}

rg_result rg_graph_error(const rg_graph *graph) { return graph ? graph->error : RG_ERROR_INVALID_ARGUMENT; }

const char *rg_graph_error_message(const rg_graph *graph) { return graph ? graph->message : "no graph"; }

/* -------------------------------------------------------------- resources */

static rg_resource *resource_append(rg_graph *g, bool texture, uint32_t sub_count)
{
    if (g->resource_count >= RG_INDEX_MASK) {
        rg__fail(g, RG_ERROR_OUT_OF_MEMORY, "too many resources (%u)", g->resource_count);
        return NULL;
    }
    if (!grow(g, (void **)&g->resources, &g->resource_cap, g->resource_count + 1, sizeof *g->resources))
        return NULL;
    rg_resource *r = &g->resources[g->resource_count];
    memset(r, 0, sizeof *r);
    r->is_texture = texture;
    r->sub_base = g->sub_total;
    r->sub_count = sub_count;
    r->first_use = r->last_use = RG_NONE;
    return r;
}

/* Hashes what identifies the resource: not the Vulkan objects, which an
 * import may re-point every frame. */
static void resource_commit(rg_graph *g, rg_resource *r)
{
    rg_resource h = *r;
    h.image = VK_NULL_HANDLE;
    h.view = VK_NULL_HANDLE;
    h.buffer = VK_NULL_HANDLE;
    hash_bytes(g, &h, sizeof h);
    g->sub_total += r->sub_count;
    g->resource_count++;
}

typedef struct texture_shape {
    const char *name;
    VkFormat format;
    uint32_t width, height, mips, layers;
    VkSampleCountFlagBits samples;
} texture_shape;

static rg_resource *texture_append(rg_graph *g, const char *what, const texture_shape *s)
{
    const char *name = s->name ? s->name : "";
    uint32_t mips = s->mips ? s->mips : 1, layers = s->layers ? s->layers : 1;
    VkSampleCountFlagBits samples = s->samples ? s->samples : VK_SAMPLE_COUNT_1_BIT;
    if (s->format == VK_FORMAT_UNDEFINED || s->width == 0 || s->height == 0) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "%s '%s': format undefined or zero extent %ux%u", what, name,
                 s->width, s->height);
        return NULL;
    }
    if (mips > 32 || ((uint32_t)samples & ((uint32_t)samples - 1)) != 0 || (samples > 1 && mips > 1)) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "%s '%s': bad mip count %u or sample count %u", what, name, mips,
                 (uint32_t)samples);
        return NULL;
    }
    VkImageAspectFlags aspects = format_aspects(s->format);
    uint64_t subs = (uint64_t)__builtin_popcount(aspects) * mips * layers;
    if (subs > (1u << 24) || g->sub_total + subs > UINT32_MAX / 2) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "%s '%s': too many subresources", what, name);
        return NULL;
    }
    rg_resource *r = resource_append(g, true, (uint32_t)subs);
    if (!r)
        return NULL;
    copy_name(r->name, s->name, "texture");
    r->format = s->format;
    r->width = s->width;
    r->height = s->height;
    r->mip_levels = mips;
    r->array_layers = layers;
    r->samples = samples;
    r->aspects = aspects;
    return r;
}

rg_texture rg_texture_create(rg_graph *graph, const rg_texture_desc *desc)
{
    if (!usable(graph))
        return (rg_texture){0};
    if (!desc) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "rg_texture_create: NULL desc");
        return (rg_texture){0};
    }
    texture_shape s = {desc->name, desc->format, desc->width, desc->height,
                       desc->mip_levels, desc->array_layers, desc->samples};
    rg_resource *r = texture_append(graph, "rg_texture_create", &s);
    if (!r)
        return (rg_texture){0};
    r->image_usage = desc->extra_usage;
    uint32_t index = graph->resource_count;
    resource_commit(graph, r);
    return (rg_texture){make_id(graph, index)};
}

rg_texture rg_texture_import(rg_graph *graph, const rg_texture_import_desc *desc)
{
    if (!usable(graph))
        return (rg_texture){0};
    if (!desc) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "rg_texture_import: NULL desc");
        return (rg_texture){0};
    }
    texture_shape s = {desc->name, desc->format, desc->width, desc->height,
                       desc->mip_levels, desc->array_layers, desc->samples};
    rg_resource *r = texture_append(graph, "rg_texture_import", &s);
    if (!r)
        return (rg_texture){0};
    r->imported = true;
    r->image = desc->image;
    r->view = desc->view;
    r->initial_layout = desc->initial_layout;
    r->initial_stage = desc->initial_stage;
    r->initial_access = desc->initial_access;
    r->final_layout = desc->final_layout;
    r->final_stage = desc->final_stage;
    r->final_access = desc->final_access;
    uint32_t index = graph->resource_count;
    resource_commit(graph, r);
    return (rg_texture){make_id(graph, index)};
}

rg_buffer rg_buffer_create(rg_graph *graph, const rg_buffer_desc *desc)
{
    if (!usable(graph))
        return (rg_buffer){0};
    if (!desc || desc->size == 0) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "rg_buffer_create '%s': NULL desc or zero size",
                 desc && desc->name ? desc->name : "");
        return (rg_buffer){0};
    }
    rg_resource *r = resource_append(graph, false, 1);
    if (!r)
        return (rg_buffer){0};
    copy_name(r->name, desc->name, "buffer");
    r->size = desc->size;
    r->buffer_usage = desc->extra_usage;
    uint32_t index = graph->resource_count;
    resource_commit(graph, r);
    return (rg_buffer){make_id(graph, index)};
}

rg_buffer rg_buffer_import(rg_graph *graph, const rg_buffer_import_desc *desc)
{
    if (!usable(graph))
        return (rg_buffer){0};
    if (!desc || desc->size == 0) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "rg_buffer_import '%s': NULL desc or zero size",
                 desc && desc->name ? desc->name : "");
        return (rg_buffer){0};
    }
    rg_resource *r = resource_append(graph, false, 1);
    if (!r)
        return (rg_buffer){0};
    copy_name(r->name, desc->name, "buffer");
    r->imported = true;
    r->size = desc->size;
    r->buffer = desc->buffer;
    r->initial_stage = desc->initial_stage;
    r->initial_access = desc->initial_access;
    r->final_stage = desc->final_stage;
    r->final_access = desc->final_access;
    uint32_t index = graph->resource_count;
    resource_commit(graph, r);
    return (rg_buffer){make_id(graph, index)};
}

/* Re-pointing is not a declaration change: no hash, no sticky error. */
rg_result rg_texture_set_image(rg_graph *graph, rg_texture texture, VkImage image, VkImageView view)
{
    uint32_t i = rg__texture_index(graph, texture);
    if (i == RG_NONE)
        return RG_ERROR_INVALID_HANDLE;
    if (!graph->resources[i].imported)
        return RG_ERROR_INVALID_ARGUMENT;
    graph->resources[i].image = image;
    graph->resources[i].view = view;
    return RG_SUCCESS;
}

rg_result rg_buffer_set_buffer(rg_graph *graph, rg_buffer buffer, VkBuffer handle)
{
    uint32_t i = rg__buffer_index(graph, buffer);
    if (i == RG_NONE)
        return RG_ERROR_INVALID_HANDLE;
    if (!graph->resources[i].imported)
        return RG_ERROR_INVALID_ARGUMENT;
    graph->resources[i].buffer = handle;
    return RG_SUCCESS;
}

/* --------------------------------------------------------------- accesses */

/* A command under construction: its accesses are appended first, the
 * record last (so a failed command leaves nothing behind). */
typedef struct pending {
    rg_graph *g;
    const char *name;
    uint32_t first_access;
} pending;

static pending pending_begin(rg_graph *g, const char *name)
{
    return (pending){g, name, g->access_count};
}

static bool ranges_overlap(const rg_range *a, const rg_range *b)
{
    return (a->aspect & b->aspect) && a->base_mip < b->base_mip + b->mip_count &&
           b->base_mip < a->base_mip + a->mip_count && a->base_layer < b->base_layer + b->layer_count &&
           b->base_layer < a->base_layer + a->layer_count;
}

static uint32_t texture_arg(pending *p, rg_texture t)
{
    uint32_t i = rg__texture_index(p->g, t);
    if (i == RG_NONE)
        rg__fail(p->g, RG_ERROR_INVALID_HANDLE, "command '%s': texture handle 0x%x is 0, stale, foreign or not a texture",
                 p->name, t.id);
    return i;
}

static uint32_t buffer_arg(pending *p, rg_buffer b)
{
    uint32_t i = rg__buffer_index(p->g, b);
    if (i == RG_NONE)
        rg__fail(p->g, RG_ERROR_INVALID_HANDLE, "command '%s': buffer handle 0x%x is 0, stale, foreign or not a buffer",
                 p->name, b.id);
    return i;
}

/* Appends one resolved access; the created resource learns the usage it
 * needs (lifetime-only accesses never add usage). */
static bool access_push(pending *p, const rg_access_rec *rec, VkImageUsageFlags image_usage,
                        VkBufferUsageFlags buffer_usage)
{
    rg_graph *g = p->g;
    if (!grow(g, (void **)&g->accesses, &g->access_cap, g->access_count + 1, sizeof *g->accesses))
        return false;
    rg_access_rec *a = &g->accesses[g->access_count++];
    memset(a, 0, sizeof *a);
    a->resource = rec->resource;
    a->range = rec->range;
    a->offset = rec->offset;
    a->size = rec->size;
    a->stage = rec->stage;
    a->access = rec->access;
    a->layout = rec->layout;
    a->write = rec->write;
    a->role = rec->role;
    hash_bytes(g, a, sizeof *a);
    rg_resource *r = &g->resources[rec->resource];
    if (rec->role != RG_ROLE_LIFETIME && !r->imported) {
        r->image_usage |= image_usage;
        r->buffer_usage |= buffer_usage;
    }
    return true;
}

/* Concrete range of a texture access: REMAINING resolves to the rest, zero
 * counts to 1, aspect 0 to every aspect of the format. */
static bool texture_range(pending *p, const rg_resource *r, bool whole, const rg_range *in, rg_range *out)
{
    if (whole) {
        *out = (rg_range){r->aspects, 0, r->mip_levels, 0, r->array_layers};
        return true;
    }
    rg_range q = *in;
    if (q.aspect == 0)
        q.aspect = r->aspects;
    if (q.mip_count == VK_REMAINING_MIP_LEVELS && q.base_mip < r->mip_levels)
        q.mip_count = r->mip_levels - q.base_mip;
    if (q.layer_count == VK_REMAINING_ARRAY_LAYERS && q.base_layer < r->array_layers)
        q.layer_count = r->array_layers - q.base_layer;
    if (q.mip_count == 0)
        q.mip_count = 1;
    if (q.layer_count == 0)
        q.layer_count = 1;
    if ((q.aspect & ~r->aspects) || q.base_mip >= r->mip_levels || q.mip_count > r->mip_levels - q.base_mip ||
        q.base_layer >= r->array_layers || q.layer_count > r->array_layers - q.base_layer) {
        rg__fail(p->g, RG_ERROR_BAD_RANGE,
                 "command '%s': range (aspect 0x%x, mips %u+%u, layers %u+%u) outside texture '%s' (%u mips, %u layers)",
                 p->name, in->aspect, in->base_mip, in->mip_count, in->base_layer, in->layer_count, r->name,
                 r->mip_levels, r->array_layers);
        return false;
    }
    *out = q;
    return true;
}

/* A user access: handle, kind, range and usage row resolved. */
static bool user_access(pending *p, const rg_access *a, uint32_t span)
{
    rg_graph *g = p->g;
    const rg_usage_info *info = rg_usage_get_info(a->usage);
    bool has_t = a->texture.id != 0, has_b = a->buffer.id != 0;
    if (has_t == has_b || !info || a->usage == RG_USAGE_NONE) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT,
                 "command '%s': an access needs exactly one of texture and buffer and a usage (usage %d)", p->name,
                 (int)a->usage);
        return false;
    }
    uint32_t ri = has_t ? texture_arg(p, a->texture) : buffer_arg(p, a->buffer);
    if (ri == RG_NONE)
        return false;
    rg_resource *r = &g->resources[ri];
    bool raw = a->usage == RG_USAGE_RAW;
    if (!raw && (has_t ? info->layout == VK_IMAGE_LAYOUT_UNDEFINED : info->buffer_usage == 0)) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "command '%s': usage %s does not apply to %s '%s'", p->name, info->name,
                 has_t ? "texture" : "buffer", r->name);
        return false;
    }
    rg_access_rec rec = {.resource = ri, .role = RG_ROLE_NORMAL};
    rec.stage = raw ? a->stage : info->stage;
    rec.access = raw ? a->access : info->access;
    rec.write = raw ? a->write : info->write;
    if (has_t) {
        rec.layout = raw ? a->layout : info->layout;
        if (rec.layout == VK_IMAGE_LAYOUT_UNDEFINED || rec.layout == VK_IMAGE_LAYOUT_PREINITIALIZED) {
            rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "command '%s': raw access to texture '%s' needs a layout",
                     p->name, r->name);
            return false;
        }
        if (!texture_range(p, r, a->whole, &a->range, &rec.range))
            return false;
    } else {
        rec.size = r->size;
    }
    /* Feedback loop: an interior access may not touch what the span renders
     * to (the attachment's own load/store is its begin access). */
    if (span != RG_NONE) {
        const rg_cmd_rec *begin = &g->cmds[g->spans[span].begin_cmd];
        for (uint32_t k = 0; k < begin->access_count; k++) {
            const rg_access_rec *att = &g->accesses[begin->first_access + k];
            if (att->resource == ri && ranges_overlap(&att->range, &rec.range)) {
                rg__fail(g, RG_ERROR_FEEDBACK_LOOP,
                         "command '%s': access %s to texture '%s' touches an attachment of span '%s' (feedback loop)",
                         p->name, info->name, r->name, begin->name);
                return false;
            }
        }
    }
    return access_push(p, &rec, raw ? 0 : info->image_usage, raw ? 0 : info->buffer_usage);
}

/* A built-in command's access through the usage table. */
static bool table_access(pending *p, uint32_t ri, rg_usage usage, const rg_range *range)
{
    const rg_usage_info *info = rg_usage_get_info(usage);
    const rg_resource *r = &p->g->resources[ri];
    rg_access_rec rec = {.resource = ri, .stage = info->stage, .access = info->access, .write = info->write};
    if (r->is_texture) {
        rec.layout = info->layout;
        rec.range = *range;
    } else {
        rec.size = r->size;
    }
    return access_push(p, &rec, info->image_usage, info->buffer_usage);
}

/* Appends the command record after its accesses; returns its handle. */
static rg_command cmd_finish(pending *p, const rg_cmd_rec *tmpl)
{
    rg_graph *g = p->g;
    if (g->error != RG_SUCCESS)
        return (rg_command){0};
    if (!grow(g, (void **)&g->cmds, &g->cmd_cap, g->cmd_count + 1, sizeof *g->cmds))
        return (rg_command){0};
    rg_cmd_rec *c = &g->cmds[g->cmd_count];
    *c = *tmpl;
    copy_name(c->name, p->name, "command");
    c->first_access = p->first_access;
    c->access_count = g->access_count - p->first_access;
    c->node = 0;
    hash_bytes(g, c, sizeof *c);
    return (rg_command){++g->cmd_count};
}

/* Built-in commands are transfers: never inside a span. */
static bool outside_span(pending *p)
{
    if (p->g->open_span == RG_NONE)
        return true;
    rg__fail(p->g, RG_ERROR_TRANSFER_IN_SPAN, "command '%s' inside span '%s': transfers, copies, clears and blits "
             "are not allowed inside a rendering instance", p->name,
             p->g->cmds[p->g->spans[p->g->open_span].begin_cmd].name);
    return false;
}

static rg_cmd_rec cmd_template(rg_cmd_type type)
{
    rg_cmd_rec c;
    memset(&c, 0, sizeof c); /* zero padding and union bytes: the record is hashed */
    c.type = type;
    c.span = RG_NONE;
    return c;
}

/* --------------------------------------------------------------- commands */

rg_command rg_cmd_user(rg_graph *graph, const rg_user_desc *desc)
{
    if (!usable(graph))
        return (rg_command){0};
    if (!desc) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "rg_cmd_user: NULL desc");
        return (rg_command){0};
    }
    pending p = pending_begin(graph, desc->name ? desc->name : "user");
    uint32_t span = graph->open_span;
    if (!desc->record || (desc->access_count && !desc->accesses) ||
        (desc->kind != RG_COMMAND_OUTSIDE && desc->kind != RG_COMMAND_DRAW)) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "command '%s': NULL record callback, NULL accesses or bad kind",
                 p.name);
        return (rg_command){0};
    }
    if (desc->kind == RG_COMMAND_DRAW && span == RG_NONE) {
        rg__fail(graph, RG_ERROR_DRAW_OUTSIDE_SPAN, "command '%s': a draw command outside a span", p.name);
        return (rg_command){0};
    }
    if (desc->kind == RG_COMMAND_OUTSIDE && span != RG_NONE) {
        rg__fail(graph, RG_ERROR_OUTSIDE_IN_SPAN,
                 "command '%s': an outside-kind command (dispatch, query, ...) inside span '%s'", p.name,
                 graph->cmds[graph->spans[span].begin_cmd].name);
        return (rg_command){0};
    }
    for (uint32_t i = 0; i < desc->access_count; i++)
        if (!user_access(&p, &desc->accesses[i], span))
            return (rg_command){0};
    rg_cmd_rec c = cmd_template(RG_CMD_USER);
    c.kind = desc->kind;
    c.span = span;
    c.u.user.record = desc->record;
    c.u.user.user = desc->user;
    return cmd_finish(&p, &c);
}

static bool check_buffer_region(pending *p, uint32_t bi, VkDeviceSize offset, VkDeviceSize size)
{
    const rg_resource *r = &p->g->resources[bi];
    if (size == 0 || offset > r->size || size > r->size - offset) {
        rg__fail(p->g, RG_ERROR_BAD_RANGE, "command '%s': region offset %llu size %llu outside buffer '%s' (%llu bytes)",
                 p->name, (unsigned long long)offset, (unsigned long long)size, r->name,
                 (unsigned long long)r->size);
        return false;
    }
    return true;
}

rg_command rg_cmd_copy_buffer(rg_graph *graph, rg_buffer src, VkDeviceSize src_offset, rg_buffer dst,
                              VkDeviceSize dst_offset, VkDeviceSize size)
{
    if (!usable(graph))
        return (rg_command){0};
    pending p = pending_begin(graph, "copy_buffer");
    if (!outside_span(&p))
        return (rg_command){0};
    uint32_t s = buffer_arg(&p, src), d = s == RG_NONE ? RG_NONE : buffer_arg(&p, dst);
    if (d == RG_NONE || !check_buffer_region(&p, s, src_offset, size) || !check_buffer_region(&p, d, dst_offset, size))
        return (rg_command){0};
    if (s == d && src_offset < dst_offset + size && dst_offset < src_offset + size) {
        rg__fail(graph, RG_ERROR_BAD_RANGE, "command '%s': overlapping regions in buffer '%s'", p.name,
                 graph->resources[s].name);
        return (rg_command){0};
    }
    if (!table_access(&p, s, RG_USAGE_TRANSFER_SRC, NULL) || !table_access(&p, d, RG_USAGE_TRANSFER_DST, NULL))
        return (rg_command){0};
    rg_cmd_rec c = cmd_template(RG_CMD_COPY_BUFFER);
    c.u.copy_buffer.src_offset = src_offset;
    c.u.copy_buffer.dst_offset = dst_offset;
    c.u.copy_buffer.size = size;
    return cmd_finish(&p, &c);
}

/* The texture side of a buffer<->texture copy: whole mip, given layers; the
 * buffer must hold the tightly packed texels when the size is known. */
static bool copy_image_args(pending *p, uint32_t ti, uint32_t bi, VkDeviceSize offset, uint32_t mip, uint32_t layer,
                            uint32_t *layer_count, rg_range *range)
{
    const rg_resource *t = &p->g->resources[ti];
    uint32_t n = *layer_count ? *layer_count : 1;
    if (mip >= t->mip_levels || layer >= t->array_layers || n > t->array_layers - layer) {
        rg__fail(p->g, RG_ERROR_BAD_RANGE, "command '%s': mip %u layers %u+%u outside texture '%s'", p->name, mip,
                 layer, n, t->name);
        return false;
    }
    if (t->samples != VK_SAMPLE_COUNT_1_BIT) {
        rg__fail(p->g, RG_ERROR_INVALID_ARGUMENT, "command '%s': texture '%s' is multisampled", p->name, t->name);
        return false;
    }
    VkDeviceSize w = t->width >> mip ? t->width >> mip : 1, h = t->height >> mip ? t->height >> mip : 1;
    VkDeviceSize bytes = (VkDeviceSize)eng_format_texel_size(t->format) * w * h * n;
    if (!check_buffer_region(p, bi, offset, bytes ? bytes : 1))
        return false;
    *layer_count = n;
    *range = (rg_range){t->aspects, mip, 1, layer, n};
    return true;
}

rg_command rg_cmd_copy_buffer_to_texture(rg_graph *graph, rg_buffer src, VkDeviceSize offset, rg_texture dst,
                                         uint32_t mip, uint32_t layer, uint32_t layer_count)
{
    if (!usable(graph))
        return (rg_command){0};
    pending p = pending_begin(graph, "copy_buffer_to_texture");
    if (!outside_span(&p))
        return (rg_command){0};
    uint32_t b = buffer_arg(&p, src), t = b == RG_NONE ? RG_NONE : texture_arg(&p, dst);
    rg_range range;
    if (t == RG_NONE || !copy_image_args(&p, t, b, offset, mip, layer, &layer_count, &range))
        return (rg_command){0};
    if (!table_access(&p, b, RG_USAGE_TRANSFER_SRC, NULL) || !table_access(&p, t, RG_USAGE_TRANSFER_DST, &range))
        return (rg_command){0};
    rg_cmd_rec c = cmd_template(RG_CMD_COPY_BUFFER_TO_TEXTURE);
    c.u.copy_image.offset = offset;
    c.u.copy_image.mip = mip;
    c.u.copy_image.layer = layer;
    c.u.copy_image.layer_count = layer_count;
    return cmd_finish(&p, &c);
}

rg_command rg_cmd_copy_texture_to_buffer(rg_graph *graph, rg_texture src, uint32_t mip, uint32_t layer,
                                         uint32_t layer_count, rg_buffer dst, VkDeviceSize offset)
{
    if (!usable(graph))
        return (rg_command){0};
    pending p = pending_begin(graph, "copy_texture_to_buffer");
    if (!outside_span(&p))
        return (rg_command){0};
    uint32_t t = texture_arg(&p, src), b = t == RG_NONE ? RG_NONE : buffer_arg(&p, dst);
    rg_range range;
    if (b == RG_NONE || !copy_image_args(&p, t, b, offset, mip, layer, &layer_count, &range))
        return (rg_command){0};
    if (!table_access(&p, t, RG_USAGE_TRANSFER_SRC, &range) || !table_access(&p, b, RG_USAGE_TRANSFER_DST, NULL))
        return (rg_command){0};
    rg_cmd_rec c = cmd_template(RG_CMD_COPY_TEXTURE_TO_BUFFER);
    c.u.copy_image.offset = offset;
    c.u.copy_image.mip = mip;
    c.u.copy_image.layer = layer;
    c.u.copy_image.layer_count = layer_count;
    return cmd_finish(&p, &c);
}

rg_command rg_cmd_clear_texture(rg_graph *graph, rg_texture texture, const rg_range *range, const VkClearValue *value)
{
    if (!usable(graph))
        return (rg_command){0};
    pending p = pending_begin(graph, "clear_texture");
    if (!outside_span(&p))
        return (rg_command){0};
    uint32_t t = texture_arg(&p, texture);
    if (t == RG_NONE)
        return (rg_command){0};
    if (!value) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "command '%s': NULL clear value for texture '%s'", p.name,
                 graph->resources[t].name);
        return (rg_command){0};
    }
    rg_range r;
    if (!texture_range(&p, &graph->resources[t], range == NULL, range, &r) ||
        !table_access(&p, t, RG_USAGE_TRANSFER_DST, &r))
        return (rg_command){0};
    rg_cmd_rec c = cmd_template(RG_CMD_CLEAR);
    c.u.clear.range = r;
    c.u.clear.value = *value;
    return cmd_finish(&p, &c);
}

rg_command rg_cmd_blit(rg_graph *graph, rg_texture src, uint32_t src_mip, rg_texture dst, uint32_t dst_mip,
                       VkFilter filter)
{
    if (!usable(graph))
        return (rg_command){0};
    pending p = pending_begin(graph, "blit");
    if (!outside_span(&p))
        return (rg_command){0};
    uint32_t s = texture_arg(&p, src), d = s == RG_NONE ? RG_NONE : texture_arg(&p, dst);
    if (d == RG_NONE)
        return (rg_command){0};
    const rg_resource *rs = &graph->resources[s], *rd = &graph->resources[d];
    if (src_mip >= rs->mip_levels || dst_mip >= rd->mip_levels || (s == d && src_mip == dst_mip)) {
        rg__fail(graph, RG_ERROR_BAD_RANGE, "command '%s': mips %u of '%s' -> %u of '%s' outside or the same", p.name,
                 src_mip, rs->name, dst_mip, rd->name);
        return (rg_command){0};
    }
    if (rs->samples != VK_SAMPLE_COUNT_1_BIT || rd->samples != VK_SAMPLE_COUNT_1_BIT ||
        rs->array_layers != rd->array_layers) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "command '%s': '%s' -> '%s' multisampled or layer counts differ",
                 p.name, rs->name, rd->name);
        return (rg_command){0};
    }
    rg_range sr = {rs->aspects, src_mip, 1, 0, rs->array_layers};
    rg_range dr = {rd->aspects, dst_mip, 1, 0, rd->array_layers};
    if (!table_access(&p, s, RG_USAGE_TRANSFER_SRC, &sr) || !table_access(&p, d, RG_USAGE_TRANSFER_DST, &dr))
        return (rg_command){0};
    rg_cmd_rec c = cmd_template(RG_CMD_BLIT);
    c.u.blit.src_mip = src_mip;
    c.u.blit.dst_mip = dst_mip;
    c.u.blit.filter = filter;
    return cmd_finish(&p, &c);
}

/* ------------------------------------------------------------------ spans */

typedef struct att_view {
    uint32_t resource;
    rg_range range;
} att_view;

/* Resolves one attachment view: one mip, explicit layers, no REMAINING. */
static bool attachment_view(pending *p, rg_texture tex, uint32_t mip, uint32_t base_layer, uint32_t layer_count,
                            att_view *out)
{
    uint32_t ri = texture_arg(p, tex);
    if (ri == RG_NONE)
        return false;
    const rg_resource *r = &p->g->resources[ri];
    uint32_t n = layer_count ? layer_count : 1;
    if (layer_count == VK_REMAINING_ARRAY_LAYERS || mip == VK_REMAINING_MIP_LEVELS || mip >= r->mip_levels ||
        base_layer >= r->array_layers || n > r->array_layers - base_layer) {
        rg__fail(p->g, RG_ERROR_BAD_RANGE,
                 "command '%s': attachment view of texture '%s' (mip %u, layers %u+%u) is outside it or uses REMAINING",
                 p->name, r->name, mip, base_layer, layer_count);
        return false;
    }
    *out = (att_view){ri, {r->aspects, mip, 1, base_layer, n}};
    return true;
}

typedef struct span_build {
    pending p;
    att_view views[17];
    uint32_t view_count;
    uint32_t width, height, layers; /* the smallest attachment extent */
} span_build;

static bool span_attach(span_build *b, const att_view *v, rg_access_role role, bool depth, bool read_only,
                        VkAttachmentLoadOp load)
{
    rg_graph *g = b->p.g;
    const rg_resource *r = &g->resources[v->resource];
    bool is_depth = (r->aspects & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT)) != 0;
    if (is_depth != depth) {
        rg__fail(g, RG_ERROR_ATTACHMENT_LAYOUT,
                 "command '%s': texture '%s' (format %d) cannot be a %s attachment: its layout would not be legal",
                 b->p.name, r->name, (int)r->format, depth ? "depth/stencil" : "color");
        return false;
    }
    for (uint32_t i = 0; i < b->view_count; i++) {
        if (b->views[i].resource == v->resource && ranges_overlap(&b->views[i].range, &v->range)) {
            rg__fail(g, RG_ERROR_ATTACHMENT_OVERLAP, "command '%s': two attachments on one subresource of texture '%s'",
                     b->p.name, r->name);
            return false;
        }
    }
    b->views[b->view_count++] = *v;
    rg_access_rec rec = {.resource = v->resource, .range = v->range, .write = true, .role = role};
    VkImageUsageFlags usage;
    if (depth && role == RG_ROLE_ATTACHMENT) {
        const rg_usage_info *u = rg_usage_get_info(read_only ? RG_USAGE_DEPTH_READ_ONLY : RG_USAGE_DEPTH_ATTACHMENT);
        rec.stage = u->stage;
        rec.access = u->access;
        rec.layout = u->layout;
        rec.write = u->write;
        usage = u->image_usage;
    } else {
        const rg_usage_info *u = rg_usage_get_info(role == RG_ROLE_RESOLVE ? RG_USAGE_RESOLVE : RG_USAGE_COLOR_ATTACHMENT);
        rec.stage = u->stage;
        rec.access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
        if (role == RG_ROLE_ATTACHMENT && load == VK_ATTACHMENT_LOAD_OP_LOAD)
            rec.access |= VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT;
        rec.layout = u->layout;
        usage = u->image_usage;
        if (depth) { /* a depth/stencil resolve target */
            rec.layout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;
            usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
        }
    }
    if (role == RG_ROLE_ATTACHMENT) {
        uint32_t w = r->width >> v->range.base_mip, h = r->height >> v->range.base_mip;
        b->width = b->width < (w ? w : 1) ? b->width : (w ? w : 1);
        b->height = b->height < (h ? h : 1) ? b->height : (h ? h : 1);
        b->layers = b->layers < v->range.layer_count ? b->layers : v->range.layer_count;
    }
    return access_push(&b->p, &rec, usage, 0);
}

static bool span_attachment(span_build *b, const rg_attachment *a, bool depth, bool read_only)
{
    rg_graph *g = b->p.g;
    att_view v;
    if (!attachment_view(&b->p, a->texture, a->mip, a->base_layer, a->layer_count, &v) ||
        !span_attach(b, &v, RG_ROLE_ATTACHMENT, depth, read_only, a->load))
        return false;
    if (a->resolve.id == 0)
        return true;
    att_view rv;
    if (!attachment_view(&b->p, a->resolve, a->resolve_mip, a->resolve_layer, v.range.layer_count, &rv))
        return false;
    const rg_resource *src = &g->resources[v.resource], *dst = &g->resources[rv.resource];
    if (src->samples == VK_SAMPLE_COUNT_1_BIT || dst->samples != VK_SAMPLE_COUNT_1_BIT || src->format != dst->format) {
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT,
                 "command '%s': resolve of '%s' into '%s' needs a multisampled source and a single-sample target "
                 "of the same format", b->p.name, src->name, dst->name);
        return false;
    }
    return span_attach(b, &rv, RG_ROLE_RESOLVE, depth, false, a->load);
}

static void hash_attachment(rg_graph *g, const rg_attachment *a)
{
    uint32_t v[10] = {a->texture.id & RG_INDEX_MASK, a->mip, a->base_layer, a->layer_count, (uint32_t)a->load,
                      (uint32_t)a->store, a->resolve.id & RG_INDEX_MASK, a->resolve_mip, a->resolve_layer,
                      (uint32_t)a->resolve_mode};
    hash_bytes(g, v, sizeof v);
    hash_bytes(g, &a->clear, sizeof a->clear);
}

rg_command rg_begin_rendering(rg_graph *graph, const rg_rendering_desc *desc)
{
    if (!usable(graph))
        return (rg_command){0};
    if (!desc) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "rg_begin_rendering: NULL desc");
        return (rg_command){0};
    }
    span_build b = {.p = pending_begin(graph, desc->name ? desc->name : "begin_rendering"),
                    .width = UINT32_MAX, .height = UINT32_MAX, .layers = UINT32_MAX};
    if (graph->open_span != RG_NONE) {
        rg__fail(graph, RG_ERROR_NESTED_SPAN, "command '%s': begin_rendering inside span '%s'", b.p.name,
                 graph->cmds[graph->spans[graph->open_span].begin_cmd].name);
        return (rg_command){0};
    }
    if (desc->color_count > 8) {
        rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "command '%s': %u color attachments (at most 8)", b.p.name,
                 desc->color_count);
        return (rg_command){0};
    }
    for (uint32_t i = 0; i < desc->color_count; i++)
        if (!span_attachment(&b, &desc->colors[i], false, false))
            return (rg_command){0};
    if (desc->depth.texture.id && !span_attachment(&b, &desc->depth, true, desc->depth_read_only))
        return (rg_command){0};
    VkRect2D area = desc->area;
    if (area.extent.width == 0 || area.extent.height == 0) {
        if (b.width == UINT32_MAX) {
            rg__fail(graph, RG_ERROR_INVALID_ARGUMENT, "command '%s': no attachments and no render area", b.p.name);
            return (rg_command){0};
        }
        area = (VkRect2D){{0, 0}, {b.width, b.height}};
    }
    if (!grow(graph, (void **)&graph->spans, &graph->span_cap, graph->span_count + 1, sizeof *graph->spans))
        return (rg_command){0};
    rg_cmd_rec c = cmd_template(RG_CMD_BEGIN_RENDERING);
    c.span = graph->span_count;
    uint32_t cmd_index = graph->cmd_count;
    rg_command h = cmd_finish(&b.p, &c);
    if (h.id == 0)
        return h;
    rg_span *s = &graph->spans[graph->span_count++];
    memset(s, 0, sizeof *s);
    s->begin_cmd = cmd_index;
    s->end_cmd = RG_NONE;
    s->desc = *desc;
    s->desc.name = NULL; /* the command record keeps the name */
    s->area = area;
    s->layer_count = b.layers == UINT32_MAX ? 1 : b.layers;
    graph->open_span = c.span;
    for (uint32_t i = 0; i < desc->color_count; i++)
        hash_attachment(graph, &desc->colors[i]);
    hash_attachment(graph, &desc->depth);
    uint32_t v[6] = {desc->color_count, desc->depth_read_only, (uint32_t)area.offset.x, (uint32_t)area.offset.y,
                     area.extent.width, area.extent.height};
    hash_bytes(graph, v, sizeof v);
    return h;
}

rg_command rg_end_rendering(rg_graph *graph)
{
    if (!usable(graph))
        return (rg_command){0};
    pending p = pending_begin(graph, "end_rendering");
    if (graph->open_span == RG_NONE) {
        rg__fail(graph, RG_ERROR_END_WITHOUT_BEGIN, "command '%s': end_rendering without an open span", p.name);
        return (rg_command){0};
    }
    uint32_t span = graph->open_span;
    const rg_cmd_rec *begin = &graph->cmds[graph->spans[span].begin_cmd];
    char name[RG_NAME_MAX];
    snprintf(name, sizeof name, "end %.*s", RG_NAME_MAX - 5, begin->name);
    p.name = name;
    /* Lifetime-only copies keep every attachment alive to the end. */
    uint32_t first = begin->first_access, count = begin->access_count;
    for (uint32_t i = 0; i < count; i++) {
        rg_access_rec rec = graph->accesses[first + i];
        rec.role = RG_ROLE_LIFETIME;
        if (!access_push(&p, &rec, 0, 0))
            return (rg_command){0};
    }
    rg_cmd_rec c = cmd_template(RG_CMD_END_RENDERING);
    c.span = span;
    uint32_t cmd_index = graph->cmd_count;
    rg_command h = cmd_finish(&p, &c);
    if (h.id == 0)
        return h;
    graph->spans[span].end_cmd = cmd_index;
    graph->open_span = RG_NONE;
    hash_u32(graph, span);
    return h;
}
