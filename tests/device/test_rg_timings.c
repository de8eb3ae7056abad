/* GPU timings (rendergraph.h, "Timings") on a device: after a few frames
 * every rendering instance and every command outside spans that was
 * recorded has a time, named as declared, within its batch's time, the
 * sum within the frame's time the test measures itself; culled commands
 * have none; the latest completed frame is the one reported; the heaviest
 * passes are printed first, and the memory report ends with them. The
 * validation layer (synchronization included) stays silent, and the
 * device's destruction finds nothing of the graph's left (placement and
 * reset free the pools). On the graphics queue alone (lavapipe, or
 * rg_graph_desc.single_queue) and on several batches where the device has
 * a compute queue. The suite's other files: test_rg_timings_slots.c (query
 * slots, never waiting) and test_rg_timings_off.c (no timings). */
#include "device_fixture.h"
#include "rg_timings_support.h"
#include "test_chunks.h"
#include "rg_support.h"
#include "rg_spy.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <stdio.h>
#include <string.h>

TestSuite(rg_timings, .init = device_setup, .fini = device_teardown, .timeout = 60);

/* Four frames, each waited for; the fifth's execute reads them. */
static void timings_over_frames(bool single_queue)
{
    runner r;
    frame_graph fg;
    timings_open(&r, &fg, NULL, single_queue ? "timings one queue" : "timings", single_queue, true, 0);
    if (single_queue)
        cr_assert_eq(rg_batch_count(fg.g), 1);
    cr_log_info("%s: %u batches", single_queue ? "single queue" : "any queue", rg_batch_count(fg.g));
    timings_run_frame(&r, fg.g);
    /* Frame 1 is done on the GPU, yet nothing reads it before the next
     * execute. */
    double ms = 0.0;
    rg_timing t;
    cr_expect_eq(rg_command_get_time(fg.g, fg.marker, &ms), RG_ERROR_NOT_READY);
    cr_expect_eq(rg_timing_get(fg.g, 0, &t), RG_ERROR_NOT_READY);
    for (int i = 0; i < 3; i++)
        timings_run_frame(&r, fg.g);
    timings_run_frame(&r, fg.g);
    timings_check_frame(&r, &fg, 4);
    timings_close(&r, &fg);
}

DEVICE_TEST(rg_timings, every_pass_of_a_frame)
{
    timings_over_frames(false);
}

DEVICE_TEST(rg_timings, single_queue)
{
    timings_over_frames(true);
}

/* The print: the passes heaviest first, then the batches; the memory
 * report ends with it. */
DEVICE_TEST(rg_timings, print_heaviest_first)
{
    runner r;
    frame_graph fg;
    timings_open(&r, &fg, NULL, "timings print", false, true, 3);
    char path[256];
    test_temp_path(path, sizeof path, "timings.txt");
    FILE *f = fopen(path, "w+");
    cr_assert_not_null(f);
    cr_assert_eq(rg_timings_print(fg.g, f), RG_SUCCESS);
    rewind(f);
    char line[512];
    double last = 1e300;
    uint32_t passes = 0, batches = 0;
    while (fgets(line, sizeof line, f)) {
        double ms, share;
        if (sscanf(line, " %lf ms %lf%%", &ms, &share) == 2) {
            cr_expect_leq(ms, last, "not heaviest first: %s", line);
            last = ms;
            passes++;
        } else if (strstr(line, " ms ") && strstr(line, "batch ")) {
            batches++;
        }
    }
    cr_expect_eq(passes, 6, "%u pass lines", passes);
    cr_expect_eq(batches, rg_batch_count(fg.g));
    fclose(f);
    f = fopen(path, "w+");
    cr_assert_not_null(f);
    cr_assert_eq(rg_memory_report_print(fg.g, f), RG_SUCCESS);
    rewind(f);
    bool timings = false;
    while (fgets(line, sizeof line, f))
        timings = timings || strstr(line, "GPU timings of graph 'timings print'") != NULL;
    cr_expect(timings, "the memory report does not end with the timings");
    fclose(f);
    remove(path);
    timings_close(&r, &fg);
}
