# The scene demo's tests (included by tests/demos/CMakeLists.txt where the
# demo is built, with SCENE_CLEAN): small targets and few frames, the CPU
# rasterizer is slow. Every run is under validation on lavapipe
# (ENG_DEVICE), so one rasterizer draws every picture compared here, on
# any machine.

set(SCENE_NO_DISPLAY ${CMAKE_COMMAND} -E env --unset=DISPLAY --unset=WAYLAND_DISPLAY)
set(SCENE_FAIL "\\[vulkan (warning|error)\\];ERROR: (Leak|Address)Sanitizer;runtime error:")

# scene_test(NAME ENVIRONMENT PASS ARGS...): the demo headless (no display
# reachable) with --validation, ENVIRONMENT added to the test's; PASS is
# its PASS_REGULAR_EXPRESSION.
function(scene_test name env pass)
  add_test(NAME ${name} COMMAND ${SCENE_NO_DISPLAY} $<TARGET_FILE:scene> --headless --validation ${ARGN})
  set_tests_properties(${name} PROPERTIES
    LABELS demo TIMEOUT 120 ENVIRONMENT "${VKG_TEST_ENV};ENG_DEVICE=llvmpipe;${env}"
    FAIL_REGULAR_EXPRESSION "${SCENE_FAIL}" PASS_REGULAR_EXPRESSION "${pass}")
endfunction()

# The frame with SSAO and its blur eligible for the async compute queue
# (they run there where the device has one; lavapipe's one queue keeps
# them on graphics), and the same frame with the context on one queue
# (ENG_QUEUES=single): the same picture, byte for byte.
scene_test(demo_scene_async "" "scene: ssao on the [a-z]+ queue[^\n]*\n.*${SCENE_CLEAN}"
           --screenshot ${SHOTS}/demo_scene_async.png ${SMALL})
scene_test(demo_scene_single_queue "ENG_QUEUES=single"
           "scene: ssao on the graphics queue, blur on the graphics queue, 1 batches\n.*${SCENE_CLEAN}"
           --screenshot ${SHOTS}/demo_scene_single_queue.png ${SMALL})
set_tests_properties(demo_scene_async demo_scene_single_queue PROPERTIES FIXTURES_SETUP demo_scene_queues)
add_test(NAME demo_scene_async_same_picture
         COMMAND ${CMAKE_COMMAND} -E compare_files ${SHOTS}/demo_scene_async.png
                 ${SHOTS}/demo_scene_single_queue.png)
set_tests_properties(demo_scene_async_same_picture PROPERTIES
  LABELS demo TIMEOUT 30 FIXTURES_REQUIRED demo_scene_queues)

# The frame recorded on 4 threads (--threads 4: rg_workers, 8 chunks,
# eng_swapchain_present_graph_parallel): the picture of the same frame
# recorded on one thread, byte for byte.
scene_test(demo_scene_threads "" "${SCENE_CLEAN}" --threads 4 --screenshot ${SHOTS}/demo_scene_threads.png ${SMALL})
set_tests_properties(demo_scene_threads PROPERTIES FIXTURES_SETUP demo_scene_threads)
add_test(NAME demo_scene_threads_same_picture
         COMMAND ${CMAKE_COMMAND} -E compare_files ${SHOTS}/demo_scene_threads.png ${SHOTS}/demo_scene_async.png)
set_tests_properties(demo_scene_threads_same_picture PROPERTIES
  LABELS demo TIMEOUT 30 FIXTURES_REQUIRED "demo_scene_threads;demo_scene_queues")
# --chunks 3 on the calling thread and --chunks 7 on 2 threads
# (vkg_demo_chunks, tests/demos/CMakeLists.txt): the same picture as one
# chunk, byte for byte.
vkg_demo_chunks(demo_scene scene ${SMALL})
# A bad thread count: refused, naming the flag.
add_test(NAME demo_scene_bad_threads COMMAND ${SCENE_NO_DISPLAY} $<TARGET_FILE:scene> --headless --threads 0)
set_tests_properties(demo_scene_bad_threads PROPERTIES
  LABELS demo TIMEOUT 60 PASS_REGULAR_EXPRESSION "--threads needs a number from 1 to 64, got '0'")

# --no-async-compute keeps them on graphics whatever the device has.
scene_test(demo_scene_no_async ""
           "scene: ssao on the graphics queue, blur on the graphics queue, 1 batches\n.*${SCENE_CLEAN}"
           --no-async-compute ${SMALL})

# In a window (Xvfb when there is no display): the same picture as
# headless.
add_test(NAME demo_scene_windowed
         COMMAND ${WITH_DISPLAY} $<TARGET_FILE:scene> --validation --screenshot ${SHOTS}/demo_scene_windowed.png
                 ${SMALL})
set_tests_properties(demo_scene_windowed PROPERTIES
  LABELS demo TIMEOUT 120 RESOURCE_LOCK display FIXTURES_SETUP demo_scene_windowed
  ENVIRONMENT "${VKG_TEST_ENV};ENG_DEVICE=llvmpipe"
  FAIL_REGULAR_EXPRESSION "${SCENE_FAIL}" PASS_REGULAR_EXPRESSION "${SCENE_CLEAN}")
add_test(NAME demo_scene_windowed_same_picture
         COMMAND ${CMAKE_COMMAND} -E compare_files ${SHOTS}/demo_scene_windowed.png ${SHOTS}/demo_scene_async.png)
set_tests_properties(demo_scene_windowed_same_picture PROPERTIES
  LABELS demo TIMEOUT 30 FIXTURES_REQUIRED "demo_scene_windowed;demo_scene_queues")

# The gallery's picture (demos/gallery/scene.png: 1280x720, 3 frames)
# drawn again: shadows, AO, bloom and the tonemap all land where they did.
# Another Mesa may round a few edge pixels differently: at most 1% of the
# pixels may differ by more than 8 levels.
scene_test(demo_scene_gallery_run "" "${SCENE_CLEAN}" --frames 3 --screenshot ${SHOTS}/demo_scene_gallery.png)
set_tests_properties(demo_scene_gallery_run PROPERTIES FIXTURES_SETUP demo_scene_gallery)
add_test(NAME demo_scene_gallery
         COMMAND compare_images ${PROJECT_SOURCE_DIR}/demos/gallery/scene.png ${SHOTS}/demo_scene_gallery.png 8
                 --max-share 1)
set_tests_properties(demo_scene_gallery PROPERTIES LABELS demo TIMEOUT 30 FIXTURES_REQUIRED demo_scene_gallery)

# A new size every frame: everything sized from the target follows the
# import's extent, declared, compiled and placed again each time.
scene_test(demo_scene_resize_storm "" "recreated [1-9][0-9]+ times.*${SCENE_CLEAN}"
           --frames 30 --width 320 --height 240 --resize-storm)

# Under the tile-memory layer held to every tile profile, merged and not
# (vkg_demo_tile_profiles, tests/demos/CMakeLists.txt).
set(SCENE_TILE_ENV "${VKG_TEST_ENV};ENG_DEVICE=llvmpipe")
vkg_demo_tile_profiles(scene SCENE_TILE_ENV SCENE_CLEAN)
