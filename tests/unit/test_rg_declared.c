/* The declaration as data (rendergraph.h section 16): rg_declaration_get
 * gives the desc and the counts, rg_declared_get one resource or command
 * (the kind asked filled, the other zeroed), compiled or not; their
 * refusals: NULL, an index past its count, a kind that is none, a failed
 * declaration call (its kept error; the desc still given) and a destroyed
 * graph. */
#include "rg_unit.h"

Test(rg_declared, gives_the_desc_the_counts_and_each_item)
{
    rg_graph *g = test_graph();
    rg_texture previous;
    rg_texture color = test_color(g, "color");
    rg_buffer data = test_buf(g, "data");
    rg_texture history = test_history(g, "taa", VK_FORMAT_R16G16B16A16_SFLOAT, &previous);
    rg_command fill = test_outside(g, "fill", TEX(color, RG_USAGE_STORAGE_WRITE_COMPUTE),
                                   BUF(data, RG_USAGE_STORAGE_WRITE_COMPUTE));
    rg_declaration decl;
    cr_assert_eq(rg_declaration_get(g, &decl), RG_SUCCESS);
    cr_expect_str_eq(decl.desc.name, "test");
    cr_expect(decl.desc.no_culling);
    cr_expect_not_null(decl.desc.caps, "caps point at the graph's own copy");
    cr_expect_eq(decl.resource_count, 4, "a history pair is two resources");
    cr_expect_eq(decl.command_count, 1);

    rg_declared item;
    cr_assert_eq(rg_declared_get(g, RG_DECLARED_RESOURCE, 1, &item), RG_SUCCESS);
    cr_expect_eq(item.resource.kind, RG_RESOURCE_CREATED);
    cr_expect_not(item.resource.is_texture);
    cr_expect_eq(item.resource.buffer_handle.id, data.id);
    cr_expect_str_eq(item.resource.buffer.name, "data");
    cr_expect_eq(item.command.type, 0, "the kind not asked is zeroed");
    cr_expect_null(item.command.name);
    cr_assert_eq(rg_declared_get(g, RG_DECLARED_RESOURCE, 3, &item), RG_SUCCESS);
    cr_expect_eq(item.resource.kind, RG_RESOURCE_HISTORY_PREVIOUS);
    cr_expect_eq(item.resource.texture_handle.id, previous.id);
    cr_assert_eq(rg_declared_get(g, RG_DECLARED_RESOURCE, 2, &item), RG_SUCCESS);
    cr_expect_eq(item.resource.texture_handle.id, history.id);

    cr_assert_eq(rg_declared_get(g, RG_DECLARED_COMMAND, 0, &item), RG_SUCCESS);
    cr_expect_eq(item.command.type, RG_COMMAND_TYPE_USER);
    cr_expect_eq(item.command.command.id, fill.id);
    cr_expect_str_eq(item.command.name, "fill");
    cr_expect_eq(item.command.user.access_count, 2);
    cr_expect_eq(item.resource.texture_handle.id, 0, "the kind not asked is zeroed");
    cr_expect_null(item.resource.texture.name);
    rg_graph_destroy(g);
}

Test(rg_declared, refuses_null_an_index_past_the_count_and_no_kind)
{
    rg_graph *g = test_graph();
    test_color(g, "color");
    rg_declaration decl;
    rg_declared item;
    cr_expect_eq(rg_declaration_get(NULL, &decl), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(decl.desc.name, "zeroed");
    cr_expect_eq(rg_declared_get(NULL, RG_DECLARED_RESOURCE, 0, &item), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(rg_declaration_get(g, NULL), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(g), "rg_declaration_get: out is NULL");
    cr_expect_eq(rg_declared_get(g, RG_DECLARED_RESOURCE, 0, NULL), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(g), "rg_declared_get: out is NULL");

    cr_expect_eq(rg_declared_get(g, RG_DECLARED_RESOURCE, 1, &item), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(g),
                     "rg_declared_get: index 1 of graph 'test', which has 1 declared resources");
    cr_expect_null(item.resource.texture.name, "zeroed");
    cr_expect_eq(rg_declared_get(g, RG_DECLARED_COMMAND, 0, &item), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(g),
                     "rg_declared_get: index 0 of graph 'test', which has 0 declared commands");
    cr_expect_eq(rg_declared_get(g, (rg_declared_kind)7, 0, &item), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(rg_graph_error_message(g), "rg_declared_get: kind 7 is not an rg_declared_kind");
    cr_expect_eq(rg_graph_error(g), RG_SUCCESS, "refusals of a query are not kept");
    rg_graph_destroy(g);
}

/* A failed declaration call leaves a declaration without it: both return
 * its kept error, the counts are 0, and the desc is still there to name
 * the graph. A reset clears it. */
Test(rg_declared, after_a_failed_declaration_call_the_kept_error)
{
    rg_graph *g = test_graph();
    test_color(g, "color");
    cr_expect_eq(rg_buffer_create(g, &(rg_buffer_desc){.name = "empty", .size = 0}).id, 0);
    rg_declaration decl;
    rg_declared item;
    cr_expect_eq(rg_declaration_get(g, &decl), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_str_eq(decl.desc.name, "test");
    cr_expect_eq(decl.resource_count, 0);
    cr_expect_eq(decl.command_count, 0);
    cr_expect_eq(rg_declared_get(g, RG_DECLARED_RESOURCE, 0, &item), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(item.resource.texture.name, "zeroed");
    cr_expect_not_null(strstr(rg_graph_error_message(g), "empty"), "the failure's message stays: %s",
                       rg_graph_error_message(g));
    rg_graph_reset(g);
    cr_expect_eq(rg_declaration_get(g, &decl), RG_SUCCESS);
    cr_expect_eq(decl.resource_count, 0);
    rg_graph_destroy(g);
}

Test(rg_declared, a_destroyed_graph_is_an_invalid_handle)
{
    rg_graph *g = test_graph();
    rg_graph_destroy(g);
    rg_declaration decl;
    rg_declared item;
    cr_expect_eq(rg_declaration_get(g, &decl), RG_ERROR_INVALID_HANDLE);
    cr_expect_eq(rg_declared_get(g, RG_DECLARED_COMMAND, 0, &item), RG_ERROR_INVALID_HANDLE);
}
