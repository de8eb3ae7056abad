/* Names in every tool (rg_device_desc.debug_utils): on a device whose
 * application enabled VK_EXT_debug_utils, every object a graph creates is
 * named after its resource or role, each batch, span and command it
 * records is wrapped in one debug label named after it, balanced on every
 * command buffer (also when a callback fails inside a span), and so the
 * validation layer's messages name the graph's resources.
 *
 * The rg_device here is made over the fixture's device with a
 * get_instance_proc_addr that hands out spies for the three debug-utils
 * functions: they log each call and pass it on to the real one. */
#include "device_fixture.h"
#include "rg_support.h"
#include "rg_spy.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdio.h>
#include <string.h>

TestSuite(rg_names, .init = device_setup, .fini = device_teardown);

#define MAX_BATCHES 8u
#define MAX_NAMES 64u
#define MAX_EVENTS 128u
#define WAIT_NS 10000000000ull

/* ----------------------------------------------------------------- spies */

typedef struct named {
    VkObjectType type;
    uint64_t handle;
    char name[96];
} named;

typedef struct label_event {
    VkCommandBuffer cmd;
    bool begin;
    char name[96];
} label_event;

static struct {
    PFN_vkSetDebugUtilsObjectNameEXT set_name;
    PFN_vkCmdBeginDebugUtilsLabelEXT begin;
    PFN_vkCmdEndDebugUtilsLabelEXT end;
    named names[MAX_NAMES];
    uint32_t name_count;
    label_event events[MAX_EVENTS];
    uint32_t event_count;
} spy;

static VkResult VKAPI_CALL spy_set_name(VkDevice dev, const VkDebugUtilsObjectNameInfoEXT *info)
{
    if (spy.name_count < MAX_NAMES) {
        named *n = &spy.names[spy.name_count++];
        n->type = info->objectType;
        n->handle = info->objectHandle;
        snprintf(n->name, sizeof n->name, "%s", info->pObjectName ? info->pObjectName : "");
    }
    return spy.set_name(dev, info);
}

static void log_event(VkCommandBuffer cmd, bool begin, const char *name)
{
    cr_assert_lt(spy.event_count, MAX_EVENTS);
    label_event *e = &spy.events[spy.event_count++];
    e->cmd = cmd;
    e->begin = begin;
    snprintf(e->name, sizeof e->name, "%s", name ? name : "");
}

static void VKAPI_CALL spy_begin(VkCommandBuffer cmd, const VkDebugUtilsLabelEXT *label)
{
    log_event(cmd, true, label->pLabelName);
    spy.begin(cmd, label);
}

static void VKAPI_CALL spy_end(VkCommandBuffer cmd)
{
    log_event(cmd, false, NULL);
    spy.end(cmd);
}

/* The fixture's device with the spies and every queue the context has;
 * debug_utils as given (the fixture's validation enabled the extension);
 * hide_set_name: get_instance_proc_addr has no vkSetDebugUtilsObjectNameEXT. */
static rg_device_desc spy_desc(bool debug_utils, bool hide_set_name)
{
    static const test_spy spies[] = {
        { "vkSetDebugUtilsObjectNameEXT", (PFN_vkVoidFunction)spy_set_name },
        { "vkCmdBeginDebugUtilsLabelEXT", (PFN_vkVoidFunction)spy_begin },
        { "vkCmdEndDebugUtilsLabelEXT", (PFN_vkVoidFunction)spy_end },
    };
    static const test_spy without_set_name[] = {
        { "vkSetDebugUtilsObjectNameEXT", NULL },
        { "vkCmdBeginDebugUtilsLabelEXT", (PFN_vkVoidFunction)spy_begin },
        { "vkCmdEndDebugUtilsLabelEXT", (PFN_vkVoidFunction)spy_end },
    };
    static const test_spies shown = { .instance = spies, .instance_count = 3 };
    static const test_spies hidden = { .instance = without_set_name, .instance_count = 3 };
    memset(&spy, 0, sizeof spy);
    spy.set_name = (PFN_vkSetDebugUtilsObjectNameEXT)test_real_instance_proc("vkSetDebugUtilsObjectNameEXT");
    spy.begin = (PFN_vkCmdBeginDebugUtilsLabelEXT)test_real_instance_proc("vkCmdBeginDebugUtilsLabelEXT");
    spy.end = (PFN_vkCmdEndDebugUtilsLabelEXT)test_real_instance_proc("vkCmdEndDebugUtilsLabelEXT");
    rg_device_desc d = test_spy_desc(hide_set_name ? &hidden : &shown, true);
    d.timeline_semaphore = true;
    d.debug_utils = debug_utils;
    return d;
}

