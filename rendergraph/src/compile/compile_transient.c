/* Compile stage "transient": a created texture whose contents never
 * outlive one rendering instance gets VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT,
 * so placement can give it lazily allocated (tile) memory where the device
 * offers it. Its uses are attachments of one instance, which loads it by
 * CLEAR or DONT_CARE and discards it (a merged instance discards a created
 * texture nothing else uses: compile_merge.c), and the input-attachment
 * reads merged into that instance. AUTO infers it; FORCE demands it and
 * turns every use that needs the contents into an error naming the texture
 * and the command; FORBID never sets it. After compile it also says,
 * for the log, which AUTO texture only a load or store op kept from being
 * transient (rg__transient_notice).
 *
 * History pairs are never transient. Their halves trade images every
 * frame, so both get the union of their usages, plus TRANSFER_DST for the
 * first frame's clear: this is where their usage is final.
 */
#include "base/rules.h"
#include "compile/stages.h"
#include "base/names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The only usage a transient image may carry besides TRANSIENT (Vulkan:
 * VUID-VkImageCreateInfo-usage-00966). MoltenVK gives input-attachment
 * images real memory, so there AUTO never infers transient for them. */
#define ATTACHMENT_USAGE (VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT)
#define FORCE_USAGE (ATTACHMENT_USAGE | VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT)

/* What a texture's uses say: whether one of them needs the contents (the
 * first such command and why), and whether they lie in more than one
 * instance. */
typedef struct verdict {
    uint32_t cmd;                     /* first command needing the contents, RG__NONE if none */
    const char *why;
    uint32_t instance;                /* the instance of the first use */
    uint32_t span;                    /* and its span */
    bool instances;                   /* uses in two or more instances */
    bool spans;                       /* uses in two or more spans of one merged instance */
    bool used;
    uint32_t other;                   /* first command using it other than as an attachment, RG__NONE */
    bool other_resolves;              /* that use is a resolve */
} verdict;

/* Load and store ops of every attachment of the instance on texture ri, as
 * the instance loads and stores them. */
static const char *attachment_ops(const rg_graph *g, uint32_t ii, uint32_t ri)
{
    const rg__instance *in = &g->compiled->merge.instances[ii];
    for (uint32_t u = 0; u <= in->color_count; u++) {
        const rg__inst_att *att = u < in->color_count ? &in->colors[u] : in->has_depth ? &in->depth : NULL;
        if (!att || att->resource != ri)
            continue;
        const rg_rendering_desc *d = &g->decl.spans[att->span].desc;
        const rg_attachment *a = u < in->color_count ? &d->colors[att->slot] : &d->depth;
        if (a->load != VK_ATTACHMENT_LOAD_OP_CLEAR && a->load != VK_ATTACHMENT_LOAD_OP_DONT_CARE)
            return "loads it (load op neither CLEAR nor DONT_CARE)";
        if (RG__RULE(TRANSIENT_DISCARDED, att->store != VK_ATTACHMENT_STORE_OP_DONT_CARE))
            return "stores it (store op not DONT_CARE)";
    }
    return NULL;
}

/* ops: whether the instance's load and store ops count (the notice asks
 * what the other uses alone say). */
static void judge(const rg_graph *g, uint32_t c, uint32_t ai, verdict *v, bool ops)
{
    const rg__access *a = &g->decl.accesses[ai];
    const rg__cmd *cmd = &g->decl.cmds[c];
    v->used = true;
    const char *why = NULL;
    if (a->role == RG__ROLE_LIFETIME)
        return; /* the end of a span whose begin was judged */
    bool input = g->compiled->merge.access_mode[ai] == RG__MODE_INPUT;
    if (a->role == RG__ROLE_ATTACHMENT || input) {
        uint32_t ii = g->compiled->merge.span_map[cmd->span].instance;
        if (v->instance == RG__NONE) {
            v->instance = ii;
            v->span = cmd->span;
        } else if (v->instance != ii) {
            v->instances = true;
        } else if (v->span != cmd->span) {
            v->spans = true;
        }
        if (!input && ops)
            why = attachment_ops(g, ii, a->resource);
        if (!why && v->spans && g->caps.driver == VK_DRIVER_ID_MOLTENVK)
            why = "uses it on both sides of a local-read barrier, where MoltenVK restarts the render pass and "
                  "discards memoryless attachments";
    } else {
        why = a->role == RG__ROLE_RESOLVE ? "resolves into it" : "uses it other than as an attachment";
    }
    if (why && v->cmd == RG__NONE) {
        v->cmd = c;
        v->why = why;
    }
}

