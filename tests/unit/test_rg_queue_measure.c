/* The measured queue policy (RG_QUEUE_POLICY_MEASURED), device-free: its
 * state from compile to choice with the frames' times given by the test
 * (RG__WHEN_FRAME_TIMED, which record_timings.c tells of each completed
 * frame's span on the GPU), the switch a frame's submission makes
 * (rg__queues_switch), the decision's rule (rg__queues_decide), the log
 * a choice kept for the same declaration and
 * measured again for a new one, and the cases it cannot measure. The
 * device test (tests/device/test_rg_queue_measure.c) times real frames
 * and reads the report. */
#include "rg_queues_unit.h"

#include "execute/stages.h"
#include "model.h"

#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct logged {
    char text[4096];
} logged;

static void keep(void *user, rg_log_level level, const char *object, const char *message)
{
    (void)level;
    (void)object;
    logged *l = user;
    size_t len = strlen(l->text);
    snprintf(l->text + len, sizeof l->text - len, "%s\n", message);
}

/* A span, an async dispatch reading what it drew, a span reading that;
 * `extra` adds a second dispatch (another declaration). */
static void declare(rg_graph *g, bool extra)
{
    rg_texture lit = test_color(g, "lit"), ao = test_color(g, "ao"), out = test_color(g, "out");
    test_begin(g, "scene", lit);
    rg_end_rendering(g);
    test_async(g, "ssao", TEX(lit, SMC), TEX(ao, SWC));
    if (extra)
        test_async(g, "blur", TEX(ao, SMC), TEX(test_color(g, "blurred"), SWC));
    test_begin(g, "light", out);
    test_draw(g, "resolve", TEX(ao, SMF));
    rg_end_rendering(g);
}

static void compile(rg_graph *g)
{
    rg_result r = rg_compile(g);
    cr_assert_eq(r, RG_SUCCESS, "compile: %s (%s)", rg_result_string(r), rg_graph_error_message(g));
}

/* A graph of the measured policy on caps, with `timings`, logging into
 * log, declared (declare(g, false)) and compiled. */
static rg_graph *measured_graph(const rg_device_caps *caps, bool timings, logged *log)
{
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "measured", .no_culling = true, .caps = caps,
                                                  .queue_policy = RG_QUEUE_POLICY_MEASURED, .timings = timings,
                                                  .log = keep, .log_user = log},
                                 &g),
                 RG_SUCCESS);
    declare(g, false);
    compile(g);
    return g;
}

/* A completed frame's time on the GPU, as record_timings.c tells it. */
static void frame_timed(rg_graph *g, double ms)
{
    rg__measure(g, (rg__measure_event){.kind = RG__WHEN_FRAME_TIMED, .ms = ms});
}

static rg_queue_choice choice_of(const rg_graph *g)
{
    rg_queue_choice c;
    cr_assert_eq(rg_queue_choice_get(g, &c), RG_SUCCESS);
    return c;
}

/* Frames of the way compiled now: the three passed over after placement,
 * then n timed at ms each (+ step * i). */
static void frames(rg_graph *g, uint32_t n, double ms, double step)
{
    for (uint32_t i = 0; i < 3; i++)
        frame_timed(g, 1000.0); /* passed over: would swamp any median */
    for (uint32_t i = 0; i < n; i++)
        frame_timed(g, ms + step * i);
}

/* A measured graph whose async compute was timed (3 ms a frame), switched
 * to one queue. */
static rg_graph *timed_async_then_one_queue(logged *log)
{
    rg_graph *g = measured_graph(&queues_both_queues, true, log);
    frames(g, RG_QUEUE_MEASURE_FRAMES, 3.0, 0.0);
    rg__queues_switch(g, "test");
    cr_assert_eq(rg_batch_count(g), 1);
    return g;
}

/* Async first; after its frames the switch compiles one queue; after
 * those, the choice. Returns the choice. */
