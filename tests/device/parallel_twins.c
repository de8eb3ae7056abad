/* The acceptance suite's aliased twins, recorded whole and cut into
 * chunks anywhere: the same calls once the cuts are taken out, the same
 * bytes read back. Suite execute_parallel (test_execute_parallel.c
 * declares it); moved here from test_execute_parallel_random.c, whose
 * random frames are beside it. */
#include "device_fixture.h"
#include "parallel_support.h"
#include "rg_support.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdio.h>
#include <stdlib.h>

/* The frame an acceptance suite found: span A renders T, span B samples T
 * into OB, span C renders T again, OB is copied out, span D samples T
 * into OD (which takes OB's bytes: same format and size, one pool
 * offset), OD and T are copied out. Cut for every max_chunks from 1 to
 * 16: the chunk that begins at OB's copy or inside D recorded D's
 * transition of OD from UNDEFINED, yet the layer (1.3.239 at submission,
 * 1.4.309 at D's draw) found OD in OB's layout, because the pooled images
 * were created with ALIAS_BIT, which makes identical aliases share one
 * layout. */
DEVICE_TEST(execute_parallel, aliased_twins_cut_anywhere)
{
    rg_device *dev = parallel_logging_device();
    scene *s = calloc(1, sizeof *s);
    parallel_scene_open(s);
    eng_buffer_destroy(s->readback);
    s->readback_size = 3 * PIXELS_BYTES;
    s->readback = test_host_buffer(s->readback_size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_graph *g = parallel_graph((rg_graph_desc){ .name = "twins", .device = dev });
    rg_texture t = parallel_color_texture(g, "T"), ob = parallel_color_texture(g, "OB"), od = parallel_color_texture(g, "OD");
    rg_buffer out = test_import_buffer(g, "readback", s->readback, true);
    rg_access sample_t = { .texture = t, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true };
    const rg_texture targets[4] = { t, ob, t, od };
    for (int k = 0; k < 4; k++) {
        if (k == 3) {
            rg_cmd_copy_texture_to_buffer(g, ob, 0, 0, 1, out, 0);
            s->cost += 1;
        }
        char name[16];
        snprintf(name, sizeof name, "span %c", 'A' + k);
        rg_begin_rendering(g, &(rg_rendering_desc){
            .name = name, .color_count = 1,
            .colors = { { .texture = targets[k], .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                          .store = VK_ATTACHMENT_STORE_OP_STORE,
                          .clear = { .color.float32 = { 0.2f * (float)k, 0.1f, 0.1f, 1 } } } } });
        snprintf(name, sizeof name, "draw %c", 'A' + k);
        bool samples = k == 1 || k == 3;
        parallel_add_user(g, s, name, 1, RG_QUEUE_GRAPHICS, samples ? &sample_t : NULL, samples ? 1 : 0, RG_COMMAND_DRAW,
                 s->color_only);
        rg_end_rendering(g);
    }
    rg_cmd_copy_texture_to_buffer(g, od, 0, 0, 1, out, PIXELS_BYTES);
    rg_cmd_copy_texture_to_buffer(g, t, 0, 0, 1, out, 2 * PIXELS_BYTES);
    s->cost += 2;
    test_compile(g);
    cr_assert_eq(rg_place(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    VkDeviceSize ob_at = 1, od_at = 2;
    cr_assert_eq(rg_texture_memory(g, ob, &ob_at, NULL), RG_MEMORY_POOLED);
    cr_assert_eq(rg_texture_memory(g, od, &od_at, NULL), RG_MEMORY_POOLED);
    cr_assert_eq(ob_at, od_at, "OD does not take OB's bytes: the frame tests nothing");
    static const uint32_t maxes[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
    cut_stats st = { 0 };
    parallel_sweep(g, s, maxes, sizeof maxes / sizeof maxes[0], s->readback_size, &st);
    rg_graph_destroy(g);
    parallel_scene_close(s);
    free(s);
    rg_device_destroy(dev);
}
