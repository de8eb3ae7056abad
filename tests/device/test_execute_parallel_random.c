/* Random frames with aliasing (the acceptance suite's aliased twins are
 * in parallel_twins.c), recorded whole and cut into chunks anywhere: the
 * same calls once the cuts are taken out, the same bytes read back
 * (RF_FIRST/RF_SEEDS search more seeds). Suite execute_parallel
 * (test_execute_parallel.c declares it).
 *
 * A longer search by hand: RF_FIRST, RF_SEEDS (the seeds), RF_STEPS
 * (steps per frame; under about 55, for MAX_USERS; 60 with RF_ACCEPT),
 * RF_FORMATS=7 (the acceptance suite's R32_UINT and RGBA32_UINT textures
 * beside the four formats of the default frames), RF_THREADS=1 (the
 * threaded modes on Debian 12's layer too, which may crash it),
 * LP_NUM_THREADS=0 (Mesa's llvmpipe rasterizing on the submitting
 * thread), RF_DUMP (frames for tests/raw's replay, below), RF_ACCEPT=1
 * (frames more like the acceptance suite's, off by default so CI's frames
 * stay the same: all seven formats, spans on a new texture half the time
 * (else a third), a quarter of the steps a texture->buffer->texture chain
 * through a scratch buffer, mostly into a new texture of the same format,
 * UINT targets of spans always cleared whole and stored, and half the
 * single-target RGBA8 UNORM spans a fullscreen draw over
 * LOAD_OP_DONT_CARE). */
#include "device_fixture.h"
#include "parallel_support.h"
#include "call_text.h"
#include "rg_support.h"
#include "rg_spy.h"
#include "solid.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

/* --------------------------------------------------------- random frames */

/* Random frames (seeded, so a failure names its seed): created textures
 * of a few formats and sizes, each living from its first write to its
 * retirement, where it is copied out into a slot of its own in the
 * readback; lifetimes end early, so the graph aliases textures (and the
 * two scratch buffers) in its pools behind alias barriers. Between those:
 * spans that clear or load one or two of them (a solid draw on RGBA8
 * UNORM, else a draw that records nothing, either one declaring a sampled
 * read of another texture), clears, blits, copies through the scratch
 * buffers, and compute commands that only declare storage and sampled
 * accesses (barriers, order and lifetimes without pixels), some of them,
 * and some copies and clears, eligible for the compute queue. Only bytes
 * the frame wrote are read back, so every run of a frame reads the same. */

#define RF_MAX_TEXTURES 32

#define RF_SCRATCH_BYTES 8192u

#define RF_READBACK_BYTES (RF_MAX_TEXTURES * 24 * 20 * 16 + 2 * RF_SCRATCH_BYTES)

typedef struct rf_format {
    VkFormat format;
    uint32_t width, height, texel;
    bool uint;
} rf_format;

static const rf_format rf_formats[] = {
    { VK_FORMAT_R8G8B8A8_UNORM, 16, 16, 4, false },
    { VK_FORMAT_R8G8B8A8_UNORM, 24, 20, 4, false },
    { VK_FORMAT_R16_UINT, 16, 16, 2, true },
    { VK_FORMAT_R8G8B8A8_UINT, 24, 20, 4, true },
    { VK_FORMAT_R32_UINT, 16, 16, 4, true },
    { VK_FORMAT_R32G32B32A32_UINT, 16, 16, 16, true },
    { VK_FORMAT_R32G32B32A32_UINT, 24, 20, 16, true },
};

static uint32_t rf_format_count = 4;        /* the default frames' formats: the first four */

static bool rf_accept;                      /* RF_ACCEPT=1: the acceptance suite's kind of frame */

typedef struct rf_texture {
    rg_texture texture;
    const rf_format *format;
    bool written, retired;
    VkDeviceSize slot;                /* its place in the readback */
} rf_texture;

