/* A program of another project that uses rendergraph_frame, the frame-file
 * library beside the render graph, through its installed header only:
 * declares a small frame, saves it as text, loads it into a device-free
 * graph, and checks that both compile to the same order and barriers, that
 * saving the loaded frame gives the same text, and that a broken file is
 * refused with its JSON path. No device needed. Exit 0 when all agree. */
#include <rendergraph_frame/rendergraph_frame.h>

#include <stdio.h>
#include <string.h>

static bool record(const rg_record_context *rc, void *user)
{
    (void)rc, (void)user;
    return true;
}

int main(void)
{
    rg_graph *g = NULL;
    if (rg_graph_create(&(rg_graph_desc){.name = "consumer"}, &g) != RG_SUCCESS)
        return 1;
    rg_texture out = rg_texture_import(g, &(rg_texture_import_desc){
        .name = "out", .format = VK_FORMAT_R8G8B8A8_UNORM, .width = 64, .height = 64,
        .final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, .final_stage = VK_PIPELINE_STAGE_2_COPY_BIT});
    rg_texture tmp = rg_texture_create(g, &(rg_texture_desc){.name = "tmp", .format = VK_FORMAT_R8G8B8A8_UNORM,
                                                             .size_of = out, .scale = 0.5f});
    rg_cmd_user(g, &(rg_user_desc){.name = "fill", .record = record, .access_count = 1,
                                   .accesses = &(rg_access){.texture = tmp, .usage = RG_USAGE_STORAGE_WRITE_COMPUTE,
                                                            .whole = true}});
    rg_cmd_blit(g, tmp, 0, out, 0, VK_FILTER_LINEAR);
    char *text = NULL, *again = NULL;
    rgf_frame *frame = NULL;
    rgf_error error;
    bool ok = rgf_save_text(g, NULL, &text, &error) == RG_SUCCESS &&
              rgf_load_text(text, strlen(text), "consumer.json", NULL, &frame, &error) == RG_SUCCESS &&
              rg_compile(g) == RG_SUCCESS && rg_compile(rgf_frame_graph(frame)) == RG_SUCCESS &&
              rgf_save_text(rgf_frame_graph(frame), NULL, &again, &error) == RG_SUCCESS;
    if (!ok)
        fprintf(stderr, "consumer_frame: %s\n", error.message);
    const rg_command *oa, *ob;
    ok = ok && rg_execution_order(g, &oa) == rg_execution_order(rgf_frame_graph(frame), &ob) &&
         rg_barrier_count(g) == rg_barrier_count(rgf_frame_graph(frame)) && strcmp(text, again) == 0;
    rgf_frame *bad = NULL;
    const char broken[] = "{\"rendergraph_frame\": 1, \"size\": \"big\"}";
    ok = ok && rgf_load_text(broken, sizeof broken - 1, "broken.json", NULL, &bad, &error) != RG_SUCCESS &&
         !bad && strstr(error.message, "broken.json: $.size") != NULL;
    printf("consumer_frame: %u commands, %u barriers, saved %zu bytes: %s\n", rg_execution_order(g, &oa),
           rg_barrier_count(g), text ? strlen(text) : 0, ok ? "ok" : "FAILED");
    rgf_free(text);
    rgf_free(again);
    rgf_frame_destroy(frame);
    rg_graph_destroy(g);
    return ok ? 0 : 1;
}
