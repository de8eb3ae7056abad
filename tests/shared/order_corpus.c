/* Random DAGs, their peaks, and the exhaustive optimum (order_corpus.h). */
#include "order_corpus.h"

#include <stdlib.h>
#include <string.h>

static uint32_t next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

void order_dag_random(uint64_t *seed, uint32_t commands, order_dag *d)
{
    memset(d, 0, sizeof *d);
    d->commands = commands > ORDER_MAX_COMMANDS ? ORDER_MAX_COMMANDS : commands;
    for (uint32_t c = 0; c < d->commands; c++) {
        uint32_t reads = d->buffers ? next(seed) % 4 : 0;
        for (uint32_t k = 0; k < reads && d->access_count[c] < ORDER_MAX_ACCESSES - 1; k++) {
            uint32_t b = next(seed) % d->buffers, dup = 0;
            for (uint32_t j = 0; j < d->access_count[c]; j++)
                dup += d->buffer[c][j] == b;
            if (!dup)
                d->buffer[c][d->access_count[c]++] = b;
        }
        if (next(seed) % 8 != 0) {
            uint32_t b = d->buffers++;
            d->size[b] = (uint64_t)(1 + next(seed) % 64) << 20;
            d->write[c][d->access_count[c]] = true;
            d->buffer[c][d->access_count[c]++] = b;
        }
    }
}

static bool noop(const rg_record_context *rc, void *user)
{
    (void)rc;
    (void)user;
    return true;
}

rg_graph *order_dag_graph(const order_dag *d, rg_order order, rg_command *cmds)
{
    rg_graph *g = NULL;
    if (rg_graph_create(&(rg_graph_desc){.name = "order", .no_culling = true, .order = order}, &g) != RG_SUCCESS)
        return NULL;
    rg_buffer bufs[ORDER_MAX_COMMANDS];
    for (uint32_t b = 0; b < d->buffers; b++)
        bufs[b] = rg_buffer_create(g, &(rg_buffer_desc){.name = "buffer", .size = d->size[b]});
    for (uint32_t c = 0; c < d->commands; c++) {
        rg_access acc[ORDER_MAX_ACCESSES];
        for (uint32_t k = 0; k < d->access_count[c]; k++)
            acc[k] = (rg_access){.buffer = bufs[d->buffer[c][k]],
                                 .usage = d->write[c][k] ? RG_USAGE_STORAGE_WRITE_COMPUTE
                                                         : RG_USAGE_STORAGE_READ_COMPUTE};
        cmds[c] = rg_cmd_user(g, &(rg_user_desc){.name = "pass", .accesses = acc,
                                                 .access_count = d->access_count[c], .record = noop});
    }
    if (rg_compile(g) != RG_SUCCESS) {
        rg_graph_destroy(g);
        return NULL;
    }
    return g;
}

typedef struct exact_sizes {
    const uint64_t *sizes;
    uint32_t count;
    VkDeviceSize alignment;
} exact_sizes;

static bool exact_size(void *user, const char *name, bool is_texture, uint32_t index, VkDeviceSize *size,
                       VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    (void)name;
    (void)is_texture;
    const exact_sizes *e = user;
    *size = index < e->count ? e->sizes[index] : e->alignment;
    *alignment = e->alignment;
    *type_bits = 1;
    *dedicated = false;
    return true;
}

rg_result order_place(rg_graph *g, const uint64_t *sizes, uint32_t count, VkDeviceSize alignment)
{
    VkPhysicalDeviceMemoryProperties props = {
        .memoryTypeCount = 1,
        .memoryTypes = {{VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0}},
        .memoryHeapCount = 1,
        .memoryHeaps = {{1ull << 40, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT}},
    };
    exact_sizes e = {sizes, count, alignment};
    return rg_place_offline(g, &props, exact_size, &e);
}

uint64_t order_peak(rg_graph *g, const order_dag *d)
{
    if (order_place(g, d->size, d->buffers, 256) != RG_SUCCESS)
        return 0;
    return rg_memory_get_totals(g).lower_bound;
}

uint64_t order_optimum(const rg_graph *g, const rg_command *cmds, const order_dag *d)
{
    uint32_t n = d->commands;
    if (n > ORDER_EXACT_MAX)
        return 0;
    uint32_t pred[ORDER_EXACT_MAX] = {0};
    uint32_t uses[ORDER_MAX_COMMANDS] = {0};     /* per buffer: the commands using it */
    for (uint32_t a = 0; a < n; a++)
        for (uint32_t b = 0; b < n; b++)
            if (rg_happens_before(g, cmds[a], cmds[b]))
                pred[b] |= 1u << a;
    for (uint32_t c = 0; c < n; c++)
        for (uint32_t k = 0; k < d->access_count[c]; k++)
            uses[d->buffer[c][k]] |= 1u << c;
    uint32_t full = (1u << n) - 1;
    uint64_t *best = malloc(((size_t)full + 1) * sizeof *best);
    if (!best)
        return 0;
    for (uint32_t s = 0; s <= full; s++)
        best[s] = UINT64_MAX;
    best[0] = 0;
    for (uint32_t s = 0; s < full; s++) {
        if (best[s] == UINT64_MAX)
            continue;
        for (uint32_t c = 0; c < n; c++) {
            if ((s >> c & 1u) || (pred[c] & ~s))
                continue;
            /* Live while c runs: buffers used by a command run so far or by
             * c, and by one not run before c (c included). */
            uint32_t done = s | 1u << c;
            uint64_t live = 0;
            for (uint32_t b = 0; b < d->buffers; b++)
                if ((uses[b] & done) && (uses[b] & ~s))
                    live += d->size[b];
            uint64_t cost = live > best[s] ? live : best[s];
            if (cost < best[done])
                best[done] = cost;
        }
    }
    uint64_t r = best[full];
    free(best);
    return r;
}
