/* Every resource of a graph, device-free: rg_resource_count and
 * rg_resource_get list each declared texture and buffer in declaration
 * order with its handle, origin (created, imported, history halves) and,
 * once placed, its memory (kind, size, type, pool, offset); the memory
 * report's table and JSON name each one's format, usage and memory kind
 * ("transient-lazy" for a lazily allocated transient attachment), and the
 * JSON parses. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include "rg_mem_unit.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "test_files.h"

#define TILE "Apple silicon, MoltenVK >= 1.2.9"
#define RESOURCES 8

typedef struct frame {
    rg_graph *g;
    rg_texture msaa, color, swapchain, taa, taa_previous, unused;
    rg_buffer particles, readback;
} frame;

/* A 4x MSAA span resolved into color (msaa: transient), a pass sampling
 * color and the frame before's taa into taa and the swapchain, a buffer
 * it reads and copies to a readback import, and a texture nothing uses. */
static frame declare(void)
{
    frame f;
    f.g = test_graph();
    rg_graph *g = f.g;
    f.msaa = rg_texture_create(g, &(rg_texture_desc){.name = "msaa", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                     .width = 64, .height = 64, .samples = VK_SAMPLE_COUNT_4_BIT});
    f.color = test_color(g, "color");
    f.swapchain = rg_texture_import(g, &(rg_texture_import_desc){.name = "swapchain",
                                                                 .format = VK_FORMAT_B8G8R8A8_SRGB, .width = 64,
                                                                 .height = 64});
    f.taa = test_history(g, "taa", VK_FORMAT_R16G16B16A16_SFLOAT, &f.taa_previous);
    f.particles = rg_buffer_create(g, &(rg_buffer_desc){.name = "particles", .size = 4096});
    f.readback = rg_buffer_import(g, &(rg_buffer_import_desc){.name = "readback", .size = 4096});
    f.unused = test_tex(g, "unused", VK_FORMAT_D32_SFLOAT);
    rg_begin_rendering(g, &(rg_rendering_desc){
                              .name = "scene",
                              .colors = {{.texture = f.msaa, .load = VK_ATTACHMENT_LOAD_OP_CLEAR,
                                          .store = VK_ATTACHMENT_STORE_OP_DONT_CARE, .resolve = f.color}},
                              .color_count = 1,
                          });
    test_draw(g, "draw");
    rg_end_rendering(g);
    test_outside(g, "simulate", BUF(f.particles, RG_USAGE_STORAGE_WRITE_COMPUTE));
    test_outside(g, "post", TEX(f.color, RG_USAGE_SAMPLED_COMPUTE), TEX(f.taa_previous, RG_USAGE_SAMPLED_COMPUTE),
                 TEX(f.taa, RG_USAGE_STORAGE_WRITE_COMPUTE), TEX(f.swapchain, RG_USAGE_STORAGE_WRITE_COMPUTE),
                 BUF(f.particles, RG_USAGE_STORAGE_READ_COMPUTE));
    rg_cmd_copy_buffer(g, f.particles, 0, f.readback, 0, 4096);
    return f;
}

/* Requirements as a device with the TILE table reports them: 64 KiB
 * aligned sizes; lazily allocated types only for transient textures. */
static bool requirements(void *user, const char *name, bool is_texture, uint32_t index, VkDeviceSize *size,
                         VkDeviceSize *alignment, uint32_t *type_bits, bool *dedicated)
{
    (void)name;
    rg_graph *g = user;
    rg_resource_info info;
    cr_assert_eq(rg_resource_get(g, index, &info), RG_SUCCESS, "%s", rg_graph_error_message(g));
    cr_assert_eq(info.texture.id != 0, is_texture, "index %u is the callback's resource", index);
    VkDeviceSize bytes = is_texture ? (VkDeviceSize)info.width * info.height * 8 * info.samples : info.size;
    *size = (bytes + 65535) / 65536 * 65536;
    *alignment = 65536;
    const VkPhysicalDeviceMemoryProperties *p = &test_mem_table(TILE)->props;
    *type_bits = is_texture ? table_image_bits(p, info.transient) : table_buffer_bits(p);
    *dedicated = false;
    return true;
}

