/* Loud mistakes on a device: a record callback gets the Vulkan objects of
 * what its command declared (and a draw those of its span's attachments),
 * VK_NULL_HANDLE and a message naming the command and the resource for
 * anything else, everything in lenient mode or from a context without a
 * command; and one-aspect copies of a depth+stencil texture, read back
 * exactly. */
#include "device_fixture.h"
#include "test_chunks.h"
#include "rg_support.h"
#include "rg_spy.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <string.h>

TestSuite(rg_strict, .init = device_setup, .fini = device_teardown);

#define W 16
#define H 16
#define CLEAR VK_ATTACHMENT_LOAD_OP_CLEAR
#define STORE VK_ATTACHMENT_STORE_OP_STORE

/* ------------------------------------------------------- record access */

/* What the draw's callback got. */
typedef struct peek {
    rg_texture color, sampled, secret;
    rg_buffer hidden;
    VkImageView color_view, sampled_view, secret_view;
    VkImage color_image, secret_image;
    VkBuffer hidden_buffer;
    bool fail_on_null;                /* return false when the secret is refused */
} peek;

static bool peek_record(const rg_record_context *rc, void *user)
{
    peek *p = user;
    p->color_view = rg_record_view(rc, p->color);
    p->color_image = rg_record_image(rc, p->color);
    p->sampled_view = rg_record_view(rc, p->sampled);
    p->hidden_buffer = rg_record_buffer(rc, p->hidden);
    p->secret_image = rg_record_image(rc, p->secret);
    p->secret_view = rg_record_view(rc, p->secret);
    return !(p->fail_on_null && p->secret_image == VK_NULL_HANDLE);
}

/* A span into 'color' whose draw 'peek' declares a sampled read of
 * 'sampled' and nothing of 'secret' or 'hidden', which other commands
 * write. */
static rg_graph *peek_graph(peek *p, bool lenient)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "strict", .device = eng_context_graph_device(test_ctx),
                                                   .no_culling = true, .lenient_record_access = lenient }, &g),
                 RG_SUCCESS);
    rg_texture_desc td = { .format = VK_FORMAT_R8G8B8A8_UNORM, .width = W, .height = H };
    p->color = test_texture_named(g, td, "color");
    p->sampled = test_texture_named(g, td, "sampled");
    p->secret = test_texture_named(g, td, "secret");
    p->hidden = rg_buffer_create(g, &(rg_buffer_desc){ .name = "hidden", .size = 256 });
    VkClearValue zero = { 0 };
    rg_cmd_clear_texture(g, p->sampled, NULL, &zero);
    rg_cmd_clear_texture(g, p->secret, NULL, &zero);
    rg_cmd_user(g, &(rg_user_desc){ .name = "fill hidden", .accesses = (rg_access[]){ { .buffer = p->hidden,
                                        .usage = RG_USAGE_TRANSFER_DST } }, .access_count = 1,
                                    .record = test_record_nothing });
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "pass", .color_count = 1,
                                                .colors = { { .texture = p->color, .load = CLEAR, .store = STORE } } });
    rg_cmd_user(g, &(rg_user_desc){ .name = "peek", .kind = RG_COMMAND_DRAW, .record = peek_record, .user = p,
                                    .accesses = (rg_access[]){ { .texture = p->sampled, .whole = true,
                                                                 .usage = RG_USAGE_SAMPLED_FRAGMENT } },
                                    .access_count = 1 });
    rg_end_rendering(g);
    test_compile(g);
    return g;
}

DEVICE_TEST(rg_strict, an_undeclared_texture_is_refused_and_execute_names_it)
{
    peek p = { .fail_on_null = true };
    rg_graph *g = peek_graph(&p, false);
    cr_expect_eq(test_execute_once(g), RG_ERROR_CALLBACK);
    cr_expect_eq(p.secret_view, VK_NULL_HANDLE);
    cr_expect_eq(p.secret_image, VK_NULL_HANDLE);
    cr_expect_eq(p.hidden_buffer, VK_NULL_HANDLE);
    const char *m = rg_graph_error_message(g);
    cr_expect(strstr(m, "rg_record_view: command 'peek' did not declare texture 'secret'") != NULL, "%s", m);
    cr_expect(strstr(m, "failed to record") != NULL, "%s", m);
    rg_graph_destroy(g);
}

/* g executed once (asserted to succeed); its context without a command,
 * against which the tests check what the peek saw. */
