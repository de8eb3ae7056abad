/* rgtool's internal header: the options every subcommand takes, a frame's
 * plan gathered into plain data (so that printing and diffing never call
 * into the graph), and each file's entry points.
 *
 * The flow: rgt_load reads a frame file for a profile and size and places
 * it without a device (load.c); rgt_plan_gather copies what the compile
 * and placement decided into an rgt_plan (plan.c); print_text.c and
 * print_json.c write one plan; diff.c compares two (diff.h) and
 * diff_text.c / diff_json.c print the comparison; export.c writes DOT and
 * the memory timeline; check.c compares frames' figures with expected
 * values; names.c names enums; main.c parses arguments.
 * tests/frames/check_rgtool.sh is the smoke check on the demo frames. */
#ifndef RGTOOL_H
#define RGTOOL_H

#include <rendergraph_frame/rendergraph_frame.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Exit statuses, as diff(1): 0 same (or success), 1 different, 2 trouble. */
enum {
    RGT_EXIT_OK = 0,
    RGT_EXIT_DIFFERENT = 1,
    RGT_EXIT_TROUBLE = 2
};

/* The command line's options; zero is the default. */
typedef struct rgt_options {
    const char *profile;    /* an rg_tile_info.key; NULL: the saved profile */
    rg_merge merge;         /* --merge, when merge_given; else as saved */
    bool merge_given;
    uint32_t width, height; /* --size; 0: as saved */
    bool json;              /* one JSON object on stdout */
    bool verbose;           /* every barrier, every resource */
    bool update;            /* check: write the new values */
    const char *output;     /* -o for dot and timeline */
    /* diff: B's own profile and size (--profile-b, --size-b); NULL, 0: as A's. */
    const char *profile_b;
    uint32_t width_b, height_b;
    /* What loading's messages open with; NULL: "rgtool" (check gives its
     * file and line: "expected.txt:5"). */
    const char *where;
} rgt_options;

/* One message of the graph's log, copied (notices come at compile). */
typedef struct rgt_note {
    rg_log_level level;
    char *text;
} rgt_note;

/* A loaded, placed frame and what its log said. */
typedef struct rgt_frame {
    rgf_frame *frame;
    rg_graph *graph;         /* rgf_frame_graph(frame) */
    rg_tile_profile profile; /* what it compiled for (AUTO resolved to desktop) */
    rgf_memory memory;       /* the source rgf_frame_place used */
    rg_device_caps caps;     /* what it compiled for */
    rgt_note *notes;
    uint32_t note_count, note_capacity;
    bool out_of_memory; /* a note could not be kept */
} rgt_frame;

/* A command of the execution order, or a culled one. */
typedef struct rgt_command {
    const char *name; /* valid while the frame is */
    rg_command_type type;
    rg_command_kind kind;
    uint32_t declared; /* place in record order */
    uint32_t position; /* in the execution order; RG_INDEX_NONE when culled */
    rg_queue queue;
    uint32_t batch;          /* RG_INDEX_NONE when culled */
    uint32_t span;           /* RG_INDEX_NONE outside spans */
    uint32_t instance;       /* rendering instance; RG_INDEX_NONE outside spans */
    bool merged;             /* its instance holds more than its span */
    uint32_t barriers;       /* barriers recorded right before it */
    const char *span_name;   /* a culled command's span's begin, else NULL */
    const char *cull_reason; /* culled: the notice's reason (a note's text), or NULL */
} rgt_command;

/* One barrier as rg_execute records it after placement. */
typedef struct rgt_barrier {
    uint32_t position;    /* recorded before this order position; RG_INDEX_NONE: at the end */
    const char *resource; /* "" for a memory barrier */
    bool is_texture, hoisted, by_region;
    VkImageLayout old_layout, new_layout;
    VkPipelineStageFlags2 src_stage, dst_stage;
    VkAccessFlags2 src_access, dst_access;
} rgt_barrier;

typedef struct rgt_merge {
    const char *first, *second; /* the spans' begin commands' names */
    bool merged;
    const char *reason; /* "" when merged */
} rgt_merge;

typedef struct rgt_queue_note {
    const char *command;
    rg_queue eligible;
    const char *reason;
} rgt_queue_note;

/* What compile and placement decided, as data. Pointers borrow from the
 * frame (names, cull reasons) and its notes: free the plan first. */
