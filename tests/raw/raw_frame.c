/* The raw device tests' frame (raw_frame.h): the graph on an application's
 * own device, everything around it (pipeline, descriptors, buffers,
 * command buffer, submission) written with Vulkan calls alone. */
#include "raw_device.h" /* first: volk's header before vulkan.h */

#include "raw_frame.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdio.h>
#include <string.h>

static const uint32_t solid_vert[] =
#include "solid.vert.inc"
    ;
static const uint32_t step_frag[] =
#include "history_step.frag.inc"
    ;

#define FMT VK_FORMAT_R32_UINT
#define W 64
#define H 64
#define CLEAR 7u  /* span "mark"'s load CLEAR value */
#define MARK 1000u /* its rectangle's */
static const VkRect2D mark_rect = { { 16, 8 }, { 32, 16 } };

/* What a pixel of B holds: history_step.frag adds 1 + x + 100 y to A. */
static uint32_t expected(uint32_t x, uint32_t y)
{
    bool marked = x >= (uint32_t)mark_rect.offset.x && x < mark_rect.offset.x + mark_rect.extent.width &&
                  y >= (uint32_t)mark_rect.offset.y && y < mark_rect.offset.y + mark_rect.extent.height;
    return (marked ? MARK : CLEAR) + 1 + x + 100 * y;
}

/* solid.vert's push constants, padded to the 48 bytes the layout declares. */
typedef struct push {
    float rect[4]; /* x0, y0, x1, y1 in NDC */
    float color[4];
    float depth;
    float pad[3];
} push;
_Static_assert(sizeof(push) == 48, "the pipeline layout declares 48 bytes of push constants");

typedef struct host_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    uint32_t *mapped;
} host_buffer;

/* The library's messages: printed, warnings and errors counted. */
typedef struct log_counts {
    uint32_t warnings, errors;
    char first[512];
} log_counts;

typedef struct frame {
    test_raw_device d;
    rg_device *device;
    rg_graph *graph;
    log_counts log;
    rg_texture a;
    rg_buffer out;                    /* the imported readback buffer */
    rg_command mark, step, copy;
    VkShaderModule vert, frag;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout pipeline_layout;
    VkPipeline pipeline;
    VkDescriptorPool pool;
    VkImageView views[4];             /* one set per distinct view of A */
    VkDescriptorSet sets[4];
    uint32_t set_count;
    host_buffer readback[2];
    VkCommandPool cmd_pool;
    VkCommandBuffer cmd;
    VkFence fence;
} frame;

static void on_log(void *user, rg_log_level level, const char *object, const char *message)
{
    log_counts *log = user;
    object = object ? object : "(none)";
    static const char *names[] = { "error", "warning", "info" };
    fprintf(stderr, "[rendergraph %s] %s: %s\n", level <= RG_LOG_INFO ? names[level] : "?", object, message);
    if (level == RG_LOG_ERROR)
        log->errors++;
    else if (level == RG_LOG_WARNING)
        log->warnings++;
    else
        return;
    if (!log->first[0])
        snprintf(log->first, sizeof log->first, "%s: %s", object, message);
}

static void expect_no_messages(const frame *f, const char *when)
{
    const raw_messages *m = &f->d.messages;
    cr_expect_eq(m->warnings + m->errors, 0, "%s: %u validation warnings, %u errors; first: %s", when, m->warnings,
                 m->errors, m->first);
    cr_expect_eq(f->log.warnings + f->log.errors, 0, "%s: the library logged %u warnings, %u errors; first: %s",
                 when, f->log.warnings, f->log.errors, f->log.first);
}

#define VK_OK(call) cr_assert_eq((call), VK_SUCCESS, "%s", #call)

