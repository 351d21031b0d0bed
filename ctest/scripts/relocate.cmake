# Relocatability: copies the install tree (PREFIX) elsewhere, builds the consumer project
# (consumer/) against the copy through find_package(FFTW3), find_package(FFTW3f) and
# find_package(FFTX), runs it, and checks that it loaded the copy's library.
foreach(v PREFIX LIBDIR WORK CONSUMER_SRC C_COMPILER GENERATOR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "relocate.cmake: ${v} not set")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK}")
set(moved "${WORK}/moved prefix")   # a space in the path, too
file(MAKE_DIRECTORY "${moved}")
file(COPY "${PREFIX}/" DESTINATION "${moved}")   # links stay links

set(gen -G "${GENERATOR}")
if(MAKE_PROGRAM)
  list(APPEND gen "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${CONSUMER_SRC}" -B "${WORK}/build" ${gen}
          "-DCMAKE_C_COMPILER=${C_COMPILER}" "-DCMAKE_PREFIX_PATH=${moved}" "-DEXPECT_PREFIX=${moved}"
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the consumer against ${moved} failed:\n${out}\n${err}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK}/build"
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the consumer against ${moved} failed:\n${out}\n${err}")
endif()
get_filename_component(real_moved "${moved}" REALPATH)
foreach(exe by_target by_variables by_fftx)
  execute_process(COMMAND "${WORK}/build/${exe}" OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "${exe} failed (${rc}):\n${out}\n${err}")
  endif()
  if(NOT out MATCHES "library: ([^\n]*)\n")
    message(FATAL_ERROR "${exe} did not say which library it loaded:\n${out}")
  endif()
  get_filename_component(loaded "${CMAKE_MATCH_1}" REALPATH)
  if(NOT loaded STREQUAL "${real_moved}/${LIBDIR}/libfftx.so.0")
    message(FATAL_ERROR "${exe} loaded ${loaded}, not the relocated ${real_moved}/${LIBDIR}/libfftx.so.0")
  endif()
  message("${exe}: ${out}")
endforeach()