typedef struct rf_frame {
    rg_graph *graph;
    scene *scene;
    uint64_t state;
    rf_texture textures[RF_MAX_TEXTURES];
    uint32_t texture_count;
    rg_buffer scratch[2];
    uint32_t scratch_written[2];      /* bytes from 0 the frame wrote */
    rg_buffer readback;
    VkDeviceSize next_slot;
    uint32_t commands;
} rf_frame;

static uint32_t rf_rand(rf_frame *f, uint32_t n)
{
    f->state ^= f->state << 13;
    f->state ^= f->state >> 7;
    f->state ^= f->state << 17;
    return (uint32_t)(f->state >> 32) % n;
}

static uint32_t rf_bytes(const rf_texture *t) { return t->format->width * t->format->height * t->format->texel; }

/* A live texture (made, not retired), written or not as asked; -1: none. */
static int rf_pick(rf_frame *f, bool written, int except)
{
    int live[RF_MAX_TEXTURES], n = 0;
    for (uint32_t i = 0; i < f->texture_count; i++)
        if (!f->textures[i].retired && (!written || f->textures[i].written) && (int)i != except)
            live[n++] = (int)i;
    return n ? live[rf_rand(f, (uint32_t)n)] : -1;
}

/* A new texture of format like (NULL: a random one). */
static int rf_new_texture_like(rf_frame *f, const rf_format *like)
{
    if (f->texture_count == RF_MAX_TEXTURES)
        return rf_pick(f, false, -1);
    rf_texture *t = &f->textures[f->texture_count];
    t->format = like ? like : &rf_formats[rf_rand(f, rf_format_count)];
    char name[16];
    snprintf(name, sizeof name, "t%u", f->texture_count);
    t->texture = rg_texture_create(f->graph, &(rg_texture_desc){ .name = name, .format = t->format->format,
                                                                 .width = t->format->width,
                                                                 .height = t->format->height });
    t->slot = f->next_slot;
    f->next_slot += rf_bytes(t);
    return (int)f->texture_count++;
}

static int rf_new_texture(rf_frame *f) { return rf_new_texture_like(f, NULL); }

static VkClearValue rf_clear_value(rf_frame *f, const rf_texture *t)
{
    VkClearValue v;
    for (int c = 0; c < 4; c++) {
        uint32_t x = rf_rand(f, 256);
        if (t->format->uint)
            v.color.uint32[c] = x;
        else
            v.color.float32[c] = (float)x / 255.0f;
    }
    return v;
}

static void rf_maybe_compute(rf_frame *f, rg_command c)
{
    if (rf_rand(f, 3) == 0)
        rg_command_allow_queue(f->graph, c, RG_QUEUE_COMPUTE);
    f->scene->cost += 1;
    f->commands++;
}

