/* Memory budget, buffers (upload and copy back), textures from files. */
#include "device_fixture.h"
#include "test_barrier.h"

#include <criterion/criterion.h>
#include <engine_files/engine_files.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TestSuite(resources, .init = device_setup, .fini = device_teardown);

#define HV_HC (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)

DEVICE_TEST(resources, memory_budget)
{
    eng_memory_budget b;
    memset(&b, 0xCD, sizeof b);
    cr_assert_eq(eng_memory_budget_query(test_ctx, &b), ENG_SUCCESS, "%s", eng_last_error());
    /* Available exactly when VK_EXT_memory_budget is on: lavapipe has no
     * such extension, and "unavailable" must not read as 0 bytes used. */
    cr_expect_eq(b.available, eng_context_has_memory_budget(test_ctx));
    const VkPhysicalDeviceMemoryProperties *mp = eng_context_memory_properties(test_ctx);
    cr_assert_eq(b.heap_count, mp->memoryHeapCount);
    for (uint32_t i = 0; i < b.heap_count; i++)
        cr_expect_eq(b.heap_size[i], mp->memoryHeaps[i].size, "heap %u", i);
    if (!b.available) {
        for (uint32_t i = 0; i < b.heap_count; i++)
            cr_expect(b.usage[i] == 0 && b.budget[i] == 0, "heap %u: unavailable means no numbers", i);
        return;
    }
    /* With the extension: a 64 MiB device-local buffer's heap does not
     * report less usage afterwards. Drivers may account lazily or in large
     * blocks, and other processes share the heap, so growth itself is not
     * asserted: only that usage is plausible and never shrinks here. */
    for (uint32_t i = 0; i < b.heap_count; i++)
        cr_expect_gt(b.budget[i], 0, "heap %u has a budget", i);
    eng_buffer_desc d = { .name = "budget probe", .size = 64u << 20, .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT };
    eng_buffer *buf = NULL;
    cr_assert_eq(eng_buffer_create(test_ctx, &d, &buf), ENG_SUCCESS, "%s", eng_last_error());
    uint32_t heap = mp->memoryTypes[eng_buffer_memory_type(buf)].heapIndex;
    eng_memory_budget after;
    cr_assert_eq(eng_memory_budget_query(test_ctx, &after), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect(after.available);
    cr_expect_geq(after.usage[heap], b.usage[heap], "heap %u usage went from %llu to %llu", heap,
                  (unsigned long long)b.usage[heap], (unsigned long long)after.usage[heap]);
    eng_buffer_destroy(buf);
}

typedef struct copy_job {
    VkBuffer src, dst;
    VkDeviceSize size;
} copy_job;

static void record_copy(VkCommandBuffer cmd, void *user)
{
    const copy_job *j = user;
    /* The source was written by earlier submissions (or by the host before
     * this one, which submission makes visible). */
    test_memory_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT, 0);
    VkBufferCopy region = { 0, 0, j->size };
    vkCmdCopyBuffer(cmd, j->src, j->dst, 1, &region);
    test_memory_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT, 0);
}

/* Copies src's first size bytes into a fresh host-visible buffer on the
 * device and returns them (free() them). */
static uint8_t *read_back(eng_buffer *src, size_t size)
{
    eng_buffer_desc d = { .name = "readback", .size = size, .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                          .memory = HV_HC };
    eng_buffer *dst = NULL;
    cr_assert_eq(eng_buffer_create(test_ctx, &d, &dst), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_not_null(eng_buffer_mapped(dst), "HOST_VISIBLE buffers are mapped");
    memset(eng_buffer_mapped(dst), 0xEE, size);
    copy_job j = { eng_buffer_handle(src), eng_buffer_handle(dst), size };
    cr_assert_eq(eng_context_submit_once(test_ctx, record_copy, &j), ENG_SUCCESS, "%s", eng_last_error());
    uint8_t *out = malloc(size);
    cr_assert_not_null(out);
    memcpy(out, eng_buffer_mapped(dst), size);
    eng_buffer_destroy(dst);
    return out;
}

static void fill(uint8_t *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)((i * 131u + seed * 7u + (i >> 8)) & 0xFF);
}