static rg_device *spy_device(void)
{
    rg_device_desc d = spy_desc(true, false);
    return test_spy_device(&d);
}

static const named *find_name(VkObjectType type, const char *name)
{
    for (uint32_t i = 0; i < spy.name_count; i++)
        if (spy.names[i].type == type && strcmp(spy.names[i].name, name) == 0)
            return &spy.names[i];
    return NULL;
}

static const named *find_prefix(VkObjectType type, const char *prefix)
{
    for (uint32_t i = 0; i < spy.name_count; i++)
        if (spy.names[i].type == type && strncmp(spy.names[i].name, prefix, strlen(prefix)) == 0)
            return &spy.names[i];
    return NULL;
}

/* ----------------------------------------------------------------- graph */

static bool fail_record(const rg_record_context *rc, void *user)
{
    (void)rc;
    (void)user;
    return false;
}

/* A span "scene" of two draws into mip 1 of "ao raw", a compute command
 * (on the compute queue where the device has one) writing "scratch", and
 * an outside command reading it. fail_b: "draw b" fails to record. */
static rg_graph *declare(rg_device *dev, bool fail_b)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "names", .device = dev, .no_culling = true }, &g),
                 RG_SUCCESS);
    rg_texture ao = rg_texture_create(g, &(rg_texture_desc){ .name = "ao raw", .width = 32, .height = 32,
                                                            .mip_levels = 2, .format = VK_FORMAT_R8G8B8A8_UNORM });
    rg_buffer scratch = rg_buffer_create(g, &(rg_buffer_desc){ .name = "scratch", .size = 1024 });
    rg_begin_rendering(g, &(rg_rendering_desc){
        .name = "scene", .color_count = 1,
        .colors = { { .texture = ao, .mip = 1, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                      .store = VK_ATTACHMENT_STORE_OP_STORE } } });
    rg_cmd_user(g, &(rg_user_desc){ .name = "draw a", .kind = RG_COMMAND_DRAW, .record = test_record_nothing });
    rg_cmd_user(g, &(rg_user_desc){ .name = "draw b", .kind = RG_COMMAND_DRAW,
                                    .record = fail_b ? fail_record : test_record_nothing });
    rg_end_rendering(g);
    rg_access write = { .buffer = scratch, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE };
    rg_cmd_user(g, &(rg_user_desc){ .name = "compute", .kind = RG_COMMAND_OUTSIDE, .accesses = &write,
                                    .access_count = 1, .record = test_record_nothing, .queue = RG_QUEUE_COMPUTE });
    rg_access read = { .buffer = scratch, .usage = RG_USAGE_STORAGE_READ_COMPUTE };
    rg_cmd_user(g, &(rg_user_desc){ .name = "outside", .kind = RG_COMMAND_OUTSIDE, .accesses = &read,
                                    .access_count = 1, .record = test_record_nothing });
    test_compile(g);
    return g;
}

/* Command buffers of one frame, one per batch from a pool of its queue's
 * family; res: what rg_execute_batches returned. */
typedef struct frame {
    VkDevice dev;
    VkCommandPool pools[RG_QUEUE_COUNT];
    VkCommandBuffer cmds[MAX_BATCHES];
    rg_queue queues[MAX_BATCHES];
    uint32_t count;
    rg_submit_plan plan;
    rg_result res;
} frame;

static void record_frame(frame *f, rg_graph *g)
{
    memset(f, 0, sizeof *f);
    f->dev = eng_context_device(test_ctx);
    test_queue_pools(f->dev, f->pools);
    f->count = rg_batch_count(g);
    cr_assert(f->count >= 1 && f->count <= MAX_BATCHES, "%u batches", f->count);
    for (uint32_t i = 0; i < f->count; i++) {
        rg_batch_info b;
        cr_assert_eq(rg_batch_get(g, i, &b), RG_SUCCESS);
        f->queues[i] = b.queue;
        VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                           .commandPool = f->pools[b.queue], .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                           .commandBufferCount = 1 };
        cr_assert_eq(vkAllocateCommandBuffers(f->dev, &ai, &f->cmds[i]), VK_SUCCESS);
        VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
        cr_assert_eq(vkBeginCommandBuffer(f->cmds[i], &bi), VK_SUCCESS);
    }
    f->res = rg_execute_batches(g, f->cmds, &f->plan);
    for (uint32_t i = 0; i < f->count; i++)
        cr_assert_eq(vkEndCommandBuffer(f->cmds[i]), VK_SUCCESS);
}

