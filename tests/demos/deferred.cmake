# The deferred demo's tests (included by tests/demos/CMakeLists.txt where
# the demo is built, with DEFERRED_CLEAN): small windows and few frames,
# the CPU rasterizer is slow.

# The sky as stored in the sRGB swapchain image after the tonemap.
set(DEFERRED_SKY 15,21,39)

vkg_demo_test(demo_deferred deferred deferred ${DEFERRED_SKY} ${SMALL})
# One light instead of 48: the lit-ground checks must fail there, which
# shows they measure the lights.
vkg_demo_test(demo_deferred_one_light deferred deferred-one-light ${DEFERRED_SKY} ${SMALL} --lights 1)
# A 4x multisampled G-buffer, lit per sample.
vkg_demo_test(demo_deferred_msaa deferred deferred ${DEFERRED_SKY} ${SMALL} --samples 4)
# Shrink, grow and restore the window: the graph is declared and placed
# again at each size without a validation message.
vkg_demo_test(demo_deferred_resize deferred deferred ${DEFERRED_SKY} --frames 12 --width 320 --height 240 --resize-test)

# Recorded in chunks (vkg_demo_chunks, tests/demos/CMakeLists.txt): the
# ten spans cut between them, the lights' descriptor sets taken from the
# frame's pool under the renderer's lock when the callbacks run on two
# threads; the same picture as one chunk, byte for byte.
vkg_demo_chunks(demo_deferred deferred ${SMALL})

# The bloom chain is placed in the G-buffer's memory, as the graph's
# placement says (read back, not assumed); --report also prints the
# passes' GPU times of a completed frame, timestamps under validation.
add_test(NAME demo_deferred_aliasing
         COMMAND ${WITH_DISPLAY} $<TARGET_FILE:deferred> --validation --report ${SMALL})
set_tests_properties(demo_deferred_aliasing PROPERTIES
  LABELS demo TIMEOUT 120 RESOURCE_LOCK display ENVIRONMENT "${VKG_TEST_ENV}"
  FAIL_REGULAR_EXPRESSION "\\[vulkan (warning|error)\\]"
  PASS_REGULAR_EXPRESSION
  "deferred: bloom targets share memory with the G-buffer: [1-9][0-9]* of [0-9]+ bloom targets.*GPU timings of graph 'deferred', frame [1-9][0-9]*: passes.*${DEFERRED_CLEAN}")

# Under the tile-memory emulation layer the depth buffer, cleared and
# discarded inside the G-buffer span, gets lazily allocated memory; the
# picture and the validation verdict stay the same.
if(TARGET VkLayer_vkgraph_tile_memory)
  vkg_demo_test(demo_deferred_tile deferred deferred ${DEFERRED_SKY} ${SMALL})
  set_property(TEST demo_deferred_tile APPEND PROPERTY ENVIRONMENT
               "ENG_LAYERS=VK_LAYER_VKGRAPH_tile_memory" "VK_ADD_LAYER_PATH=${VKG_TILE_LAYER_PATH}")
  set_property(TEST demo_deferred_tile PROPERTY PASS_REGULAR_EXPRESSION
               "graph placed at 320x240: [^\n]*lazy (0\\.[1-9]|[1-9])[0-9.]* MiB.*${DEFERRED_CLEAN}")
endif()

# A sample count no device offers: a clear message naming it, not a crash.
add_test(NAME demo_deferred_unsupported_samples
         COMMAND ${WITH_DISPLAY} $<TARGET_FILE:deferred> --frames 1 --width 320 --height 240 --samples 64)
set_tests_properties(demo_deferred_unsupported_samples PROPERTIES
  LABELS demo TIMEOUT 60 RESOURCE_LOCK display PASS_REGULAR_EXPRESSION "64x MSAA is not supported")