static void rf_span(rf_frame *f)
{
    int x = rf_rand(f, rf_accept ? 2 : 3) == 0 ? rf_new_texture(f) : rf_pick(f, false, -1);
    if (x < 0)
        x = rf_new_texture(f);
    rf_texture *t = &f->textures[x];
    int y = rf_rand(f, 3) == 0 ? rf_pick(f, false, x) : -1;
    if (y >= 0 && (f->textures[y].format->width != t->format->width ||
                   f->textures[y].format->height != t->format->height))
        y = -1;
    rg_rendering_desc d = { .name = "span", .color_count = y >= 0 ? 2 : 1 };
    int targets[2] = { x, y };
    /* RF_ACCEPT: a fullscreen draw over RGBA8 UNORM that does not care
     * what was there, or a UINT target cleared whole and stored. */
    bool full = rf_accept && y < 0 && t->format->format == VK_FORMAT_R8G8B8A8_UNORM && rf_rand(f, 2);
    for (uint32_t k = 0; k < d.color_count; k++) {
        rf_texture *a = &f->textures[targets[k]];
        bool load = a->written && rf_rand(f, 2) && !(rf_accept && a->format->uint);
        d.colors[k] = (rg_attachment){ .texture = a->texture,
                                       .load = full ? VK_ATTACHMENT_LOAD_OP_DONT_CARE
                                               : load ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR,
                                       .store = VK_ATTACHMENT_STORE_OP_STORE, .clear = rf_clear_value(f, a) };
    }
    rg_begin_rendering(f->graph, &d);
    int sampled = rf_rand(f, 2) ? rf_pick(f, true, x) : -1;
    if (sampled == y)
        sampled = -1;
    rg_access read = { .texture = sampled >= 0 ? f->textures[sampled].texture : (rg_texture){ 0 },
                       .usage = RG_USAGE_SAMPLED_FRAGMENT, .whole = true };
    bool draw = full || (d.color_count == 1 && t->format->format == VK_FORMAT_R8G8B8A8_UNORM && rf_rand(f, 3) != 0);
    for (uint32_t i = 0, n = 1 + rf_rand(f, 3); i < n; i++) {
        char name[24];
        snprintf(name, sizeof name, "draw %u.%u", f->commands, i);
        bool reads = sampled >= 0 && i == 0;
        user_cmd *u = parallel_add_user(f->graph, f->scene, name, 1 + rf_rand(f, 3), RG_QUEUE_GRAPHICS,
                                        reads ? &read : NULL, reads ? 1 : 0, RG_COMMAND_DRAW,
                                        draw ? f->scene->color_only : NULL);
        if (full && i == 0)
            memcpy(u->rect, (const float[4]){ -1, -1, 1, 1 }, sizeof u->rect);
    }
    rg_end_rendering(f->graph);
    f->commands++;
    t->written = true;
    if (y >= 0)
        f->textures[y].written = true;
}

static void rf_retire(rf_frame *f, int x)
{
    rf_texture *t = &f->textures[x];
    rg_command c = rg_cmd_copy_texture_to_buffer(f->graph, t->texture, 0, 0, 1, f->readback, t->slot);
    rf_maybe_compute(f, c);
    t->retired = true;
}

/* RF_ACCEPT: a written texture copied into a scratch buffer and the
 * buffer copied into another texture (mostly a new one of its format),
 * either of them retired at once now and then. */
static void rf_chain(rf_frame *f)
{
    uint32_t b = rf_rand(f, 2);
    int x = rf_pick(f, true, -1);
    if (x < 0)
        return;
    rf_maybe_compute(f, rg_cmd_copy_texture_to_buffer(f->graph, f->textures[x].texture, 0, 0, 1, f->scratch[b], 0));
    if (f->scratch_written[b] < rf_bytes(&f->textures[x]))
        f->scratch_written[b] = rf_bytes(&f->textures[x]);
    int y = rf_rand(f, 4) ? rf_new_texture_like(f, rf_rand(f, 3) ? f->textures[x].format : NULL)
                          : rf_pick(f, false, x);
    if (y < 0 || y == x || f->scratch_written[b] < rf_bytes(&f->textures[y]))
        return;
    rf_maybe_compute(f, rg_cmd_copy_buffer_to_texture(f->graph, f->scratch[b], 0, f->textures[y].texture, 0, 0, 1));
    f->textures[y].written = true;
    if (rf_rand(f, 3) == 0)
        rf_retire(f, x);
    if (rf_rand(f, 4) == 0)
        rf_retire(f, y);
}

