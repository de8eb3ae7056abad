/* The fuzz harness's recording: the journal declared again on a graph of
 * the null device and recorded whole and in chunks (record_check.c
 * compares them). */
#include "fuzz_graph.h"

/* Frames recorded on the null device (record_check.h). After a compile of
 * the fuzzed graph succeeds, its declaration is made again from the
 * journal, call for call, on a graph of a null device with the same
 * options and caps (so it compiles to the same order and batches, which is
 * checked), placed on that device, and recorded whole and in chunks; a
 * declaration is recorded once until it changes. The fuzzed graph itself
 * stays device-free, so its offline placements go on as before. The
 * twin's user commands record a line each naming their journal call and
 * the objects rg_record_image, rg_record_view and rg_record_buffer hand
 * them, and cost 1 to 5 (sometimes 40), so chunks are cut unevenly. */

typedef struct twin_user {
    uint32_t call;                    /* its journal index */
    uint32_t count;
    rg_access accesses[8];
} twin_user;

typedef struct twin {
    fz *f;
    rg_graph *g;
    uint32_t (*map)[2];               /* the fuzzed graph's handle, the twin's */
    uint32_t map_count;
    twin_user *users;                 /* per journal call */
    rc_import *imports;
    uint32_t import_count;
} twin;

static void twin_put(twin *t, uint32_t from, uint32_t to)
{
    t->map[t->map_count][0] = from;
    t->map[t->map_count++][1] = to;
}

/* The twin's handle for one of the fuzzed graph's (0 for 0). */
static uint32_t twin_id(const twin *t, uint32_t from)
{
    if (from == 0)
        return 0;
    for (uint32_t i = t->map_count; i-- > 0;)
        if (t->map[i][0] == from)
            return t->map[i][1];
    CHECK(false, "%s: the journal names handle 0x%x, which no journal call made", t->f->op_name, from);
    return 0;
}

static rg_texture twin_tex(const twin *t, rg_texture x) { return (rg_texture){twin_id(t, x.id)}; }
static rg_buffer twin_buf(const twin *t, rg_buffer x) { return (rg_buffer){twin_id(t, x.id)}; }

static bool twin_record(const rg_record_context *rc, void *user)
{
    const twin_user *u = user;
    char line[480], h1[40], h2[40];
    int at = snprintf(line, sizeof line, "user (journal call %u)", u->call);
    for (uint32_t k = 0; k < u->count && at > 0 && (size_t)at < sizeof line; k++) {
        const rg_access *a = &u->accesses[k];
        if (a->texture.id)
            at += snprintf(line + at, sizeof line - (size_t)at, " | access %u %s %s", k,
                           null_handle_name((uint64_t)(uintptr_t)rg_record_image(rc, a->texture), h1, sizeof h1),
                           null_handle_name((uint64_t)(uintptr_t)rg_record_view(rc, a->texture), h2, sizeof h2));
        else if (a->buffer.id)
            at += snprintf(line + at, sizeof line - (size_t)at, " | access %u %s", k,
                           null_handle_name((uint64_t)(uintptr_t)rg_record_buffer(rc, a->buffer), h1, sizeof h1));
    }
    null_cmd_note(rg_record_cmd(rc), "%s", line);
    return true;
}

