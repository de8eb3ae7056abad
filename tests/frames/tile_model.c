/* The model is the layer: a demo's saved frame (FRAME) planned under each
 * profile the tile-memory layer's report (REPORT, VKGRAPH_TILE_PROFILE=all,
 * tests/layers/tile_memory/profile.c) names must give, per rendering
 * instance, the same lines as the layer counted from what reached the
 * driver: render area, samples, colour and depth bytes, tile, bins,
 * spilled attachments, loads, stores, resolves and spills. Compiled for
 * the saved device with that profile, as the demo ran, so the instances
 * are the ones the layer saw. Prints every line that differs; exit 1 then.
 * With --plant RULE (traffic, tile, bins) the model's side is changed
 * first, and the check must then fail (the CTest says WILL_FAIL). */
#include <rendergraph_frame/rendergraph_frame.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TEXT (1u << 20)

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text = calloc(MAX_TEXT, 1);
    if (!f || !text) {
        if (f)
            fclose(f);
        free(text);
        return NULL;
    }
    if (fread(text, 1, MAX_TEXT - 1, f) == 0)
        text[0] = '\0';
    fclose(f);
    return text;
}

/* Appends to buf (of MAX_TEXT). */
static void put(char *buf, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(char *buf, const char *fmt, ...)
{
    size_t len = strlen(buf);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, MAX_TEXT - len, fmt, ap);
    va_end(ap);
}

/* The layer's lines for key (or "KEY refused" when it refused any). */
static void layer_lines(const char *report, const char *key, char *out)
{
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%s instance ", key);
    for (const char *line = report; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (strncmp(line, prefix, strlen(prefix)) == 0) {
            if (len > 8 && strncmp(line + len - 8, " refused", 8) == 0) {
                snprintf(out, MAX_TEXT, "%s refused\n", key);
                return;
            }
            put(out, "%.*s\n", (int)len, line);
        }
        line = end ? end + 1 : NULL;
    }
}

/* The model's lines: the frame compiled for its saved device under key. */
static int model_lines(const char *path, const rgf_frame_info *saved, const char *key, const char *plant, char *out)
{
    rg_device_caps caps = saved->saved_caps;
    caps.tile_profile = rgf_tile_profile_from_key(key);
    caps.tile_memory = 0;
    rgf_frame *frame = NULL;
    rgf_error error;
    if (caps.tile_profile == RG_TILE_PROFILE_COUNT || rgf_load(path, &(rgf_load_desc){.caps = &caps}, &frame,
                                                               &error) != RG_SUCCESS) {
        fprintf(stderr, "tile_model: %s under '%s' does not load\n", path, key);
        return 2;
    }
    rg_graph *g = rgf_frame_graph(frame);
    if (rg_compile(g) != RG_SUCCESS) {
        bool hard = rg_tile_profile_info(caps.tile_profile).hard;
        if (hard)
            put(out, "%s refused\n", key);
        else
            fprintf(stderr, "tile_model: %s under '%s': %s\n", path, key, rg_graph_error_message(g));
        rgf_frame_destroy(frame);
        return hard ? 0 : 2;
    }
    for (uint32_t i = 0; i < rg_instance_count(g); i++) {
        rg_tile_view v;
        rg_tile_view_get(g, i, &v);
        if (plant && strcmp(plant, "traffic") == 0)
            v.traffic.stores += 1;
        if (plant && strcmp(plant, "tile") == 0 && v.tile_width > 4)
            v.tile_width /= 2;
        if (plant && strcmp(plant, "bins") == 0 && v.bins)
            v.bins++;
        put(out, "%s instance %u area %ux%ux%u samples %u color %u depth %u tile %ux%u bins %u spilled %u loads %llu "
            "stores %llu resolves %llu spills %llu\n", key, i, v.width, v.height, v.layers, v.samples, v.color_bytes,
            v.depth_bytes, v.tile_width, v.tile_height, v.bins, v.spilled, (unsigned long long)v.traffic.loads,
            (unsigned long long)v.traffic.stores, (unsigned long long)v.traffic.resolves,
            (unsigned long long)v.traffic.spills);
    }
    rgf_frame_destroy(frame);
    return 0;
}

int main(int argc, char **argv)
{
    const char *plant = argc == 5 && strcmp(argv[3], "--plant") == 0 ? argv[4] : NULL;
    if (argc != 3 && !plant) {
        fprintf(stderr, "usage: tile_model FRAME.json REPORT [--plant traffic|tile|bins]\n");
        return 2;
    }
    char *report = slurp(argv[2]), *a = calloc(MAX_TEXT, 1), *b = calloc(MAX_TEXT, 1);
    rgf_frame *frame = NULL;
    rgf_error error;
    if (!report || !a || !b || rgf_load(argv[1], NULL, &frame, &error) != RG_SUCCESS) {
        fprintf(stderr, "tile_model: cannot read %s or %s\n", argv[1], argv[2]);
        return 2;
    }
    rgf_frame_info saved = rgf_frame_get_info(frame);
    int status = 0, profiles = 0, instances = 0;
    for (int p = RG_TILE_DESKTOP; p < RG_TILE_PROFILE_COUNT && status != 2; p++) {
        const char *key = rg_tile_profile_info((rg_tile_profile)p).key;
        a[0] = b[0] = '\0';
        layer_lines(report, key, a);
        if (!a[0]) {
            fprintf(stderr, "tile_model: the layer's report has no line for profile '%s'\n", key);
            status = 1;
            continue;
        }
        int r = model_lines(argv[1], &saved, key, plant, b);
        if (r) {
            status = r;
            continue;
        }
        profiles++;
        for (const char *c = a; (c = strchr(c, '\n')); c++)
            instances++;
        if (strcmp(a, b) != 0) {
            fprintf(stderr, "tile_model: %s under '%s': the layer counted\n%sthe model says\n%s", argv[1], key, a, b);
            status = 1;
        }
    }
    if (status == 0)
        printf("tile_model: %s: %d profiles, %d instance lines, the model equals the layer\n", argv[1], profiles,
               instances);
    rgf_frame_destroy(frame);
    free(report);
    free(a);
    free(b);
    return status;
}
