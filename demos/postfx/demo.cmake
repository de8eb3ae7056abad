# postfx: a scene and a chain of fullscreen passes, declared as a render
# graph (included by demos/CMakeLists.txt).
add_executable(postfx
  ${CMAKE_CURRENT_SOURCE_DIR}/postfx/main.c
  ${CMAKE_CURRENT_SOURCE_DIR}/postfx/passes.c
  ${CMAKE_CURRENT_SOURCE_DIR}/postfx/scene.c)
target_link_libraries(postfx PRIVATE demo_common)
vkg_link_sanitizer_pins(postfx)
add_dependencies(postfx demo_assets)
