/* The render graph on a device an application made through volk, no
 * engine: the program calls every Vulkan function through volk's pointers
 * (built with TEST_RAW_VOLK, it does not link the loader) and gives the
 * graph volk's vkGetInstanceProcAddr (raw_frame.h says what the frame
 * does and checks). */
#include "raw_vulkan.h" /* first: volk's header before vulkan.h */

#include "raw_frame.h"

#include <criterion/criterion.h>

Test(device_volk, two_spans_and_a_readback) { test_raw_frame(); }