static rg_queue_choice measure(rg_graph *g, double async_ms, double single_ms, double step)
{
    cr_assert_gt(rg_batch_count(g), 1, "async compute is measured first");
    rg_queue_choice c = choice_of(g);
    cr_expect_eq(c.state, RG_QUEUE_CHOICE_MEASURING);
    cr_expect(c.async);
    frames(g, RG_QUEUE_MEASURE_FRAMES - 1, async_ms, step);
    cr_expect_not(rg__measure_switch_due(g), "one frame short");
    rg__queues_switch(g, "test");
    cr_expect_gt(rg_batch_count(g), 1, "no switch before the frames are in");
    frame_timed(g, async_ms);
    cr_expect(rg__measure_switch_due(g));
    cr_expect_eq(choice_of(g).frames, RG_QUEUE_MEASURE_FRAMES);
    rg__queues_switch(g, "test");
    cr_expect_eq(rg_batch_count(g), 1, "then one queue");
    c = choice_of(g);
    cr_expect_eq(c.state, RG_QUEUE_CHOICE_MEASURING);
    cr_expect_not(c.async);
    cr_expect_eq(c.frames, 0);
    frames(g, RG_QUEUE_MEASURE_FRAMES, single_ms, step);
    c = choice_of(g);
    cr_expect_eq(c.state, RG_QUEUE_CHOICE_MADE);
    cr_expect_eq(c.frames, RG_QUEUE_MEASURE_FRAMES);
    rg__queues_switch(g, "test");
    cr_expect_eq(rg_batch_count(g) > 1, c.async, "the way kept is the way compiled");
    return c;
}

Test(rg_queue_measure, async_compute_kept_where_it_is_faster)
{
    logged log = {0};
    rg_graph *g = measured_graph(&queues_both_queues, true, &log);
    rg_queue_choice c = measure(g, 4.0, 7.5, 0.001);
    cr_expect(c.async);
    cr_expect(fabs(c.async_ms - 4.006) < 1e-9, "%f", c.async_ms);
    cr_expect(fabs(c.single_ms - 7.507) < 1e-9, "%f", c.single_ms);
    cr_expect_str_eq(c.reason, "graph 'measured': async compute 4.006 ms, one queue 7.507 ms (medians of 15 frames, "
                               "spreads 0.004 and 0.004 ms): async compute kept, 46.6% faster");
    cr_expect(strstr(log.text, "queue policy measured: graph 'measured': async compute 4.006 ms"), "%s", log.text);
    rg_declaration d;
    cr_assert_eq(rg_declaration_get(g, &d), RG_SUCCESS);
    cr_expect_eq(d.desc.queue_policy, RG_QUEUE_POLICY_MEASURED);
    /* The same declaration again keeps the choice; no frame is timed. */
    rg_graph_reset(g);
    declare(g, false);
    compile(g);
    cr_expect_eq(choice_of(g).state, RG_QUEUE_CHOICE_MADE);
    cr_expect_gt(rg_batch_count(g), 1);
    frame_timed(g, 100.0);
    cr_expect_not(rg__measure_switch_due(g));
    /* Another declaration is measured afresh. */
    rg_graph_reset(g);
    declare(g, true);
    compile(g);
    c = choice_of(g);
    cr_expect_eq(c.state, RG_QUEUE_CHOICE_MEASURING);
    cr_expect_eq(c.frames, 0);
    cr_expect_gt(rg_batch_count(g), 1);
    rg_graph_destroy(g);
}

Test(rg_queue_measure, one_queue_kept_where_async_compute_is_slower)
{
    logged log = {0};
    rg_graph *g = measured_graph(&queues_both_queues, true, &log);
    rg_queue_choice c = measure(g, 5.2, 5.0, 0.0);
    cr_expect_not(c.async);
    cr_expect_eq(rg_batch_count(g), 1, "stays on one queue: no switch due");
    cr_expect(strstr(c.reason, "one queue kept: async compute is 4.0% slower"), "%s", c.reason);
    rg_graph_destroy(g);
}