/* The journal's calls on t->g; each must be accepted. */
static void twin_declare(twin *t)
{
    const fz *f = t->f;
    for (uint32_t i = 0; i < f->journal_count; i++) {
        const jcall *j = &f->journal[i];
        const char *nm = j->named ? j->name : NULL;
        uint32_t got = 0, got2 = 0;
        switch (j->kind) {
        case J_TEXTURE:
        case J_HISTORY: {
            rg_texture_desc d = j->u.texture;
            d.name = nm;
            d.size_of = twin_tex(t, d.size_of);
            rg_texture prev = {0};
            got = (j->kind == J_TEXTURE ? rg_texture_create(t->g, &d) : rg_texture_create_history(t->g, &d, &prev)).id;
            got2 = prev.id;
            break;
        }
        case J_TEXTURE_IMPORT: {
            rg_texture_import_desc d = j->u.import;
            d.name = nm;
            got = rg_texture_import(t->g, &d).id;
            t->imports[t->import_count++] = (rc_import){{got}, d.initial_layout, d.final_layout};
            break;
        }
        case J_BUFFER: {
            rg_buffer_desc d = j->u.buffer;
            d.name = nm;
            got = rg_buffer_create(t->g, &d).id;
            break;
        }
        case J_BUFFER_IMPORT: {
            rg_buffer_import_desc d = j->u.buffer_import;
            d.name = nm;
            got = rg_buffer_import(t->g, &d).id;
            break;
        }
        case J_USER: {
            rg_user_desc d = j->u.user.desc;
            twin_user *u = &t->users[i];
            u->call = i;
            u->count = d.access_count < 8 ? d.access_count : 8;
            for (uint32_t k = 0; k < 8; k++) {
                u->accesses[k] = j->u.user.accesses[k];
                u->accesses[k].texture = twin_tex(t, u->accesses[k].texture);
                u->accesses[k].buffer = twin_buf(t, u->accesses[k].buffer);
            }
            d.name = nm;
            d.accesses = j->u.user.has_accesses ? u->accesses : NULL;
            d.record = twin_record;
            d.user = u;
            d.cost = i % 11 == 7 ? 40 : 1 + i % 5;
            got = rg_cmd_user(t->g, &d).id;
            break;
        }
        case J_COPY_BUFFER:
            got = rg_cmd_copy_buffer(t->g, (rg_buffer){twin_id(t, j->u.copy_buffer.src)}, j->u.copy_buffer.src_offset,
                                     (rg_buffer){twin_id(t, j->u.copy_buffer.dst)}, j->u.copy_buffer.dst_offset,
                                     j->u.copy_buffer.size).id;
            break;
        case J_COPY_TO_TEXTURE:
        case J_COPY_TO_BUFFER: {
            rg_buffer b = {twin_id(t, j->u.copy_image.buffer)};
            rg_texture x = {twin_id(t, j->u.copy_image.texture)};
            uint32_t mip = j->u.copy_image.mip, layer = j->u.copy_image.layer, count = j->u.copy_image.count;
            got = (j->kind == J_COPY_TO_TEXTURE
                       ? rg_cmd_copy_buffer_to_texture(t->g, b, j->u.copy_image.offset, x, mip, layer, count)
                       : rg_cmd_copy_texture_to_buffer(t->g, x, mip, layer, count, b, j->u.copy_image.offset))
                      .id;
            break;
        }
        case J_ALLOW_QUEUE:
            rg_command_allow_queue(t->g, (rg_command){twin_id(t, j->u.allow.command)}, j->u.allow.queue);
            got = rg_graph_error(t->g) == RG_SUCCESS;
            break;
        case J_CLEAR:
            got = rg_cmd_clear_texture(t->g, (rg_texture){twin_id(t, j->u.clear.texture)},
                                       j->u.clear.has_range ? &j->u.clear.range : NULL,
                                       j->u.clear.has_value ? &j->u.clear.value : NULL).id;
            break;
        case J_BLIT:
            got = rg_cmd_blit(t->g, (rg_texture){twin_id(t, j->u.blit.src)}, j->u.blit.src_mip,
                              (rg_texture){twin_id(t, j->u.blit.dst)}, j->u.blit.dst_mip, j->u.blit.filter).id;
            break;
        case J_BEGIN: {
            rg_rendering_desc d = j->u.begin;
            d.name = nm;
            for (uint32_t k = 0; k <= RG_MAX_COLOR_ATTACHMENTS; k++) {
                rg_attachment *a = k < RG_MAX_COLOR_ATTACHMENTS ? &d.colors[k] : &d.depth;
                a->texture = twin_tex(t, a->texture);
                a->resolve = twin_tex(t, a->resolve);
            }
            got = rg_begin_rendering(t->g, &d).id;
            break;
        }
        case J_END:
            got = rg_end_rendering(t->g).id;
            break;
        }
        CHECK(got != 0, "%s: the null device's graph refused journal call %u (kind %d), which the fuzzed graph "
              "accepted: %s", f->op_name, i, (int)j->kind, rg_graph_error_message(t->g));
        if (j->made[0])
            twin_put(t, j->made[0], got);
        if (j->made[1])
            twin_put(t, j->made[1], got2);
    }
}

/* The twin compiled to the fuzzed graph's order and batches. */
static void twin_same_compile(const twin *t)
{
    const fz *f = t->f;
    const rg_command *a = NULL, *b = NULL;
    uint32_t n = rg_execution_order(f->g, &a), m = rg_execution_order(t->g, &b);
    CHECK(n == m, "%s: the null device's graph runs %u commands, the fuzzed graph %u", f->op_name, m, n);
    for (uint32_t i = 0; i < n; i++)
        CHECK(twin_id(t, a[i].id) == b[i].id, "%s: the null device's graph runs another command at %u", f->op_name,
              i);
    CHECK(rg_batch_count(f->g) == rg_batch_count(t->g), "%s: %u batches, the null device's graph %u", f->op_name,
          rg_batch_count(f->g), rg_batch_count(t->g));
    for (uint32_t i = 0; i < rg_batch_count(f->g); i++) {
        rg_batch_info x, y;
        CHECK(rg_batch_get(f->g, i, &x) == RG_SUCCESS && rg_batch_get(t->g, i, &y) == RG_SUCCESS &&
                  x.queue == y.queue && x.first == y.first && x.last == y.last && x.wait_count == y.wait_count,
              "%s: batch %u differs on the null device's graph", f->op_name, i);
    }
}

/* The max_chunks of the frames in chunks: 0 to 16 and 1000 (a chunk
 * wherever one may start) replaying files; fuzzing, two picked by the
 * input. *reverse: one more frame's, its chunks recorded last to first. */