DEVICE_TEST(resources, buffer_device_local_with_data)
{
    enum { N = 12345 };
    static uint8_t data[N];
    fill(data, N, 1);
    eng_buffer *buf = NULL;
    eng_result r = eng_buffer_create_with_data(test_ctx, "vertices", VK_BUFFER_USAGE_VERTEX_BUFFER_BIT |
                                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT, data, N, &buf);
    cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(eng_buffer_size(buf), N);
    const VkPhysicalDeviceMemoryProperties *mp = eng_context_memory_properties(test_ctx);
    uint32_t type = eng_buffer_memory_type(buf);
    cr_assert_lt(type, mp->memoryTypeCount);
    cr_expect(mp->memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    cr_expect_not(mp->memoryTypes[type].propertyFlags & VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT);
    uint8_t *got = read_back(buf, N);
    cr_expect_eq(memcmp(got, data, N), 0, "contents differ");
    free(got);

    /* A partial upload at an offset (through a staging buffer where the
     * memory is not mapped, a memcpy where it is, as on lavapipe). */
    static uint8_t patch[1000];
    fill(patch, sizeof patch, 2);
    cr_assert_eq(eng_buffer_upload(test_ctx, buf, 4000, patch, sizeof patch), ENG_SUCCESS, "%s", eng_last_error());
    memcpy(data + 4000, patch, sizeof patch);
    got = read_back(buf, N);
    cr_expect_eq(memcmp(got, data, N), 0, "contents differ after the partial upload");
    free(got);

    /* Past the end: refused, nothing written. */
    r = eng_buffer_upload(test_ctx, buf, N - 10, patch, 11);
    cr_expect_eq(r, ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_neq(strstr(eng_last_error(), "vertices"), NULL, "'%s'", eng_last_error());
    cr_expect_eq(eng_buffer_upload(test_ctx, buf, N + 1, patch, 1), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(eng_buffer_upload(test_ctx, buf, 0, patch, 0), ENG_ERROR_INVALID_ARGUMENT);
    got = read_back(buf, N);
    cr_expect_eq(memcmp(got, data, N), 0, "a refused upload changed the contents");
    free(got);
    eng_buffer_destroy(buf);
}

DEVICE_TEST(resources, buffer_host_visible)
{
    enum { N = 4096 };
    static uint8_t data[N];
    fill(data, N, 3);
    eng_buffer_desc d = { .name = "staging", .size = N, .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT, .memory = HV_HC };
    eng_buffer *buf = NULL;
    cr_assert_eq(eng_buffer_create(test_ctx, &d, &buf), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_not_null(eng_buffer_mapped(buf));
    const VkPhysicalDeviceMemoryProperties *mp = eng_context_memory_properties(test_ctx);
    cr_expect_eq(mp->memoryTypes[eng_buffer_memory_type(buf)].propertyFlags & HV_HC, HV_HC);
    cr_expect_neq(eng_buffer_handle(buf), VK_NULL_HANDLE);
    cr_assert_eq(eng_buffer_upload(test_ctx, buf, 0, data, N), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(memcmp(eng_buffer_mapped(buf), data, N), 0, "the mapping shows the upload");
    uint8_t *got = read_back(buf, N);
    cr_expect_eq(memcmp(got, data, N), 0);
    free(got);
    /* Writes through the mapping reach the device too. */
    memset((uint8_t *)eng_buffer_mapped(buf) + 100, 0x5A, 50);
    memset(data + 100, 0x5A, 50);
    got = read_back(buf, N);
    cr_expect_eq(memcmp(got, data, N), 0);
    free(got);
    eng_buffer_destroy(buf);
}

DEVICE_TEST(resources, texture_from_png)
{
    enum { TW = 8, TH = 4 };
    uint8_t px[TW * TH * 4];
    for (int i = 0; i < TW * TH; i++) {
        px[i * 4 + 0] = (uint8_t)(i * 8);
        px[i * 4 + 1] = (uint8_t)(255 - i * 8);
        px[i * 4 + 2] = (uint8_t)(i & 1 ? 255 : 0);
        px[i * 4 + 3] = 255;
    }
    char path[512];
    test_temp_path(path, sizeof path, "texture.png");
    cr_assert_eq(eng_write_png(path, TW, TH, px), ENG_SUCCESS, "%s", eng_last_error());
    eng_image *tex = NULL;
    eng_result r = eng_texture_load(test_ctx, path, &tex);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    const eng_image_info *info = eng_image_get_info(tex);
    cr_expect_eq(info->format, VK_FORMAT_R8G8B8A8_SRGB);
    cr_expect_eq(info->extent.width, TW);
    cr_expect_eq(info->extent.height, TH);
    cr_expect_eq(info->mip_levels, 1);
    cr_expect_eq(info->samples, VK_SAMPLE_COUNT_1_BIT);
    cr_expect(info->usage & VK_IMAGE_USAGE_SAMPLED_BIT);
    cr_expect_not(info->usage & VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT);
    cr_expect_not(eng_image_is_lazy(tex));
    cr_expect_str_eq(info->name, path, "a texture is named after its file");
    cr_expect_neq(info->view, VK_NULL_HANDLE);
    eng_image_destroy(tex);
    remove(path);
}

DEVICE_TEST(resources, texture_errors)
{
    const char *missing = "/nonexistent-dir-vkg/no-such-texture.png";
    eng_image *tex = (eng_image *)(uintptr_t)1;
    eng_result r = eng_texture_load(test_ctx, missing, &tex);
    cr_expect_eq(r, ENG_ERROR_IO, "%s", eng_result_string(r));
    cr_expect_null(tex);
    cr_expect_neq(strstr(eng_last_error(), missing), NULL, "'%s' names the path", eng_last_error());

    /* Not an image file. */
    char path[512];
    test_temp_path(path, sizeof path, "not-a.png");
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f);
    fputs("this is not a PNG file", f);
    fclose(f);
    tex = (eng_image *)(uintptr_t)1;
    r = eng_texture_load(test_ctx, path, &tex);
    cr_expect_eq(r, ENG_ERROR_IO, "%s", eng_result_string(r));
    cr_expect_null(tex);
    cr_expect_neq(strstr(eng_last_error(), path), NULL, "'%s' names the path", eng_last_error());
    remove(path);

    uint8_t px[4] = { 1, 2, 3, 4 };
    r = eng_write_png("/nonexistent-dir-vkg/out.png", 1, 1, px);
    cr_expect_eq(r, ENG_ERROR_IO, "%s", eng_result_string(r));
    cr_expect_neq(strstr(eng_last_error(), "/nonexistent-dir-vkg/out.png"), NULL, "'%s'", eng_last_error());
    cr_expect_eq(eng_write_png(path, 0, 1, px), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(eng_write_png(path, 1, 1, NULL), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(eng_write_png(NULL, 1, 1, px), ENG_ERROR_INVALID_ARGUMENT);
}

/* Upload to an image and read it back: the texel path the texture loader
 * uses, checked byte for byte on an image that allows TRANSFER_SRC. */
DEVICE_TEST(resources, image_upload_read)
{
    enum { IW = 16, IH = 8 };
    uint8_t px[IW * IH * 4], got[IW * IH * 4];
    fill(px, sizeof px, 4);
    eng_image_desc d = { .name = "roundtrip", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = IW, .height = IH,
                         .usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                                  VK_IMAGE_USAGE_TRANSFER_SRC_BIT };
    eng_image *img = NULL;
    cr_assert_eq(eng_image_create(test_ctx, &d, &img), ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(eng_image_upload(test_ctx, img, px, sizeof px, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL),
                 ENG_SUCCESS, "%s", eng_last_error());
    memset(got, 0, sizeof got);
    cr_assert_eq(eng_image_read(test_ctx, img, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, got, sizeof got),
                 ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(memcmp(px, got, sizeof px), 0);
    /* Wrong sizes are refused, naming the image. */
    cr_expect_eq(eng_image_upload(test_ctx, img, px, sizeof px - 4, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL),
                 ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_neq(strstr(eng_last_error(), "roundtrip"), NULL, "'%s'", eng_last_error());
    cr_expect_eq(eng_image_read(test_ctx, img, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, got, sizeof got + 4),
                 ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(eng_image_read(test_ctx, img, VK_IMAGE_LAYOUT_UNDEFINED, got, sizeof got),
                 ENG_ERROR_INVALID_ARGUMENT);
    eng_image_destroy(img);
}
