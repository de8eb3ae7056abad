/* The usage table: one row per rg_usage, (stage, access, layout) plus what a
 * created resource needs to be usable that way. */
#include "base/base.h"

#define SH_V VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT
#define SH_F VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT
#define SH_C VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT
#define ST_R VK_ACCESS_2_SHADER_STORAGE_READ_BIT
#define ST_W VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT
#define SRO VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL
#define GEN VK_IMAGE_LAYOUT_GENERAL
#define UND VK_IMAGE_LAYOUT_UNDEFINED
#define STORAGE_IMG VK_IMAGE_USAGE_STORAGE_BIT
#define STORAGE_BUF VK_BUFFER_USAGE_STORAGE_BUFFER_BIT
#define DEPTH_STAGES (VK_PIPELINE_STAGE_2_EARLY_FRAGMENT_TESTS_BIT | VK_PIPELINE_STAGE_2_LATE_FRAGMENT_TESTS_BIT)
#define XFER VK_PIPELINE_STAGE_2_TRANSFER_BIT

static const rg_usage_info usage_table[RG_USAGE_COUNT] = {
    [RG_USAGE_NONE] = {"none", 0, 0, UND, 0, 0, false},
    [RG_USAGE_VERTEX_BUFFER] = {"vertex_buffer", VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT,
                                VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT, UND, 0,
                                VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, false},
    [RG_USAGE_INDEX_BUFFER] = {"index_buffer", VK_PIPELINE_STAGE_2_INDEX_INPUT_BIT, VK_ACCESS_2_INDEX_READ_BIT,
                               UND, 0, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, false},
    [RG_USAGE_INDIRECT_BUFFER] = {"indirect_buffer", VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT,
                                  VK_ACCESS_2_INDIRECT_COMMAND_READ_BIT, UND, 0,
                                  VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, false},
    [RG_USAGE_UNIFORM_VERTEX] = {"uniform_vertex", SH_V, VK_ACCESS_2_UNIFORM_READ_BIT, UND, 0,
                                 VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, false},
    [RG_USAGE_UNIFORM_FRAGMENT] = {"uniform_fragment", SH_F, VK_ACCESS_2_UNIFORM_READ_BIT, UND, 0,
                                   VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, false},
    [RG_USAGE_UNIFORM_COMPUTE] = {"uniform_compute", SH_C, VK_ACCESS_2_UNIFORM_READ_BIT, UND, 0,
                                  VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, false},
    [RG_USAGE_SAMPLED_VERTEX] = {"sampled_vertex", SH_V, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, SRO,
                                 VK_IMAGE_USAGE_SAMPLED_BIT, 0, false},
    [RG_USAGE_SAMPLED_FRAGMENT] = {"sampled_fragment", SH_F, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, SRO,
                                   VK_IMAGE_USAGE_SAMPLED_BIT, 0, false},
    [RG_USAGE_SAMPLED_COMPUTE] = {"sampled_compute", SH_C, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, SRO,
                                  VK_IMAGE_USAGE_SAMPLED_BIT, 0, false},
    [RG_USAGE_STORAGE_READ_VERTEX] = {"storage_read_vertex", SH_V, ST_R, GEN, STORAGE_IMG, STORAGE_BUF, false},
    [RG_USAGE_STORAGE_READ_FRAGMENT] = {"storage_read_fragment", SH_F, ST_R, GEN, STORAGE_IMG, STORAGE_BUF, false},
    [RG_USAGE_STORAGE_READ_COMPUTE] = {"storage_read_compute", SH_C, ST_R, GEN, STORAGE_IMG, STORAGE_BUF, false},
    [RG_USAGE_STORAGE_WRITE_FRAGMENT] = {"storage_write_fragment", SH_F, ST_W, GEN, STORAGE_IMG, STORAGE_BUF, true},
    [RG_USAGE_STORAGE_WRITE_COMPUTE] = {"storage_write_compute", SH_C, ST_W, GEN, STORAGE_IMG, STORAGE_BUF, true},
    [RG_USAGE_STORAGE_READ_WRITE_FRAGMENT] = {"storage_read_write_fragment", SH_F, ST_R | ST_W, GEN, STORAGE_IMG,
                                              STORAGE_BUF, true},
    [RG_USAGE_STORAGE_READ_WRITE_COMPUTE] = {"storage_read_write_compute", SH_C, ST_R | ST_W, GEN, STORAGE_IMG,
                                             STORAGE_BUF, true},
    [RG_USAGE_COLOR_ATTACHMENT] = {"color_attachment", VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                                   VK_ACCESS_2_COLOR_ATTACHMENT_READ_BIT | VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
                                   VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0,
                                   true},
    [RG_USAGE_DEPTH_ATTACHMENT] = {"depth_attachment", DEPTH_STAGES,
                                   VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                       VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT,
                                   VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL,
                                   VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 0, true},
    [RG_USAGE_DEPTH_READ_ONLY] = {"depth_read_only", DEPTH_STAGES, VK_ACCESS_2_DEPTH_STENCIL_ATTACHMENT_READ_BIT,
                                  VK_IMAGE_LAYOUT_DEPTH_STENCIL_READ_ONLY_OPTIMAL,
                                  VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, 0, false},
    /* Resolves run in the color attachment output stage as color writes
     * (also for depth/stencil resolves). */
    [RG_USAGE_RESOLVE] = {"resolve", VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
                          VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                          VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, 0, true},
    [RG_USAGE_TRANSFER_SRC] = {"transfer_src", XFER, VK_ACCESS_2_TRANSFER_READ_BIT,
                               VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                               VK_BUFFER_USAGE_TRANSFER_SRC_BIT, false},
    [RG_USAGE_TRANSFER_DST] = {"transfer_dst", XFER, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                               VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                               VK_BUFFER_USAGE_TRANSFER_DST_BIT, true},
    /* Presentation is ordered by the semaphore, not by a stage. */
    [RG_USAGE_PRESENT] = {"present", VK_PIPELINE_STAGE_2_NONE, VK_ACCESS_2_NONE, VK_IMAGE_LAYOUT_PRESENT_SRC_KHR, 0,
                          0, false},
    /* Stage, access, layout and write come from the rg_access itself. */
    [RG_USAGE_RAW] = {"raw", 0, 0, UND, 0, 0, false},
    /* As read when its span is not merged (texelFetch); compile_merge.c
     * turns it into an input-attachment read in RENDERING_LOCAL_READ
     * layout where the span merges. The usage (SAMPLED or
     * INPUT_ATTACHMENT) is added by compile, which knows which. */
    [RG_USAGE_PIXEL_LOCAL_READ] = {"pixel_local_read", SH_F, VK_ACCESS_2_SHADER_SAMPLED_READ_BIT, SRO, 0, 0, false},
};

