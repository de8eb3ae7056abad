/* Helpers of the pipeline tests (pipeline_support.h). */
#include "pipeline_support.h"

#include "device_fixture.h"
#include "test_chunks.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const float pipeline_full_rect[4] = { -1, -1, 1, 1 };

rg_graph *pipeline_readback_graph(const char *name, VkDeviceSize bytes, eng_buffer **readback, rg_buffer *out)
{
    eng_buffer_desc bd = { .name = "readback", .size = bytes, .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                           .memory = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT };
    cr_assert_eq(eng_buffer_create(test_ctx, &bd, readback), ENG_SUCCESS, "%s", eng_last_error());
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = name, .device = eng_context_graph_device(test_ctx) }, &g),
                 RG_SUCCESS);
    *out = rg_buffer_import(g, &(rg_buffer_import_desc){ .name = "readback", .buffer = eng_buffer_handle(*readback),
                                                          .size = bytes, .final_stage = VK_PIPELINE_STAGE_2_HOST_BIT,
                                                          .final_access = VK_ACCESS_2_HOST_READ_BIT });
    return g;
}