/* Whether the texture could be transient at all, before its uses are seen. */
static bool candidate(const rg_graph *g, const rg__resource *r, VkImageUsageFlags usage)
{
    if (!r->is_texture || r->imported || rg__history(r) || r->transient_mode == RG_TRANSIENT_FORBID)
        return false;
    /* AUTO: usage beyond attachments and input attachments (extra_usage,
     * or a use that is neither) rules it out at once. */
    VkImageUsageFlags allowed = ATTACHMENT_USAGE;
    if (g->caps.driver != VK_DRIVER_ID_MOLTENVK)
        allowed |= VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT;
    return r->transient_mode == RG_TRANSIENT_FORCE || RG__RULE(TRANSIENT_ATTACHMENT_USE_ONLY, !(usage & ~allowed));
}

static rg_result decide(const rg_graph *g, uint32_t ri, const verdict *v, VkImageUsageFlags *usage,
                        uint8_t *transient)
{
    const rg__resource *r = &g->decl.resources[ri];
    if (r->transient_mode == RG_TRANSIENT_FORCE) {
        if (v->cmd != RG__NONE)
            return rg__fail(g, RG_ERROR_TRANSIENT_CONTENTS,
                            "texture '%s' is forced transient but command '%s' %s: a transient attachment has no "
                            "contents outside its rendering instance", r->name, g->decl.cmds[v->cmd].name, v->why);
        VkImageUsageFlags extra = *usage & ~(VkImageUsageFlags)FORCE_USAGE;
        if (extra)
            return rg__fail(g, RG_ERROR_TRANSIENT_CONTENTS,
                            "texture '%s' is forced transient but its extra usage %s allows more than attachment "
                            "use", r->name, RG__IMAGE_USAGES(extra));
    } else if (!v->used || v->cmd != RG__NONE || v->instances) {
        return RG_SUCCESS;
    }
    *transient = 1;
    *usage |= VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
    return RG_SUCCESS;
}

/* Where v says a command uses the texture other than as an attachment:
 * "'blur' uses it other than as an attachment" into text, else "". */
static const char *other_use(const rg_graph *g, const verdict *v, char *text, size_t size)
{
    if (v->other == RG__NONE)
        return "";
    snprintf(text, size, "'%s' %s", g->decl.cmds[v->other].name,
             v->other_resolves ? "resolves into it" : "uses it other than as an attachment");
    return text;
}

/* Why texture ri is not transient, for the reports (NULL: it is, or it
 * is not a texture); allocated, NULL when out of memory too. */
static char *why_not(const rg_graph *g, uint32_t ri, const verdict *v, VkImageUsageFlags usage, bool transient)
{
    const rg__resource *r = &g->decl.resources[ri];
    char text[256], use[160];
    if (transient || !r->is_texture)
        return NULL;
    const char *other = other_use(g, v, use, sizeof use);
    if (r->imported || rg__history(r))
        snprintf(text, sizeof text, "%s", r->imported ? "imported" : "a history half, kept across frames");
    else if (r->transient_mode == RG_TRANSIENT_FORBID)
        snprintf(text, sizeof text, "declared RG_TRANSIENT_FORBID");
    else if (!candidate(g, r, usage))
        snprintf(text, sizeof text, "%s%susage %s%s%s", other, other[0] ? " (" : "",
                 RG__IMAGE_USAGES(usage & ~(VkImageUsageFlags)ATTACHMENT_USAGE),
                 g->caps.driver == VK_DRIVER_ID_MOLTENVK && (usage & VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT)
                     ? ", MoltenVK gives input attachments memory" : "", other[0] ? ")" : "");
    else if (v->cmd != RG__NONE)
        snprintf(text, sizeof text, "'%s' %s", g->decl.cmds[v->cmd].name, v->why);
    else
        snprintf(text, sizeof text, "%s", v->instances ? "used by more than one rendering instance" : "unused");
    size_t n = strlen(text) + 1;
    char *out = rg__malloc(g, n);
    if (out)
        memcpy(out, text, n);
    return out;
}

