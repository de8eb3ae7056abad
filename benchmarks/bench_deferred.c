/* The deferred demo's frame for the benchmarks (bench_deferred.h). */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include "bench_deferred.h"

#include <engine_files/engine_files.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A ground texture when none is given: a 256x256 checker with some grain,
 * so the benchmark needs no asset next to it. */
static eng_result generated_ground(char *path, size_t size)
{
    snprintf(path, size, "/tmp/bench_ground_XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return ENG_ERROR_IO;
    close(fd);
    enum { N = 256 };
    uint8_t *rgba = malloc((size_t)N * N * 4);
    if (!rgba)
        return ENG_ERROR_OUT_OF_MEMORY;
    for (uint32_t y = 0; y < N; y++)
        for (uint32_t x = 0; x < N; x++) {
            uint8_t v = (uint8_t)((((x / 32) ^ (y / 32)) & 1 ? 150 : 90) + ((x * 7 + y * 13) % 17));
            uint8_t *p = &rgba[((size_t)y * N + x) * 4];
            p[0] = v, p[1] = (uint8_t)(v - 10), p[2] = (uint8_t)(v - 30), p[3] = 255;
        }
    eng_result r = eng_write_png(path, N, N, rgba);
    free(rgba);
    return r;
}

eng_result bench_deferred_create(eng_context *ctx, const char *ground, VkExtent2D extent, bool skip_draws,
                                 bench_deferred *d)
{
    memset(d, 0, sizeof *d);
    d->ctx = ctx;
    d->extent = extent;
    char path[64] = "";
    eng_result r = ENG_SUCCESS;
    if (!ground) {
        r = generated_ground(path, sizeof path);
        ground = path;
    }
    if (r == ENG_SUCCESS)
        r = deferred_scene_create(ctx, ground, 0, &d->scene);
    if (path[0])
        unlink(path);
    d->scene_made = r == ENG_SUCCESS;
    if (r == ENG_SUCCESS) {
        deferred_scene_animate(&d->scene, 60);
        r = deferred_renderer_create(&(deferred_renderer_desc){ .ctx = ctx, .scene = &d->scene,
                                                                .output_format = VK_FORMAT_R8G8B8A8_UNORM,
                                                                .skip_draws = skip_draws },
                                     &d->renderer);
    }
    if (r == ENG_SUCCESS)
        r = eng_image_create(ctx,
                             &(eng_image_desc){ .name = "bench output", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                .width = extent.width, .height = extent.height,
                                                .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                                         VK_IMAGE_USAGE_TRANSFER_SRC_BIT },
                             &d->output);
    if (r != ENG_SUCCESS)
        bench_deferred_destroy(d);
    return r;
}

void bench_deferred_destroy(bench_deferred *d)
{
    eng_image_destroy(d->output);
    deferred_renderer_destroy(d->renderer);
    if (d->scene_made)
        deferred_scene_destroy(&d->scene);
    memset(d, 0, sizeof *d);
}

rg_texture bench_output_import(rg_graph *g, const eng_image *image, VkExtent2D extent)
{
    const eng_image_info *oi = eng_image_get_info(image);
    return rg_texture_import(
        g, &(rg_texture_import_desc){ .name = "output", .image = oi->image, .view = oi->view, .format = oi->format,
                                      .width = extent.width, .height = extent.height,
                                      .initial_layout = VK_IMAGE_LAYOUT_UNDEFINED,
                                      .final_layout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                                      .final_stage = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                      .final_access = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT });
}

rg_texture bench_deferred_declare(bench_deferred *d, rg_graph *g, deferred_frame_textures *textures)
{
    rg_texture out = bench_output_import(g, d->output, d->extent);
    deferred_frame_declare(d->renderer, g, out, d->extent, textures);
    return out;
}
