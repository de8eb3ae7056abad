/* frame_roundtrip FILE...: each frame file, as committed, is what saving
 * it again writes (save -> load -> save is the identity on the library's
 * own files), loads into a graph that compiles, places from the memory it
 * saved, and loads again from its saved text to the same plan: order,
 * barriers, merges and memory totals. Exit 1 naming the file and what
 * differs.
 */
#include <rendergraph_frame/rendergraph_frame.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (text && fread(text, 1, (size_t)n, f) != (size_t)n) {
        free(text);
        text = NULL;
    }
    if (text)
        text[n] = '\0';
    fclose(f);
    return text;
}

/* What two placements of one frame must share. */
static bool same_plan(const char *path, rg_graph *a, rg_graph *b)
{
    const rg_command *oa, *ob;
    uint32_t na = rg_execution_order(a, &oa), nb = rg_execution_order(b, &ob);
    bool same = na == nb && rg_barrier_count(a) == rg_barrier_count(b) && rg_merge_count(a) == rg_merge_count(b) &&
                rg_batch_count(a) == rg_batch_count(b);
    for (uint32_t i = 0; same && i < na; i++) {
        rg_command_info ia, ib;
        same = rg_command_get_info(a, oa[i], &ia) == RG_SUCCESS && rg_command_get_info(b, ob[i], &ib) == RG_SUCCESS &&
               strcmp(ia.name, ib.name) == 0 && ia.type == ib.type && ia.queue == ib.queue;
    }
    for (uint32_t i = 0; same && i < rg_merge_count(a); i++) {
        rg_merge_info ma, mb;
        same = rg_merge_get(a, i, &ma) == RG_SUCCESS && rg_merge_get(b, i, &mb) == RG_SUCCESS &&
               ma.merged == mb.merged && strcmp(ma.reason, mb.reason) == 0;
    }
    rg_memory_totals ta = rg_memory_get_totals(a), tb = rg_memory_get_totals(b);
    if (same && memcmp(&ta, &tb, sizeof ta) == 0)
        return true;
    fprintf(stderr, "%s: the frame loaded from its own saved text plans differently (%u/%u commands, %u/%u "
            "barriers, %u/%u merges, pooled %llu/%llu)\n", path, na, nb, rg_barrier_count(a), rg_barrier_count(b),
            rg_merge_count(a), rg_merge_count(b), (unsigned long long)ta.pooled, (unsigned long long)tb.pooled);
    return false;
}

static bool check(const char *path)
{
    char *committed = read_file(path), *saved = NULL, *again = NULL;
    rgf_frame *f = NULL, *g = NULL;
    rgf_error e = {{0}};
    bool ok = false;
    if (!committed) {
        fprintf(stderr, "%s: cannot read it\n", path);
        return false;
    }
    rgf_frame_info info;
    if (rgf_load_text(committed, strlen(committed), path, NULL, &f, &e) != RG_SUCCESS ||
        rgf_frame_place(f, RGF_MEMORY_AUTO, NULL, &e) != RG_SUCCESS)
        goto done;
    info = rgf_frame_get_info(f);
    rgf_save_desc desc = {.width = info.saved_width, .height = info.saved_height,
                          .device_name = info.device_name[0] ? info.device_name : NULL, .memory = info.memory};
    if (rgf_save_text(rgf_frame_graph(f), &desc, &saved, &e) != RG_SUCCESS)
        goto done;
    /* The committed file ends in the newline rgf_save writes. */
    size_t n = strlen(saved);
    if (strncmp(committed, saved, n) != 0 || strcmp(committed + n, "\n") != 0) {
        snprintf(e.message, sizeof e.message, "%s: saving the loaded frame does not write the same text", path);
        goto done;
    }
    if (rgf_load_text(saved, strlen(saved), path, NULL, &g, &e) != RG_SUCCESS ||
        rgf_frame_place(g, RGF_MEMORY_AUTO, NULL, &e) != RG_SUCCESS)
        goto done;
    ok = same_plan(path, rgf_frame_graph(f), rgf_frame_graph(g));
    if (rgf_save_text(rgf_frame_graph(g), &desc, &again, &e) == RG_SUCCESS && strcmp(saved, again) != 0) {
        snprintf(e.message, sizeof e.message, "%s: save -> load -> save changed the text", path);
        ok = false;
    }
done:
    if (!ok && e.message[0])
        fprintf(stderr, "%s\n", e.message);
    rgf_free(saved);
    rgf_free(again);
    rgf_frame_destroy(f);
    rgf_frame_destroy(g);
    free(committed);
    return ok;
}

int main(int argc, char **argv)
{
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        bool ok = check(argv[i]);
        printf("%s: %s\n", argv[i], ok ? "same" : "DIFFERS");
        failed += !ok;
    }
    return argc < 2 ? 2 : failed ? 1 : 0;
}