static const rg_record_context *peek_executed(rg_graph *g)
{
    cr_expect_eq(test_execute_once(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    const rg_record_context *any = rg_record_context_get(g, VK_NULL_HANDLE);
    cr_assert_not_null(any);
    return any;
}

/* Its own declared read and its span's attachment are handed out: the
 * same objects a context without a command gives. */
DEVICE_TEST(rg_strict, declared_resources_and_the_spans_attachments_are_allowed)
{
    peek p = { 0 };
    rg_graph *g = peek_graph(&p, false);
    const rg_record_context *any = peek_executed(g);
    cr_expect_neq(p.color_view, VK_NULL_HANDLE);
    cr_expect_eq(p.color_view, rg_record_view(any, p.color));
    cr_expect_eq(p.color_image, rg_record_image(any, p.color));
    cr_expect_eq(p.sampled_view, rg_record_view(any, p.sampled));
    cr_expect_eq(p.secret_image, VK_NULL_HANDLE);
    /* A context without a command is a tool's: lenient. */
    cr_expect_neq(rg_record_image(any, p.secret), VK_NULL_HANDLE);
    cr_expect_neq(rg_record_buffer(any, p.hidden), VK_NULL_HANDLE);
    rg_graph_destroy(g);
}

DEVICE_TEST(rg_strict, lenient_mode_hands_out_anything)
{
    peek p = { .fail_on_null = true };
    rg_graph *g = peek_graph(&p, true);
    const rg_record_context *any = peek_executed(g);
    cr_expect_neq(p.secret_image, VK_NULL_HANDLE);
    cr_expect_eq(p.secret_image, rg_record_image(any, p.secret));
    cr_expect_eq(p.hidden_buffer, rg_record_buffer(any, p.hidden));
    rg_graph_destroy(g);
}

/* ------------------------------------------------------- error codes */

/* A graph compiled for a compute queue its device was not given: what the
 * device lacks is RG_ERROR_UNSUPPORTED at placement, naming the queue. */
DEVICE_TEST(rg_strict, a_queue_the_device_lacks_is_unsupported)
{
    rg_device_desc dd = test_spy_desc(NULL, false);
    rg_device *dev = test_spy_device(&dd);
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){ .name = "no compute", .device = dev, .no_culling = true,
                                                   .caps = &(rg_device_caps){ .compute_queue = true } }, &g),
                 RG_SUCCESS);
    rg_buffer b = rg_buffer_create(g, &(rg_buffer_desc){ .name = "out", .size = 256 });
    rg_access write = { .buffer = b, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE };
    rg_cmd_user(g, &(rg_user_desc){ .name = "async", .queue = RG_QUEUE_COMPUTE, .record = test_record_nothing,
                                    .accesses = &write, .access_count = 1 });
    test_compile(g);
    cr_expect_eq(rg_place(g), RG_ERROR_UNSUPPORTED, "%s", rg_graph_error_message(g));
    cr_expect(strstr(rg_graph_error_message(g), "compute queue") != NULL, "%s", rg_graph_error_message(g));
    rg_graph_destroy(g);
    rg_device_destroy(dev);
}

/* -------------------------------------------------------- aspect copies */

static bool depth_stencil_copyable(VkFormat format)
{
    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(eng_context_physical_device(test_ctx), format, &fp);
    VkFormatFeatureFlags need = VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
                                VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    return (fp.optimalTilingFeatures & need) == need;
}

/* D32_SFLOAT_S8_UINT where the device has it, else D24_UNORM_S8_UINT. */
static VkFormat depth_stencil_format(void)
{
    if (depth_stencil_copyable(VK_FORMAT_D32_SFLOAT_S8_UINT))
        return VK_FORMAT_D32_SFLOAT_S8_UINT;
    if (depth_stencil_copyable(VK_FORMAT_D24_UNORM_S8_UINT))
        return VK_FORMAT_D24_UNORM_S8_UINT;
    cr_skip_test("no depth+stencil format with copies");
    return VK_FORMAT_UNDEFINED;
}

/* The depth a buffer copy of `format` holds for clear value 1.0. */
static bool depth_is_one(VkFormat format, const uint32_t *texel)
{
    if (format == VK_FORMAT_D24_UNORM_S8_UINT)
        return (*texel & 0xFFFFFFu) == 0xFFFFFFu;
    float f;
    memcpy(&f, texel, sizeof f);
    return f == 1.0f;
}

/* The aspect tests' depth+stencil texture, W x H. */
static rg_texture ds_texture(rg_graph *g, VkFormat format)
{
    return rg_texture_create(g, &(rg_texture_desc){ .name = "ds", .format = format, .width = W, .height = H });
}

/* A span clears depth to 1.0 and stencil to 7 and stores both; each
 * aspect is copied into its own buffer: 4 bytes of depth and 1 of stencil
 * per texel. */
