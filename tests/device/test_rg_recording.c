/* What rg_execute records equals what the public queries say after
 * rg_place: the barrier list (rg_barrier_get), each span's rendering info
 * (rg_span_get_rendering) and the callbacks, recorded by hand from them
 * (tests/shared/bench_frame.c), gives the same Vulkan calls with the same
 * arguments as rg_execute.
 *
 * The calls are seen by defining vkCmdPipelineBarrier2, vkCmdBeginRendering
 * and vkCmdEndRendering in this program, which log each call's arguments as
 * text and forward to the device's own entry points: bench_frame.c binds to
 * them as symbols, and the graph, which calls no Vulkan symbol, gets them
 * through the function table of a device whose vkGetDeviceProcAddr returns
 * them (an application's own dispatch, as rg_device_desc allows). */
#include "bench_frame.h"
#include "device_fixture.h"
#include "call_text.h"
#include "rg_support.h"
#include "rg_spy.h"

#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TestSuite(rg_recording, .init = device_setup, .fini = device_teardown);

/* ------------------------------------------------------- the call log */

static struct {
    char *text;
    size_t len, cap;
    bool on;
} call_log;

static void log_vprintf(const char *fmt, va_list ap)
{
    if (!call_log.on)
        return;
    char line[512];
    int n = vsnprintf(line, sizeof line, fmt, ap);
    if (n < 0)
        return;
    size_t need = call_log.len + (size_t)n + 1;
    if (need > call_log.cap) {
        call_log.cap = need * 2;
        call_log.text = realloc(call_log.text, call_log.cap);
        cr_assert_not_null(call_log.text);
    }
    memcpy(call_log.text + call_log.len, line, (size_t)n + 1);
    call_log.len += (size_t)n;
}

static void log_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    log_vprintf(fmt, ap);
    va_end(ap);
}

/* call_text.h's output: the one log (no sink). */
static void log_out(void *sink, const char *fmt, ...)
{
    (void)sink;
    va_list ap;
    va_start(ap, fmt);
    log_vprintf(fmt, ap);
    va_end(ap);
}

static char *log_take(void)
{
    char *t = call_log.text ? call_log.text : calloc(1, 1);
    call_log.text = NULL;
    call_log.len = call_log.cap = 0;
    return t;
}

VKAPI_ATTR void VKAPI_CALL vkCmdPipelineBarrier2(VkCommandBuffer cmd, const VkDependencyInfo *d)
{
    test_text_barrier(log_out, NULL, d);
    ((PFN_vkCmdPipelineBarrier2)test_real_device_proc("vkCmdPipelineBarrier2"))(cmd, d);
}

VKAPI_ATTR void VKAPI_CALL vkCmdBeginRendering(VkCommandBuffer cmd, const VkRenderingInfo *ri)
{
    log_printf("begin area %d,%d %ux%u layers %u colors %u\n", ri->renderArea.offset.x, ri->renderArea.offset.y,
               ri->renderArea.extent.width, ri->renderArea.extent.height, ri->layerCount, ri->colorAttachmentCount);
    for (uint32_t i = 0; i < ri->colorAttachmentCount; i++)
        test_text_attachment(log_out, NULL, "color", &ri->pColorAttachments[i]);
    if (ri->pDepthAttachment)
        test_text_attachment(log_out, NULL, "depth", ri->pDepthAttachment);
    if (ri->pStencilAttachment)
        test_text_attachment(log_out, NULL, "stencil", ri->pStencilAttachment);
    ((PFN_vkCmdBeginRendering)test_real_device_proc("vkCmdBeginRendering"))(cmd, ri);
}

VKAPI_ATTR void VKAPI_CALL vkCmdEndRendering(VkCommandBuffer cmd)
{
    log_printf("end\n");
    ((PFN_vkCmdEndRendering)test_real_device_proc("vkCmdEndRendering"))(cmd);
}