/* One random step of the frame. */
static void rf_step(rf_frame *f)
{
    uint32_t b = rf_rand(f, 2);
    int x, y;
    if (rf_accept && rf_rand(f, 4) == 0) {
        rf_chain(f);
        return;
    }
    switch (rf_rand(f, 10)) {
    case 0: case 1: case 2:
        rf_span(f);
        break;
    case 3:
        x = rf_rand(f, 2) ? rf_new_texture(f) : rf_pick(f, false, -1);
        if (x < 0)
            break;
        rf_maybe_compute(f, rg_cmd_clear_texture(f->graph, f->textures[x].texture, NULL,
                                                 &(VkClearValue){ rf_clear_value(f, &f->textures[x]).color }));
        f->textures[x].written = true;
        break;
    case 4:
        x = rf_pick(f, true, -1);
        if (x < 0)
            break;
        rf_maybe_compute(f, rg_cmd_copy_texture_to_buffer(f->graph, f->textures[x].texture, 0, 0, 1, f->scratch[b], 0));
        if (f->scratch_written[b] < rf_bytes(&f->textures[x]))
            f->scratch_written[b] = rf_bytes(&f->textures[x]);
        break;
    case 5:
        x = rf_pick(f, false, -1);
        if (x < 0 || f->scratch_written[b] < rf_bytes(&f->textures[x]))
            break;
        rf_maybe_compute(f, rg_cmd_copy_buffer_to_texture(f->graph, f->scratch[b], 0, f->textures[x].texture, 0, 0, 1));
        f->textures[x].written = true;
        break;
    case 6:
        x = rf_pick(f, true, -1);
        y = rf_pick(f, false, x);
        if (x < 0 || y < 0 || f->textures[x].format->uint != f->textures[y].format->uint)
            break;
        rg_cmd_blit(f->graph, f->textures[x].texture, 0, f->textures[y].texture, 0, VK_FILTER_NEAREST);
        f->scene->cost += 1;
        f->commands++;
        f->textures[y].written = true;
        break;
    case 7:
        if (!f->scratch_written[b])
            break;
        rf_maybe_compute(f, rg_cmd_copy_buffer(f->graph, f->scratch[b], 0, f->scratch[!b], 0, f->scratch_written[b]));
        if (f->scratch_written[!b] < f->scratch_written[b])
            f->scratch_written[!b] = f->scratch_written[b];
        break;
    case 8: {
        /* Declares without recording: its storage write leaves the
         * scratch buffer's bytes unknown to the frame. */
        x = rf_pick(f, true, -1);
        rg_access a[2] = { { .buffer = f->scratch[b],
                             .usage = rf_rand(f, 2) ? RG_USAGE_STORAGE_WRITE_COMPUTE : RG_USAGE_STORAGE_READ_COMPUTE,
                             .undefined_ok = true } };
        uint32_t n = 1;
        if (x >= 0)
            a[n++] = (rg_access){ .texture = f->textures[x].texture, .usage = RG_USAGE_SAMPLED_COMPUTE, .whole = true };
        if (a[0].usage == RG_USAGE_STORAGE_WRITE_COMPUTE)
            f->scratch_written[b] = 0;
        char name[24];
        snprintf(name, sizeof name, "compute %u", f->commands++);
        parallel_add_user(f->graph, f->scene, name, 1 + rf_rand(f, 4), rf_rand(f, 2) ? RG_QUEUE_COMPUTE : RG_QUEUE_GRAPHICS, a,
                 n, RG_COMMAND_OUTSIDE, NULL);
        break;
    }
    default:
        x = rf_pick(f, true, -1);
        if (x >= 0)
            rf_retire(f, x);
        break;
    }
}

/* Declares and compiles random frame `seed` on dev, reading back into
 * s's readback. */
static rg_graph *declare_random(rg_device *dev, scene *s, uint64_t seed, rg_order order, uint32_t steps,
                                rf_frame *keep)
{
    rf_frame *f = calloc(1, sizeof *f);
    cr_assert(f);
    f->scene = s;
    f->state = seed * 0x9E3779B97F4A7C15ull + 1;
    f->graph = parallel_graph((rg_graph_desc){ .name = "random", .device = dev, .order = order });
    for (int b = 0; b < 2; b++)
        f->scratch[b] = rg_buffer_create(f->graph, &(rg_buffer_desc){ .name = b ? "scratch b" : "scratch a",
                                                                      .size = RF_SCRATCH_BYTES });
    f->readback = test_import_buffer(f->graph, "readback", s->readback, true);
    for (uint32_t i = 0; i < steps; i++)
        rf_step(f);
    for (uint32_t i = 0; i < f->texture_count; i++)
        if (f->textures[i].written && !f->textures[i].retired)
            rf_retire(f, (int)i);
    for (int b = 0; b < 2; b++)
        if (f->scratch_written[b])
            rf_maybe_compute(f, rg_cmd_copy_buffer(f->graph, f->scratch[b], 0, f->readback,
                                                   RF_READBACK_BYTES - (2 - b) * RF_SCRATCH_BYTES,
                                                   f->scratch_written[b]));
    cr_assert_leq(f->next_slot, RF_READBACK_BYTES - 2 * RF_SCRATCH_BYTES);
    rg_graph *g = f->graph;
    if (keep)
        *keep = *f;
    free(f);
    test_compile(g);
    return g;
}

