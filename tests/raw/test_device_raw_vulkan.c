/* The render graph on a device an application made itself with the Vulkan
 * loader's functions, no engine (raw_frame.h says what the frame does and
 * checks). */
#include "raw_frame.h"

#include <criterion/criterion.h>

Test(device_raw_vulkan, two_spans_and_a_readback) { test_raw_frame(); }
