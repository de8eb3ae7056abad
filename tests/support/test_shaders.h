/* Shaders that several device test programs dispatch or draw with,
 * embedded once (test_support) with their sizes in bytes:
 *   storage_pattern.comp  writes base + x + 100y into a storage image
 *                         (push constants: base, width, height);
 *   history_step.frag     samples set 0's image and adds 1 + x + 100y,
 *                         after solid.vert (solid_fragment_desc). */
#ifndef TEST_SHADERS_H
#define TEST_SHADERS_H

#include <stddef.h>
#include <stdint.h>

extern const uint32_t storage_pattern_comp[];
extern const size_t storage_pattern_comp_size;
extern const uint32_t history_step_frag[];
extern const size_t history_step_frag_size;

#endif
