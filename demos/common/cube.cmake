# The demos' cube as plain data (demo_cube.h): no engine, so the deferred
# and scene frames (built for the benchmarks too) share it with demo_common.
include_guard(GLOBAL)
add_library(demo_cube STATIC ${CMAKE_CURRENT_LIST_DIR}/demo_cube.c)
target_include_directories(demo_cube PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(demo_cube PUBLIC Vulkan::Headers)
