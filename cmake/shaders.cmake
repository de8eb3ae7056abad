# GLSL -> SPIR-V at build time. Each shader becomes a .spv file (for
# eng_spirv_load) and a .inc C initializer (glslc -mfmt=c) that programs
# #include, so a built program carries its shaders wherever it is copied.
find_program(GLSLC glslc)
if(NOT GLSLC)
  message(FATAL_ERROR "glslc not found: it compiles the GLSL shaders to SPIR-V. "
                      "Install the Debian package 'glslc' (or run ./scripts/run.sh deps).")
endif()

set(VKG_SHADER_OUT ${CMAKE_BINARY_DIR}/shaders)

# One glslc rule: SRC (relative to the calling folder) to NAME.spv and
# NAME.inc, compiled with the flags after COMMENT; both outputs are appended
# to the caller's list OUT.
function(_vkg_shader_rule src name comment out)
  set(spv ${VKG_SHADER_OUT}/${name}.spv)
  set(inc ${VKG_SHADER_OUT}/${name}.inc)
  add_custom_command(
    OUTPUT ${spv} ${inc}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${VKG_SHADER_OUT}
    COMMAND ${GLSLC} ${ARGN} -o ${spv} ${CMAKE_CURRENT_SOURCE_DIR}/${src}
    COMMAND ${GLSLC} ${ARGN} -mfmt=c -o ${inc} ${CMAKE_CURRENT_SOURCE_DIR}/${src}
    DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${src}
    COMMENT "${comment}"
    VERBATIM)
  set(${out} ${${out}} ${spv} ${inc} PARENT_SCOPE)
endfunction()

function(vkg_add_shaders target)
  set(outputs)
  foreach(src IN LISTS ARGN)
    get_filename_component(name ${src} NAME)
    _vkg_shader_rule(${src} ${name} "glslc ${src}" outputs --target-env=vulkan1.3 -O)
  endforeach()
  add_custom_target(${target} ALL DEPENDS ${outputs})
endfunction()

# vkg_add_shader_variants(TARGET VARIANT DEFINE SOURCES...): each source
# compiled once more with -D<DEFINE>, into <name>.<VARIANT>.<ext>.spv and
# .inc next to the plain ones (deferred_light.frag with VARIANT local_read:
# deferred_light.local_read.frag.spv), so one source holds both forms of a
# shader behind #ifdef DEFINE. The sources are also compiled plainly by
# vkg_add_shaders; TARGET builds the variants only.
function(vkg_add_shader_variants target variant define)
  set(outputs)
  foreach(src IN LISTS ARGN)
    get_filename_component(stem ${src} NAME_WLE)
    get_filename_component(ext ${src} LAST_EXT)
    set(name ${stem}.${variant}${ext})
    _vkg_shader_rule(${src} ${name} "glslc -D${define} ${src} -> ${name}" outputs
                     --target-env=vulkan1.3 -O -D${define})
  endforeach()
  add_custom_target(${target} ALL DEPENDS ${outputs})
endfunction()
