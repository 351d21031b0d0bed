# tools/datasyms built against the system's FFTW, run with LD_LIBRARY_PATH=LIBDIR (fftx under
# FFTW's names): no "has different size" warning from the loader (fftx's data symbols must not
# be larger than FFTW's, or copy relocations truncate them), and version strings that start as
# FFTW's do ("fftw-3.3.10", which programs parse).
foreach(v EXE LIBDIR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "check_datasyms.cmake: ${v} not set")
  endif()
endforeach()
execute_process(COMMAND "${CMAKE_COMMAND}" -E env "LD_LIBRARY_PATH=${LIBDIR}" "${EXE}"
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
message("${out}${err}")
if(rc)
  message(FATAL_ERROR "${EXE} failed (${rc})")
endif()
if(err MATCHES "different size")
  message(FATAL_ERROR "the loader reports size mismatches of FFTW's data symbols (see above): "
                      "fftx's must be at most FFTW's sizes (nm -D -S)")
endif()
foreach(p fftw fftwf)
  if(NOT out MATCHES "(^|\n)${p}_version \\[fftw-3\\.3\\.10[^]\n]*\\]\n")
    message(FATAL_ERROR "${p}_version does not read as FFTW 3.3.10's (fftw-3.3.10...) or is cut short")
  endif()
endforeach()