static void host_buffer_create(frame *f, host_buffer *b)
{
    VkDevice dev = f->d.device;
    VkBufferCreateInfo bi = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = W * H * 4,
                              .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT };
    VK_OK(vkCreateBuffer(dev, &bi, NULL, &b->buffer));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, b->buffer, &req);
    VkPhysicalDeviceMemoryProperties props;
    vkGetPhysicalDeviceMemoryProperties(f->d.physical, &props);
    uint32_t type;
    cr_assert(rg_choose_memory_type(&props, req.memoryTypeBits,
                                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, false,
                                    &type),
              "no host-visible coherent memory type for the readback buffer");
    VkMemoryAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
                                .memoryTypeIndex = type };
    VK_OK(vkAllocateMemory(dev, &ai, NULL, &b->memory));
    VK_OK(vkBindBufferMemory(dev, b->buffer, b->memory, 0));
    void *p = NULL;
    VK_OK(vkMapMemory(dev, b->memory, 0, VK_WHOLE_SIZE, 0, &p));
    b->mapped = p;
}

static void host_buffer_destroy(VkDevice dev, host_buffer *b)
{
    vkDestroyBuffer(dev, b->buffer, NULL);
    vkFreeMemory(dev, b->memory, NULL); /* unmaps */
}

/* Every word of the buffer is a value no pixel holds: a pixel the frame did
 * not write cannot pass. */
#define POISON 0xababababu
static void poison(host_buffer *b) { memset(b->mapped, POISON & 0xff, W * H * 4); }

static void expect_pixels(const host_buffer *b, const char *when)
{
    uint32_t bad = 0;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            uint32_t got = b->mapped[y * W + x], want = expected(x, y);
            if (got != want && bad++ < 4)
                cr_expect_eq(got, want, "%s: pixel (%u,%u) is %u, want %u", when, x, y, got, want);
        }
    cr_expect_eq(bad, 0, "%s: %u of %u pixels differ", when, bad, W * H);
}

/* Span "mark"'s draw: a rectangle of A set to MARK, inside the rendering
 * instance the graph began (no pipeline: vkCmdClearAttachments). */
static bool record_mark(const rg_record_context *rc, void *user)
{
    (void)user;
    VkClearAttachment clear = { .aspectMask = VK_IMAGE_ASPECT_COLOR_BIT, .colorAttachment = 0,
                                .clearValue.color.uint32 = { MARK } };
    VkClearRect rect = { .rect = mark_rect, .baseArrayLayer = 0, .layerCount = 1 };
    vkCmdClearAttachments(rg_record_cmd(rc), 1, &clear, 1, &rect);
    return true;
}

/* A set for a view of A, made the first time the view is seen: a set bound
 * in a recording command buffer must not be updated. */
static VkDescriptorSet set_for(frame *f, VkImageView view)
{
    for (uint32_t i = 0; i < f->set_count; i++)
        if (f->views[i] == view)
            return f->sets[i];
    if (f->set_count == 4)
        return VK_NULL_HANDLE;
    VkDescriptorSetAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = f->pool, .descriptorSetCount = 1,
                                       .pSetLayouts = &f->set_layout };
    VkDescriptorSet set;
    if (vkAllocateDescriptorSets(f->d.device, &ai, &set) != VK_SUCCESS)
        return VK_NULL_HANDLE;
    VkDescriptorImageInfo ii = { VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL };
    VkWriteDescriptorSet w = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = set, .dstBinding = 0,
                               .descriptorCount = 1, .descriptorType = VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE,
                               .pImageInfo = &ii };
    vkUpdateDescriptorSets(f->d.device, 1, &w, 0, NULL);
    f->views[f->set_count] = view;
    f->sets[f->set_count++] = set;
    return set;
}

/* Span "step"'s draw: B = A + 1 + x + 100 y over the whole target. The
 * graph has set the viewport and scissor to the render area. */
static bool record_step(const rg_record_context *rc, void *user)
{
    frame *f = user;
    VkImageView view = rg_record_view(rc, f->a);
    VkDescriptorSet set = view ? set_for(f, view) : VK_NULL_HANDLE;
    if (!set)
        return false; /* rg_execute fails with RG_ERROR_CALLBACK */
    VkCommandBuffer cmd = rg_record_cmd(rc);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, f->pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, f->pipeline_layout, 0, 1, &set, 0, NULL);
    push pc = { .rect = { -1, -1, 1, 1 } };
    vkCmdPushConstants(cmd, f->pipeline_layout, VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof pc, &pc);
    vkCmdDraw(cmd, 4, 1, 0, 0);
    return true;
}