/* ------------------------------------------------ frames for the replay */

/* FNV-1a, 64 bits: the read-back bytes in the file, compared by the replay. */
static uint64_t rf_fnv(const unsigned char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* RF_DUMP=DIR: instead of the sweep, each frame is recorded whole and by
 * the loop in chunks for each max_chunks, and each chunked frame whose
 * read-back differs from the whole frame's is written to
 * DIR/random-SEED-chunks-N.txt (RF_DUMP_ALL=1: the right ones too) for
 * tests/raw's replay (replay_frame.h reads it): the device, both
 * read-backs' checksums, its images with their usage, pool offsets and
 * views, its buffers, its draws, and the logged calls of the whole
 * command buffer and of each chunk. The textures that read back wrong
 * are named in the log. */
static void rf_write_dump(const char *path, const rf_frame *rf, const scene *s, const frame *whole, const frame *f,
                          uint64_t seed, const unsigned char *want, const unsigned char *got)
{
    FILE *out = fopen(path, "w");
    cr_assert_not_null(out, "cannot write %s", path);
    rg_graph *g = rf->graph;
    fprintf(out, "# random frame %llu (test_execute_parallel_random.c), max_chunks %u, recorded by the loop\n",
            (unsigned long long)seed, f->max_chunks);
    VkPhysicalDeviceVulkan12Properties p12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES };
    VkPhysicalDeviceProperties2 p = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &p12 };
    vkGetPhysicalDeviceProperties2(eng_context_physical_device(test_ctx), &p);
    fprintf(out, "device %s | %s\n", p.properties.deviceName, p12.driverInfo);
    fprintf(out, "read back whole %016llx chunks %016llx\n", (unsigned long long)rf_fnv(want, RF_READBACK_BYTES),
            (unsigned long long)rf_fnv(got, RF_READBACK_BYTES));
    for (uint32_t i = 0; i < rf->texture_count; i++) {
        const rf_texture *t = &rf->textures[i];
        VkDeviceSize at = 0;
        uint32_t pool = 0;
        if (rg_texture_memory(g, t->texture, &at, &pool) != RG_MEMORY_POOLED)
            continue;                 /* unused: never created */
        VkImage image = rg_texture_image(g, t->texture);
        VkImageUsageFlags usage = 0;
        VkImageCreateFlags flags = 0;
        cr_assert(parallel_image_made(image, &usage, &flags), "t%u: its image was not seen created", i);
        fprintf(out, "image %llx format %d size %ux%u usage %x flags %x pool %u offset %llu name t%u slot %llu+%u\n",
                (unsigned long long)(uintptr_t)image, (int)t->format->format, t->format->width, t->format->height,
                (unsigned)usage, (unsigned)flags, pool, (unsigned long long)at, i, (unsigned long long)t->slot,
                t->retired ? rf_bytes(t) : 0);
        VkImageView views[8];
        for (uint32_t v = 0, n = parallel_views_of(image, views, 8); v < n; v++)
            fprintf(out, "view %llx of %llx\n", (unsigned long long)(uintptr_t)views[v],
                    (unsigned long long)(uintptr_t)image);
    }
    for (int b = 0; b < 2; b++) {
        VkDeviceSize at = 0;
        uint32_t pool = 0;
        if (rg_buffer_memory(g, rf->scratch[b], &at, &pool) == RG_MEMORY_POOLED)
            fprintf(out, "buffer %llx size %u pool %u offset %llu\n",
                    (unsigned long long)(uintptr_t)rg_buffer_handle(g, rf->scratch[b]), RF_SCRATCH_BYTES, pool,
                    (unsigned long long)at);
    }
    fprintf(out, "readback %llx size %u\n", (unsigned long long)(uintptr_t)rg_buffer_handle(g, rf->readback),
            RF_READBACK_BYTES);
    for (uint32_t i = 0; i < s->user_count; i++) {
        const user_cmd *u = &s->users[i];
        if (u->pipeline)
            fprintf(out, "draw %s rect %a %a %a %a color %a %a %a %a depth %a\n", u->name, (double)u->rect[0],
                    (double)u->rect[1], (double)u->rect[2], (double)u->rect[3], (double)u->color[0],
                    (double)u->color[1], (double)u->color[2], (double)u->color[3], (double)u->depth);
    }
    fprintf(out, "whole\n%s", whole->texts[0]);
    for (uint32_t i = 0; i < f->count; i++)
        fprintf(out, "chunk %u\n%s", i, f->texts[i]);
    fprintf(out, "done\n");
    cr_assert_eq(fclose(out), 0);
}

