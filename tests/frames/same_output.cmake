# cmake -P: PROGRAM writes OUT, which must be the COMMITTED file byte for
# byte (test data that says how it was made).
execute_process(COMMAND ${PROGRAM} ${OUT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} failed (${rc})")
endif()
file(READ ${OUT} made)
file(READ ${COMMITTED} committed)
if(NOT made STREQUAL committed)
  message(FATAL_ERROR "${COMMITTED} is not what ${PROGRAM} writes (${OUT}): commit the new file if the change is intended")
endif()
