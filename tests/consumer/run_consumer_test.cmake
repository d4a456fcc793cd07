# Install the built fleetdyn into a scratch prefix, then configure, build and run
# tests/consumer against it. Arguments: FLEETDYN_BUILD_DIR, CONSUMER_SOURCE_DIR, WORK_DIR, GENERATOR,
# CXX_COMPILER and CXX_FLAGS (the library's compiler and sanitizer flags).
file(REMOVE_RECURSE "${WORK_DIR}")
function(run_step what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "find_package consumer: ${what} failed (${result})\n${out}\n${err}")
  endif()
  message(STATUS "${out}")
endfunction()
run_step("install" ${CMAKE_COMMAND} --install "${FLEETDYN_BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
run_step("configure" ${CMAKE_COMMAND} -S "${CONSUMER_SOURCE_DIR}" -B "${WORK_DIR}/build" -G "${GENERATOR}"
         -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release
         -DCMAKE_CXX_COMPILER=${CXX_COMPILER} "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}")
run_step("build" ${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run_step("run" "${WORK_DIR}/build/consumer")