const rg_usage_info *rg_usage_get_info(rg_usage usage)
{
    if ((unsigned)usage >= RG_USAGE_COUNT)
        return NULL;
    return &usage_table[usage];
}

/* The stages of a queue without graphics, from Vulkan's table of supported
 * stages: a compute-only family runs dispatches (indirect ones too),
 * copies and clears; a transfer-only family copies. Graphics has all. */
VkPipelineStageFlags2 rg__queue_stages(rg_queue q)
{
    const VkPipelineStageFlags2 common = VK_PIPELINE_STAGE_2_TOP_OF_PIPE_BIT | VK_PIPELINE_STAGE_2_BOTTOM_OF_PIPE_BIT |
                                         VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_2_HOST_BIT |
                                         VK_PIPELINE_STAGE_2_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COPY_BIT;
    switch (q) {
    case RG_QUEUE_COMPUTE:
        return common | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_2_DRAW_INDIRECT_BIT |
               VK_PIPELINE_STAGE_2_CLEAR_BIT;
    case RG_QUEUE_TRANSFER:
        return common;
    default:
        return ~(VkPipelineStageFlags2)0;
    }
}

const char *rg_queue_name(rg_queue queue)
{
    switch (queue) {
    case RG_QUEUE_GRAPHICS:
        return "graphics";
    case RG_QUEUE_COMPUTE:
        return "compute";
    case RG_QUEUE_TRANSFER:
        return "transfer";
    default:
        return "?";
    }
}