static void submit_and_wait(frame *f, rg_graph *g)
{
    VkFence fence;
    VkFenceCreateInfo fi = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    cr_assert_eq(vkCreateFence(f->dev, &fi, NULL, &fence), VK_SUCCESS);
    rg_result r = rg_submit(g, &f->plan, &(rg_submit_desc){ .fence = fence });
    cr_assert_eq(r, RG_SUCCESS, "rg_submit: %s", rg_graph_error_message(g));
    cr_assert_eq(vkWaitForFences(f->dev, 1, &fence, VK_TRUE, WAIT_NS), VK_SUCCESS);
    vkDestroyFence(f->dev, fence, NULL);
    vkDeviceWaitIdle(f->dev);
}

static void close_frame(frame *f)
{
    test_queue_pools_destroy(f->dev, f->pools);
}

/* The labels on cmd, in order, open and close in pairs. */
static void check_balanced(VkCommandBuffer cmd, uint32_t batch)
{
    int depth = 0;
    uint32_t seen = 0;
    for (uint32_t i = 0; i < spy.event_count; i++) {
        const label_event *e = &spy.events[i];
        if (e->cmd != cmd)
            continue;
        seen++;
        depth += e->begin ? 1 : -1;
        cr_expect_geq(depth, 0, "batch %u: a label closed that was never opened (event %u)", batch, i);
    }
    cr_expect_eq(depth, 0, "batch %u: %d labels left open", batch, depth);
    cr_expect_gt(seen, 0, "batch %u: no labels", batch);
}

/* Where a label named `name` was opened: its command buffer and depth
 * (1: inside the batch's); how often it was opened in all. */
static uint32_t label_opened(const char *name, VkCommandBuffer *cmd, int *depth_at)
{
    uint32_t count = 0;
    for (uint32_t i = 0; i < spy.event_count; i++) {
        const label_event *e = &spy.events[i];
        if (!e->begin || strcmp(e->name, name) != 0)
            continue;
        count++;
        int depth = 0;
        for (uint32_t j = 0; j < i; j++)
            if (spy.events[j].cmd == e->cmd)
                depth += spy.events[j].begin ? 1 : -1;
        *cmd = e->cmd;
        *depth_at = depth;
    }
    return count;
}

static uint32_t batch_of(const frame *f, VkCommandBuffer cmd)
{
    for (uint32_t i = 0; i < f->count; i++)
        if (f->cmds[i] == cmd)
            return i;
    return UINT32_MAX;
}

/* ----------------------------------------------------------------- tests */

