# The postfx demo's tests (included by tests/demos/CMakeLists.txt where
# the demo is built, with POSTFX_CLEAN): small windows and few frames, the
# CPU rasterizer is slow.

# postfx draws no clear color: the background argument is not used.
set(POSTFX_BACKGROUND 0,0,0)

# Every pass: the cube, the sun, the neon floor, the vignette's corners.
vkg_demo_test(demo_postfx postfx postfx ${POSTFX_BACKGROUND} ${SMALL})
# Every pass but the vignette: the vignette check must fail there, which
# shows it can.
vkg_demo_test(demo_postfx_no_vignette postfx postfx-no-vignette ${POSTFX_BACKGROUND} ${SMALL}
              --passes edges,bloom,blur,grade,chroma,fxaa)
# The passes change at 1/4, 1/2 and 3/4 of the run (none, every other one,
# all again): the graph is declared, compiled and placed again while frames
# are in flight, three times (the demo exits 1 otherwise), without a
# validation message; the last frame has every pass again.
vkg_demo_test(demo_postfx_toggle postfx postfx ${POSTFX_BACKGROUND} --frames 8 --width 320 --height 240
              --toggle-test)
# Shrink, grow and restore the window: the chain's targets are declared and
# placed again at each size.
vkg_demo_test(demo_postfx_resize postfx postfx ${POSTFX_BACKGROUND} --frames 12 --width 320 --height 240 --resize-test)
# A resize storm (a new window size every frame) with the pass toggles on
# top: the graph is declared again at every frame, three times of them for
# new passes, with zero validation messages.
set(POSTFX_REBUILT_3 "postfx: graph declared [0-9]+ times, rebuilt 3 times")
vkg_demo_test(demo_postfx_resize_storm postfx postfx ${POSTFX_BACKGROUND} --frames 30 --width 320 --height 240
              --resize-storm --toggle-test)
set_tests_properties(demo_postfx_resize_storm PROPERTIES
  PASS_REGULAR_EXPRESSION "recreated [1-9][0-9]+ times.*${POSTFX_CLEAN}\n${POSTFX_REBUILT_3}")

# Motion trails (--trails): the trail is a render graph history texture.
# The run prints its two dedicated images; every check of the picture
# holds with the trails on.
vkg_demo_test(demo_postfx_trails postfx postfx ${POSTFX_BACKGROUND} ${SMALL} --trails)
set_tests_properties(demo_postfx_trails PROPERTIES PASS_REGULAR_EXPRESSION
  "postfx: trails: a history texture of 2 images, [0-9.]+ MiB dedicated.*${POSTFX_CLEAN}")
# Frame N shows the trail frame N-1 left: after 5 frames the picture
# differs from the one without trails (by more than 24 levels at 1% of the
# pixels or more)...
add_test(NAME demo_postfx_trails_visible
         COMMAND compare_images ${SHOTS}/demo_postfx.png ${SHOTS}/demo_postfx_trails.png 24)
set_tests_properties(demo_postfx_trails_visible PROPERTIES
  LABELS demo TIMEOUT 30 FIXTURES_REQUIRED "demo_postfx_shot;demo_postfx_trails_shot"
  PASS_REGULAR_EXPRESSION "\\(([1-9]|[1-9][0-9])\\.[0-9]+%\\) differ by more than 24")
# ...while the first frame after placement reads the cleared history (no
# trail yet): exactly the picture without trails.
vkg_demo_test(demo_postfx_first_frame postfx postfx ${POSTFX_BACKGROUND} --frames 1 --width 320 --height 240)
vkg_demo_test(demo_postfx_trails_first_frame postfx postfx ${POSTFX_BACKGROUND} --frames 1 --width 320 --height 240
              --trails)
add_test(NAME demo_postfx_trails_start_empty
         COMMAND compare_images ${SHOTS}/demo_postfx_first_frame.png ${SHOTS}/demo_postfx_trails_first_frame.png 0
                 --max-share 0)
