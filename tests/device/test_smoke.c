#include "device_fixture.h"
#include <criterion/criterion.h>

TestSuite(smoke, .init = device_setup, .fini = device_teardown);

Test(smoke, context_has_queue)
{
    cr_assert(eng_context_device(test_ctx));
    cr_assert(eng_context_queue(test_ctx));
}