/* The textures whose slots differ between want and got, as text. */
static void rf_wrong_textures(const rf_frame *rf, const unsigned char *want, const unsigned char *got, char *out,
                              size_t size)
{
    size_t at = 0;
    out[0] = '\0';
    for (uint32_t i = 0; i < rf->texture_count && at + 32 < size; i++) {
        const rf_texture *t = &rf->textures[i];
        if (t->retired && memcmp(want + t->slot, got + t->slot, rf_bytes(t)) != 0)
            at += (size_t)snprintf(out + at, size - at, " t%u", i);
    }
    if (memcmp(want + RF_READBACK_BYTES - 2 * RF_SCRATCH_BYTES, got + RF_READBACK_BYTES - 2 * RF_SCRATCH_BYTES,
               2 * RF_SCRATCH_BYTES) != 0 && at + 16 < size)
        snprintf(out + at, size - at, " scratch");
}

/* Frame rf (one batch) whole and in chunks for max_chunks 1 to 16; the
 * number of chunked frames that read back wrong. */
static uint32_t rf_search(const rf_frame *rf, scene *s, uint64_t seed, const char *dir)
{
    rg_graph *g = rf->graph;
    cr_assert_eq(rg_batch_count(g), 1, "the replay takes frames of one batch");
    parallel_reference ref;
    parallel_reference_open(&ref, g, s);
    frame *whole = ref.whole, *f = ref.f;
    unsigned char *want = ref.want, *got = ref.got;
    uint32_t wrong = 0;
    for (uint32_t n = 1; n <= 16; n++) {
        parallel_clear_readback(s);
        cr_assert_eq(parallel_record_frame(f, g, MODE_HAND, n, NULL, true), RG_SUCCESS);
        parallel_submit_frame(f);
        parallel_read_pixels(s, got);
        bool differs = memcmp(want, got, s->readback_size) != 0;
        if (differs || getenv("RF_DUMP_ALL")) {
            char which[256], path[512];
            rf_wrong_textures(rf, want, got, which, sizeof which);
            snprintf(path, sizeof path, "%s/random-%llu-chunks-%u.txt", dir, (unsigned long long)seed, n);
            rf_write_dump(path, rf, s, whole, f, seed, want, got);
            cr_log_warn("random frame %llu, max_chunks %u (%u chunks): reads back %s:%s; written to %s",
                        (unsigned long long)seed, n, f->count, differs ? "wrong" : "right", which, path);
            wrong += differs;
        }
        parallel_frame_free(f);
    }
    parallel_reference_close(&ref);
    return wrong;
}

/* Random frames with aliasing on, under each order, recorded whole and
 * in chunks for every max_chunks from 1 to 16, in each mode the layer
 * allows (see layer_records_labels_on_threads): the same
 * calls once the cuts are taken out, the same bytes read back, no
 * validation message. RF_FIRST and RF_SEEDS pick other seeds (a longer
 * search by hand). */
