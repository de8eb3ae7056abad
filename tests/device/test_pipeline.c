/* Pipeline cache files and SPIR-V loading. The suite's other files: test_pipeline_state.c,
 * test_pipeline_compute.c; their helpers: pipeline_support.c. */
#include "device_fixture.h"
#include "pipeline_support.h"
#include "test_chunks.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TestSuite(pipeline, .init = device_setup, .fini = device_teardown);

static void write_file(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    cr_assert_not_null(f, "cannot write %s", path);
    cr_assert_eq(fwrite(data, 1, size, f), size);
    cr_assert_eq(fclose(f), 0);
}

static size_t read_file(const char *path, uint8_t *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot read %s", path);
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    return n;
}

static void make_pipeline(eng_pipeline_cache *cache)
{
    eng_pipeline *p = NULL;
    eng_result r = solid_pipeline_create(test_ctx, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_D32_SFLOAT,
                                         VK_SAMPLE_COUNT_4_BIT, cache, &p);
    cr_assert_eq(r, ENG_SUCCESS, "%s: %s", eng_result_string(r), eng_last_error());
    cr_assert_neq(eng_pipeline_handle(p), VK_NULL_HANDLE);
    cr_assert_neq(eng_pipeline_layout(p), VK_NULL_HANDLE);
    eng_pipeline_destroy(p);
}

