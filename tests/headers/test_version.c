/* The version functions agree with the header macros and with the CMake
 * project version (VKG_PROJECT_VERSION*, passed by tests/package.cmake). */
#include <criterion/criterion.h>
#include <engine/engine.h>
#include <rendergraph/rendergraph.h>

#include <stdio.h>

/* One library's version: its function, its string function and its
 * macros (PREFIX_VERSION, _NUMBER, _MAJOR, _MINOR, _PATCH, _MAKE_VERSION)
 * agree with each other and with the project's version. */
#define EXPECT_VERSION(PREFIX, prefix)                                                                               \
    do {                                                                                                             \
        cr_assert_str_eq(prefix##_version_string(), PREFIX##_VERSION);                                               \
        cr_assert_eq(prefix##_version(), PREFIX##_VERSION_NUMBER);                                                   \
        cr_assert_str_eq(PREFIX##_VERSION, VKG_PROJECT_VERSION);                                                     \
        cr_assert_eq(PREFIX##_VERSION_MAJOR, VKG_PROJECT_VERSION_MAJOR);                                             \
        cr_assert_eq(PREFIX##_VERSION_MINOR, VKG_PROJECT_VERSION_MINOR);                                             \
        cr_assert_eq(PREFIX##_VERSION_PATCH, VKG_PROJECT_VERSION_PATCH);                                             \
        cr_assert_eq(prefix##_version(), PREFIX##_MAKE_VERSION(VKG_PROJECT_VERSION_MAJOR, VKG_PROJECT_VERSION_MINOR, \
                                                               VKG_PROJECT_VERSION_PATCH));                          \
        char text[32];                                                                                               \
        snprintf(text, sizeof text, "%d.%d.%d", PREFIX##_VERSION_MAJOR, PREFIX##_VERSION_MINOR,                      \
                 PREFIX##_VERSION_PATCH);                                                                            \
        cr_assert_str_eq(text, PREFIX##_VERSION);                                                                    \
    } while (0)

Test(version, engine_function_matches_macros_and_project) { EXPECT_VERSION(ENG, eng); }

Test(version, rendergraph_function_matches_macros_and_project) { EXPECT_VERSION(RG, rg); }

Test(version, ordered_numbers)
{
    cr_assert_lt(ENG_MAKE_VERSION(0, 9, 999), ENG_MAKE_VERSION(1, 0, 0));
    cr_assert_lt(ENG_MAKE_VERSION(1, 2, 3), ENG_MAKE_VERSION(1, 3, 0));
    cr_assert_eq(ENG_MAKE_VERSION(1, 2, 3), 1002003u);
}