static VkShaderModule shader(frame *f, const uint32_t *code, size_t size)
{
    VkShaderModuleCreateInfo ci = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = size,
                                    .pCode = code };
    VkShaderModule m;
    VK_OK(vkCreateShaderModule(f->d.device, &ci, NULL, &m));
    return m;
}

/* The descriptor set layout (one sampled image for the fragment stage),
 * its pool and the pipeline layout: independent of the graph. */
static void create_layouts(frame *f)
{
    VkDevice dev = f->d.device;
    VkDescriptorSetLayoutBinding b = { 0, VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL };
    VkDescriptorSetLayoutCreateInfo lci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                            .bindingCount = 1, .pBindings = &b };
    VK_OK(vkCreateDescriptorSetLayout(dev, &lci, NULL, &f->set_layout));
    VkDescriptorPoolSize size = { VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE, 4 };
    VkDescriptorPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = 4,
                                       .poolSizeCount = 1, .pPoolSizes = &size };
    VK_OK(vkCreateDescriptorPool(dev, &pci, NULL, &f->pool));
    VkPushConstantRange range = { VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof(push) };
    VkPipelineLayoutCreateInfo plci = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = 1,
                                        .pSetLayouts = &f->set_layout, .pushConstantRangeCount = 1,
                                        .pPushConstantRanges = &range };
    VK_OK(vkCreatePipelineLayout(dev, &plci, NULL, &f->pipeline_layout));
}

/* The step draw's pipeline, built against the rendering state compile
 * gives for it (rg_command_get_rendering: one R32_UINT color attachment
 * here, no merge). */
static void create_pipeline(frame *f)
{
    rg_command_rendering r;
    cr_assert_eq(rg_command_get_rendering(f->graph, f->step, &r), RG_SUCCESS, "%s",
                 rg_graph_error_message(f->graph));
    cr_assert_eq(r.color_count, 1);
    cr_assert_eq(r.color_formats[0], FMT);
    cr_assert_eq(r.depth_format, VK_FORMAT_UNDEFINED);
    cr_assert_not(r.merged);
    f->vert = shader(f, solid_vert, sizeof solid_vert);
    f->frag = shader(f, step_frag, sizeof step_frag);
    VkPipelineRenderingCreateInfo rendering = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
        .colorAttachmentCount = r.color_count,
        .pColorAttachmentFormats = r.color_formats,
        .depthAttachmentFormat = r.depth_format,
        .stencilAttachmentFormat = r.stencil_format,
    };
    VK_OK(test_raw_strip_pipeline(f->d.device, f->pipeline_layout, f->vert, f->frag, &rendering, r.samples,
                                  VK_COLOR_COMPONENT_R_BIT, &f->pipeline));
}

