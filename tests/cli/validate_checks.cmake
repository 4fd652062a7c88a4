# sgdsim validate's qualitative checks: a check that does not hold fails the run (exit 1) unless it is marked a
# known failure; a check naming a missing point is a bad input (exit 2). Run with -DSGDSIM=... -DSRCDIR=...
execute_process(COMMAND ${SGDSIM} validate tests/data/validate/checks WORKING_DIRECTORY ${SRCDIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "a failing check must exit 1, got ${rc}: ${err}")
endif()
# (CMake regexes: | and * are escaped as \\| and \\*.)
foreach(expected "\\| holds: 3 workers / 1 worker \\| [0-9.]+ \\| 1.05 \\.\\.  \\| yes \\|"
                 "\\| known: 3 workers / 1 worker \\| [0-9.]+ \\|  \\.\\. 1 \\| no, known: a test \\|"
                 "\\| fails: 3 workers / 1 worker \\| [0-9.]+ \\|  \\.\\. 1 \\| \\*\\*no\\*\\* \\|"
                 "1 of 3 checks hold \\(1 known failures\\): \\*\\*failed\\*\\*")
  if(NOT out MATCHES "${expected}")
    message(FATAL_ERROR "expected '${expected}' in:\n${out}")
  endif()
endforeach()
execute_process(COMMAND ${SGDSIM} validate tests/data/validate/bad-label WORKING_DIRECTORY ${SRCDIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "bad-label/case.json.*check 'typo': no point labelled '3 worker'")
  message(FATAL_ERROR "a check naming a missing point must be a clear error (exit 2), got ${rc}: ${err}")
endif()
