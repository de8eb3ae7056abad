/* The tile profile of a real device (rendergraph.h, rg_tile_profile):
 * detected from its IDs unless rg_device_desc names one, reported by
 * rg_device_get_caps, and an unknown one refused by name. */
#include "device_fixture.h"
#include "rg_spy.h"
#include "test_log.h"

#include <criterion/criterion.h>
#include <rendergraph/rendergraph.h>
#include <string.h>

TestSuite(rg_tile_profile, .init = device_setup, .fini = device_teardown);

static rg_result create(rg_tile_profile profile, test_heard *h, rg_device_caps *caps)
{
    rg_device_desc d = test_spy_desc(NULL, false);
    d.tile_profile = profile;
    return test_device_try(d, test_hear, h, caps);
}

DEVICE_TEST(rg_tile_profile, detected_from_the_device_or_as_given)
{
    test_heard h = TEST_HEARD_INIT;
    rg_device_caps caps;
    cr_assert_eq(create(RG_TILE_AUTO, &h, &caps), RG_SUCCESS, "%s", h.first_error);
    VkPhysicalDeviceDriverProperties driver = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &driver};
    vkGetPhysicalDeviceProperties2(eng_context_physical_device(test_ctx), &p2);
    rg_tile_profile want = rg_tile_profile_detect(p2.properties.vendorID, p2.properties.deviceID, driver.driverID);
    cr_expect_eq(caps.tile_profile, want, "%s: %s, detection says %s", p2.properties.deviceName,
                 rg_tile_profile_info(caps.tile_profile).name, rg_tile_profile_info(want).name);
    cr_expect_neq(caps.tile_profile, RG_TILE_AUTO, "the caps name what was detected");
    cr_assert_eq(create(RG_TILE_APPLE7, &h, &caps), RG_SUCCESS, "%s", h.first_error);
    cr_expect_eq(caps.tile_profile, RG_TILE_APPLE7);
}

DEVICE_TEST(rg_tile_profile, an_unknown_profile_is_refused_by_name)
{
    test_heard h = TEST_HEARD_INIT;
    rg_device_caps caps;
    cr_expect_eq(create((rg_tile_profile)42, &h, &caps), RG_ERROR_INVALID_ARGUMENT);
    cr_expect(strstr(h.first_error, "tile_profile 42 is not an rg_tile_profile"), "%s", h.first_error);
}
