/* Helpers shared by the declaration files (declare_*.c): the declaration
 * hash, growth that records an error, and the command under construction
 * (rg__pending) with the calls that append its records. Not installed;
 * later stages do not need it. The hot one-liners are static inline so that
 * declaring stays cheap.
 */
#ifndef RG_DECLARE_INTERNAL_H
#define RG_DECLARE_INTERNAL_H

#include "model.h"

#include <string.h>

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

/* Every declaration append passes here: what compile and placement made no
 * longer matches until rg_compile runs again. */
static inline void rg__hash_bytes(rg_graph *g, const void *p, size_t n)
{
    if (g->status->state != RG__FAILED)
        g->status->state = RG__DECLARED;
    /* FNV-1a over 8-byte words (then the tail bytes): the multiply chain is
     * the cost, so a word per step keeps declaring cheap. */
    const unsigned char *b = p;
    uint64_t h = g->decl.hash;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = (h ^ w) * FNV_PRIME;
    }
    for (; i < n; i++)
        h = (h ^ b[i]) * FNV_PRIME;
    g->decl.hash = h;
}

static inline void rg__hash_u32(rg_graph *g, uint32_t v) { rg__hash_bytes(g, &v, sizeof v); }

/* rg__grow for a declaration array: false after recording
 * RG_ERROR_OUT_OF_MEMORY. */
bool rg__grow_declaration(rg_graph *g, void **p, uint32_t *cap, uint32_t need, size_t elem);

/* The declaration's records as the declaration calls write them: the only
 * writable view of arrays every other file reads as const. */
static inline rg__resource *rg__decl_resources(rg_graph *g) { return (rg__resource *)g->decl.resources; }
static inline rg__cmd *rg__decl_cmds(rg_graph *g) { return (rg__cmd *)g->decl.cmds; }
static inline rg__access *rg__decl_accesses(rg_graph *g) { return (rg__access *)g->decl.accesses; }
static inline rg__span *rg__decl_spans(rg_graph *g) { return (rg__span *)g->decl.spans; }

/* Declaration calls are ignored once an error is kept. */
static inline bool rg__usable(const rg_graph *g) { return g && g->status->state != RG__FAILED; }

/* The start of a declaration call taking a desc: the graph usable and the
 * desc given (a NULL one fails the declaration, naming fn). */
static inline bool rg__declare_begin(rg_graph *g, const void *desc, const char *fn)
{
    if (!rg__usable(g))
        return false;
    if (!desc)
        rg__fail(g, RG_ERROR_INVALID_ARGUMENT, "%s: NULL desc", fn);
    return desc != NULL;
}

static inline bool rg__ranges_overlap(const rg_range *a, const rg_range *b)
{
    return (a->aspect & b->aspect) && a->base_mip < b->base_mip + b->mip_count &&
           b->base_mip < a->base_mip + a->mip_count && a->base_layer < b->base_layer + b->layer_count &&
           b->base_layer < a->base_layer + a->layer_count;
}

/* A command under construction: its accesses are appended first, the
 * record last (so a failed command leaves nothing behind). */
typedef struct rg__pending {
    rg_graph *g;
    const char *name;
    uint32_t first_access;
} rg__pending;

static inline rg__pending rg__pending_begin(rg_graph *g, const char *name)
{
    return (rg__pending){g, name, g->decl.access_count};
}

static inline rg__cmd rg__cmd_template(rg_command_type type)
{
    rg__cmd c;
    memset(&c, 0, sizeof c); /* zero padding and union bytes: the record is hashed */
    c.type = type;
    c.span = RG__NONE;
    return c;
}

/* Handle argument -> resource index, or RG__NONE after recording
 * RG_ERROR_INVALID_HANDLE with the command's name (records.c). */
uint32_t rg__texture_arg(rg__pending *p, rg_texture t);
uint32_t rg__buffer_arg(rg__pending *p, rg_buffer b);

/* Appends one resolved access; the resource learns the usage it needs
 * (lifetime-only accesses never add usage). */
bool rg__access_push(rg__pending *p, const rg__access *rec, VkImageUsageFlags image_usage,
                     VkBufferUsageFlags buffer_usage);

/* Concrete range of a texture access (whole: every subresource), or false
 * after recording RG_ERROR_BAD_RANGE. */
bool rg__texture_range(rg__pending *p, const rg__resource *r, bool whole, const rg_range *in, rg_range *out);

/* Whether command c (its accesses declared) may run on queue q: outside
 * spans, and every access at a stage the queue has (blits and depth/stencil
 * clears need graphics, clears a compute queue); false after recording
 * RG_ERROR_INVALID_ARGUMENT naming the command and the resource. */
bool rg__queue_eligible(rg_graph *g, const char *name, const rg__cmd *c, uint32_t first_access,
                        uint32_t access_count, rg_queue q);

/* Appends the command record after its accesses; returns its handle (0
 * when an error is kept). */
rg_command rg__cmd_finish(rg__pending *p, const rg__cmd *tmpl);

#endif
