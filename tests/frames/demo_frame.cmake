# One demo's frame against the plan the demo made (cmake -P, from
# tests/frames/CMakeLists.txt): the demo saves its frame with its DOT graph
# and memory timeline, rgtool writes both again from the file alone, and
# they must be the same bytes (order, culling, barriers with the alias
# barriers of the placement, spans and merges, every resource's offset);
# the saved file then round-trips (frame_roundtrip). Variables: DEMO (its
# program), NAME, OUT (a folder), RGTOOL, ROUNDTRIP.
file(MAKE_DIRECTORY ${OUT})
set(base ${OUT}/${NAME})
execute_process(COMMAND ${DEMO} --headless --validation --frames 1 --width 320 --height 240
                        --save-frame ${base}.json --dot ${base}.dot --timeline ${base}.svg
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "validation: 0 warnings, 0 errors")
  message(FATAL_ERROR "${NAME}: the demo failed (${rc}):\n${out}\n${err}")
endif()
foreach(kind dot timeline)
  set(ext dot)
  if(kind STREQUAL "timeline")
    set(ext svg)
  endif()
  execute_process(COMMAND ${RGTOOL} ${kind} ${base}.json -o ${base}-rgtool.${ext} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${NAME}: rgtool ${kind} failed (${rc})")
  endif()
  file(READ ${base}.${ext} demo_text)
  file(READ ${base}-rgtool.${ext} tool_text)
  if(NOT demo_text STREQUAL tool_text)
    message(FATAL_ERROR "${NAME}: rgtool ${kind} of the saved frame differs from the demo's own "
                        "(${base}.${ext}, ${base}-rgtool.${ext})")
  endif()
endforeach()
execute_process(COMMAND ${ROUNDTRIP} ${base}.json RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NAME}: the saved frame does not round-trip")
endif()
message(STATUS "${NAME}: rgtool plans the saved frame as the demo did")