static uint32_t chunk_asks(uint32_t h, uint32_t *asks, uint32_t *reverse)
{
#ifdef FUZZ_STANDALONE
    (void)h;
    uint32_t n = 0;
    for (uint32_t k = 0; k <= 16; k++)
        asks[n++] = k;
    asks[n++] = 1000;
    *reverse = 1000;
    return n;
#else
    asks[0] = 1 + (h >> 8) % 16;
    asks[1] = (h >> 12) & 1 ? 1000 : 1 + (h >> 16) % 16;
    *reverse = 2 + (h >> 20) % 15;
    return 2;
#endif
}

/* One recording: the journal declared on a graph of a fresh null device,
 * compiled, placed and recorded (see record_check.h: keep_first keeps its
 * first frame; first records only the first frame, in chunks). */
static void record_on(fz *f, const device_table *table, bool labelled, bool timings, uint32_t h,
                      rc_first **keep_first, const rc_first *first)
{
    null_device *nd = null_device_create(&table->props, labelled);
    CHECK(nd != NULL, "the null device could not be made");
    twin t = {.f = f};
    t.map = calloc((size_t)f->journal_count * 2 + 1, sizeof *t.map);
    t.users = calloc((size_t)f->journal_count + 1, sizeof *t.users);
    t.imports = calloc((size_t)f->journal_count + 1, sizeof *t.imports);
    CHECK(t.map && t.users && t.imports, "out of memory");
    rg_result r = rg_graph_create(&(rg_graph_desc){.name = f->graph_name, .log = fz_silent, .device = null_device_rg(nd),
                                                   .no_aliasing = f->no_aliasing, .merge = f->merge, .caps = &f->caps,
                                                   .no_culling = f->no_culling,
                                                   .alias_proven_only = f->alias_proven_only, .order = f->order,
                                                   .single_queue = f->single_queue, .timings = timings},
                                  &t.g);
    CHECK(r == RG_SUCCESS, "rg_graph_create on the null device: %s", rg_result_string(r));
    twin_declare(&t);
    r = rg_compile(t.g);
    CHECK(r == RG_SUCCESS, "%s: the null device's graph fails to compile what the fuzzed graph compiled: %s",
          f->op_name, rg_graph_error_message(t.g));
    twin_same_compile(&t);
    r = rg_place(t.g);
    if (r != RG_SUCCESS) {
        /* Beyond what the null device offers (sizes, mips, layers). */
        CHECK(rg_graph_error_message(t.g)[0] != '\0', "rg_place failed without a message");
        if (fz_verbose && !first)
            fprintf(stderr, "  not recorded: rg_place on the null device: %s\n", rg_graph_error_message(t.g));
    } else {
        uint32_t asks[20], reverse;
        uint32_t n = chunk_asks(h, asks, &reverse);
        rc_stats before = f->stats;
#ifndef FUZZ_STANDALONE
        if (!record_has_history(t.g))
            keep_first = NULL; /* fuzzing: only history makes a first frame unlike the others */
#endif
        rc_options o = {.max_chunks = asks, .max_chunk_count = n, .reverse = reverse, .context = f->op_name,
                        .labelled = labelled, .keep_first = keep_first, .first = first,
                        .first_max_chunks = reverse, .dump = fz_dump != 0};
        record_check(t.g, nd, t.imports, t.import_count, &o, &f->stats);
        if (fz_verbose)
            fprintf(stderr, "  recorded on the null device (%s, labels %s, timings %s)%s: %u frames, %u command "
                    "buffers, %u chunks resumed (%u in a span, %u with local-read state, %u suspended again)\n",
                    table->name, labelled ? "on" : "off", timings ? "on" : "off",
                    first ? ", placed again, the first frame in chunks" : "", f->stats.frames - before.frames,
                    f->stats.chunks - before.chunks, f->stats.resumed - before.resumed,
                    f->stats.resumed_in_span - before.resumed_in_span,
                    f->stats.resumed_local_read - before.resumed_local_read,
                    f->stats.suspended_twice - before.suspended_twice);
    }
    rg_graph_destroy(t.g);
    null_device_destroy(nd);
    free(t.map);
    free(t.users);
    free(t.imports);
}

/* Records the declaration unless it was recorded as it is: placed on a
 * null device and recorded (the memory types from a hash of the input and
 * the recording's number; fuzzing, labels and timings too), then placed
 * again on a device of the same options to record its first frame in
 * chunks (fuzzing, only with history textures); replaying files, also once
 * more without labels and timings. */
void fz_record(fz *f)
{
    if (f->journal_gen == f->recorded_gen)
        return;
    f->recorded_gen = f->journal_gen;
    uint32_t h = f->hash ^ (0x9E3779B9u * ++f->sessions);
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    const device_table *table = &device_tables[(h >> 2) % device_table_count];
#ifdef FUZZ_STANDALONE
    bool labelled = true, timings = true;
#else
    bool labelled = h & 1, timings = (h >> 1) & 1;
#endif
    rc_first *first = NULL;
    record_on(f, table, labelled, timings, h, &first, NULL);
    if (first)
        record_on(f, table, labelled, timings, h, NULL, first);
    rc_first_free(first);
#ifdef FUZZ_STANDALONE
    record_on(f, table, false, false, h, NULL, NULL);
#endif
}