/* The frame's declaration (see raw_frame.h), compiled. */
static void declare(frame *f)
{
    rg_graph *g = f->graph;
    f->a = rg_texture_create(g, &(rg_texture_desc){ .name = "A", .format = FMT, .width = W, .height = H });
    rg_texture b = rg_texture_create(g, &(rg_texture_desc){ .name = "B", .format = FMT, .width = W, .height = H });
    /* Before the frame the host read the buffer (a frame before's values);
     * after it the host reads it again. */
    f->out = rg_buffer_import(g, &(rg_buffer_import_desc){
                                            .name = "readback",
                                            .buffer = f->readback[0].buffer,
                                            .size = W * H * 4,
                                            .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                            .initial_stage = VK_PIPELINE_STAGE_2_HOST_BIT,
                                            .initial_access = VK_ACCESS_2_HOST_READ_BIT,
                                            .final_stage = VK_PIPELINE_STAGE_2_HOST_BIT,
                                            .final_access = VK_ACCESS_2_HOST_READ_BIT,
                                        });
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "mark",
                              .colors = { { .texture = f->a, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                            .store = VK_ATTACHMENT_STORE_OP_STORE,
                                            .clear.color.uint32 = { CLEAR } } },
                              .color_count = 1 });
    f->mark = rg_cmd_user(g, &(rg_user_desc){ .name = "mark rectangle", .kind = RG_COMMAND_DRAW,
                                              .record = record_mark });
    rg_end_rendering(g);
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "step",
                              .colors = { { .texture = b, .load = VK_ATTACHMENT_LOAD_OP_DONT_CARE,
                                            .store = VK_ATTACHMENT_STORE_OP_STORE } },
                              .color_count = 1 });
    rg_access read_a = { .texture = f->a, .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true };
    f->step = rg_cmd_user(g, &(rg_user_desc){ .name = "A + step", .kind = RG_COMMAND_DRAW, .accesses = &read_a,
                                              .access_count = 1, .record = record_step, .user = f });
    rg_end_rendering(g);
    f->copy = rg_cmd_copy_texture_to_buffer(g, b, 0, 0, 1, f->out, 0);
    rg_result r = rg_compile(g);
    cr_assert_eq(r, RG_SUCCESS, "rg_compile: %s: %s", rg_result_string(r), rg_graph_error_message(g));
    /* Culling is on: each command leads to the readback, so none is culled. */
    const rg_command kept[] = { f->mark, f->step, f->copy };
    for (uint32_t i = 0; i < 3; i++) {
        rg_command_info info;
        cr_assert_eq(rg_command_get_info(g, kept[i], &info), RG_SUCCESS);
        cr_expect_not(info.culled, "'%s' was culled", info.name);
    }
    cr_expect_eq(rg_batch_count(g), 1, "one queue: one batch");
}

/* rg_execute `times` times into one command buffer, one submission,
 * waited for. */
static void run(frame *f, int times)
{
    VK_OK(vkResetCommandPool(f->d.device, f->cmd_pool, 0));
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                    .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
    VK_OK(vkBeginCommandBuffer(f->cmd, &bi));
    for (int i = 0; i < times; i++) {
        rg_result r = rg_execute(f->graph, f->cmd);
        cr_assert_eq(r, RG_SUCCESS, "rg_execute %d of %d: %s: %s", i + 1, times, rg_result_string(r),
                     rg_graph_error_message(f->graph));
    }
    VK_OK(vkEndCommandBuffer(f->cmd));
    VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1,
                        .pCommandBuffers = &f->cmd };
    VK_OK(vkQueueSubmit(f->d.queue, 1, &si, f->fence));
    VK_OK(vkWaitForFences(f->d.device, 1, &f->fence, VK_TRUE, UINT64_MAX));
    VK_OK(vkResetFences(f->d.device, 1, &f->fence));
    /* The application submits the graph's command buffer itself: the
     * graph learns that nothing of it is in flight now, so a placement it
     * frees later goes at once ("Placement and the GPU"). */
    cr_assert_eq(rg_graph_set_retire_point(f->graph, VK_NULL_HANDLE, 0, VK_NULL_HANDLE), RG_SUCCESS);
}

static void create_commands(frame *f)
{
    VkDevice dev = f->d.device;
    VkCommandPoolCreateInfo pci = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                    .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
                                    .queueFamilyIndex = f->d.family };
    VK_OK(vkCreateCommandPool(dev, &pci, NULL, &f->cmd_pool));
    VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = f->cmd_pool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1 };
    VK_OK(vkAllocateCommandBuffers(dev, &ai, &f->cmd));
    VkFenceCreateInfo fci = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    VK_OK(vkCreateFence(dev, &fci, NULL, &f->fence));
}

/* The application's objects, after the graph and the rg_device are gone. */
static void destroy_objects(frame *f)
{
    VkDevice dev = f->d.device;
    vkDestroyFence(dev, f->fence, NULL);
    vkDestroyCommandPool(dev, f->cmd_pool, NULL);
    for (uint32_t i = 0; i < 2; i++)
        host_buffer_destroy(dev, &f->readback[i]);
    vkDestroyPipeline(dev, f->pipeline, NULL);
    vkDestroyShaderModule(dev, f->vert, NULL);
    vkDestroyShaderModule(dev, f->frag, NULL);
    vkDestroyPipelineLayout(dev, f->pipeline_layout, NULL);
    vkDestroyDescriptorPool(dev, f->pool, NULL);
    vkDestroyDescriptorSetLayout(dev, f->set_layout, NULL);
}

