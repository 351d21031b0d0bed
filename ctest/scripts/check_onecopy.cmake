# tools/onecopy (linked with -lfftw3_threads -lfftw3) run with FFTX_LOG=info and, when LIBDIR is
# set, LD_LIBRARY_PATH=LIBDIR: the loader must map exactly one FFTW/fftx object (FFTW's names
# are links to one file, recognised by device and inode), threads state set through one name
# must be seen through the other, and fftx must do the planning.
foreach(v EXE)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "check_onecopy.cmake: ${v} not set")
  endif()
endforeach()
set(env FFTX_LOG=info)
if(LIBDIR)
  list(APPEND env "LD_LIBRARY_PATH=${LIBDIR}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env ${env} "${EXE}"
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
message("${out}")
if(rc)
  message(FATAL_ERROR "${EXE} failed (${rc}):\n${err}")
endif()
foreach(want "objects 1" "init_threads 1" "nthreads 3" "plan 1")
  if(NOT out MATCHES "(^|\n)${want}\n")
    message(FATAL_ERROR "${EXE} (${env}): expected '${want}'")
  endif()
endforeach()
if(NOT err MATCHES "(^|\n)fftx\\[info\\]: plan")
  message(FATAL_ERROR "${EXE} (${env}): no \"fftx[info]: plan\" line, fftx did not plan:\n${err}")
endif()
