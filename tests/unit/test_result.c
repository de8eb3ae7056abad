/* Result strings, the last-error message and format facts: no device. */
#include <criterion/criterion.h>
#include <engine/engine.h>
#include <rendergraph/rendergraph.h>
#include <string.h>

Test(result, every_value_has_its_own_string)
{
    for (int i = 0; i < ENG_RESULT_COUNT; i++) {
        const char *s = eng_result_string((eng_result)i);
        cr_assert_not_null(s, "result %d", i);
        cr_expect_neq(s[0], '\0', "result %d has an empty string", i);
        cr_expect_null(strstr(s, "unknown"), "result %d is '%s'", i, s);
        for (int k = 0; k < i; k++)
            cr_expect_str_neq(s, eng_result_string((eng_result)k), "results %d and %d share '%s'", k, i, s);
    }
    cr_expect_str_eq(eng_result_string(ENG_SUCCESS), "success");
    /* Out of range values still get a string, never NULL. */
    cr_expect_not_null(eng_result_string(ENG_RESULT_COUNT));
    cr_expect_not_null(eng_result_string((eng_result)-1));
}

Test(result, last_error_is_set_by_failures)
{
    cr_expect_str_eq(eng_last_error(), "", "a fresh thread has no message");
    uint32_t index;
    eng_choose_memory_type(NULL, 0, 0, false, &index);
    cr_expect_neq(strstr(eng_last_error(), "eng_choose_memory_type"), NULL, "'%s'", eng_last_error());
}

Test(format, facts)
{
    cr_expect_eq(rg_format_texel_size(VK_FORMAT_R8G8B8A8_UNORM), 4);
    cr_expect_eq(rg_format_texel_size(VK_FORMAT_B8G8R8A8_SRGB), 4);
    cr_expect_eq(rg_format_texel_size(VK_FORMAT_D32_SFLOAT), 4);
    cr_expect_eq(rg_format_texel_size(VK_FORMAT_R16G16B16A16_SFLOAT), 8);
    cr_expect_eq(rg_format_texel_size(VK_FORMAT_R32G32B32A32_SFLOAT), 16);
    cr_expect_eq(rg_format_texel_size(VK_FORMAT_BC1_RGBA_UNORM_BLOCK), 0, "compressed: not readable");
    cr_expect_eq(rg_format_texel_size(VK_FORMAT_UNDEFINED), 0);
    cr_expect(rg_format_has_depth(VK_FORMAT_D32_SFLOAT));
    cr_expect(rg_format_has_depth(VK_FORMAT_D24_UNORM_S8_UINT));
    cr_expect(rg_format_has_stencil(VK_FORMAT_D24_UNORM_S8_UINT));
    cr_expect_not(rg_format_has_stencil(VK_FORMAT_D32_SFLOAT));
    cr_expect_not(rg_format_has_depth(VK_FORMAT_S8_UINT));
    cr_expect(rg_format_has_stencil(VK_FORMAT_S8_UINT));
    cr_expect_not(rg_format_has_depth(VK_FORMAT_R8G8B8A8_UNORM));
    cr_expect_not(rg_format_has_stencil(VK_FORMAT_R8G8B8A8_UNORM));
}

Test(result, vulkan_results_by_name)
{
    cr_expect_str_eq(eng_vk_result_string(VK_SUCCESS), "VK_SUCCESS");
    cr_expect_str_eq(eng_vk_result_string(VK_ERROR_OUT_OF_DEVICE_MEMORY), "VK_ERROR_OUT_OF_DEVICE_MEMORY");
    cr_expect_str_eq(eng_vk_result_string(VK_ERROR_DEVICE_LOST), "VK_ERROR_DEVICE_LOST");
    cr_expect_str_eq(eng_vk_result_string((VkResult)-12345), "an unnamed VkResult");
}
