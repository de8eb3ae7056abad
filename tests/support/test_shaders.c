/* The shaders test_shaders.h names, from the build's SPIR-V. */
#include "test_shaders.h"

const uint32_t storage_pattern_comp[] =
#include "storage_pattern.comp.inc"
    ;
const size_t storage_pattern_comp_size = sizeof storage_pattern_comp;

const uint32_t history_step_frag[] =
#include "history_step.frag.inc"
    ;
const size_t history_step_frag_size = sizeof history_step_frag;