rg_result rg__compile_transient(const rg_graph *g, rg__transients *out)
{
    uint32_t n = g->decl.resource_count;
    verdict *v = rg__malloc(g, ((size_t)n + 1) * sizeof *v);
    VkImageUsageFlags *usage = rg__malloc(g, ((size_t)n + 1) * sizeof *usage);
    uint8_t *transient = rg__calloc(g, (size_t)n + 1, 1);
    out->usage = usage;
    out->transient = transient;
    out->why = NULL;
    out->why_count = 0;
    if (!v || !usage || !transient) {
        rg__free(g, v);
        return RG_ERROR_OUT_OF_MEMORY;
    }
    /* The usage as declared and as merging needs it; TRANSIENT in
     * extra_usage means nothing (FORCE says it): the bit is decided here. */
    for (uint32_t ri = 0; ri < n; ri++) {
        const rg__resource *r = &g->decl.resources[ri];
        usage[ri] = r->declared_usage | g->compiled->merge.usage[ri];
        if (!r->imported)
            usage[ri] &= ~(VkImageUsageFlags)VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
        v[ri] = (verdict){RG__NONE, NULL, RG__NONE, RG__NONE, false, false, false, RG__NONE, false};
    }
    /* One walk over every access in record order: the first command that
     * needs the contents is the one the error names. */
    for (uint32_t c = 0; c < g->decl.cmd_count; c++) {
        const rg__cmd *cmd = &g->decl.cmds[c];
        if (rg__culled(g, c))
            continue;
        for (uint32_t k = 0; k < cmd->access_count; k++) {
            const rg__access *a = &g->decl.accesses[cmd->first_access + k];
            verdict *x = &v[a->resource];
            if (x->other == RG__NONE && a->role != RG__ROLE_ATTACHMENT && a->role != RG__ROLE_LIFETIME &&
                g->compiled->merge.access_mode[cmd->first_access + k] != RG__MODE_INPUT) {
                x->other = c; /* for the reports (why_not) */
                x->other_resolves = a->role == RG__ROLE_RESOLVE;
            }
            if (candidate(g, &g->decl.resources[a->resource], usage[a->resource]))
                judge(g, c, cmd->first_access + k, x, true);
        }
    }
    rg_result res = RG_SUCCESS;
    for (uint32_t ri = 0; ri < n && res == RG_SUCCESS; ri++)
        if (candidate(g, &g->decl.resources[ri], usage[ri]))
            res = decide(g, ri, &v[ri], &usage[ri], &transient[ri]);
    out->why = res == RG_SUCCESS ? rg__calloc(g, (size_t)n + 1, sizeof *out->why) : NULL;
    if (res == RG_SUCCESS && !out->why)
        res = RG_ERROR_OUT_OF_MEMORY;
    out->why_count = out->why ? n : 0;
    for (uint32_t ri = 0; res == RG_SUCCESS && ri < n; ri++) {
        const rg__resource *r = &g->decl.resources[ri];
        out->why[ri] = why_not(g, ri, &v[ri], usage[ri], transient[ri]);
        if (!out->why[ri] && r->is_texture && !transient[ri])
            res = RG_ERROR_OUT_OF_MEMORY;
    }
    rg__free(g, v);
    /* The halves of a history pair trade images: each has both's usage. */
    for (uint32_t ri = 0; ri < n; ri++) {
        const rg__resource *r = &g->decl.resources[ri];
        if (rg__history(r) && !r->history_previous) {
            usage[ri] |= usage[r->history_pair] | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
            usage[r->history_pair] = usage[ri];
        }
    }
    return res;
}