static void place(rg_graph *g)
{
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_result r = rg_place_offline(g, &test_mem_table(TILE)->props, requirements, g);
    cr_assert_eq(r, RG_SUCCESS, "%s: %s", rg_result_string(r), rg_graph_error_message(g));
}

/* What each resource should say, by declaration index. */
static const struct {
    const char *name;
    rg_resource_kind kind;
    rg_memory_kind memory;
    const char *report;               /* the report's memory column */
} expected[RESOURCES] = {
    {"msaa", RG_RESOURCE_CREATED, RG_MEMORY_LAZY, "transient-lazy"},
    {"color", RG_RESOURCE_CREATED, RG_MEMORY_POOLED, "pooled"},
    {"swapchain", RG_RESOURCE_IMPORTED, RG_MEMORY_IMPORTED, "imported"},
    {"taa", RG_RESOURCE_HISTORY_CURRENT, RG_MEMORY_DEDICATED, "dedicated"},
    {"taa (previous)", RG_RESOURCE_HISTORY_PREVIOUS, RG_MEMORY_DEDICATED, "dedicated"},
    {"particles", RG_RESOURCE_CREATED, RG_MEMORY_POOLED, "pooled"},
    {"readback", RG_RESOURCE_IMPORTED, RG_MEMORY_IMPORTED, "imported"},
    {"unused", RG_RESOURCE_CREATED, RG_MEMORY_NOT_CREATED, "unused"},
};