DEVICE_TEST(rg_strict, depth_and_stencil_copy_to_buffers_one_aspect_each)
{
    VkFormat format = depth_stencil_format();
    eng_buffer *depth_bytes = test_host_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    eng_buffer *stencil_bytes = test_host_buffer(W * H, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_graph *g = test_device_graph("aspect copies");
    rg_texture ds = ds_texture(g, format);
    rg_buffer db = test_import_buffer(g, "depth bytes", depth_bytes, true);
    rg_buffer sb = test_import_buffer(g, "stencil bytes", stencil_bytes, true);
    rg_begin_rendering(g, &(rg_rendering_desc){ .name = "clear ds",
                                                .depth = { .texture = ds, .load = CLEAR, .store = STORE,
                                                           .clear.depthStencil = { 1.0f, 7 } } });
    rg_end_rendering(g);
    rg_cmd_copy_texture_aspect_to_buffer(g, ds, VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1, db, 0);
    rg_cmd_copy_texture_aspect_to_buffer(g, ds, VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1, sb, 0);
    test_compile(g);
    test_run(g, 1);
    const uint32_t *d = eng_buffer_mapped(depth_bytes);
    const uint8_t *s = eng_buffer_mapped(stencil_bytes);
    uint32_t wrong_depth = 0, wrong_stencil = 0;
    for (uint32_t i = 0; i < W * H; i++) {
        wrong_depth += !depth_is_one(format, &d[i]);
        wrong_stencil += s[i] != 7;
    }
    cr_expect_eq(wrong_depth, 0u, "texels whose depth is not 1.0 (first 0x%08x)", d[0]);
    cr_expect_eq(wrong_stencil, 0u, "texels whose stencil is not 7 (first %u)", s[0]);
    rg_graph_destroy(g);
    eng_buffer_destroy(depth_bytes);
    eng_buffer_destroy(stencil_bytes);
}

/* The other direction: a buffer fills the stencil aspect, which is then
 * copied out again byte for byte. */
DEVICE_TEST(rg_strict, a_buffer_fills_the_stencil_aspect)
{
    VkFormat format = depth_stencil_format();
    uint8_t pattern[W * H];
    for (uint32_t i = 0; i < W * H; i++)
        pattern[i] = (uint8_t)(i * 7 + 3);
    rg_graph *g = test_device_graph("stencil upload");
    rg_texture ds = ds_texture(g, format);
    eng_buffer *up = test_host_buffer(W * H, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, pattern);
    eng_buffer *down = test_host_buffer(W * H, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    rg_buffer ub = test_import_buffer(g, "up", up, false);
    rg_buffer db = test_import_buffer(g, "down", down, true);
    rg_cmd_copy_buffer_to_texture_aspect(g, ub, 0, ds, VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1);
    rg_cmd_copy_texture_aspect_to_buffer(g, ds, VK_IMAGE_ASPECT_STENCIL_BIT, 0, 0, 1, db, 0);
    test_compile(g);
    test_run(g, 1);
    cr_expect_eq(memcmp(eng_buffer_mapped(down), pattern, sizeof pattern), 0, "the stencil bytes came back changed");
    rg_graph_destroy(g);
    eng_buffer_destroy(up);
    eng_buffer_destroy(down);
}

/* A buffer over the device's maxBufferSize is refused at placement by
 * name and size, before a driver could report it as 0 bytes; nothing is
 * created. */
DEVICE_TEST(rg_strict, a_buffer_over_max_buffer_size_is_unsupported_by_name)
{
    VkPhysicalDeviceMaintenance4Properties m4 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES };
    VkPhysicalDeviceProperties2 p2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &m4 };
    vkGetPhysicalDeviceProperties2(eng_context_physical_device(test_ctx), &p2);
    cr_assert_gt(m4.maxBufferSize, 0);
    rg_graph *g = test_device_graph("limits");
    rg_buffer huge = rg_buffer_create(g, &(rg_buffer_desc){ .name = "huge", .size = m4.maxBufferSize + 1 });
    rg_access w = { .buffer = huge, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE };
    rg_cmd_user(g, &(rg_user_desc){ .name = "fill", .accesses = &w, .access_count = 1, .record = test_record_nothing,
                                     .side_effects = true });
    test_compile(g);
    cr_expect_eq(rg_place(g), RG_ERROR_UNSUPPORTED);
    const char *m = rg_graph_error_message(g);
    cr_expect(strstr(m, "buffer 'huge' is ") && strstr(m, "over the device's maxBufferSize"), "%s", m);
    rg_graph_destroy(g);
}
