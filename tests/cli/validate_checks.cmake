# sgdsim validate's qualitative checks: a check that does not hold fails the run (exit 1) unless it is marked a
# known failure; a check naming a missing point is a bad input (exit 2). Run with -DSGDSIM=... -DSRCDIR=...
# (CMake regexes: | and * are escaped as \\| and \\*.)
function(expect_all text)
  foreach(expected IN LISTS ARGN)
    if(NOT text MATCHES "${expected}")
      message(FATAL_ERROR "expected '${expected}' in:\n${text}")
    endif()
  endforeach()
endfunction()

execute_process(COMMAND ${SGDSIM} validate tests/data/validate/checks WORKING_DIRECTORY ${SRCDIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "a failing check must exit 1, got ${rc}: ${err}")
endif()
expect_all("${out}" "\\| holds: 3 workers / 1 worker \\| [0-9.]+ \\| 1.05 \\.\\.  \\| yes \\|"
                   "\\| known: 3 workers / 1 worker \\| [0-9.]+ \\|  \\.\\. 1 \\| no, known: a test \\|"
                   "\\| fails: 3 workers / 1 worker \\| [0-9.]+ \\|  \\.\\. 1 \\| \\*\\*no\\*\\* \\|"
                   "1 of 3 checks hold \\(1 known failures\\): \\*\\*failed\\*\\*")
execute_process(COMMAND ${SGDSIM} validate tests/data/validate/bad-label WORKING_DIRECTORY ${SRCDIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "bad-label/case.json.*check 'typo': no point labelled '3 worker'")
  message(FATAL_ERROR "a check naming a missing point must be a clear error (exit 2), got ${rc}: ${err}")
endif()
# The best analytic model of a case is one that answers for the most points: csf, exact on the only point it answers
# for, must lose to a model that answers for both (and the summary says how many points a partial model covers).
execute_process(COMMAND ${SGDSIM} validate tests/data/validate/coverage WORKING_DIRECTORY ${SRCDIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\\| csf \\| 0\\.0[0-9]*% \\|")
  message(FATAL_ERROR "the coverage case must run, with csf exact on its point, got ${rc}: ${err}\n${out}")
endif()
# Summary columns: case, points, simulation, target, target met, guard, best model.
if(NOT out MATCHES "\\| coverage \\| 2 \\| [^|]+\\| [^|]+\\| [^|]+\\| [^|]+\\| [a-z0-9-]+: [0-9.]+% / [0-9.]+% \\|"
   OR out MATCHES "\\| coverage \\|[^\n]*csf:")
  message(FATAL_ERROR "the best model must answer for both points:\n${out}")
endif()
# A missed target is shown as missed, with what is missing, and fails no run; the guard is what CI enforces.
execute_process(COMMAND ${SGDSIM} validate tests/data/validate/target WORKING_DIRECTORY ${SRCDIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a case within its guard must pass whatever its target, got ${rc}: ${err}")
endif()
expect_all("${out}" "\\| target \\| 1 \\| 9[0-9.]+% / 9[0-9.]+% \\| 5% / 15% \\| \\*\\*missed\\*\\* \\| 1000% / 1000% \\|"
                   "Target: mean 5%, max 15%: \\*\\*missed\\*\\*. Missing: a test: the measured value is made up."
                   "Guard \\(CI\\): mean 1000%, max 1000%: within."
                   "\\| \\*\\*all\\*\\* \\| 1 \\| [^|]+\\| \\| 0 of 1 met \\|")
execute_process(COMMAND ${SGDSIM} validate tests/data/validate/old-tolerance WORKING_DIRECTORY ${SRCDIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "old-tolerance/case.json: field 'tolerance': renamed 'guard'")
  message(FATAL_ERROR "the old field name must be a clear error (exit 2), got ${rc}: ${err}")
endif()