DEVICE_TEST(rg_names, objects_and_labels)
{
    rg_device *dev = spy_device();
    rg_graph *g = declare(dev, false);
    cr_assert_eq(rg_place(g), RG_SUCCESS, "rg_place: %s", rg_graph_error_message(g));

    /* Objects: named after their resource, a view after its part, a pool
     * after what it holds, a timeline after its graph and queue. */
    cr_expect_not_null(find_name(VK_OBJECT_TYPE_IMAGE, "ao raw"));
    cr_expect_not_null(find_name(VK_OBJECT_TYPE_BUFFER, "scratch"));
    cr_expect_not_null(find_name(VK_OBJECT_TYPE_IMAGE_VIEW, "ao raw"));
    cr_expect_not_null(find_name(VK_OBJECT_TYPE_IMAGE_VIEW, "ao raw (mip 1)"));
    const named *pool = find_prefix(VK_OBJECT_TYPE_DEVICE_MEMORY, "pool 0 (");
    const named *own = find_name(VK_OBJECT_TYPE_DEVICE_MEMORY, "ao raw");
    cr_expect(pool || own, "no memory block named");
    cr_expect_not_null(find_name(VK_OBJECT_TYPE_SEMAPHORE, "graph \"names\" graphics timeline"));
    bool compute = rg_batch_count(g) > 1;
    if (compute)
        cr_expect_not_null(find_name(VK_OBJECT_TYPE_SEMAPHORE, "graph \"names\" compute timeline"));
    for (uint32_t i = 0; i < spy.name_count; i++) {
        cr_expect_neq(spy.names[i].handle, 0, "'%s' names no object", spy.names[i].name);
        cr_log_info("named %d 0x%llx '%s'", (int)spy.names[i].type, (unsigned long long)spy.names[i].handle,
                    spy.names[i].name);
    }

    frame f;
    record_frame(&f, g);
    cr_assert_eq(f.res, RG_SUCCESS, "rg_execute_batches: %s", rg_graph_error_message(g));
    submit_and_wait(&f, g);

    /* Every command buffer: its batch's label outermost, all balanced. */
    for (uint32_t b = 0; b < f.count; b++) {
        check_balanced(f.cmds[b], b);
        char want[96];
        snprintf(want, sizeof want, "graph \"names\" batch %u on %s", b, rg_queue_name(f.queues[b]));
        uint32_t first = UINT32_MAX;
        for (uint32_t i = 0; i < spy.event_count && first == UINT32_MAX; i++)
            if (spy.events[i].cmd == f.cmds[b])
                first = i;
        cr_assert_neq(first, UINT32_MAX);
        cr_expect(spy.events[first].begin && strcmp(spy.events[first].name, want) == 0,
                  "batch %u opens with '%s', want '%s'", b, spy.events[first].name, want);
    }
    /* One label per span and command: the span's inside its batch's, the
     * draws inside the span's, the outside commands beside it. */
    static const struct { const char *name; int depth; } units[] = {
        { "scene", 1 }, { "draw a", 2 }, { "draw b", 2 }, { "compute", 1 }, { "outside", 1 },
    };
    for (uint32_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        VkCommandBuffer cmd = VK_NULL_HANDLE;
        int depth = -1;
        cr_expect_eq(label_opened(units[u].name, &cmd, &depth), 1, "label '%s'", units[u].name);
        cr_expect_eq(depth, units[u].depth, "label '%s' opened at depth %d", units[u].name, depth);
        uint32_t b = batch_of(&f, cmd);
        cr_assert_lt(b, f.count, "label '%s' on no batch's command buffer", units[u].name);
        rg_queue want = strcmp(units[u].name, "compute") == 0 && compute ? RG_QUEUE_COMPUTE : RG_QUEUE_GRAPHICS;
        cr_expect_eq(f.queues[b], want, "label '%s' on the %s queue", units[u].name, rg_queue_name(f.queues[b]));
    }
    close_frame(&f);
    rg_graph_destroy(g);
    rg_device_destroy(dev);
}

/* A callback that fails inside the span: the frame is not recorded, yet
 * every label it opened is closed (the rendering instance too). */
DEVICE_TEST(rg_names, labels_balanced_after_failed_callback)
{
    rg_device *dev = spy_device();
    rg_graph *g = declare(dev, true);
    frame f;
    record_frame(&f, g);
    cr_assert_eq(f.res, RG_ERROR_CALLBACK, "rg_execute_batches: %s", rg_result_string(f.res));
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    int depth = -1;
    cr_assert_eq(label_opened("draw b", &cmd, &depth), 1);
    cr_expect_eq(depth, 2);
    check_balanced(cmd, batch_of(&f, cmd));
    for (uint32_t b = 0; b < f.count; b++) {
        int d = 0;
        for (uint32_t i = 0; i < spy.event_count; i++)
            if (spy.events[i].cmd == f.cmds[b])
                d += spy.events[i].begin ? 1 : -1;
        cr_expect_eq(d, 0, "batch %u: %d labels left open", b, d);
    }
    close_frame(&f);
    rg_graph_destroy(g);
    rg_device_destroy(dev);
}

/* Without debug_utils the graph names nothing and labels nothing. */
DEVICE_TEST(rg_names, nothing_without_debug_utils)
{
    rg_device_desc d = spy_desc(false, false);
    rg_device *dev = NULL;
    cr_assert_eq(rg_device_create(&d, &dev), RG_SUCCESS);
    rg_graph *g = declare(dev, false);
    frame f;
    record_frame(&f, g);
    cr_assert_eq(f.res, RG_SUCCESS, "rg_execute_batches: %s", rg_graph_error_message(g));
    submit_and_wait(&f, g);
    cr_expect_eq(spy.name_count, 0, "%u objects named", spy.name_count);
    cr_expect_eq(spy.event_count, 0, "%u label calls", spy.event_count);
    close_frame(&f);
    rg_graph_destroy(g);
    rg_device_destroy(dev);
}

