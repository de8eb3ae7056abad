/* Out of device memory at each allocation point of engine setup, under the
 * tile-memory layer's fault injection: every call that allocates fails
 * cleanly in turn (ENG_ERROR_OUT_OF_MEMORY, a message naming the call,
 * nothing handed out, nothing leaked: validation reports leaked objects at
 * vkDestroyDevice), and the whole setup succeeds right after. A byte budget
 * fails what does not fit and lets memoryless (lazy) attachments through. */
#define _POSIX_C_SOURCE 200809L /* setenv, unsetenv */
#include "device_fixture.h"
#include "tile_support.h"

#include <criterion/criterion.h>
#include <engine_files/engine_files.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TestSuite(tile_engine_faults);

#define TEX 16

/* The objects an engine setup makes; each step allocates device memory. */
typedef struct setup {
    const char *texture_path;
    eng_image *sampled, *texture, *lazy_color, *depth;
    eng_buffer *vertices, *device_buffer, *uniforms;
} setup;

static void setup_destroy(setup *s)
{
    eng_image_destroy(s->sampled);
    eng_image_destroy(s->texture);
    eng_image_destroy(s->lazy_color);
    eng_image_destroy(s->depth);
    eng_buffer_destroy(s->vertices);
    eng_buffer_destroy(s->device_buffer);
    eng_buffer_destroy(s->uniforms);
    const char *path = s->texture_path;
    *s = (setup){ .texture_path = path };
}

/* Runs the steps in order; returns the first failure (and which step). */
static eng_result setup_run(eng_context *ctx, setup *s, const char **step)
{
    static const float data[64] = { 1.0f };
    eng_result r;
#define STEP(name, call)    \
    do {                    \
        *step = name;       \
        r = (call);         \
        if (r != ENG_SUCCESS) \
            return r;       \
    } while (0)
    STEP("eng_image_create", eng_image_create(ctx,
                                              &(eng_image_desc){ .name = "sampled", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                 .width = 64, .height = 64,
                                                                 .usage = VK_IMAGE_USAGE_SAMPLED_BIT |
                                                                          VK_IMAGE_USAGE_TRANSFER_DST_BIT },
                                              &s->sampled));
    STEP("eng_buffer_create_with_data", eng_buffer_create_with_data(ctx, "vertices", VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                                                                    data, sizeof data, &s->vertices));
    STEP("eng_buffer_create", eng_buffer_create(ctx,
                                                &(eng_buffer_desc){ .name = "device buffer", .size = 4096,
                                                                    .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                                                             VK_BUFFER_USAGE_TRANSFER_DST_BIT },
                                                &s->device_buffer));
    /* A staging allocation where device-local memory is not host-visible. */
    STEP("eng_buffer_upload", eng_buffer_upload(ctx, s->device_buffer, 0, data, sizeof data));
    STEP("eng_texture_load", eng_texture_load(ctx, s->texture_path, &s->texture));
    STEP("eng_attachment_create (transient)",
         eng_attachment_create(ctx,
                               &(eng_attachment_desc){ .name = "lazy color", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                       .width = 64, .height = 64, .samples = VK_SAMPLE_COUNT_4_BIT },
                               &s->lazy_color));
    STEP("eng_attachment_create (persistent)",
         eng_attachment_create(ctx,
                               &(eng_attachment_desc){ .name = "depth", .format = VK_FORMAT_D32_SFLOAT, .width = 64,
                                                       .height = 64, .persistent = true },
                               &s->depth));
    STEP("eng_buffer_create (host-visible)",
         eng_buffer_create(ctx,
                           &(eng_buffer_desc){ .name = "uniforms", .size = 256,
                                               .usage = VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT,
                                               .memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT },
                           &s->uniforms));
#undef STEP
    *step = NULL;
    return ENG_SUCCESS;
}

static const char *write_texture(char *path, size_t size)
{
    uint8_t rgba[TEX * TEX * 4];
    for (size_t i = 0; i < sizeof rgba; i++)
        rgba[i] = (uint8_t)(i * 7);
    test_temp_path(path, size, "fault-texture.png");
    cr_assert_eq(eng_write_png(path, TEX, TEX, rgba), ENG_SUCCESS, "%s", eng_last_error());
    return path;
}

