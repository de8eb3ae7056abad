/* The one-thread rule, checked (rendergraph.h, "Threads"): while one
 * thread is in a call on a graph, a call from another thread that would
 * change or execute it is refused with RG_ERROR_BUSY and never let in; the
 * log names both calls; a declaration refused that way fails the owner's
 * next rg_compile, since the declaration may lack it. The owner here is
 * held inside rg_place_offline by its requirements callback while the
 * other thread tries. */
#include "rg_unit.h"
#include "test_log.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

/* The intruder: what it tried and what it got. */
typedef enum attempt { TRY_RESET, TRY_COMPILE, TRY_DECLARE, TRY_DESTROY } attempt;

typedef struct scene {
    rg_graph *g;
    attempt what;
    rg_result got;
    rg_texture declared;
    int called;
    char message[512];                /* the intruder's rg_graph_error_message after its call */
} scene;

static void *intrude(void *arg)
{
    scene *s = arg;
    switch (s->what) {
    case TRY_RESET: s->got = rg_graph_reset(s->g); break;
    case TRY_COMPILE:
        s->got = rg_compile(s->g);
        snprintf(s->message, sizeof s->message, "%s", rg_graph_error_message(s->g));
        break;
    case TRY_DECLARE:
        s->declared = test_tex(s->g, "late", VK_FORMAT_R8G8B8A8_UNORM);
        s->got = s->declared.id ? RG_SUCCESS : RG_ERROR_BUSY;
        break;
    case TRY_DESTROY:
        rg_graph_destroy(s->g); /* refused: nothing freed */
        s->got = RG_ERROR_BUSY;
        break;
    }
    return NULL;
}

/* Called inside rg_place_offline, which holds the graph: the other thread
 * tries its call now, and is done before placement goes on. */
static bool requirements(void *user, const char *name, bool is_texture, uint32_t index, VkDeviceSize *size,
                         VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    (void)name, (void)is_texture, (void)index, (void)dedicated;
    scene *s = user;
    if (!s->called++) {
        pthread_t t;
        cr_assert_eq(pthread_create(&t, NULL, intrude, s), 0);
        cr_assert_eq(pthread_join(t, NULL), 0);
    }
    *size = 65536;
    *alignment = 256;
    *type_bits = 1;
    return true;
}

static const VkPhysicalDeviceMemoryProperties memory = {
    .memoryTypeCount = 1, .memoryHeapCount = 1, .memoryTypes[0] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0},
    .memoryHeaps[0] = {1u << 30, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT}};

/* A compiled two-pass frame with a log that counts errors. */
static rg_graph *frame(test_heard *h)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "shared", .no_culling = true, .log = test_hear,
                                                  .log_user = h},
                                 &g),
                 RG_SUCCESS);
    rg_texture t = test_tex(g, "color", VK_FORMAT_R8G8B8A8_UNORM);
    rg_begin_rendering(g, &(rg_rendering_desc){.name = "draw", .color_count = 1,
                                               .colors[0] = {.texture = t, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                                             .store = VK_ATTACHMENT_STORE_OP_STORE}});
    rg_end_rendering(g);
    test_outside(g, "read", TEX(t, RG_USAGE_SAMPLED_COMPUTE));
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    return g;
}

Test(rg_threads, a_second_thread_is_refused_naming_both_calls)
{
    static const struct {
        attempt what;
        const char *call;
    } cases[] = {{TRY_RESET, "rg_graph_reset"}, {TRY_COMPILE, "rg_compile"}, {TRY_DESTROY, "rg_graph_destroy"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        test_heard h = TEST_HEARD_INIT;
        scene s = {.g = frame(&h), .what = cases[i].what};
        cr_assert_eq(rg_place_offline(s.g, &memory, requirements, &s), RG_SUCCESS, "the owner's call went on: %s",
                     rg_graph_error_message(s.g));
        cr_expect_eq(s.got, RG_ERROR_BUSY, "%s from another thread: %s", cases[i].call, rg_result_string(s.got));
        cr_expect_eq(atomic_load(&h.errors), 1, "%s: one log line, got %d", cases[i].call, atomic_load(&h.errors));
        char want[256];
        snprintf(want, sizeof want, "%s: graph 'shared' is busy: another thread is in rg_place_offline",
                 cases[i].call);
        cr_expect(strstr(h.first_error, want) != NULL, "the log names both calls: %s", h.first_error);
        /* The graph is whole: placed, queryable, destroyed once. */
        cr_expect_gt(rg_memory_get_totals(s.g).pooled, 0);
        cr_expect_eq(rg_graph_error(s.g), RG_SUCCESS);
        rg_graph_destroy(s.g);
    }
}

Test(rg_threads, a_refused_declaration_fails_the_next_compile)
{
    test_heard h = TEST_HEARD_INIT;
    scene s = {.g = frame(&h), .what = TRY_DECLARE};
    cr_assert_eq(rg_place_offline(s.g, &memory, requirements, &s), RG_SUCCESS, "%s", rg_graph_error_message(s.g));
    cr_expect_eq(s.declared.id, 0, "the other thread's texture was not declared");
    cr_expect_eq(rg_compile(s.g), RG_ERROR_BUSY);
    cr_expect(strstr(rg_graph_error_message(s.g), "rg_texture_create was refused") != NULL, "%s",
              rg_graph_error_message(s.g));
    cr_expect_eq(rg_graph_reset(s.g), RG_SUCCESS, "a reset starts over");
    cr_expect_eq(rg_graph_error(s.g), RG_SUCCESS);
    rg_graph_destroy(s.g);
}

/* A record callback's thread is in the call: changing the graph from it
 * is this thread's mistake, said in the graph's message, not a refusal. */
static bool reenter(void *user, const char *name, bool is_texture, uint32_t index, VkDeviceSize *size,
                    VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    (void)name, (void)is_texture, (void)index, (void)dedicated;
    scene *s = user;
    if (!s->called++)
        s->got = rg_graph_reset(s->g);
    *size = 65536;
    *alignment = 256;
    *type_bits = 1;
    return true;
}

Test(rg_threads, the_same_thread_inside_a_call_is_an_invalid_argument)
{
    test_heard h = TEST_HEARD_INIT;
    scene s = {.g = frame(&h)};
    cr_assert_eq(rg_place_offline(s.g, &memory, reenter, &s), RG_SUCCESS, "%s", rg_graph_error_message(s.g));
    cr_expect_eq(s.got, RG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(h.first_error, "rg_graph_reset: graph 'shared' is in rg_place_offline on this thread") != NULL, "%s",
              h.first_error);
    cr_expect_gt(rg_memory_get_totals(s.g).pooled, 0, "nothing was reset");
    rg_graph_destroy(s.g);
}

/* A refused call's message is its own thread's: the graph's belongs to the
 * thread in it, which the refusal leaves alone. */
Test(rg_threads, a_refused_call_reads_its_own_message)
{
    test_heard h = TEST_HEARD_INIT;
    scene s = {.g = frame(&h), .what = TRY_COMPILE};
    cr_assert_eq(rg_place_offline(s.g, &memory, requirements, &s), RG_SUCCESS, "%s", rg_graph_error_message(s.g));
    cr_expect_eq(s.got, RG_ERROR_BUSY);
    cr_expect(strstr(s.message, "rg_compile: graph 'shared' is busy: another thread is in rg_place_offline") != NULL,
              "the refused thread reads: %s", s.message);
    cr_expect_eq(rg_graph_error_message(s.g)[0], '\0', "the owner's message: %s", rg_graph_error_message(s.g));
    rg_graph_destroy(s.g);
}
