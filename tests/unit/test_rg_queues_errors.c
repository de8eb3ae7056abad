/* Multi-queue compile, device-free: the declaration errors of queue
 * eligibility (a usage the queue cannot run, a queue given to a draw, a
 * blit, a depth clear or a span, texture copies' rules). Suite rg_queues
 * (test_rg_queues.c). */
#include "rg_mem_unit.h"

#include <stdio.h>
#include <stdlib.h>
#include "rg_queues_unit.h"

/* --------------------------------------------------------------- errors */

/* A user command marked for queue q with one access of usage u: a
 * declaration error naming the command and the resource. */
static void expect_usage_refused(rg_queue q, rg_usage u, bool texture)
{
    rg_graph *g = queues_queue_graph(&queues_both_queues, false);
    rg_access a = texture ? TEX(test_color(g, "albedo"), u) : BUF(test_buf(g, "albedo"), u);
    rg_access ok = BUF(test_buf(g, "fine"), q == RG_QUEUE_TRANSFER ? RG_USAGE_TRANSFER_DST : SWC);
    test_queued(g, "shade", q, ACC(ok, a));
    test_expect_error(g, RG_ERROR_INVALID_ARGUMENT, "shade");
    cr_expect(strstr(rg_graph_error_message(g), "albedo") != NULL, "%s on %s: '%s' does not name the resource",
              rg_usage_get_info(u)->name, rg_queue_name(q), rg_graph_error_message(g));
    rg_graph_destroy(g);
}

Test(rg_queues, compute_queue_with_a_graphics_usage_is_an_error)
{
    expect_usage_refused(RG_QUEUE_COMPUTE, SMF, true);
    expect_usage_refused(RG_QUEUE_COMPUTE, RG_USAGE_STORAGE_WRITE_FRAGMENT, true);
    expect_usage_refused(RG_QUEUE_COMPUTE, RG_USAGE_COLOR_ATTACHMENT, true);
    expect_usage_refused(RG_QUEUE_COMPUTE, RG_USAGE_VERTEX_BUFFER, false);
    expect_usage_refused(RG_QUEUE_COMPUTE, RG_USAGE_UNIFORM_VERTEX, false);
}

Test(rg_queues, transfer_queue_with_a_shader_usage_is_an_error)
{
    expect_usage_refused(RG_QUEUE_TRANSFER, SMC, true);
    expect_usage_refused(RG_QUEUE_TRANSFER, SWC, false);
    expect_usage_refused(RG_QUEUE_TRANSFER, RG_USAGE_INDIRECT_BUFFER, false);
}

Test(rg_queues, draw_with_a_queue_is_an_error)
{
    rg_graph *g = queues_queue_graph(&queues_both_queues, false);
    test_begin(g, "pass", test_color(g, "color"));
    rg_cmd_user(g, &(rg_user_desc){.name = "queued draw", .kind = RG_COMMAND_DRAW, .record = test_noop,
                                   .queue = RG_QUEUE_COMPUTE});
    rg_end_rendering(g);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "queued draw");
}

Test(rg_queues, allow_queue_on_a_blit_is_an_error)
{
    rg_graph *g = queues_queue_graph(&queues_both_queues, false);
    rg_command blit = rg_cmd_blit(g, test_color(g, "src"), 0, test_color(g, "dst"), 0, VK_FILTER_LINEAR);
    rg_command_allow_queue(g, blit, RG_QUEUE_COMPUTE);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "blit");
}

Test(rg_queues, allow_queue_on_a_depth_clear_is_an_error)
{
    rg_graph *g = queues_queue_graph(&queues_both_queues, false);
    rg_command clear = rg_cmd_clear_texture(g, test_tex(g, "depth", VK_FORMAT_D32_SFLOAT), NULL,
                                            &(VkClearValue){.depthStencil = {1.0f, 0}});
    rg_command_allow_queue(g, clear, RG_QUEUE_COMPUTE);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "clear_texture");
}

/* Buffer/texture copies of a depth texture need a graphics queue; on the
 * transfer queue a copy needs a buffer offset that is a multiple of 4
 * (compute takes any). */
Test(rg_queues, queue_rules_of_texture_copies)
{
    for (rg_queue q = RG_QUEUE_COMPUTE; q <= RG_QUEUE_TRANSFER; q++) {
        rg_graph *g = queues_queue_graph(&queues_both_queues, false);
        rg_buffer out = rg_buffer_create(g, &(rg_buffer_desc){.name = "out", .size = 1u << 20});
        rg_command copy = rg_cmd_copy_texture_to_buffer(g, test_tex(g, "depth", VK_FORMAT_D32_SFLOAT), 0, 0, 1, out, 0);
        rg_command_allow_queue(g, copy, q);
        test_expect_error(g, RG_ERROR_INVALID_ARGUMENT, "copy_texture_to_buffer");
        cr_expect(strstr(rg_graph_error_message(g), "depth/stencil") != NULL, "%s", rg_graph_error_message(g));
        rg_graph_destroy(g);
    }
    for (rg_queue q = RG_QUEUE_COMPUTE; q <= RG_QUEUE_TRANSFER; q++) {
        rg_graph *g = queues_queue_graph(&queues_both_queues, false);
        rg_buffer in = rg_buffer_create(g, &(rg_buffer_desc){.name = "in", .size = 1u << 20});
        test_queued(g, "fill", q, ACC(BUF(in, RG_USAGE_TRANSFER_DST)));
        rg_command copy = rg_cmd_copy_buffer_to_texture(g, in, 2, test_tex(g, "mask", VK_FORMAT_R8_UNORM), 0, 0, 1);
        rg_command_allow_queue(g, copy, q);
        if (q == RG_QUEUE_TRANSFER) {
            test_expect_error(g, RG_ERROR_INVALID_ARGUMENT, "copy_buffer_to_texture");
            cr_expect(strstr(rg_graph_error_message(g), "multiples of 4") != NULL, "%s", rg_graph_error_message(g));
        } else {
            cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
            cr_expect_eq(queues_queue_of(g, copy), RG_QUEUE_COMPUTE);
        }
        rg_graph_destroy(g);
    }
}

Test(rg_queues, transfer_queue_for_a_clear_is_an_error)
{
    rg_graph *g = queues_queue_graph(&queues_both_queues, false);
    rg_command clear = rg_cmd_clear_texture(g, test_color(g, "color"), NULL,
                                            &(VkClearValue){.color = {.float32 = {0, 0, 0, 0}}});
    rg_command_allow_queue(g, clear, RG_QUEUE_TRANSFER);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "clear_texture");
}

Test(rg_queues, allow_queue_on_a_span_is_an_error)
{
    rg_graph *g = queues_queue_graph(&queues_both_queues, false);
    rg_command begin = test_begin(g, "pass", test_color(g, "color"));
    rg_end_rendering(g);
    rg_command_allow_queue(g, begin, RG_QUEUE_COMPUTE);
    test_expect_refused(g, RG_ERROR_INVALID_ARGUMENT, "pass");
}