Test(tile_engine_faults, each_setup_allocation_fails_cleanly_then_succeeds)
{
    char path[512];
    setup s = { .texture_path = write_texture(path, sizeof path) };
    unsigned failed = 0;
    for (unsigned n = 1; n < 64; n++) {
        eng_context *ctx = tile_faulty_context("VKGRAPH_TILE_FAIL_ALLOC", n);
        const char *step = NULL;
        eng_result r = setup_run(ctx, &s, &step);
        bool hit = r != ENG_SUCCESS;
        if (hit) {
            failed++;
            cr_expect_eq(r, ENG_ERROR_OUT_OF_MEMORY, "allocation %u (%s): %s: %s", n, step, eng_result_string(r),
                         eng_last_error());
            cr_expect_neq(strstr(eng_last_error(), "vkAllocateMemory"), NULL, "allocation %u (%s): message: %s", n,
                          step, eng_last_error());
            setup_destroy(&s);
            /* Memory is there again (the fault fires once): all of it works. */
            r = setup_run(ctx, &s, &step);
            cr_expect_eq(r, ENG_SUCCESS, "allocation %u, retried: %s failed: %s", n, step ? step : "-",
                         eng_last_error());
        }
        setup_destroy(&s);
        char first[1024];
        eng_message_counts m = destroy_context_counted(ctx, first, sizeof first);
        cr_expect_eq(m.warning + m.error, 0, "allocation %u (%s): first: %s", n, step ? step : "-", first);
        if (!hit)
            break; /* past the last allocation */
    }
    /* image, vertices (+ staging on a device whose local memory is not
     * host-visible), buffer, texture (+ staging), two attachments, uniforms */
    cr_expect_geq(failed, 7, "%u allocations failed in turn", failed);
    remove(path);
}

/* A budget of 1 MiB: what fits is made, what does not is refused cleanly,
 * and memoryless attachments, which take no memory on a tile GPU, always
 * fit. */
Test(tile_engine_faults, byte_budget_refuses_what_does_not_fit)
{
    eng_context *ctx = tile_faulty_context("VKGRAPH_TILE_FAIL_BYTES", 1u << 20);
    eng_image_desc small = { .name = "small", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 128, .height = 128,
                             .usage = VK_IMAGE_USAGE_SAMPLED_BIT };
    eng_image_desc large = small;
    large.name = "large";
    large.width = large.height = 1024; /* 4 MiB */
    eng_image *a = NULL, *b = NULL, *big = NULL, *lazy = NULL;
    cr_assert_eq(eng_image_create(ctx, &small, &a), ENG_SUCCESS, "%s", eng_last_error());
    eng_result r = eng_image_create(ctx, &large, &big);
    cr_expect_eq(r, ENG_ERROR_OUT_OF_MEMORY, "%s", eng_result_string(r));
    cr_expect_null(big);
    cr_expect_neq(strstr(eng_last_error(), "large"), NULL, "the message names the image: %s", eng_last_error());
    eng_attachment_desc ad = { .name = "lazy", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 1024, .height = 1024,
                               .samples = VK_SAMPLE_COUNT_4_BIT }; /* 16 MiB, memoryless */
    cr_expect_eq(eng_attachment_create(ctx, &ad, &lazy), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect(lazy && eng_image_is_lazy(lazy));
    cr_expect_eq(eng_image_create(ctx, &small, &b), ENG_SUCCESS, "%s", eng_last_error());
    eng_image_destroy(a);
    eng_image_destroy(b);
    eng_image_destroy(lazy);
    destroy_context_expect_clean(ctx, "the tile-layer context");
}

/* A lost device (VKGRAPH_TILE_LOSE_DEVICE: every submission from the first
 * on fails as a lost device's does) is an error for the caller, naming the
 * call, never an assertion, and what the failed calls made is freed. The
 * validation layer sits above the tile layer and records the submission
 * before it fails below it, so it reports the fence and command buffer as
 * still in use when they are destroyed: the context is quiet here and its
 * messages are not counted. */
static void record_nothing(VkCommandBuffer cmd, void *user)
{
    (void)cmd;
    (void)user;
}

Test(tile_engine_faults, lost_device_is_an_error_for_the_caller)
{
    char path[512];
    write_texture(path, sizeof path);
    setenv("VKGRAPH_TILE_LOSE_DEVICE", "1", 1);
    eng_context *ctx = tile_context(true);
    unsetenv("VKGRAPH_TILE_LOSE_DEVICE");
    eng_result r = eng_context_submit_once(ctx, record_nothing, NULL);
    cr_expect_eq(r, ENG_ERROR_DEVICE_LOST, "%s: %s", eng_result_string(r), eng_last_error());
    cr_expect_neq(strstr(eng_last_error(), "vkQueueSubmit2"), NULL, "message: %s", eng_last_error());
    eng_image *texture = NULL;
    r = eng_texture_load(ctx, path, &texture); /* uploads through a submission */
    cr_expect_eq(r, ENG_ERROR_DEVICE_LOST, "%s: %s", eng_result_string(r), eng_last_error());
    cr_expect_null(texture, "nothing half-made is handed out");
    eng_context_destroy(ctx);
    remove(path);
}
