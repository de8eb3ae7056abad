/* Destroyed objects refused, never read (rendergraph.h, rg_graph_destroy;
 * docs/lifetimes.md), device-free: a call on a destroyed graph returns
 * RG_ERROR_INVALID_HANDLE and says so naming the call, while the graph's
 * block waits in the quarantine; a graph of the application's allocator
 * is handed back to it during rg_graph_destroy; messages of calls with
 * nothing to log to go to stderr. test_rg_teardown.c under tests/device
 * has the device's side. */
#define _POSIX_C_SOURCE 200809L /* fileno, dup */
#include "rg_unit.h"
#include "counting_allocator.h"

#include <stdio.h>
#include <stdlib.h>
#if defined(_WIN32)
#include <io.h>
#define dup _dup
#define dup2 _dup2
#define close _close
#define fileno _fileno
#else
#include <unistd.h>
#endif

/* What fn wrote on stderr, into out. */
static void stderr_of(void (*fn)(void *), void *arg, char *out, size_t size)
{
    FILE *tmp = tmpfile();
    cr_assert_not_null(tmp);
    fflush(stderr);
    int saved = dup(fileno(stderr));
    cr_assert_geq(saved, 0);
    dup2(fileno(tmp), fileno(stderr));
    fn(arg);
    fflush(stderr);
    dup2(saved, fileno(stderr));
    close(saved);
    rewind(tmp);
    size_t n = fread(out, 1, size - 1, tmp);
    out[n] = '\0';
    fclose(tmp);
}

static void compile_destroyed(void *arg) { cr_expect_eq(rg_compile(arg), RG_ERROR_INVALID_HANDLE); }

Test(rg_teardown, a_call_on_a_destroyed_graph_is_refused_naming_the_call)
{
    rg_graph *g = test_graph();
    rg_texture t = rg_texture_create(g, &(rg_texture_desc){.name = "t", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                           .width = 8, .height = 8});
    rg_cmd_clear_texture(g, t, NULL, &(VkClearValue){0});
    cr_assert_eq(rg_compile(g), RG_SUCCESS, "%s", rg_graph_error_message(g));
    rg_graph_destroy(g);
    /* The quarantine keeps the block: a graph made now never takes the
     * destroyed one's place, so a stale pointer cannot reach it. */
    rg_graph *next = test_graph();
    cr_expect_neq((void *)next, (void *)g, "a new graph took the destroyed one's block");
    char err[512];
    stderr_of(compile_destroyed, g, err, sizeof err);
    cr_expect(strstr(err, "rg_compile: the graph at") && strstr(err, "was destroyed"), "stderr: %s", err);
    cr_expect(strstr(rg_graph_error_message(g), "rg_compile: the graph at"), "%s", rg_graph_error_message(g));
    cr_expect_eq(rg_graph_error(g), RG_ERROR_INVALID_HANDLE);
    cr_expect_eq(rg_resource_count(g), 0);
    cr_expect_eq(rg_texture_get_info(g, t, &(rg_resource_info){0}), RG_ERROR_INVALID_HANDLE);
    cr_expect_eq(rg_cmd_clear_texture(g, t, NULL, &(VkClearValue){0}).id, 0);
    cr_expect_eq(rg_place_offline(g, NULL, NULL, NULL), RG_ERROR_INVALID_HANDLE);
    rg_graph_destroy(g); /* twice: refused, nothing freed twice */
    cr_expect_eq(rg_graph_error(next), RG_SUCCESS, "the live graph was touched");
    rg_graph_destroy(next);
}

Test(rg_teardown, a_graph_of_your_allocator_is_handed_back_during_its_destroy)
{
    counting c = {0};
    rg_allocator a = counting_allocator(&c);
    rg_graph *g = NULL;
    cr_assert_eq(rg_graph_create(&(rg_graph_desc){.name = "yours", .allocator = &a}, &g), RG_SUCCESS);
    rg_texture_create(g, &(rg_texture_desc){.name = "t", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 8, .height = 8});
    cr_assert_gt(c.live, 0);
    rg_graph_destroy(g);
    cr_expect_eq(c.live, 0, "%u blocks of the application's allocator kept after rg_graph_destroy", c.live);
}

static void create_device_of_nothing(void *arg)
{
    (void)arg;
    rg_device *d = (rg_device *)&d;
    cr_expect_eq(rg_device_create(NULL, &d), RG_ERROR_INVALID_ARGUMENT);
    cr_expect_null(d);
}

Test(rg_teardown, a_device_made_of_nothing_says_so)
{
    char err[512];
    stderr_of(create_device_of_nothing, NULL, err, sizeof err);
    cr_expect(strstr(err, "rg_device_create: desc is NULL"), "stderr: %s", err);
}