DEVICE_TEST(pipeline, cache_round_trip)
{
    char path[512];
    test_temp_path(path, sizeof path, "pipeline.cache");
    remove(path);

    eng_pipeline_cache *cache = NULL;
    cr_assert_eq(eng_pipeline_cache_create(test_ctx, path, &cache), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(eng_pipeline_cache_loaded_bytes(cache), 0, "no file yet: a cold start, not an error");
    cr_expect_neq(eng_pipeline_cache_handle(cache), VK_NULL_HANDLE);
    make_pipeline(cache);
    cr_assert_eq(eng_pipeline_cache_save(cache), ENG_SUCCESS, "%s", eng_last_error());
    eng_pipeline_cache_destroy(cache);

    static uint8_t blob[1 << 20];
    size_t size = read_file(path, blob, sizeof blob);
    cr_assert_geq(size, 16 + VK_UUID_SIZE, "the saved file has at least the cache header (%zu bytes)", size);
    char tmp[520];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *left = fopen(tmp, "rb");
    cr_expect_null(left, "the temporary file was renamed");
    if (left)
        fclose(left);

    cache = NULL;
    cr_assert_eq(eng_pipeline_cache_create(test_ctx, path, &cache), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(eng_pipeline_cache_loaded_bytes(cache), size, "loaded %zu of %zu bytes",
                 eng_pipeline_cache_loaded_bytes(cache), size);
    make_pipeline(cache); /* through the warm cache */
    eng_pipeline_cache_destroy(cache);

    /* A blob of another device or driver (its pipelineCacheUUID differs) is
     * ignored, not handed to the driver and not an error. */
    blob[16] ^= 0xFF;
    write_file(path, blob, size);
    cr_assert_eq(eng_pipeline_cache_create(test_ctx, path, &cache), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(eng_pipeline_cache_loaded_bytes(cache), 0);
    make_pipeline(cache);
    eng_pipeline_cache_destroy(cache);
    remove(path);
}

DEVICE_TEST(pipeline, cache_garbage_file)
{
    char path[512];
    test_temp_path(path, sizeof path, "garbage.cache");
    uint8_t junk[256];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (uint8_t)(i * 37u + 11u);
    write_file(path, junk, sizeof junk);
    eng_pipeline_cache *cache = NULL;
    cr_assert_eq(eng_pipeline_cache_create(test_ctx, path, &cache), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(eng_pipeline_cache_loaded_bytes(cache), 0);
    make_pipeline(cache);
    eng_pipeline_cache_destroy(cache);

    write_file(path, junk, 3); /* shorter than a header */
    cr_assert_eq(eng_pipeline_cache_create(test_ctx, path, &cache), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(eng_pipeline_cache_loaded_bytes(cache), 0);
    eng_pipeline_cache_destroy(cache);

    write_file(path, junk, 0); /* empty */
    cr_assert_eq(eng_pipeline_cache_create(test_ctx, path, &cache), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(eng_pipeline_cache_loaded_bytes(cache), 0);
    eng_pipeline_cache_destroy(cache);
    remove(path);
}

DEVICE_TEST(pipeline, cache_without_path)
{
    eng_pipeline_cache *cache = NULL;
    cr_assert_eq(eng_pipeline_cache_create(test_ctx, NULL, &cache), ENG_SUCCESS, "%s", eng_last_error());
    cr_expect_eq(eng_pipeline_cache_loaded_bytes(cache), 0);
    make_pipeline(cache);
    eng_result r = eng_pipeline_cache_save(cache);
    cr_expect_eq(r, ENG_ERROR_INVALID_ARGUMENT, "%s", eng_result_string(r));
    cr_expect_neq(strstr(eng_last_error(), "path"), NULL, "'%s'", eng_last_error());
    eng_pipeline_cache_destroy(cache);
}

DEVICE_TEST(pipeline, cache_save_to_unwritable_path)
{
    eng_pipeline_cache *cache = NULL;
    const char *path = "/nonexistent-dir-vkg/cache.bin";
    cr_assert_eq(eng_pipeline_cache_create(test_ctx, path, &cache), ENG_SUCCESS, "%s", eng_last_error());
    eng_result r = eng_pipeline_cache_save(cache);
    cr_expect_eq(r, ENG_ERROR_IO, "%s", eng_result_string(r));
    cr_expect_neq(strstr(eng_last_error(), "/nonexistent-dir-vkg/cache.bin"), NULL, "'%s'", eng_last_error());
    eng_pipeline_cache_destroy(cache);
}

DEVICE_TEST(pipeline, spirv_load)
{
    char path[512];
    test_temp_path(path, sizeof path, "solid.vert.spv");
    write_file(path, solid_vert_spv, solid_vert_size);
    uint32_t *words = NULL;
    size_t size = 0;
    eng_result r = eng_spirv_load(path, &words, &size);
    cr_assert_eq(r, ENG_SUCCESS, "%s", eng_last_error());
    cr_assert_eq(size, solid_vert_size);
    cr_assert_not_null(words);
    cr_expect_eq(memcmp(words, solid_vert_spv, size), 0);
    /* The loaded words make a working pipeline. */
    eng_pipeline_desc d = {
        .name = "loaded", .vertex_spirv = words, .vertex_size = size, .fragment_spirv = solid_frag_spv,
        .fragment_size = solid_frag_size, .color_count = 1, .color_formats = { VK_FORMAT_R8G8B8A8_UNORM },
        .triangle_strip = true, .push_constant_size = sizeof(solid_push),
    };
    eng_pipeline *p = NULL;
    cr_expect_eq(eng_pipeline_create(test_ctx, &d, &p), ENG_SUCCESS, "%s", eng_last_error());
    eng_pipeline_destroy(p);
    free(words);
    remove(path);
}

static void expect_spirv_io_error(const char *path, const char *why)
{
    uint32_t *words = (uint32_t *)(uintptr_t)1;
    size_t size = 99;
    eng_result r = eng_spirv_load(path, &words, &size);
    cr_expect_eq(r, ENG_ERROR_IO, "%s: %s", why, eng_result_string(r));
    cr_expect_null(words, "%s: output pointer left set", why);
    cr_expect_eq(size, 0, "%s", why);
    cr_expect_neq(strstr(eng_last_error(), path), NULL, "%s: '%s' names the file", why, eng_last_error());
}

DEVICE_TEST(pipeline, spirv_load_errors)
{
    char path[512];
    test_temp_path(path, sizeof path, "bad.spv");
    write_file(path, solid_vert_spv, solid_vert_size - 2);
    expect_spirv_io_error(path, "size not a multiple of 4");
    cr_expect_neq(strstr(eng_last_error(), "multiple of 4"), NULL, "'%s'", eng_last_error());

    uint32_t bad_magic[8] = { 0x03022307u, 1, 2, 3, 4, 5, 6, 7 }; /* byte-swapped magic */
    write_file(path, bad_magic, sizeof bad_magic);
    expect_spirv_io_error(path, "wrong magic");
    cr_expect_neq(strstr(eng_last_error(), "magic"), NULL, "'%s'", eng_last_error());

    write_file(path, bad_magic, 0);
    expect_spirv_io_error(path, "empty file");
    remove(path);

    expect_spirv_io_error("/nonexistent-dir-vkg/missing.spv", "missing file");
}
