# Frame files over the fuzzers' corpora, in the main tree (included by
# tests/CMakeLists.txt; label unit, so CI's runs take them):
#   - replay_frame_corpus: fuzz_frame.c's checks (load, or a refusal naming
#     the file; compile, place, save, reload, save the same text) over
#     frame_corpus/, the reader fuzzer's seeds and regressions; the
#     libFuzzer build of the same harness is tests/fuzz/CMakeLists.txt's
#     fuzz_frame (scripts/fuzz.sh frame);
#   - replay_graph_corpus_frames: the graph fuzzer's standalone replay of
#     corpus/ with the frame check of support/frame_wrap.c on
#     (VKG_TEST_FRAMES=1): every graph the inputs compile or place is
#     saved, loaded, compiled and placed again, compared, and saved to the
#     same text.
set(vkg_fuzz_dir ${CMAKE_CURRENT_SOURCE_DIR}/fuzz)
add_executable(replay_frame_corpus ${vkg_fuzz_dir}/fuzz_frame.c ${vkg_fuzz_dir}/frame_seeds.c unit/device_tables.c)
target_compile_definitions(replay_frame_corpus PRIVATE FUZZ_STANDALONE)
target_include_directories(replay_frame_corpus PRIVATE unit)
target_link_libraries(replay_frame_corpus PRIVATE rendergraph_frame)
vkg_link_sanitizer_pins(replay_frame_corpus)
file(GLOB vkg_frame_corpus CONFIGURE_DEPENDS ${vkg_fuzz_dir}/frame_corpus/*)
add_test(NAME fuzz_frame_corpus COMMAND replay_frame_corpus ${vkg_frame_corpus})

add_executable(replay_graph_corpus_frames
  ${vkg_fuzz_dir}/fuzz_graph.c ${vkg_fuzz_dir}/fuzz_decode.c ${vkg_fuzz_dir}/fuzz_resources.c
  ${vkg_fuzz_dir}/fuzz_commands.c ${vkg_fuzz_dir}/fuzz_compile.c ${vkg_fuzz_dir}/fuzz_place.c
  ${vkg_fuzz_dir}/fuzz_record.c ${vkg_fuzz_dir}/seed_encode.c ${vkg_fuzz_dir}/seeds.c
  ${vkg_fuzz_dir}/null_device.c ${vkg_fuzz_dir}/null_device_record.c ${vkg_fuzz_dir}/null_device_vulkan.c
  ${vkg_fuzz_dir}/record_check.c ${vkg_fuzz_dir}/record_layouts.c ${vkg_fuzz_dir}/record_cuts.c
  unit/device_tables.c)
target_compile_definitions(replay_graph_corpus_frames PRIVATE FUZZ_STANDALONE)
target_include_directories(replay_graph_corpus_frames PRIVATE unit)
target_link_libraries(replay_graph_corpus_frames PRIVATE rendergraph)
vkg_link_sanitizer_pins(replay_graph_corpus_frames)
vkg_test_frames(replay_graph_corpus_frames)
file(GLOB vkg_graph_corpus CONFIGURE_DEPENDS ${vkg_fuzz_dir}/corpus/*)
add_test(NAME fuzz_corpus_frames COMMAND replay_graph_corpus_frames ${vkg_graph_corpus})
set_tests_properties(fuzz_corpus_frames PROPERTIES ENVIRONMENT "${VKG_TEST_ENV};VKG_TEST_FRAMES=1")
set_tests_properties(fuzz_frame_corpus PROPERTIES ENVIRONMENT "${VKG_TEST_ENV}")
set_tests_properties(fuzz_frame_corpus fuzz_corpus_frames PROPERTIES LABELS unit TIMEOUT 600
                     FAIL_REGULAR_EXPRESSION "ERROR: (Leak|Address)Sanitizer;runtime error:;check failed")
