/* Device-free memory placement tests: a graph whose resources are declared
 * through these helpers gets recorded memory requirements (size, alignment,
 * memoryTypeBits, dedicated) per resource, as a device would report them,
 * over one of the real device memory tables (device_tables.h). */
#ifndef RG_MEM_UNIT_H
#define RG_MEM_UNIT_H

#include "device_tables.h"
#include "rg_unit.h"

#define KiB64 (64u * 1024u)
#define MEM_MAX 96

typedef struct test_mem_entry {
    VkDeviceSize size, align;
    uint32_t bits;                    /* 0: what the table gives the resource */
    bool dedicated;
    bool is_texture;
    rg_texture tex;
    rg_buffer buf;
} test_mem_entry;

typedef struct test_mem_env {
    rg_graph *g;
    const device_table *table;
    test_mem_entry e[MEM_MAX];             /* by declaration index */
    uint32_t n;
    uint32_t calls;                   /* requirement callbacks made */
} test_mem_env;

static inline const device_table *test_mem_table(const char *name)
{
    for (size_t i = 0; i < device_table_count; i++)
        if (strcmp(device_tables[i].name, name) == 0)
            return &device_tables[i];
    cr_assert_fail("no device table '%s'", name);
    return NULL;
}

/* Over a graph of the test's own (culling, aliasing, merging, caps): env
 * holds it, and the test destroys env.g as with test_mem_init. */
static inline void test_mem_init_graph(test_mem_env *env, const char *table, rg_graph *g)
{
    memset(env, 0, sizeof *env);
    env->g = g;
    env->table = test_mem_table(table);
}

static inline void test_mem_init(test_mem_env *env, const char *table)
{
    test_mem_init_graph(env, table, test_graph());
}

/* Over a graph made from d. */
static inline void test_mem_init_desc(test_mem_env *env, const char *table, const rg_graph_desc *d)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(d, &g), RG_SUCCESS);
    test_mem_init_graph(env, table, g);
}

static inline VkDeviceSize test_mem_round(VkDeviceSize v) { return (v + KiB64 - 1) / KiB64 * KiB64; }

static inline test_mem_entry *test_mem_push(test_mem_env *env, VkDeviceSize size)
{
    cr_assert_lt(env->n, MEM_MAX);
    test_mem_entry *e = &env->e[env->n++];
    e->size = size;
    e->align = KiB64;
    return e;
}

/* A created texture of size w*h*bpp*samples rounded up to 64 KiB. */
static inline rg_texture test_mem_tex_ex(test_mem_env *env, const char *name, VkFormat f, uint32_t bpp, uint32_t w,
                                         uint32_t h,
                                    VkSampleCountFlagBits samples, rg_transient mode)
{
    test_mem_entry *e = test_mem_push(env, test_mem_round((VkDeviceSize)w * h * bpp * (samples ? samples : 1)));
    e->is_texture = true;
    e->tex = rg_texture_create(env->g, &(rg_texture_desc){.name = name, .format = f, .width = w, .height = h,
                                                          .samples = samples, .transient = mode});
    return e->tex;
}

static inline rg_texture test_mem_tex(test_mem_env *env, const char *name, VkFormat f, uint32_t bpp, uint32_t w,
                                      uint32_t h)
{
    return test_mem_tex_ex(env, name, f, bpp, w, h, VK_SAMPLE_COUNT_1_BIT, RG_TRANSIENT_AUTO);
}

static inline rg_texture test_mem_import(test_mem_env *env, const char *name, VkFormat f, uint32_t w, uint32_t h)
{
    test_mem_entry *e = test_mem_push(env, 0);
    e->is_texture = true;
    e->tex = rg_texture_import(env->g, &(rg_texture_import_desc){
                                           .name = name, .format = f, .width = w, .height = h,
                                           .final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR});
    return e->tex;
}

static inline rg_buffer test_mem_buf(test_mem_env *env, const char *name, VkDeviceSize size)
{
    test_mem_entry *e = test_mem_push(env, test_mem_round(size));
    e->buf = rg_buffer_create(env->g, &(rg_buffer_desc){.name = name, .size = size});
    return e->buf;
}

static inline bool test_mem_requirements(void *user, const char *name, bool is_texture, uint32_t index,
                                    VkDeviceSize *size, VkDeviceSize *alignment, uint32_t *type_bits,
                                    bool *dedicated)
{
    (void)name;
    test_mem_env *env = user;
    cr_assert_lt(index, env->n);
    const test_mem_entry *e = &env->e[index];
    cr_assert_eq(e->is_texture, is_texture);
    env->calls++;
    *size = e->size;
    *alignment = e->align;
    *dedicated = e->dedicated;
    const VkPhysicalDeviceMemoryProperties *p = &env->table->props;
    *type_bits = e->bits ? e->bits
                 : is_texture ? table_image_bits(p, rg_texture_is_transient(env->g, e->tex))
                              : table_buffer_bits(p);
    return true;
}

/* Compile and place; both must succeed. */
static inline void test_mem_place(test_mem_env *env)
{
    cr_assert_eq(rg_compile(env->g), RG_SUCCESS, "%s", rg_graph_error_message(env->g));
    rg_result r = rg_place_offline(env->g, &env->table->props, test_mem_requirements, env);
    cr_assert_eq(r, RG_SUCCESS, "%s: %s", rg_result_string(r), rg_graph_error_message(env->g));
}

typedef struct test_mem_where {
    rg_memory_kind kind;
    VkDeviceSize offset, size;
    uint32_t pool;
} test_mem_where;

static inline test_mem_where test_mem_tex_at(const test_mem_env *env, rg_texture t)
{
    test_mem_where w = {0};
    w.kind = rg_texture_memory(env->g, t, &w.offset, &w.pool);
    for (uint32_t i = 0; i < env->n; i++)
        if (env->e[i].is_texture && env->e[i].tex.id == t.id)
            w.size = env->e[i].size;
    return w;
}

static inline test_mem_where test_mem_buf_at(const test_mem_env *env, rg_buffer b)
{
    test_mem_where w = {0};
    w.kind = rg_buffer_memory(env->g, b, &w.offset, &w.pool);
    for (uint32_t i = 0; i < env->n; i++)
        if (!env->e[i].is_texture && env->e[i].buf.id == b.id)
            w.size = env->e[i].size;
    return w;
}

static inline bool test_mem_overlap(test_mem_where a, test_mem_where b)
{
    return a.kind == RG_MEMORY_POOLED && b.kind == RG_MEMORY_POOLED && a.pool == b.pool &&
           a.offset < b.offset + b.size && b.offset < a.offset + a.size;
}

#endif
