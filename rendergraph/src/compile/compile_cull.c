/* Compile stage "cull": which nodes are recorded. A node is kept when it
 * is observable (it writes an import or a history texture's current, which
 * the next frame reads; a command of it has side effects; it is a command
 * outside spans with no accesses at all, a timestamp or a label) or when a
 * kept node reads what it writes; every other node is culled
 * (rendergraph.h, "Culling"). A span is one node, so it is culled or kept
 * whole. A draw without accesses of its own is not observable: what it
 * makes is its span's attachments, whose writes are the span's.
 *
 * One walk over the nodes from the last to the first (node order is
 * record order, which every hazard edge follows) with a "needed" flag per
 * subresource: a node is kept when it is observable or writes a needed
 * subresource; a kept node's reads make their subresources needed. Writes
 * never clear the flag: a later write may cover only part of what an
 * earlier one wrote (a draw, a storage write), so the earlier writer stays
 * (conservative, never wrong).
 */
#include "base/rules.h"
#include "compile/stages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Access bits that write; an access with any other bit also reads (a
 * loaded attachment, blending, a read-modify-write storage access). */
#define WRITE_BITS                                                                                                 \
    (VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT | \
     VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_HOST_WRITE_BIT |  \
     VK_ACCESS_2_MEMORY_WRITE_BIT)

static bool reads(const rg__access *a) { return !a->write || (a->access & ~(VkAccessFlags2)WRITE_BITS) != 0; }

/* Calls fn(slot) for every subresource slot the access touches. */
#define FOR_SLOTS(g, a, slot, body)                                                                               \
    do {                                                                                                          \
        const rg__resource *r_ = &(g)->decl.resources[(a)->resource];                                             \
        if (!r_->is_texture) {                                                                                    \
            uint32_t slot = r_->sub_base;                                                                         \
            body;                                                                                                 \
            break;                                                                                                \
        }                                                                                                         \
        for (uint32_t bits_ = (a)->range.aspect; bits_; bits_ &= bits_ - 1)                                       \
            for (uint32_t m_ = (a)->range.base_mip; m_ < (a)->range.base_mip + (a)->range.mip_count; m_++)        \
                for (uint32_t l_ = (a)->range.base_layer; l_ < (a)->range.base_layer + (a)->range.layer_count;    \
                     l_++) {                                                                                      \
                    uint32_t slot = rg__sub_slot(r_, (VkImageAspectFlagBits)(bits_ & -bits_), m_, l_);            \
                    body;                                                                                         \
                }                                                                                                 \
    } while (0)

/* Whether node n must be kept whatever reads it. */
static bool observable(const rg_graph *g, uint32_t n)
{
    const rg__nodes *nodes = &g->compiled->nodes;
    for (uint32_t ci = nodes->first_cmd[n]; ci < nodes->first_cmd[n + 1]; ci++) {
        const rg__cmd *cmd = &g->decl.cmds[ci];
        if (RG__RULE(CULL_KEEPS_SIDE_EFFECTS, cmd->side_effects) ||
            RG__RULE(CULL_KEEPS_BARE_COMMAND,
                     cmd->access_count == 0 && cmd->type == RG_COMMAND_TYPE_USER && cmd->span == RG__NONE))
            return true;
        for (uint32_t k = 0; k < cmd->access_count; k++) {
            const rg__access *a = &g->decl.accesses[cmd->first_access + k];
            const rg__resource *r = &g->decl.resources[a->resource];
            if (a->write && a->role != RG__ROLE_LIFETIME &&
                RG__RULE(CULL_KEEPS_OUTPUTS, r->imported || rg__history(r)))
                return true;
        }
    }
    return false;
}

/* Why culled node n does not run: what it writes, which nothing
 * observable reads ("'a', 'b' or 'c'"), or that it declares no write at
 * all. */
