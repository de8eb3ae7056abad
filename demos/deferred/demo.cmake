# The deferred demo (included by demos/CMakeLists.txt).

# The ground texture is drawn by a program at build time, like bricks.png.
add_executable(make_ground ${CMAKE_CURRENT_LIST_DIR}/../tools/make_ground.c)
target_link_libraries(make_ground PRIVATE texture_tool)
set_target_properties(make_ground PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/tools)
add_custom_command(
  OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/assets/ground.png
  COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/assets
  COMMAND make_ground ${CMAKE_CURRENT_BINARY_DIR}/assets/ground.png
  DEPENDS make_ground
  COMMENT "make_ground assets/ground.png"
  VERBATIM)
add_custom_target(deferred_assets ALL DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/assets/ground.png)

include(${CMAKE_CURRENT_LIST_DIR}/frame.cmake)

add_executable(deferred ${CMAKE_CURRENT_LIST_DIR}/main.c)
target_link_libraries(deferred PRIVATE deferred_frame demo_common)
vkg_link_sanitizer_pins(deferred)
add_dependencies(deferred deferred_assets)
