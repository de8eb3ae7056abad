# The scene demo (included by demos/CMakeLists.txt).
include(${CMAKE_CURRENT_LIST_DIR}/frame.cmake)

add_executable(scene ${CMAKE_CURRENT_LIST_DIR}/main.c)
target_link_libraries(scene PRIVATE scene_frame demo_common)
vkg_link_sanitizer_pins(scene)