/* Faster by less than the noise is not faster. */
Test(rg_queue_measure, a_gain_within_the_noise_keeps_one_queue)
{
    logged log = {0};
    rg_graph *g = measured_graph(&queues_both_queues, true, &log);
    rg_queue_choice c = measure(g, 4.99, 5.0, 0.0);
    cr_expect_not(c.async, "0.2%% is within the 0.5%% floor");
    cr_expect(strstr(c.reason, "one queue kept: async compute is 0.2% faster, within the noise (0.5%)"), "%s",
              c.reason);
    rg_graph_destroy(g);
}

Test(rg_queue_measure, the_rule_weighs_the_spreads)
{
    double fast_noisy[RG_QUEUE_MEASURE_FRAMES], steady[RG_QUEUE_MEASURE_FRAMES];
    for (uint32_t i = 0; i < RG_QUEUE_MEASURE_FRAMES; i++) {
        fast_noisy[i] = 4.8 + (i % 5) * 0.1; /* median 5.0, quartiles 4.9 and 5.1 */
        steady[i] = 5.05;
    }
    fast_noisy[0] = fast_noisy[1] = fast_noisy[2] = 4.0; /* pulls the median down */
    rg_queue_choice c;
    char why[256];
    bool async = rg__queues_decide(fast_noisy, steady, RG_QUEUE_MEASURE_FRAMES, &c, why, sizeof why);
    cr_expect_lt(c.async_ms, c.single_ms);
    cr_expect_gt(c.async_spread, c.single_ms - c.async_ms, "a spread wider than the gain");
    cr_expect_not(async, "%s", why);
    cr_expect_eq(c.async, async);
    /* Without the spread the same gain is kept. */
    for (uint32_t i = 0; i < RG_QUEUE_MEASURE_FRAMES; i++)
        fast_noisy[i] = c.async_ms;
    cr_expect(rg__queues_decide(fast_noisy, steady, RG_QUEUE_MEASURE_FRAMES, &c, why, sizeof why), "%s", why);
    /* Ties keep one queue. */
    cr_expect_not(rg__queues_decide(steady, steady, RG_QUEUE_MEASURE_FRAMES, &c, why, sizeof why));
}

Test(rg_queue_measure, without_timings_eligible_commands_stay_on_their_queues)
{
    logged log = {0};
    rg_graph *g = measured_graph(&queues_both_queues, false, &log);
    rg_queue_choice c = choice_of(g);
    cr_expect_eq(c.state, RG_QUEUE_CHOICE_UNMEASURED);
    cr_expect(c.async);
    cr_expect_gt(rg_batch_count(g), 1);
    cr_expect(strstr(log.text, "graph 'measured' has timings off (rg_graph_desc.timings, rg_graph_set_timings): "
                               "eligible commands stay on their queues, unmeasured"), "%s", log.text);
    rg_graph_destroy(g);
}

/* Timings turned off while measuring on one queue: back to the eligible
 * queues, unmeasured; on again, the measurement goes on. */
Test(rg_queue_measure, timings_turned_off_stop_the_measurement)
{
    logged log = {0};
    rg_graph *g = timed_async_then_one_queue(&log);
    cr_assert_eq(rg_graph_set_timings(g, false), RG_SUCCESS);
    cr_expect_eq(choice_of(g).state, RG_QUEUE_CHOICE_UNMEASURED);
    cr_expect(strstr(log.text, "had its timings turned off while measuring"), "%s", log.text);
    rg__queues_switch(g, "test");
    cr_expect_gt(rg_batch_count(g), 1, "back on the eligible queues");
    /* On again: async compute was timed already, so one queue next. */
    cr_assert_eq(rg_graph_set_timings(g, true), RG_SUCCESS);
    frames(g, 1, 3.0, 0.0);
    cr_expect_eq(choice_of(g).state, RG_QUEUE_CHOICE_MEASURING);
    cr_expect(rg__measure_switch_due(g));
    rg__queues_switch(g, "test");
    cr_assert_eq(rg_batch_count(g), 1);
    frames(g, RG_QUEUE_MEASURE_FRAMES, 3.0, 0.0);
    cr_expect_eq(choice_of(g).state, RG_QUEUE_CHOICE_MADE, "%s", choice_of(g).reason);
    rg_graph_destroy(g);
}