static void culled_reason(const rg_graph *g, uint32_t n, char *out, size_t size)
{
    const rg__compiled *cc = g->compiled;
    uint32_t names[4], count = 0, more = 0;
    for (uint32_t ci = cc->nodes.first_cmd[n]; ci < cc->nodes.first_cmd[n + 1]; ci++) {
        const rg__cmd *cmd = &g->decl.cmds[ci];
        for (uint32_t k = 0; k < cmd->access_count; k++) {
            const rg__access *a = &g->decl.accesses[cmd->first_access + k];
            if (!a->write || a->role == RG__ROLE_LIFETIME)
                continue;
            bool seen = false;
            for (uint32_t i = 0; i < count && !seen; i++)
                seen = names[i] == a->resource;
            if (!seen && count < 4)
                names[count++] = a->resource;
            else if (!seen)
                more++;
        }
    }
    if (RG__RULE(CULL_NO_WRITE, count == 0)) {
        snprintf(out, size, "%s", rg__rule_text(RG__RULE_CULL_NO_WRITE));
        return;
    }
    int len = snprintf(out, size, "%s", rg__rule_text(RG__RULE_CULL_UNREAD));
    for (uint32_t i = 0; i < count && len >= 0 && (size_t)len < size; i++)
        len += snprintf(out + len, size - (size_t)len, "%s'%s'",
                        i == 0                    ? " "
                        : i + 1 == count && !more ? " or "
                                                  : ", ",
                        g->decl.resources[names[i]].name);
    if (more && len >= 0 && (size_t)len < size)
        snprintf(out + len, size - (size_t)len, " or %u more", more);
}

/* Each culled node's reason as text, one string after another: the
 * reason rg_command_info and the log's notice give. */
static rg_result reasons(const rg_graph *g, rg__cull *out)
{
    const rg__nodes *nodes = &g->compiled->nodes;
    if (out->culled_count == 0)
        return RG_SUCCESS;
    uint32_t *at = rg__malloc(g, ((size_t)nodes->count + 1) * sizeof *at);
    out->reason_at = at;
    if (!at)
        return RG_ERROR_OUT_OF_MEMORY;
    char *text = NULL;
    uint32_t len = 0, cap = 0;
    for (uint32_t n = 0; n < nodes->count; n++) {
        at[n] = RG__NONE;
        if (!out->node_culled[n])
            continue;
        char why[320];
        culled_reason(g, n, why, sizeof why);
        uint32_t need = (uint32_t)strlen(why) + 1;
        if (!rg__grow(g, (void **)&text, &cap, len + need, 1)) {
            rg__free(g, text);
            return RG_ERROR_OUT_OF_MEMORY;
        }
        memcpy(text + len, why, need);
        at[n] = len;
        len += need;
    }
    out->reasons = text;
    return RG_SUCCESS;
}

rg_result rg__compile_cull(const rg_graph *g, rg__cull *out)
{
    const rg__nodes *nodes = &g->compiled->nodes;
    uint8_t *culled = rg__calloc(g, (size_t)nodes->count + 1, 1);
    out->node_culled = culled;
    uint8_t *needed = rg__calloc(g, (size_t)g->decl.sub_total + 1, 1);
    if (!culled || !needed) {
        rg__free(g, needed);
        return RG_ERROR_OUT_OF_MEMORY;
    }
    out->culled_count = 0;
    for (uint32_t n = nodes->count; n-- > 0 && !g->no_culling;) {
        uint32_t first = g->decl.cmds[nodes->first_cmd[n]].first_access;
        uint32_t end = nodes->first_cmd[n + 1] < g->decl.cmd_count
                           ? g->decl.cmds[nodes->first_cmd[n + 1]].first_access
                           : g->decl.access_count;
        bool keep = observable(g, n);
        for (uint32_t ai = first; ai < end && !keep; ai++) {
            const rg__access *a = &g->decl.accesses[ai];
            if (a->write && a->role != RG__ROLE_LIFETIME)
                FOR_SLOTS(g, a, slot, keep = keep || needed[slot]);
        }
        if (RG__RULE(CULL_UNREAD, !keep)) {
            culled[n] = 1;
            out->culled_count += nodes->first_cmd[n + 1] - nodes->first_cmd[n];
            continue;
        }
        for (uint32_t ai = first; ai < end; ai++) {
            const rg__access *a = &g->decl.accesses[ai];
            if (a->role != RG__ROLE_LIFETIME && reads(a))
                FOR_SLOTS(g, a, slot, needed[slot] = 1);
        }
    }
    rg__free(g, needed);
    return reasons(g, out);
}

void rg__cull_free(const rg_graph *g, rg__cull *c)
{
    RG__FREE_ALL(g, c->node_culled, c->reason_at, c->reasons);
    *c = (rg__cull){0};
}
