# GLSL -> SPIR-V at build time. Each shader becomes a .spv file (for
# eng_spirv_load) and a .inc C initializer (glslc -mfmt=c) that programs
# #include, so a built program carries its shaders wherever it is copied.
find_program(GLSLC glslc)
if(NOT GLSLC)
  message(FATAL_ERROR "glslc not found: it compiles the GLSL shaders to SPIR-V. "
                      "Install the Debian package 'glslc' (or run ./scripts/run.sh deps).")
endif()

set(VKG_SHADER_OUT ${CMAKE_BINARY_DIR}/shaders)

function(vkg_add_shaders target)
  set(outputs)
  foreach(src IN LISTS ARGN)
    get_filename_component(name ${src} NAME)
    set(spv ${VKG_SHADER_OUT}/${name}.spv)
    set(inc ${VKG_SHADER_OUT}/${name}.inc)
    add_custom_command(
      OUTPUT ${spv} ${inc}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${VKG_SHADER_OUT}
      COMMAND ${GLSLC} --target-env=vulkan1.3 -O -o ${spv} ${CMAKE_CURRENT_SOURCE_DIR}/${src}
      COMMAND ${GLSLC} --target-env=vulkan1.3 -O -mfmt=c -o ${inc} ${CMAKE_CURRENT_SOURCE_DIR}/${src}
      DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${src}
      COMMENT "glslc ${src}"
      VERBATIM)
    list(APPEND outputs ${spv} ${inc})
  endforeach()
  add_custom_target(${target} ALL DEPENDS ${outputs})
endfunction()