/* The context's device for graphs, with the three above in place of the
 * driver's. */
static rg_device *logging_device(void)
{
    static const test_spy loggers[] = {
        { "vkCmdPipelineBarrier2", (PFN_vkVoidFunction)vkCmdPipelineBarrier2 },
        { "vkCmdBeginRendering", (PFN_vkVoidFunction)vkCmdBeginRendering },
        { "vkCmdEndRendering", (PFN_vkVoidFunction)vkCmdEndRendering },
    };
    static const test_spies spies = { .device = loggers, .device_count = 3 };
    rg_device_desc d = test_spy_desc(&spies, false);
    d.timeline_semaphore = true;
    d.local_read = eng_context_local_read(test_ctx).supported;
    return test_spy_device(&d);
}

/* ------------------------------------------------------------ the frame */

#define W 32
#define H 32

static bool mark(const rg_record_context *rc, void *user)
{
    log_printf("call %s (cmd %s)\n", (const char *)user, rg_record_cmd(rc) ? "set" : "none");
    return true;
}

/* Created textures whose lifetimes let aliasing share memory (so first uses
 * carry alias scopes), a transient MSAA attachment resolved into a created
 * texture, a depth+stencil attachment sampled through its depth aspect, a
 * storage buffer written and read in compute, and an imported texture
 * rendered into at layer 1 and left for presentation. */
