/* The fuzz harness's input encoder (private to tests/fuzz, standalone
 * build): writes operations in the format fuzz_graph.c decodes, so
 * seeds.c can write the seed corpus as readable frames. Textures and
 * buffers are named by their index among the current declaration's
 * textures (or buffers), below 32. */
#ifndef SEED_ENCODE_H
#define SEED_ENCODE_H

#include "fuzz_graph.h"

typedef struct enc {
    uint8_t b[4096];
    size_t n;
} enc;

/* Bytes, numbers, names and table indices as the decoder reads them. */
void e8(enc *e, uint32_t v);
void e32(enc *e, uint32_t v);
void e64(enc *e, uint64_t v);
void ename(enc *e, const char *s);
uint32_t index_of(const uint32_t *table, uint32_t n, uint32_t v);

#define EFMT(e, f) e8(e, index_of(formats, COUNT(formats), (uint32_t)(f)))
#define ELAYOUT(e, l) e8(e, index_of(layouts, COUNT(layouts), (uint32_t)(l)))

/* Declarations: textures (history and imported ones too) and buffers. */
void s_history(enc *e, const char *nm, VkFormat f, uint32_t w, uint32_t h);
void s_tex(enc *e, const char *nm, VkFormat f, uint32_t w, uint32_t h, uint32_t mips, uint32_t samples);
void s_import_layers(enc *e, const char *nm, VkFormat f, uint32_t w, uint32_t h, uint32_t mips,
                     uint32_t layers, VkImageLayout init, VkPipelineStageFlags2 init_stage,
                     VkImageLayout final);
void s_import(enc *e, const char *nm, VkFormat f, uint32_t w, uint32_t h, VkImageLayout init,
              VkPipelineStageFlags2 init_stage, VkImageLayout final);
void s_buf(enc *e, const char *nm, uint64_t size, bool import);

typedef struct s_acc {
    int tex, buf;                     /* index, -1 */
    rg_usage usage;
    VkImageAspectFlags aspect;        /* 0: the whole texture; else mip 0, layer 0 of this aspect */
} s_acc;

typedef struct s_att {
    int tex;
    VkAttachmentLoadOp load;
    VkAttachmentStoreOp store;
    int resolve;                      /* -1: none */
    uint32_t mip, layer;              /* the attachment's view (one layer) */
    uint32_t resolve_mip, resolve_layer;
    VkResolveModeFlagBits mode;       /* 0: the format's default */
} s_att;

/* An s_att by its first four fields, the rest designated (or zero). */
#define ATT(t, l, s, r, ...) {.tex = (t), .load = (l), .store = (s), .resolve = (r), __VA_ARGS__}
#define LD_LOAD VK_ATTACHMENT_LOAD_OP_LOAD
#define LD_CLEAR VK_ATTACHMENT_LOAD_OP_CLEAR
#define LD_DONT VK_ATTACHMENT_LOAD_OP_DONT_CARE
#define ST_STORE VK_ATTACHMENT_STORE_OP_STORE
#define ST_DONT VK_ATTACHMENT_STORE_OP_DONT_CARE
#define ST_NONE VK_ATTACHMENT_STORE_OP_NONE


/* Commands and spans (depth_ro makes the depth attachment read-only). */
void s_user_q(enc *e, const char *nm, rg_command_kind kind, const s_acc *a, uint32_t n, rg_queue q);
void s_user(enc *e, const char *nm, rg_command_kind kind, const s_acc *a, uint32_t n);
void s_span(enc *e, const char *nm, const s_att *colors, uint32_t n, const s_att *depth, bool depth_ro);
void s_begin(enc *e, const char *nm, const s_att *colors, uint32_t n, const s_att *depth);
/* A span holding one draw named "draw": begin, the draw, OP_END. */
void s_drawn(enc *e, const char *nm, const s_att *colors, uint32_t n, const s_att *depth);
void s_op(enc *e, uint32_t op);
void s_blit_filter(enc *e, int src, uint32_t src_mip, int dst, uint32_t dst_mip, VkFilter filter);
void s_blit(enc *e, int src, uint32_t src_mip, int dst, uint32_t dst_mip);
void s_copy(enc *e, bool to_tex, int buf, uint64_t offset, int tex, uint32_t mip);

/* Compile and placement ops: `table` names one of device_tables. */
uint32_t table_index(const char *table);
void s_place(enc *e, const char *table);
void s_extend(enc *e, const char *table, uint32_t ops, uint32_t after);

#endif
