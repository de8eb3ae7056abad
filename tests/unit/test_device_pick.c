/* eng_pick_physical_device with made-up candidate lists, no device. */
#include <criterion/criterion.h>
#include <engine/engine.h>
#include <stdio.h>
#include <string.h>

#define SENTINEL 0xDEADu

static eng_device_candidate dev(const char *name, VkPhysicalDeviceType type)
{
    eng_device_candidate c = { .dynamic_rendering = true, .synchronization2 = true, .graphics_queue = true };
    snprintf(c.properties.deviceName, sizeof c.properties.deviceName, "%s", name);
    c.properties.deviceType = type;
    c.properties.apiVersion = VK_MAKE_API_VERSION(0, 1, 3, 230);
    return c;
}

#define DISCRETE VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU
#define INTEGRATED VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU
#define VIRTUAL VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU
#define CPU VK_PHYSICAL_DEVICE_TYPE_CPU
#define OTHER VK_PHYSICAL_DEVICE_TYPE_OTHER

static uint32_t pick_ok(const eng_device_candidate *c, uint32_t n, const char *selector)
{
    uint32_t index = SENTINEL;
    eng_result r = eng_pick_physical_device(c, n, selector, &index);
    cr_assert_eq(r, ENG_SUCCESS, "selector '%s': %s: %s", selector ? selector : "(null)", eng_result_string(r),
                 eng_last_error());
    cr_assert_lt(index, n);
    return index;
}

static eng_result pick_fail(const eng_device_candidate *c, uint32_t n, const char *selector)
{
    uint32_t index = SENTINEL;
    eng_result r = eng_pick_physical_device(c, n, selector, &index);
    cr_assert_neq(r, ENG_SUCCESS, "selector '%s' picked %u", selector ? selector : "(null)", index);
    cr_assert_eq(index, SENTINEL, "output written on failure");
    cr_assert_neq(eng_last_error()[0], '\0', "no message");
    return r;
}

Test(device_pick, discrete_first)
{
    eng_device_candidate c[] = { dev("llvmpipe", CPU), dev("Intel UHD", INTEGRATED), dev("NVIDIA H200", DISCRETE),
                                 dev("virtio", VIRTUAL) };
    cr_expect_eq(pick_ok(c, 4, NULL), 2);
    cr_expect_eq(pick_ok(c, 4, ""), 2, "empty selector = automatic");
    cr_expect_eq(pick_ok(c, 2, NULL), 1, "integrated before CPU");
    eng_device_candidate d[] = { dev("llvmpipe", CPU), dev("virtio", VIRTUAL) };
    cr_expect_eq(pick_ok(d, 2, NULL), 1, "virtual before CPU");
    eng_device_candidate e[] = { dev("odd", OTHER), dev("llvmpipe", CPU) };
    cr_expect_eq(pick_ok(e, 2, NULL), 1, "CPU before other");
}

Test(device_pick, ties_keep_enumeration_order)
{
    eng_device_candidate c[] = { dev("llvmpipe", CPU), dev("GPU A", DISCRETE), dev("GPU B", DISCRETE) };
    cr_expect_eq(pick_ok(c, 3, NULL), 1);
}

Test(device_pick, incapable_devices_are_never_picked)
{
    eng_device_candidate c[] = { dev("old discrete", DISCRETE), dev("no sync2", DISCRETE), dev("no dr", DISCRETE),
                                 dev("no queue", DISCRETE), dev("llvmpipe", CPU) };
    c[0].properties.apiVersion = VK_MAKE_API_VERSION(0, 1, 2, 198);
    c[1].synchronization2 = false;
    c[2].dynamic_rendering = false;
    c[3].graphics_queue = false;
    cr_expect_eq(pick_ok(c, 5, NULL), 4, "the only capable device, although a CPU");
}

/* The one candidate c is refused for a missing feature, the message naming
 * what: needle. */
static void expect_missing(eng_device_candidate *c, const char *needle)
{
    cr_expect_eq(pick_fail(c, 1, NULL), ENG_ERROR_MISSING_FEATURE);
    cr_expect_neq(strstr(eng_last_error(), needle), NULL, "'%s' lacks '%s'", eng_last_error(), needle);
}