set_tests_properties(demo_postfx_trails_start_empty PROPERTIES
  LABELS demo TIMEOUT 30 FIXTURES_REQUIRED "demo_postfx_first_frame_shot;demo_postfx_trails_first_frame_shot")
# A resize storm and pass toggles with the trails on: the history's two
# images are made again at every declaration, with zero validation
# messages.
vkg_demo_test(demo_postfx_trails_resize_storm postfx postfx ${POSTFX_BACKGROUND} --frames 30 --width 320 --height 240
              --resize-storm --toggle-test --trails)
set_tests_properties(demo_postfx_trails_resize_storm PROPERTIES
  PASS_REGULAR_EXPRESSION "recreated [1-9][0-9]+ times.*${POSTFX_CLEAN}\n${POSTFX_REBUILT_3}")

# Recorded in chunks (vkg_demo_chunks, tests/demos/CMakeLists.txt), and
# so with the trails' history texture: the same picture as one chunk, byte
# for byte (the chain's descriptor sets come from the frame's pool under a
# lock when the callbacks run on two threads).
vkg_demo_chunks(demo_postfx postfx ${SMALL})
vkg_demo_chunks(demo_postfx_trails postfx ${SMALL} --trails)

# Nine passes declare nine targets (the scene's and eight between passes),
# and the graph's aliasing puts them in two targets' worth of pooled memory:
# the lower bound, as each target lives from its pass to the next.
# (One expression, with no semicolon: a list would pass when any one of
# its expressions matched.)
set(POSTFX_MEMORY_LINE "postfx: chain of 9 passes at 320x240 declared 9 targets of [0-9.]+ MiB. ")
string(APPEND POSTFX_MEMORY_LINE "the pools hold 2\\.0 targets' worth [^\n]*lower bound 2\\.0 targets' worth")
add_test(NAME demo_postfx_memory COMMAND ${WITH_DISPLAY} $<TARGET_FILE:postfx> --validation ${SMALL})
set_tests_properties(demo_postfx_memory PROPERTIES
  LABELS demo TIMEOUT 120 RESOURCE_LOCK display ENVIRONMENT "${VKG_TEST_ENV}"
  FAIL_REGULAR_EXPRESSION "\\[vulkan (warning|error)\\]"
  PASS_REGULAR_EXPRESSION "${POSTFX_MEMORY_LINE}.*${POSTFX_CLEAN}")

# A pass name that does not exist: a message and exit 2, before any window.
add_test(NAME demo_postfx_bad_pass COMMAND postfx --passes blur,bogus)
set_tests_properties(demo_postfx_bad_pass PROPERTIES LABELS demo PASS_REGULAR_EXPRESSION "unknown pass 'bogus'")

# Under the tile-memory emulation layer, with 4x MSAA and folding off (where
# the device offers it, the scene pass folds into its target instead:
# rendergraph.h "Multisampling"): the multisampled scene target, resolved
# and discarded inside the scene pass, gets lazily allocated memory; the
# picture and the validation verdict stay the same.
if(TARGET VkLayer_vkgraph_tile_memory)
  set(POSTFX_LAZY "[^\n]*lazy (0\\.[1-9]|[1-9])[0-9.]* MiB")
  vkg_demo_test(demo_postfx_tile postfx postfx ${POSTFX_BACKGROUND} ${SMALL} --samples 4)
  set_property(TEST demo_postfx_tile APPEND PROPERTY ENVIRONMENT
               "ENG_LAYERS=VK_LAYER_VKGRAPH_tile_memory" "VK_ADD_LAYER_PATH=${VKG_TILE_LAYER_PATH}"
               "ENG_NO_MSAA_FOLD=1") # the classic path: a lazily allocated multisampled target
  set_property(TEST demo_postfx_tile PROPERTY PASS_REGULAR_EXPRESSION
               "lazily allocated multisampled scene target[^\n]*\n${POSTFX_LAZY}.*${POSTFX_CLEAN}")
endif()