/* Whether the validation layer records debug labels on several threads
 * at once without corrupting its heap: Debian 12's 1.3.239 does not
 * (Vulkan-ValidationLayers#5172, fixed in 1.3.243; serializing its label
 * calls, as the loggers do, is not enough), and the hundreds of threaded
 * frames of the random sweeps crashed it now and then. There they are
 * recorded by the loop alone; Debian 13's stack and the H200 record them
 * on threads too. */
static bool layer_records_labels_on_threads(void)
{
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties(&n, NULL);
    VkLayerProperties *p = calloc(n ? n : 1, sizeof *p);
    cr_assert_not_null(p);
    vkEnumerateInstanceLayerProperties(&n, p);
    bool safe = true;
    for (uint32_t i = 0; i < n; i++)
        if (strcmp(p[i].layerName, "VK_LAYER_KHRONOS_validation") == 0)
            safe = p[i].specVersion >= VK_MAKE_API_VERSION(0, 1, 3, 243);
    free(p);
    return safe;
}

static void random_frames(uint64_t first_seed, uint32_t count, uint32_t steps)
{
    parallel_sweep_first = layer_records_labels_on_threads() || getenv("RF_THREADS") ? MODE_WORKERS : MODE_HAND;
    cr_log_info("random frames recorded from mode '%s' on", parallel_mode_names[parallel_sweep_first]);
    rg_device *dev = parallel_logging_device();
    scene *s = calloc(1, sizeof *s);
    parallel_scene_open(s);
    eng_buffer_destroy(s->readback);
    s->readback_size = RF_READBACK_BYTES;
    s->readback = test_host_buffer(s->readback_size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, NULL);
    static const uint32_t maxes[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };
    cut_stats st = { 0 };
    uint32_t aliased = 0, wrong = 0;
    const char *dump = getenv("RF_DUMP");
    rf_accept = getenv("RF_ACCEPT") && atoi(getenv("RF_ACCEPT"));
    if (rf_accept)
        rf_format_count = sizeof rf_formats / sizeof rf_formats[0];
    const char *env = getenv("RF_FORMATS");
    if (env && atoi(env) >= 1 && (size_t)atoi(env) <= sizeof rf_formats / sizeof rf_formats[0])
        rf_format_count = (uint32_t)atoi(env);
    env = getenv("RF_SEEDS");
    if (env)
        count = (uint32_t)atoi(env);
    if ((env = getenv("RF_STEPS")))
        steps = (uint32_t)atoi(env);
    if ((env = getenv("RF_FIRST")))
        first_seed = (uint64_t)atoll(env);
    for (uint64_t seed = first_seed; seed < first_seed + count; seed++) {
        s->cost = 0;
        s->user_count = 0;
        rg_order order = (rg_order)(seed % 3);
        rf_frame kept;
        rg_graph *g = declare_random(dev, s, seed, order, steps, &kept);
        cr_log_info("random frame %llu: %u commands, %u textures, order %d", (unsigned long long)seed, s->user_count,
                    kept.texture_count, (int)order);
        if (dump)
            wrong += rf_search(&kept, s, seed, dump);
        else
            parallel_sweep(g, s, maxes, sizeof maxes / sizeof maxes[0], s->readback_size, &st);
        rg_memory_totals t = rg_memory_get_totals(g);
        aliased += t.pooled < t.unaliased;
        rg_graph_destroy(g);
    }
    if (dump) {
        cr_log_info("%u chunked frames read back wrong (written to %s)", wrong, dump);
    } else {
        cr_expect_gt(st.resumed, 0, "no chunk resumed an instance");
    }
    cr_expect_gt(aliased, 0, "none of %u frames aliased", count);
    cr_log_info("%u of %u frames aliased, %u chunks resumed", aliased, count, st.resumed);
    parallel_sweep_first = MODE_WORKERS;
    parallel_scene_close(s);
    free(s);
    rg_device_destroy(dev);
}

DEVICE_TEST(execute_parallel, random_frames_small)
{
    random_frames(1, 6, 20);
}

DEVICE_TEST(execute_parallel, random_frames_wide)
{
    random_frames(101, 4, 45);
}