Test(device_pick, missing_features_are_named)
{
    eng_device_candidate c = dev("NVIDIA H200", DISCRETE);

    eng_device_candidate s2 = c;
    s2.synchronization2 = false;
    expect_missing(&s2, "synchronization2");
    cr_expect_neq(strstr(eng_last_error(), "NVIDIA H200"), NULL, "'%s' names the device", eng_last_error());
    cr_expect_eq(strstr(eng_last_error(), "dynamicRendering"), NULL, "'%s' names only what lacks", eng_last_error());

    eng_device_candidate dr = c;
    dr.dynamic_rendering = false;
    expect_missing(&dr, "dynamicRendering");

    eng_device_candidate v12 = c;
    v12.properties.apiVersion = VK_MAKE_API_VERSION(0, 1, 2, 0);
    expect_missing(&v12, "Vulkan 1.3");
    cr_expect_neq(strstr(eng_last_error(), "1.2"), NULL, "'%s' says what it has", eng_last_error());

    eng_device_candidate q = c;
    q.graphics_queue = false;
    expect_missing(&q, "queue");

    /* Several devices: each is named with what it lacks. */
    eng_device_candidate two[] = { s2, dev("llvmpipe", CPU) };
    two[1].dynamic_rendering = false;
    cr_expect_eq(pick_fail(two, 2, NULL), ENG_ERROR_MISSING_FEATURE);
    const char *m = eng_last_error();
    const char *a = strstr(m, "NVIDIA H200"), *b = strstr(m, "llvmpipe");
    cr_expect(a && b, "'%s' names both devices", m);
    cr_expect(a && b && strstr(a, "synchronization2") && strstr(b, "dynamicRendering"), "'%s'", m);
}

Test(device_pick, index_selector)
{
    eng_device_candidate c[] = { dev("NVIDIA H200", DISCRETE), dev("llvmpipe", CPU), dev("Intel UHD", INTEGRATED) };
    cr_expect_eq(pick_ok(c, 3, "0"), 0);
    cr_expect_eq(pick_ok(c, 3, "1"), 1, "an index overrides the discrete-first rule");
    cr_expect_eq(pick_ok(c, 3, "2"), 2);
    cr_expect_eq(pick_fail(c, 3, "3"), ENG_ERROR_NO_DEVICE);
    cr_expect_neq(strstr(eng_last_error(), "'3'"), NULL, "'%s'", eng_last_error());
    /* An index of a device that lacks a feature: an error naming it. */
    c[1].synchronization2 = false;
    cr_expect_eq(pick_fail(c, 3, "1"), ENG_ERROR_MISSING_FEATURE);
    cr_expect_neq(strstr(eng_last_error(), "synchronization2"), NULL, "'%s'", eng_last_error());
    cr_expect_neq(strstr(eng_last_error(), "llvmpipe"), NULL, "'%s'", eng_last_error());
}

Test(device_pick, name_selector)
{
    eng_device_candidate c[] = { dev("NVIDIA H200", DISCRETE), dev("llvmpipe (LLVM 15.0.6, 256 bits)", CPU),
                                 dev("Intel(R) UHD Graphics 770", INTEGRATED) };
    cr_expect_eq(pick_ok(c, 3, "llvmpipe"), 1);
    cr_expect_eq(pick_ok(c, 3, "LLVMPIPE"), 1, "case-insensitive");
    cr_expect_eq(pick_ok(c, 3, "uhd"), 2, "substring");
    cr_expect_eq(pick_ok(c, 3, "h200"), 0);
    cr_expect_eq(pick_ok(c, 3, "I"), 0, "the first match in enumeration order");
    c[1].dynamic_rendering = false;
    cr_expect_eq(pick_fail(c, 3, "llvm"), ENG_ERROR_MISSING_FEATURE);
    cr_expect_neq(strstr(eng_last_error(), "dynamicRendering"), NULL, "'%s'", eng_last_error());
}

Test(device_pick, unknown_selector_lists_devices)
{
    eng_device_candidate c[] = { dev("NVIDIA H200", DISCRETE), dev("llvmpipe", CPU) };
    cr_expect_eq(pick_fail(c, 2, "no-such-gpu"), ENG_ERROR_NO_DEVICE);
    const char *m = eng_last_error();
    cr_expect_neq(strstr(m, "no-such-gpu"), NULL, "'%s' names the selector", m);
    cr_expect_neq(strstr(m, "NVIDIA H200"), NULL, "'%s' lists the devices", m);
    cr_expect_neq(strstr(m, "llvmpipe"), NULL, "'%s' lists the devices", m);
}

Test(device_pick, zero_devices)
{
    cr_expect_eq(pick_fail(NULL, 0, NULL), ENG_ERROR_NO_DEVICE);
    eng_device_candidate c = dev("x", DISCRETE);
    cr_expect_eq(pick_fail(&c, 0, "0"), ENG_ERROR_NO_DEVICE);
    cr_expect_eq(pick_fail(&c, 0, "x"), ENG_ERROR_NO_DEVICE);
}

Test(device_pick, null_arguments)
{
    eng_device_candidate c = dev("x", DISCRETE);
    cr_expect_eq(eng_pick_physical_device(&c, 1, NULL, NULL), ENG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(pick_fail(NULL, 1, NULL), ENG_ERROR_INVALID_ARGUMENT);
}