/* debug_utils set where get_instance_proc_addr lacks one of the three
 * functions: refused, naming it. */
static char device_message[256];

static void device_log(void *user, rg_log_level level, const char *object, const char *message)
{
    (void)user;
    (void)level;
    (void)object;
    snprintf(device_message, sizeof device_message, "%s", message);
}

DEVICE_TEST(rg_names, debug_utils_functions_required)
{
    rg_device_desc d = spy_desc(true, true);
    d.log = device_log;
    rg_device *dev = NULL;
    cr_expect_neq(rg_device_create(&d, &dev), RG_SUCCESS);
    cr_expect_null(dev);
    cr_expect(strstr(device_message, "vkSetDebugUtilsObjectNameEXT"), "message: %s", device_message);
    rg_device_destroy(dev);
}

/* ------------------------------------------------------- validation names */

typedef struct captured {
    uint32_t count;
    bool named;                       /* a message named 'ao raw' */
    char first[512];
} captured;

static void capture(void *user, rg_log_level level, const char *object, const char *message)
{
    captured *c = user;
    if (level != RG_LOG_ERROR && level != RG_LOG_WARNING)
        return;
    if (c->count++ == 0)
        snprintf(c->first, sizeof c->first, "[%s] %s", object, message);
    if (strcmp(object, "ao raw") == 0 || strstr(message, "[ao raw]") || strstr(message, "name = ao raw"))
        c->named = true;
}

/* Clears "ao raw", which the graph made for storage only (no
 * TRANSFER_DST usage): invalid use the layer reports at once. */
static bool misuse(const rg_record_context *rc, void *user)
{
    rg_texture t = *(const rg_texture *)user;
    VkClearColorValue black = { { 0 } };
    VkImageSubresourceRange range = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 };
    vkCmdClearColorImage(rg_record_cmd(rc), rg_record_image(rc, t), VK_IMAGE_LAYOUT_GENERAL, &black, 1, &range);
    return true;
}

/* The engine's context enables debug utils with validation and says so to
 * its graph device: the layer's message about a graph's image names the
 * image after its texture. Recorded only, never submitted. */
DEVICE_TEST(rg_names, validation_messages_name_resources)
{
    captured cap = { 0 };
    eng_context *ctx = NULL;
    eng_result er = eng_context_create(&(eng_context_desc){ .app_name = "names", .validation = true, .quiet = true,
                                                            .single_queue = true, .log = capture, .log_user = &cap,
                                                            .get_instance_proc_addr = vkGetInstanceProcAddr },
                                       &ctx);
    cr_assert_eq(er, ENG_SUCCESS, "%s", eng_last_error());
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "misuse", .device = eng_context_graph_device(ctx),
                                                   .no_culling = true }, &g), RG_SUCCESS);
    static rg_texture ao;
    ao = rg_texture_create(g, &(rg_texture_desc){ .name = "ao raw", .width = 16, .height = 16,
                                                  .format = VK_FORMAT_R8G8B8A8_UNORM });
    rg_access write = { .texture = ao, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE, .whole = true };
    rg_cmd_user(g, &(rg_user_desc){ .name = "misuse", .kind = RG_COMMAND_OUTSIDE, .accesses = &write,
                                    .access_count = 1, .record = misuse, .user = &ao });
    test_compile(g);
    VkDevice dev = eng_context_device(ctx);
    VkCommandPool pool;
    VkCommandPoolCreateInfo pi = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .queueFamilyIndex = eng_context_queue_family(ctx) };
    cr_assert_eq(vkCreateCommandPool(dev, &pi, NULL, &pool), VK_SUCCESS);
    VkCommandBuffer cmd;
    VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1 };
    cr_assert_eq(vkAllocateCommandBuffers(dev, &ai, &cmd), VK_SUCCESS);
    VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
    cr_assert_eq(vkBeginCommandBuffer(cmd, &bi), VK_SUCCESS);
    cr_assert_eq(rg_execute(g, cmd), RG_SUCCESS, "rg_execute: %s", rg_graph_error_message(g));
    vkEndCommandBuffer(cmd);
    vkDestroyCommandPool(dev, pool, NULL);
    rg_graph_destroy(g);
    eng_context_destroy(ctx);
    cr_expect_gt(cap.count, 0, "the misuse went unreported");
    cr_expect(cap.named, "no message names 'ao raw'; the first: %s", cap.first);
}
