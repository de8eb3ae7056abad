# The model is the layer, for one demo (cmake -P, from
# tests/frames/CMakeLists.txt): the demo renders one frame under the
# tile-memory layer counting every profile (VKGRAPH_TILE_PROFILE=all) and
# saves its frame; tile_model then requires the library's tile view of
# the saved frame under each profile to print the layer's lines. With
# PLANT set, tile_model changes the model's side first (the CTest expects
# the failure). Variables: DEMO, NAME, OUT, LAYERS (the layer's folder),
# MODEL (tile_model), PLANT and ARGS (the demo's extra flags, ';'-separated;
# both optional).
file(MAKE_DIRECTORY ${OUT})
set(base ${OUT}/${NAME}-tiles)
execute_process(COMMAND ${CMAKE_COMMAND} -E env ENG_LAYERS=VK_LAYER_VKGRAPH_tile_memory VK_ADD_LAYER_PATH=${LAYERS}
                        VKGRAPH_TILE_PROFILE=all VKGRAPH_TILE_REPORT=${base}.txt
                        ${DEMO} --headless --validation --frames 1 --width 320 --height 240 --save-frame ${base}.json
                        ${ARGS}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "validation: 0 warnings, 0 errors")
  message(FATAL_ERROR "${NAME}: the demo failed under the tile layer (${rc}):\n${out}\n${err}")
endif()
set(plant_args)
if(PLANT)
  set(plant_args --plant ${PLANT})
endif()
execute_process(COMMAND ${MODEL} ${base}.json ${base}.txt ${plant_args} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NAME}: the model and the layer differ (${rc}):\n${out}\n${err}")
endif()
message(STATUS "${out}")
