# The deferred frame and its scene without a window, for the demo and the
# headless benchmarks (both include this file; it defines the target once):
# target_link_libraries(bench PRIVATE deferred_frame).
include_guard(GLOBAL)
if(NOT TARGET PkgConfig::CGLM)
  pkg_check_modules(CGLM REQUIRED IMPORTED_TARGET cglm)
endif()
include(${CMAKE_CURRENT_LIST_DIR}/../common/cube.cmake)
add_library(deferred_frame STATIC
  ${CMAKE_CURRENT_LIST_DIR}/deferred_frame.c
  ${CMAKE_CURRENT_LIST_DIR}/deferred_declare.c
  ${CMAKE_CURRENT_LIST_DIR}/deferred_pipelines.c
  ${CMAKE_CURRENT_LIST_DIR}/deferred_record.c
  ${CMAKE_CURRENT_LIST_DIR}/deferred_placement.c
  ${CMAKE_CURRENT_LIST_DIR}/deferred_scene.c)
# demo_lock.h (header only) from the demos' common folder.
target_include_directories(deferred_frame PUBLIC ${CMAKE_CURRENT_LIST_DIR}
                           PRIVATE ${VKG_SHADER_OUT} ${CMAKE_CURRENT_LIST_DIR}/../common)
target_link_libraries(deferred_frame PUBLIC demo_cube engine engine_files rendergraph PkgConfig::CGLM m)
add_dependencies(deferred_frame shaders)
