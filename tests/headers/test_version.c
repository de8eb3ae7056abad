/* The version functions agree with the header macros and with the CMake
 * project version (VKG_PROJECT_VERSION*, passed by tests/package.cmake). */
#include <criterion/criterion.h>
#include <engine/engine.h>
#include <rendergraph/rendergraph.h>

#include <stdio.h>

Test(version, engine_function_matches_macros_and_project)
{
    cr_assert_str_eq(eng_version_string(), ENG_VERSION);
    cr_assert_eq(eng_version(), ENG_VERSION_NUMBER);
    cr_assert_str_eq(ENG_VERSION, VKG_PROJECT_VERSION);
    cr_assert_eq(ENG_VERSION_MAJOR, VKG_PROJECT_VERSION_MAJOR);
    cr_assert_eq(ENG_VERSION_MINOR, VKG_PROJECT_VERSION_MINOR);
    cr_assert_eq(ENG_VERSION_PATCH, VKG_PROJECT_VERSION_PATCH);
    cr_assert_eq(eng_version(), ENG_MAKE_VERSION(VKG_PROJECT_VERSION_MAJOR, VKG_PROJECT_VERSION_MINOR,
                                                 VKG_PROJECT_VERSION_PATCH));
    char text[32];
    snprintf(text, sizeof text, "%d.%d.%d", ENG_VERSION_MAJOR, ENG_VERSION_MINOR, ENG_VERSION_PATCH);
    cr_assert_str_eq(text, ENG_VERSION);
}

Test(version, rendergraph_function_matches_macros_and_project)
{
    cr_assert_str_eq(rg_version_string(), RG_VERSION);
    cr_assert_eq(rg_version(), RG_VERSION_NUMBER);
    cr_assert_str_eq(RG_VERSION, VKG_PROJECT_VERSION);
    cr_assert_eq(RG_VERSION_MAJOR, VKG_PROJECT_VERSION_MAJOR);
    cr_assert_eq(RG_VERSION_MINOR, VKG_PROJECT_VERSION_MINOR);
    cr_assert_eq(RG_VERSION_PATCH, VKG_PROJECT_VERSION_PATCH);
    cr_assert_eq(rg_version(), RG_MAKE_VERSION(VKG_PROJECT_VERSION_MAJOR, VKG_PROJECT_VERSION_MINOR,
                                               VKG_PROJECT_VERSION_PATCH));
    char text[32];
    snprintf(text, sizeof text, "%d.%d.%d", RG_VERSION_MAJOR, RG_VERSION_MINOR, RG_VERSION_PATCH);
    cr_assert_str_eq(text, RG_VERSION);
}

Test(version, ordered_numbers)
{
    cr_assert_lt(ENG_MAKE_VERSION(0, 9, 999), ENG_MAKE_VERSION(1, 0, 0));
    cr_assert_lt(ENG_MAKE_VERSION(1, 2, 3), ENG_MAKE_VERSION(1, 3, 0));
    cr_assert_eq(ENG_MAKE_VERSION(1, 2, 3), 1002003u);
}