static void declare(rg_graph *g, rg_texture import)
{
    rg_texture_desc color = { .format = VK_FORMAT_R8G8B8A8_UNORM, .width = W, .height = H };
    rg_texture a = test_texture_named(g, color, "a");
    rg_texture b = test_texture_named(g, color, "b");
    rg_texture c = test_texture_named(g, color, "c");
    rg_texture ms = rg_texture_create(g, &(rg_texture_desc){ .name = "ms", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                             .width = W, .height = H,
                                                             .samples = VK_SAMPLE_COUNT_4_BIT });
    rg_texture ds = rg_texture_create(g, &(rg_texture_desc){ .name = "ds", .format = VK_FORMAT_D32_SFLOAT_S8_UINT,
                                                             .width = W, .height = H });
    rg_buffer data = rg_buffer_create(g, &(rg_buffer_desc){ .name = "data", .size = 4096 });
    rg_access write_data = { .buffer = data, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE };
    rg_cmd_user(g, &(rg_user_desc){ .name = "fill", .accesses = &write_data, .access_count = 1, .record = mark,
                                    .user = "fill" });
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "first", .color_count = 1,
        .colors = { { .texture = a, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_STORE } },
        .depth = { .texture = ds, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_STORE } });
    rg_access read_data = { .buffer = data, .usage = RG_USAGE_STORAGE_READ_FRAGMENT };
    rg_cmd_user(g, &(rg_user_desc){ .name = "draw first", .kind = RG_COMMAND_DRAW, .accesses = &read_data,
                                    .access_count = 1, .record = mark, .user = "draw first" });
    rg_end_rendering(g);
    rg_access reads[2] = { { .texture = a, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true },
                           { .texture = ds, .usage = RG_USAGE_SAMPLED_FRAGMENT,
                             .range = { .aspect = VK_IMAGE_ASPECT_DEPTH_BIT } } };
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "msaa", .color_count = 1,
        .colors = { { .texture = ms, .load = VK_ATTACHMENT_LOAD_OP_CLEAR, .store = VK_ATTACHMENT_STORE_OP_DONT_CARE,
                      .resolve = b } } });
    rg_cmd_user(g, &(rg_user_desc){ .name = "draw msaa", .kind = RG_COMMAND_DRAW, .accesses = reads,
                                    .access_count = 2, .record = mark, .user = "draw msaa" });
    rg_end_rendering(g);
    rg_access read_b = { .texture = b, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true };
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "last", .color_count = 2,
        .colors = { { .texture = c, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE, .store = VK_ATTACHMENT_STORE_OP_STORE },
                    { .texture = import, .base_layer = 1, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                      .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_cmd_user(g, &(rg_user_desc){ .name = "draw last", .kind = RG_COMMAND_DRAW, .accesses = &read_b,
                                    .access_count = 1, .record = mark, .user = "draw last" });
    rg_end_rendering(g);
    rg_access read_c = { .texture = c, .usage = RG_USAGE_SAMPLED_COMPUTE, .whole = true };
    rg_cmd_user(g, &(rg_user_desc){ .name = "read c", .accesses = &read_c, .access_count = 1, .record = mark,
                                    .user = "read c" });
}

typedef struct record_job {
    rg_graph *g;
    bench_flat *flat;
    bool ok;
} record_job;

static void record_graph(VkCommandBuffer cmd, void *user)
{
    record_job *j = user;
    j->ok = rg_execute(j->g, cmd) == RG_SUCCESS;
}

static void record_hand(VkCommandBuffer cmd, void *user)
{
    record_job *j = user;
    j->ok = bench_flat_record(j->flat, cmd);
}

/* The calls rg_execute records for j->g, as logged text. */
static char *log_by_graph(record_job *j)
{
    call_log.on = true;
    cr_assert_eq(eng_context_submit_once(test_ctx, record_graph, j), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert(j->ok, "rg_execute: %s", rg_graph_error_message(j->g));
    call_log.on = false;
    return log_take();
}

/* The calls of the same frame recorded by hand from the public queries
 * (bench_frame.c; j->flat keeps the flattened frame). */
static char *log_by_hand(record_job *j)
{
    const char *error = NULL;
    j->flat = bench_flatten(j->g, eng_context_device(test_ctx), &error);
    cr_assert_not_null(j->flat, "bench_flatten: %s", error);
    call_log.on = true;
    cr_assert_eq(eng_context_submit_once(test_ctx, record_hand, j), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert(j->ok);
    call_log.on = false;
    return log_take();
}

/* The public barrier list as plain values, to compare two moments. */
static rg_barrier_info *barrier_copy(const rg_graph *g, uint32_t *n)
{
    *n = rg_barrier_count(g);
    rg_barrier_info *b = calloc(*n + 1, sizeof *b);
    for (uint32_t i = 0; i < *n; i++)
        b[i] = *rg_barrier_get(g, i);
    return b;
}

DEVICE_TEST(rg_recording, execute_records_what_the_queries_say)
{
    eng_image *img = NULL;
    eng_image_desc id = { .name = "imported", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = W, .height = H,
                          .array_layers = 2,
                          .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_SAMPLED_BIT };
    cr_assert_eq(eng_image_create(test_ctx, &id, &img), ENG_SUCCESS, "%s", eng_last_error());
    const eng_image_info *ii = eng_image_get_info(img);
    rg_device *dev = logging_device();
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "recording", .device = dev, .no_culling = true }, &g),
                 RG_SUCCESS);
    rg_texture import = rg_texture_import(g, &(rg_texture_import_desc){
        .name = "imported", .image = ii->image, .view = ii->view, .format = ii->format, .width = W, .height = H,
        .array_layers = 2, .final_layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
        .final_stage = VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT, .final_access = VK_ACCESS_2_SHADER_SAMPLED_READ_BIT });
    declare(g, import);
    test_compile(g);
    cr_assert_eq(rg_place(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_expect_gt(rg_memory_get_totals(g).pooled, 0);
    uint32_t placed_n, executed_n;
    rg_barrier_info *placed = barrier_copy(g, &placed_n);

    /* Through the graph. */
    record_job j = { g, NULL, false };
    char *by_graph = log_by_graph(&j);

    rg_barrier_info *executed = barrier_copy(g, &executed_n);
    cr_assert_eq(executed_n, placed_n, "rg_execute changed the barrier list");
    cr_expect_eq(memcmp(executed, placed, placed_n * sizeof *placed), 0, "rg_execute changed the barrier list");

    /* By hand, from the public queries. */
    char *by_hand = log_by_hand(&j);

    cr_expect_gt(strlen(by_graph), 0);
    cr_expect(strstr(by_graph, "aspect 6") != NULL, "the depth+stencil barriers name both aspects");
    cr_expect_str_eq(by_hand, by_graph, "hand-recorded frame:\n%s\nrg_execute:\n%s", by_hand, by_graph);
    free(by_graph);
    free(by_hand);
    free(placed);
    free(executed);
    bench_flat_destroy(j.flat);
    rg_graph_destroy(g);
    rg_device_destroy(dev);
    eng_image_destroy(img);
}

/* Merged spans (where the device has local read): one rendering instance
 * for two spans, a by-region barrier between them; the hand-recorded
 * frame continues the instance the same way. */
DEVICE_TEST(rg_recording, merged_spans_record_what_the_queries_say)
{
    rg_device *dev = logging_device();
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "merged", .device = dev, .merge = RG_MERGE_ON,
                                                   .no_culling = true }, &g),
                 RG_SUCCESS);
    rg_texture_desc color = { .format = VK_FORMAT_R8G8B8A8_UNORM, .width = W, .height = H };
    rg_texture a = test_texture_named(g, color, "a");
    rg_texture b = test_texture_named(g, color, "b");
    rg_texture c = test_texture_named(g, color, "c");
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "gbuffer", .color_count = 2,
        .colors = { { .texture = a, .load = VK_ATTACHMENT_LOAD_OP_CLEAR }, { .texture = b,
                                                                             .load = VK_ATTACHMENT_LOAD_OP_CLEAR } } });
    rg_cmd_user(g, &(rg_user_desc){ .name = "scene", .kind = RG_COMMAND_DRAW, .record = mark, .user = "scene" });
    rg_end_rendering(g);
    rg_access reads[2] = { { .texture = a, .usage = RG_USAGE_PIXEL_LOCAL_READ, .whole = true },
                           { .texture = b, .usage = RG_USAGE_PIXEL_LOCAL_READ, .whole = true } };
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "light", .color_count = 1, .colors = { { .texture = c, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE } } });
    rg_cmd_user(g, &(rg_user_desc){ .name = "light", .kind = RG_COMMAND_DRAW, .accesses = reads, .access_count = 2,
                                    .record = mark, .user = "light" });
    rg_end_rendering(g);
    rg_access read_c = { .texture = c, .usage = RG_USAGE_SAMPLED_COMPUTE, .whole = true };
    rg_cmd_user(g, &(rg_user_desc){ .name = "read c", .accesses = &read_c, .access_count = 1, .record = mark,
                                    .user = "read c" });
    test_compile(g);
    cr_assert_eq(rg_place(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_merge_info m;
    cr_assert_eq(rg_merge_get(g, 0, &m), RG_SUCCESS);
    cr_expect_eq(m.merged, eng_context_local_read(test_ctx).supported, "%s", m.reason);

    record_job j = { g, NULL, false };
    char *by_graph = log_by_graph(&j);
    char *by_hand = log_by_hand(&j);
    /* Merged: one begin with three colors, and a by-region barrier. */
    if (m.merged) {
        cr_expect(strstr(by_graph, "colors 3") != NULL && strstr(by_graph, "barrier flags 1 ") != NULL, "%s",
                  by_graph);
        cr_expect_eq(bench_flat_get_counts(j.flat).spans, 1);
    }
    cr_expect_str_eq(by_hand, by_graph, "hand-recorded frame:\n%s\nrg_execute:\n%s", by_hand, by_graph);
    free(by_graph);
    free(by_hand);
    bench_flat_destroy(j.flat);
    rg_graph_destroy(g);
    rg_device_destroy(dev);
}
