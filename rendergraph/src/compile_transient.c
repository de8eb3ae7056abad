/* Compile stage "transient": a created texture whose contents never
 * outlive one span gets VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT, so
 * placement can give it lazily allocated (tile) memory where the device
 * offers it. AUTO infers it; FORCE demands it and turns every use that needs
 * the contents into an error naming the texture and the command; FORBID
 * never sets it.
 */
#include "graph_internal.h"

#include <stdlib.h>

/* The only usage a transient image may carry besides TRANSIENT (Vulkan:
 * VUID-VkImageCreateInfo-usage-00966). Input attachments are allowed by
 * Vulkan, but MoltenVK silently gives them real memory, so AUTO never
 * infers transient for them. */
#define ATTACHMENT_USAGE (VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT)
#define FORCE_USAGE (ATTACHMENT_USAGE | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT)

/* What a texture's uses say: whether one of them needs the contents (the
 * first such command and why), and whether they lie in more than one span. */
typedef struct verdict {
    uint32_t cmd;                     /* first command needing the contents, RG__NONE if none */
    const char *why;
    uint32_t span;                    /* the span of the first attachment use */
    bool spans;                       /* attachment uses in two or more spans */
    bool used;
} verdict;

/* Load and store ops of every attachment of span s on texture ri. A span
 * may attach several views of one texture, so all of them are checked. */
static const char *attachment_ops(const rg_graph *g, uint32_t s, uint32_t ri)
{
    const rg_rendering_desc *d = &g->decl.spans[s].desc;
    for (uint32_t i = 0; i <= d->color_count; i++) {
        const rg_attachment *a = i < d->color_count ? &d->colors[i] : &d->depth;
        if (a->texture.id == 0 || rg__texture_index(g, a->texture) != ri)
            continue;
        if (a->load != VK_ATTACHMENT_LOAD_OP_CLEAR && a->load != VK_ATTACHMENT_LOAD_OP_DONT_CARE)
            return "loads it (load op neither CLEAR nor DONT_CARE)";
        if (a->store != VK_ATTACHMENT_STORE_OP_DONT_CARE)
            return "stores it (store op not DONT_CARE)";
    }
    return NULL;
}

static void judge(const rg_graph *g, uint32_t c, const rg__access *a, verdict *v)
{
    const rg__cmd *cmd = &g->decl.cmds[c];
    v->used = true;
    const char *why = NULL;
    if (a->role == RG__ROLE_LIFETIME)
        return; /* the end of a span whose begin was judged */
    if (a->role == RG__ROLE_ATTACHMENT) {
        if (v->span == RG__NONE)
            v->span = cmd->span;
        else if (v->span != cmd->span)
            v->spans = true;
        why = attachment_ops(g, cmd->span, a->resource);
    } else {
        why = a->role == RG__ROLE_RESOLVE ? "resolves into it" : "uses it other than as an attachment";
    }
    if (why && v->cmd == RG__NONE) {
        v->cmd = c;
        v->why = why;
    }
}

/* Whether the texture could be transient at all, before its uses are seen. */
static bool candidate(const rg__resource *r)
{
    if (!r->is_texture || r->imported || r->transient_mode == RG_TRANSIENT_FORBID)
        return false;
    /* AUTO: usage beyond attachments (extra_usage, or a use that is not an
     * attachment) rules it out at once. */
    return r->transient_mode == RG_TRANSIENT_FORCE || !(r->image_usage & ~(VkImageUsageFlags)ATTACHMENT_USAGE);
}

static rg_result decide(rg_graph *g, uint32_t ri, const verdict *v)
{
    rg__resource *r = &g->decl.resources[ri];
    if (r->transient_mode == RG_TRANSIENT_FORCE) {
        if (v->cmd != RG__NONE)
            return rg__fail(g, RG_ERROR_TRANSIENT_CONTENTS,
                            "texture '%s' is forced transient but command '%s' %s: a transient attachment has no "
                            "contents outside its span", r->name, g->decl.cmds[v->cmd].name, v->why);
        VkImageUsageFlags extra = r->image_usage & ~(VkImageUsageFlags)FORCE_USAGE;
        if (extra)
            return rg__fail(g, RG_ERROR_TRANSIENT_CONTENTS,
                            "texture '%s' is forced transient but its extra usage 0x%x allows more than attachment "
                            "use", r->name, (unsigned)extra);
    } else if (!v->used || v->cmd != RG__NONE || v->spans) {
        return RG_SUCCESS;
    }
    r->transient = true;
    r->image_usage |= VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
    return RG_SUCCESS;
}

rg_result rg__compile_transient(rg_graph *g)
{
    uint32_t n = g->decl.resource_count;
    verdict *v = malloc(((size_t)n + 1) * sizeof *v);
    if (!v)
        return RG_ERROR_OUT_OF_MEMORY;
    /* A declaration extended after a compile keeps the bit from last time:
     * it is decided afresh (TRANSIENT in extra_usage means nothing; FORCE
     * says it). */
    for (uint32_t ri = 0; ri < n; ri++) {
        g->decl.resources[ri].transient = false;
        if (!g->decl.resources[ri].imported)
            g->decl.resources[ri].image_usage &= ~(VkImageUsageFlags)VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
        v[ri] = (verdict){RG__NONE, NULL, RG__NONE, false, false};
    }
    /* One walk over every access in record order: the first command that
     * needs the contents is the one the error names. */
    for (uint32_t c = 0; c < g->decl.cmd_count; c++) {
        const rg__cmd *cmd = &g->decl.cmds[c];
        for (uint32_t k = 0; k < cmd->access_count; k++) {
            const rg__access *a = &g->decl.accesses[cmd->first_access + k];
            if (candidate(&g->decl.resources[a->resource]))
                judge(g, c, a, &v[a->resource]);
        }
    }
    rg_result res = RG_SUCCESS;
    for (uint32_t ri = 0; ri < n && res == RG_SUCCESS; ri++)
        if (candidate(&g->decl.resources[ri]))
            res = decide(g, ri, &v[ri]);
    free(v);
    return res;
}