void rg__transients_free(const rg_graph *g, rg__transients *t)
{
    rg__free(g, t->usage);
    rg__free(g, t->transient);
    for (uint32_t ri = 0; t->why && ri < t->why_count; ri++)
        rg__free(g, t->why[ri]);
    rg__free(g, t->why);
    *t = (rg__transients){0};
}

static const char *load_name(VkAttachmentLoadOp op)
{
    return op == VK_ATTACHMENT_LOAD_OP_LOAD ? "LOAD" : op == VK_ATTACHMENT_LOAD_OP_CLEAR ? "CLEAR" : "DONT_CARE";
}

static const char *store_name(VkAttachmentStoreOp op)
{
    return op == VK_ATTACHMENT_STORE_OP_STORE ? "STORE" : op == VK_ATTACHMENT_STORE_OP_NONE ? "NONE" : "DONT_CARE";
}

/* The texture's uses judged without the ops: transient but for them when
 * nothing else needs its contents and they lie in one instance. A zeroed
 * rg_attachment LOADs and STOREs, so an MSAA target or a depth buffer
 * declared that way silently costs memory (and bandwidth) on a tile GPU. */
bool rg__transient_notice(const rg_graph *g, uint32_t ri, char *out, size_t size)
{
    const rg__resource *r = &g->decl.resources[ri];
    if (rg__transient(g, ri) || r->transient_mode != RG_TRANSIENT_AUTO || !candidate(g, r, rg__image_usage(g, ri)))
        return false;
    verdict v = {RG__NONE, NULL, RG__NONE, RG__NONE, false, false, false, RG__NONE, false};
    for (uint32_t c = 0; c < g->decl.cmd_count; c++) {
        const rg__cmd *cmd = &g->decl.cmds[c];
        if (rg__culled(g, c))
            continue;
        for (uint32_t k = 0; k < cmd->access_count; k++)
            if (g->decl.accesses[cmd->first_access + k].resource == ri)
                judge(g, c, cmd->first_access + k, &v, false);
    }
    if (!v.used || v.cmd != RG__NONE || v.instances || v.instance == RG__NONE)
        return false;
    const rg__instance *in = &g->compiled->merge.instances[v.instance];
    for (uint32_t u = 0; u <= in->color_count; u++) {
        const rg__inst_att *att = u < in->color_count ? &in->colors[u] : in->has_depth ? &in->depth : NULL;
        if (!att || att->resource != ri)
            continue;
        const rg_rendering_desc *d = &g->decl.spans[att->span].desc;
        VkAttachmentLoadOp load = (u < in->color_count ? &d->colors[att->slot] : &d->depth)->load;
        bool loads = load != VK_ATTACHMENT_LOAD_OP_CLEAR && load != VK_ATTACHMENT_LOAD_OP_DONT_CARE;
        bool stores = att->store != VK_ATTACHMENT_STORE_OP_DONT_CARE;
        const char *first = g->decl.cmds[g->decl.spans[att->span].begin_cmd].name;
        const char *last = g->decl.cmds[g->decl.spans[att->last_span].begin_cmd].name;
        if (loads && stores)
            snprintf(out, size, "texture '%s' is not transient: span '%s' loads it (load %s) and span '%s' stores it "
                     "(store %s); load CLEAR or DONT_CARE and store DONT_CARE would make it transient", r->name, first,
                     load_name(load), last, store_name(att->store));
        else if (loads)
            snprintf(out, size, "texture '%s' is not transient: span '%s' loads it (load %s); CLEAR or DONT_CARE "
                     "would make it transient", r->name, first, load_name(load));
        else if (stores)
            snprintf(out, size, "texture '%s' is not transient: span '%s' stores it (store %s); DONT_CARE would "
                     "make it transient", r->name, last, store_name(att->store));
        return loads || stores;
    }
    return false;
}