Test(rg_resources, every_resource_is_listed_with_its_handle_origin_and_memory)
{
    frame f = declare();
    rg_resource_info info;
    cr_expect_eq(rg_resource_count(f.g), 0, "nothing before compile");
    cr_expect_eq(rg_resource_get(f.g, 0, &info), RG_ERROR_NOT_COMPILED);
    cr_assert_eq(rg_compile(f.g), RG_SUCCESS, "%s", rg_graph_error_message(f.g));
    cr_assert_eq(rg_resource_count(f.g), RESOURCES);
    for (uint32_t i = 0; i < RESOURCES; i++) {
        cr_assert_eq(rg_resource_get(f.g, i, &info), RG_SUCCESS, "%s", rg_graph_error_message(f.g));
        cr_expect_str_eq(info.name, expected[i].name);
        cr_expect_eq(info.kind, expected[i].kind, "%s", info.name);
        cr_expect_eq(info.memory, RG_MEMORY_NOT_CREATED, "%s: not placed yet", info.name);
        cr_expect_eq(info.pool, RG_INDEX_NONE);
        cr_expect_eq(info.memory_type, RG_INDEX_NONE);
        /* The handle names the same resource. */
        cr_expect((info.texture.id != 0) != (info.buffer.id != 0), "%s: one handle", info.name);
        rg_resource_info by_handle;
        rg_result r = info.texture.id ? rg_texture_get_info(f.g, info.texture, &by_handle)
                                      : rg_buffer_get_info(f.g, info.buffer, &by_handle);
        cr_assert_eq(r, RG_SUCCESS, "%s: %s", info.name, rg_graph_error_message(f.g));
        cr_expect_str_eq(by_handle.name, info.name);
        cr_expect_eq(memcmp(&by_handle, &info, sizeof info), 0, "%s: the same info either way", info.name);
    }
    cr_expect_eq(rg_resource_get(f.g, RESOURCES, &info), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(rg_resource_get(f.g, 0, &info), RG_SUCCESS);
    cr_expect_eq(info.texture.id, f.msaa.id);
    cr_expect_eq(rg_resource_get(f.g, 5, &info), RG_SUCCESS);
    cr_expect_eq(info.buffer.id, f.particles.id);
    cr_expect_eq(rg_resource_get(f.g, 4, &info), RG_SUCCESS);
    cr_expect_eq(info.texture.id, f.taa_previous.id);

    place(f.g);
    for (uint32_t i = 0; i < RESOURCES; i++) {
        cr_assert_eq(rg_resource_get(f.g, i, &info), RG_SUCCESS);
        cr_expect_eq(info.memory, expected[i].memory, "%s: memory %d", info.name, info.memory);
        VkDeviceSize offset;
        uint32_t pool;
        rg_memory_kind kind = info.texture.id ? rg_texture_memory(f.g, info.texture, &offset, &pool)
                                              : rg_buffer_memory(f.g, info.buffer, &offset, &pool);
        cr_expect_eq(kind, info.memory, "%s", info.name);
        cr_expect_eq(pool, info.pool, "%s", info.name);
        cr_expect_eq(offset, info.memory_offset, "%s", info.name);
        bool made = info.memory != RG_MEMORY_NOT_CREATED && info.memory != RG_MEMORY_IMPORTED;
        cr_expect_eq(info.memory_size != 0, made, "%s: size %llu", info.name, (unsigned long long)info.memory_size);
        cr_expect_eq(info.memory_type != RG_INDEX_NONE, made, "%s", info.name);
        cr_expect_eq(info.pool != RG_INDEX_NONE, info.memory == RG_MEMORY_POOLED, "%s", info.name);
    }
    cr_assert_eq(rg_resource_get(f.g, 0, &info), RG_SUCCESS);
    cr_expect(info.transient, "msaa is a transient attachment");
    cr_expect_eq(info.memory_size, 64u * 64u * 8u * 4u);
    cr_expect(test_mem_table(TILE)->props.memoryTypes[info.memory_type].propertyFlags &
              VK_MEMORY_PROPERTY_LAZILY_ALLOCATED_BIT);
    rg_graph_destroy(f.g);
}

/* ------------------------------------------------------------ the report */

/* A JSON value, strictly (RFC 8259 minus \u escapes' surrogates): *p
 * moves past it; false at the first thing that is not JSON. */
static bool json_value(const char **p);

static void json_space(const char **p)
{
    while (**p == ' ' || **p == '\n' || **p == '\r' || **p == '\t')
        (*p)++;
}

static bool json_string(const char **p)
{
    if (*(*p)++ != '"')
        return false;
    for (; **p != '"'; (*p)++) {
        if ((unsigned char)**p < 0x20)
            return false;
        if (**p == '\\') {
            (*p)++;
            if (**p == 'u') {
                for (int i = 0; i < 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", *++*p) || !**p)
                        return false;
            } else if (!**p || !strchr("\"\\/bfnrt", **p)) {
                return false;
            }
        }
    }
    (*p)++;
    return true;
}

static bool json_number(const char **p)
{
    char *end;
    if (!(**p == '-' || (**p >= '0' && **p <= '9')))
        return false;
    strtod(*p, &end);
    *p = end;
    return true;
}

static bool json_list(const char **p, char close, bool members)
{
    (*p)++;
    json_space(p);
    if (**p == close) {
        (*p)++;
        return true;
    }
    for (;;) {
        json_space(p);
        if (members) {
            if (!json_string(p))
                return false;
            json_space(p);
            if (*(*p)++ != ':')
                return false;
        }
        if (!json_value(p))
            return false;
        json_space(p);
        char c = *(*p)++;
        if (c == close)
            return true;
        if (c != ',')
            return false;
    }
}

static bool json_value(const char **p)
{
    json_space(p);
    switch (**p) {
    case '{': return json_list(p, '}', true);
    case '[': return json_list(p, ']', false);
    case '"': return json_string(p);
    case 't': return strncmp(*p, "true", 4) == 0 && (*p += 4);
    case 'f': return strncmp(*p, "false", 5) == 0 && (*p += 5);
    case 'n': return strncmp(*p, "null", 4) == 0 && (*p += 4);
    default: return json_number(p);
    }
}

static bool json_valid(const char *text)
{
    const char *p = text;
    if (!json_value(&p))
        return false;
    json_space(&p);
    return *p == '\0';
}

Test(rg_resources, json_checker_refuses_what_is_not_json)
{
    cr_expect(json_valid("{\"a\": [1, -2.5e3, true, null, \"x\\\"y\"], \"b\": {}}"));
    cr_expect_not(json_valid("{\"a\": [1, 2,]}"));
    cr_expect_not(json_valid("{\"a\": 1 \"b\": 2}"));
    cr_expect_not(json_valid("{\"a\": \"tab\there\"}"));
    cr_expect_not(json_valid("{\"a\": 1}}"));
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "%s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = calloc((size_t)n + 1, 1);
    cr_assert_eq(fread(text, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return text;
}

/* The report's line of a resource: the one that starts with its name
 * padded to the first column. */
static const char *line_of(const char *report, const char *name, char *line, size_t size)
{
    char head[40];
    snprintf(head, sizeof head, "\n%-24s ", name);
    const char *at = strstr(report, head);
    if (!at)
        return NULL;
    at++;
    const char *end = strchr(at, '\n');
    size_t n = end ? (size_t)(end - at) : strlen(at);
    snprintf(line, size, "%.*s", (int)(n < size ? n : size - 1), at);
    return line;
}

Test(rg_resources, the_report_names_each_resources_format_usage_and_memory_kind)
{
    frame f = declare();
    place(f.g);
    FILE *out = test_text_open();
    cr_assert_not_null(out);
    cr_assert_eq(rg_memory_report_print(f.g, out), RG_SUCCESS, "%s", rg_graph_error_message(f.g));
    char *text = test_text_close(out);
    cr_assert_not_null(text);
    char json_path[] = "/tmp/rg_resourcesXXXXXX";
    int fd = mkstemp(json_path);
    cr_assert_geq(fd, 0);
    close(fd);
    cr_assert_eq(rg_memory_report_json(f.g, json_path), RG_SUCCESS, "%s", rg_graph_error_message(f.g));
    char *json = slurp(json_path);
    remove(json_path);
    cr_expect(json_valid(json), "%s", json);
    cr_expect_not_null(strstr(text, "origin"), "%s", text);
    for (uint32_t i = 0; i < RESOURCES; i++) {
        rg_resource_info info;
        cr_assert_eq(rg_resource_get(f.g, i, &info), RG_SUCCESS);
        char line[1024], usage[256], want[512];
        cr_assert_not_null(line_of(text, info.name, line, sizeof line), "no line for '%s' in\n%s", info.name, text);
        snprintf(want, sizeof want, " %s ", expected[i].report);
        cr_expect_not_null(strstr(line, want), "'%s' in: %s", want, line);
        const char *origin = info.kind == RG_RESOURCE_IMPORTED ? " imported "
                             : info.kind == RG_RESOURCE_HISTORY_CURRENT ? " history "
                             : info.kind == RG_RESOURCE_HISTORY_PREVIOUS ? " history-prev " : " created ";
        cr_expect_not_null(strstr(line, origin), "'%s' in: %s", origin, line);
        /* JSON: the entry of the resource, up to the end of its object. */
        snprintf(want, sizeof want, "{\"name\": \"%s\"", info.name);
        const char *entry = strstr(json, want);
        cr_assert_not_null(entry, "no JSON entry for '%s'", info.name);
        char object[1024];
        snprintf(object, sizeof object, "%.*s", (int)(strchr(entry, '}') - entry), entry);
        snprintf(want, sizeof want, "\"transient\": %s", info.transient ? "true" : "false");
        cr_expect_not_null(strstr(object, want), "'%s' in: %s", want, object);
        if (info.texture.id) {
            snprintf(want, sizeof want, " %s ", rg_format_name(info.format));
            cr_expect_not_null(strstr(line, want), "'%s' in: %s", want, line);
            snprintf(want, sizeof want, "\"format\": \"%s\"", rg_format_name(info.format));
            cr_expect_not_null(strstr(object, want), "'%s' in: %s", want, object);
        } else {
            cr_expect_not_null(strstr(object, "\"format\": null"), "%s", object);
        }
        if (info.kind == RG_RESOURCE_IMPORTED || info.memory == RG_MEMORY_NOT_CREATED) {
            cr_expect_not_null(strstr(object, "\"usage\": null"), "not created by the graph: %s", object);
            continue;
        }
        /* Created: the usage it is created with, by name. */
        if (info.texture.id)
            rg_flag_names(RG_FLAGS_IMAGE_USAGE, info.image_usage, usage, sizeof usage);
        else
            rg_flag_names(RG_FLAGS_BUFFER_USAGE, info.buffer_usage, usage, sizeof usage);
        cr_expect_neq(strcmp(usage, "NONE"), 0, "%s", info.name);
        snprintf(want, sizeof want, " %s ", usage);
        cr_expect_not_null(strstr(line, want), "'%s' in: %s", want, line);
        snprintf(want, sizeof want, "\"usage\": \"%s\"", usage);
        cr_expect_not_null(strstr(object, want), "'%s' in: %s", want, object);
    }
    cr_expect_not_null(strstr(json, "\"origin\": \"history-prev\""), "%s", json);
    free(text);
    free(json);
    rg_graph_destroy(f.g);
}
