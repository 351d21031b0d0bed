# Runs a test program built against the system's FFTW (REF) and the same program served by fftx
# (TEST), then compares their outputs numerically (COMPARE, tools/compare.c).
#   MODE build    TEST is the program built against fftx (must need libfftx.so.0, no libfftw3*)
#   MODE preload  TEST is REF, run with LD_PRELOAD=FFTX_LIB
#   MODE libpath  TEST is REF, run with LD_LIBRARY_PATH=FFTX_LIBDIR (FFTW's names resolve to fftx)
# Every TEST run has FFTX_LOG=info and must print at least one "fftx[info]: plan" line on
# stderr: proof that fftx, not FFTW, planned.
foreach(v NAME MODE REF TEST COMPARE WORKDIR READELF)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_compare.cmake: ${v} not set")
  endif()
endforeach()

function(needed exe out)
  execute_process(COMMAND "${READELF}" -d "${exe}" OUTPUT_VARIABLE dyn RESULT_VARIABLE rc)
  if(rc)
    message(FATAL_ERROR "${READELF} -d ${exe} failed")
  endif()
  string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*\\[[^]\n]*\\]" lines "${dyn}")
  set(libs "")
  foreach(l IN LISTS lines)
    string(REGEX REPLACE ".*\\[([^]]*)\\].*" "\\1" l "${l}")
    list(APPEND libs "${l}")
  endforeach()
  set(${out} "${libs}" PARENT_SCOPE)
endfunction()

foreach(exe "${REF}" "${TEST}")
  if(NOT EXISTS "${exe}")
    message(FATAL_ERROR "${NAME}: ${exe} was not built (see the build's errors)")
  endif()
endforeach()

# The reference must be FFTW; a TEST built here must be fftx and nothing else.
needed("${REF}" ref_needed)
if(NOT ref_needed MATCHES "libfftw3" OR ref_needed MATCHES "libfftx")
  message(FATAL_ERROR "${REF} should need FFTW's libraries and not fftx; it needs: ${ref_needed}")
endif()
set(env FFTX_LOG=info)
if(MODE STREQUAL "build")
  needed("${TEST}" test_needed)
  if(NOT test_needed MATCHES "(^|;)libfftx\\.so\\.0(;|$)" OR test_needed MATCHES "libfftw3")
    message(FATAL_ERROR "${TEST} should need libfftx.so.0 and no libfftw3*; it needs: ${test_needed}")
  endif()
elseif(MODE STREQUAL "preload")
  list(APPEND env "LD_PRELOAD=${FFTX_LIB}")
elseif(MODE STREQUAL "libpath")
  list(APPEND env "LD_LIBRARY_PATH=${FFTX_LIBDIR}")
else()
  message(FATAL_ERROR "run_compare.cmake: unknown MODE ${MODE}")
endif()

string(REPLACE ";" " " env_shown "${env}")
file(REMOVE_RECURSE "${WORKDIR}")
file(MAKE_DIRECTORY "${WORKDIR}/ref" "${WORKDIR}/test")

execute_process(COMMAND "${CMAKE_COMMAND}" -E env --unset=LD_PRELOAD --unset=FFTX_LOG "${REF}"
  WORKING_DIRECTORY "${WORKDIR}/ref"
  OUTPUT_FILE "${WORKDIR}/ref.out" ERROR_FILE "${WORKDIR}/ref.err" RESULT_VARIABLE rc)
if(NOT rc STREQUAL "0")
  file(READ "${WORKDIR}/ref.err" err)
  message(FATAL_ERROR "${NAME}: the FFTW build failed (${rc}):\n${err}")
endif()

execute_process(COMMAND "${CMAKE_COMMAND}" -E env ${env} "${TEST}"
  WORKING_DIRECTORY "${WORKDIR}/test"
  OUTPUT_FILE "${WORKDIR}/test.out" ERROR_FILE "${WORKDIR}/test.err" RESULT_VARIABLE rc)
file(READ "${WORKDIR}/test.err" err)
string(LENGTH "${err}" len)
if(len GREATER 4000)
  string(SUBSTRING "${err}" 0 4000 err_head)
  set(err_head "${err_head}\n[... ${WORKDIR}/test.err has the rest]")
else()
  set(err_head "${err}")
endif()
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "${NAME}: the fftx run (${env_shown} ${TEST}) failed (${rc}):\n${err_head}")
endif()
if(NOT err MATCHES "(^|\n)fftx\\[info\\]: plan")
  message(FATAL_ERROR "${NAME}: no \"fftx[info]: plan\" line on stderr, so fftx did not serve the calls (${env_shown} ${TEST}):\n${err_head}")
endif()

execute_process(COMMAND "${COMPARE}" "${WORKDIR}/ref.out" "${WORKDIR}/test.out"
  OUTPUT_VARIABLE out ERROR_VARIABLE cerr RESULT_VARIABLE rc)
message("${NAME} (${MODE}): ${out}")
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "${NAME}: outputs differ (FFTW: ${WORKDIR}/ref.out, fftx: ${WORKDIR}/test.out)\n${cerr}")
endif()