/* A queue without timestamps: the frame cannot be timed whole; a graph
 * caught on one queue goes back to its eligible queues. */
Test(rg_queue_measure, a_queue_without_timestamps_is_unmeasured)
{
    logged log = {0};
    rg_graph *g = timed_async_then_one_queue(&log);
    frame_timed(g, -1.0);
    cr_expect_eq(choice_of(g).state, RG_QUEUE_CHOICE_UNMEASURED);
    cr_expect(strstr(log.text, "has no timestamps"), "%s", log.text);
    rg__queues_switch(g, "test");
    cr_expect_gt(rg_batch_count(g), 1, "back on the eligible queues");
    frame_timed(g, 3.0);
    cr_expect_eq(choice_of(g).state, RG_QUEUE_CHOICE_UNMEASURED);
    cr_expect_not(rg__measure_switch_due(g));
    rg_graph_destroy(g);
}

Test(rg_queue_measure, nothing_to_measure_on_one_queue)
{
    logged log = {0};
    rg_graph *g = measured_graph(&(rg_device_caps){.compute_queue = false}, true, &log);
    rg_queue_choice c = choice_of(g);
    cr_expect_eq(c.state, RG_QUEUE_CHOICE_NONE);
    cr_expect(strstr(c.reason, "runs on the graphics queue"), "%s", c.reason);
    frames(g, 2 * RG_QUEUE_MEASURE_FRAMES, 1.0, 0.0);
    cr_expect_not(rg__measure_switch_due(g));
    rg_graph_destroy(g);
}

Test(rg_queue_measure, the_other_policies_and_bad_values)
{
    logged log = {0};
    rg_graph *g = NULL;
    cr_expect_eq(rg_graph_create(&(rg_graph_desc){.queue_policy = (rg_queue_policy)7}, &g),
                 RG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(g);
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.caps = &queues_both_queues, .no_culling = true,
                                                  .queue_policy = RG_QUEUE_POLICY_SINGLE, .log = keep,
                                                  .log_user = &log}, &g), RG_SUCCESS);
    declare(g, false);
    compile(g);
    cr_expect_eq(rg_batch_count(g), 1);
    rg_queue_choice c = choice_of(g);
    cr_expect_eq(c.state, RG_QUEUE_CHOICE_NONE);
    cr_expect_not(c.async);
    rg_declaration d;
    cr_assert_eq(rg_declaration_get(g, &d), RG_SUCCESS);
    cr_expect(d.desc.single_queue, "SINGLE is single_queue");
    cr_expect_eq(rg_queue_choice_get(g, NULL), RG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(log.text, "rg_queue_choice_get: out is NULL"), "%s", log.text);
    cr_expect_eq(rg_queue_choice_get(NULL, &c), RG_ERROR_INVALID_ARGUMENT);
    rg_graph_destroy(g);
    /* single_queue wins over a measured policy. */
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.caps = &queues_both_queues, .no_culling = true, .single_queue = true,
                                                  .queue_policy = RG_QUEUE_POLICY_MEASURED}, &g), RG_SUCCESS);
    declare(g, false);
    compile(g);
    cr_expect_eq(rg_batch_count(g), 1);
    cr_assert_eq(rg_declaration_get(g, &d), RG_SUCCESS);
    cr_expect_eq(d.desc.queue_policy, RG_QUEUE_POLICY_SINGLE);
    rg_graph_destroy(g);
}