typedef struct rgt_plan {
    const char *file;
    rgf_frame_info info;
    const char *profile_key, *profile_name;
    rgf_memory memory;
    rg_merge merge;     /* the graph's merge setting */
    rgt_command *order; /* the execution order */
    uint32_t order_count;
    rgt_command *culled; /* declaration order */
    uint32_t culled_count;
    rgt_barrier *barriers;
    uint32_t barrier_count;
    uint32_t final_barriers; /* recorded after the last command */
    rgt_merge *merges;
    uint32_t merge_count, merges_taken;
    rg_batch_info *batches;
    uint32_t batch_count;
    rgt_queue_note *queue_notes;
    uint32_t queue_note_count;
    rg_resource_info *resources; /* every declared resource, placed */
    uint32_t resource_count;
    rg_memory_totals totals;
    uint32_t instance_count;
    /* Each instance's tile view under profile, and the frame's traffic (tiles.c). */
    rg_tile_profile profile;
    rg_tile_view *tiles;
    rg_tile_traffic tile_total;
    const rgt_note *notes; /* the frame's */
    uint32_t note_count;
    /* The saved requirements placement modelled instead, a line each
     * (rgf_frame_info.memory_notes); they live in memory_text. */
    const char **memory_notes;
    uint32_t memory_note_count;
    char *memory_text;
} rgt_plan;

/* load.c: reads path at the options' profile and size and places it
 * (RGF_MEMORY_AUTO). On failure prints the reason to stderr and returns
 * false; *out is then empty. */
bool rgt_load(const char *path, const rgt_options *options, rgt_frame *out);
void rgt_frame_free(rgt_frame *frame);
/* "saved" or "model". */
const char *rgt_memory_source_name(rgf_memory memory);

/* plan.c: gathers the placed frame's plan; false (printed) on failure. */
bool rgt_plan_gather(const char *file, const rgt_frame *frame, rgt_plan *out);
void rgt_plan_free(rgt_plan *plan);

/* names.c: short names for the enums the outputs print. */
const char *rgt_command_type_name(rg_command_type type);
const char *rgt_memory_kind_name(rg_memory_kind kind);
const char *rgt_resource_kind_name(rg_resource_kind kind);
const char *rgt_merge_name(rg_merge merge);
bool rgt_merge_from_name(const char *name, rg_merge *out);
/* The figures of rg_memory_totals, by index, for printing and diffing. */
enum {
    RGT_TOTAL_COUNT = 7
};
const char *rgt_total_name(uint32_t index);
uint64_t rgt_total_value(const rg_memory_totals *totals, uint32_t index);

/* tiles.c: the plan's tile views (false: out of memory, a failed query),
 * printed as text and added to a plan's JSON. */
struct cJSON;
bool rgt_tiles_gather(const rgt_frame *frame, rgt_plan *plan);
void rgt_print_tiles_text(const rgt_plan *plan, FILE *out);
void rgt_add_tiles_json(const rgt_plan *plan, struct cJSON *root);

/* print_text.c / print_json.c: one plan to out. */
void rgt_print_text(const rgt_plan *plan, bool verbose, FILE *out);
bool rgt_print_json(const rgt_plan *plan, bool verbose, FILE *out);
/* The plan's memory notes, each line indented, or as a JSON array of
 * strings (NULL when out of memory): plan and diff print them. */
void rgt_print_memory_notes(const rgt_plan *plan, const char *indent, FILE *out);
struct cJSON *rgt_memory_notes_json(const rgt_plan *plan);

/* diff.c: compares two plans, prints the result (text or JSON) and
 * returns RGT_EXIT_OK when they plan the same, RGT_EXIT_DIFFERENT when
 * not, RGT_EXIT_TROUBLE on failure. */
int rgt_diff(const rgt_plan *a, const rgt_plan *b, bool json, FILE *out);

/* check.c: rgtool check EXPECTED.txt [--update]: each line's frame
 * planned and its figures compared with the values the line expects (or,
 * updating, written back); an exit status. */
int rgt_check(const char *expected, bool update);

/* export.c: the DOT graph and the memory timeline; an exit status. */
int rgt_write_dot(const rgt_frame *frame, const char *path);
int rgt_write_timeline(const rgt_frame *frame, const char *path);

#endif /* RGTOOL_H */
