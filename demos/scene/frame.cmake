# The scene frame without a window, for the demo and the headless
# benchmarks (both include this file; it defines the target once):
# target_link_libraries(bench PRIVATE scene_frame).
include_guard(GLOBAL)
if(NOT TARGET PkgConfig::CGLM)
  pkg_check_modules(CGLM REQUIRED IMPORTED_TARGET cglm)
endif()
include(${CMAKE_CURRENT_LIST_DIR}/../common/cube.cmake)
add_library(scene_frame STATIC ${CMAKE_CURRENT_LIST_DIR}/scene_frame.c ${CMAKE_CURRENT_LIST_DIR}/scene_declare.c
            ${CMAKE_CURRENT_LIST_DIR}/scene_pipelines.c ${CMAKE_CURRENT_LIST_DIR}/scene_record.c)
target_include_directories(scene_frame PUBLIC ${CMAKE_CURRENT_LIST_DIR} PRIVATE ${VKG_SHADER_OUT})
target_link_libraries(scene_frame PUBLIC demo_cube engine rendergraph PkgConfig::CGLM m)
add_dependencies(scene_frame shaders)
