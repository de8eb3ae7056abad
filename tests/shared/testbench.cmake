# Code the tests and the benchmarks share, one static library:
#   order_corpus  random DAGs of compute commands over buffers, their peaks
#                 and the exhaustive optimum (tests/unit/test_rg_order.c,
#                 benchmarks/order_memory.c);
#   bench_frame   a placed graph's frame recorded by hand from the graph's
#                 public queries (tests/device/test_rg_recording.c compares
#                 it with rg_execute; benchmarks/graph_cpu.c, gpu_frame.c);
#   msaa_sets     sets of multisampled attachments resolved into one image
#                 (benchmarks/memory_budget.c, tests/device/test_tile_*.c).
# tests/ and benchmarks/ both include this file, whichever of them is built;
# it defines the target once: target_link_libraries(prog PRIVATE vkg_testbench).
include_guard(GLOBAL)
add_library(vkg_testbench STATIC
  ${CMAKE_CURRENT_LIST_DIR}/order_corpus.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_frame.c
  ${CMAKE_CURRENT_LIST_DIR}/msaa_sets.c)
target_include_directories(vkg_testbench PUBLIC ${CMAKE_CURRENT_LIST_DIR})
# bench_frame.c includes engine.h and records through the loader's vkCmd*
# functions (the engine links the loader).
target_link_libraries(vkg_testbench PUBLIC rendergraph PRIVATE engine)