void test_raw_frame(void)
{
    /* Static: the messenger and the log callback point into it, and a
     * failed assertion leaves this function (Criterion longjmps) with the
     * instance still alive. */
    static frame f;
    memset(&f, 0, sizeof f);
    char why[1024];
    if (!test_raw_device_open(&f.d, why, sizeof why))
        test_raw_require_or_skip(why);
    cr_log_info("device: %s, timelineSemaphore %s", f.d.properties.deviceName,
                f.d.timeline_semaphore ? "on" : "off");

    rg_device_desc dd = {
        .instance = f.d.instance,
        .physical_device = f.d.physical,
        .device = f.d.device,
        .enabled_features = &f.d.f12,
        .get_instance_proc_addr = test_raw_get_instance_proc_addr(),
        .api_version = TEST_RAW_API_VERSION,
        .queues[RG_QUEUE_GRAPHICS] = { f.d.queue, f.d.family },
        .timeline_semaphore = f.d.timeline_semaphore,
        .log = on_log,
        .log_user = &f.log,
    };
    rg_result r = rg_device_create(&dd, &f.device);
    cr_assert_eq(r, RG_SUCCESS, "rg_device_create: %s: %s", rg_result_string(r), f.log.first);
    cr_expect_eq(rg_device_handle(f.device), f.d.device);
    rg_device_caps caps = rg_device_get_caps(f.device);
    cr_expect_eq(caps.max_color_attachments, f.d.properties.limits.maxColorAttachments,
                 "the device's properties, read through the given vkGetInstanceProcAddr");
    cr_expect_not(caps.local_read, "not enabled");
    cr_expect_not(caps.compute_queue || caps.transfer_queue, "only a graphics queue was given");

    create_layouts(&f);
    host_buffer_create(&f, &f.readback[0]);
    host_buffer_create(&f, &f.readback[1]);
    create_commands(&f);
    r = rg_graph_create(&(rg_graph_desc){ .name = "raw frame", .device = f.device }, &f.graph);
    cr_assert_eq(r, RG_SUCCESS, "rg_graph_create: %s", rg_result_string(r));
    declare(&f);
    create_pipeline(&f);
    r = rg_place(f.graph);
    cr_assert_eq(r, RG_SUCCESS, "rg_place: %s: %s", rg_result_string(r), rg_graph_error_message(f.graph));

    /* Three frames in one command buffer: each frame's readback copy and
     * the next frame's first uses of A and B are hazards the graph's
     * barriers (one frame's final ones, the next one's first) must cover. */
    poison(&f.readback[0]);
    run(&f, 3);
    expect_pixels(&f.readback[0], "3 frames in one command buffer");
    expect_no_messages(&f, "after 3 frames");

    /* A fourth frame, its own submission, into the second buffer. */
    poison(&f.readback[0]);
    poison(&f.readback[1]);
    r = rg_buffer_set_buffer(f.graph, f.out, &(rg_import_buffer){ .buffer = f.readback[1].buffer, .size = W * H * 4,
                                                                  .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT });
    cr_assert_eq(r, RG_SUCCESS, "rg_buffer_set_buffer: %s", rg_graph_error_message(f.graph));
    run(&f, 1);
    expect_pixels(&f.readback[1], "a 4th frame, its own submission, into the second buffer");
    for (uint32_t i = 0; i < W * H; i++)
        if (f.readback[0].mapped[i] != POISON)
            cr_assert_fail("the first buffer was written after rg_buffer_set_buffer (word %u)", i);
    expect_no_messages(&f, "after the 4th frame");

    vkDeviceWaitIdle(f.d.device);
    rg_graph_destroy(f.graph);
    rg_device_destroy(f.device);
    destroy_objects(&f);
    /* The layer reports objects still alive on the device here: anything
     * the graph made and did not destroy. */
    test_raw_device_destroy_device(&f.d);
    expect_no_messages(&f, "after destroying the graph, the rg_device and the device");
    test_raw_device_destroy_instance(&f.d);
}
