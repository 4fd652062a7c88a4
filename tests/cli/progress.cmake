# Progress on long runs (issue #24): reports on stderr once a second with --progress on, none when stderr is not a
# terminal under the default (auto), the overwriting form on a terminal (a pseudo-terminal from script(1)), and never
# anything in the results: stdout and the JSON are byte-identical with and without it.
# The run takes several seconds (64 Async-PS workers, 20 steps, the actors' path: without streams the PS dispatcher
# does not apply and the run is not over in a tenth of a second), so that at least one report falls due.
set(args run --arch ps-async --workers 64 --steps 20 --warmup 1 --stream off)
file(REMOVE_RECURSE ${WORKDIR})
file(MAKE_DIRECTORY ${WORKDIR})

execute_process(COMMAND ${SGDSIM} ${args} --progress on --json ${WORKDIR}/on.json OUTPUT_FILE ${WORKDIR}/on.out
                ERROR_FILE ${WORKDIR}/on.err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "--progress on: status ${rc}")
endif()
file(READ ${WORKDIR}/on.err err)
if(NOT err MATCHES "sgdsim: step [0-9]+ of 1344 \\([0-9]+%\\), simulated [0-9.e+]+ s, wall [0-9]+ s")
  message(FATAL_ERROR "--progress on: no progress report on stderr:\n${err}")
endif()
if(err MATCHES "\r")
  message(FATAL_ERROR "--progress on, stderr a file: reports must be whole lines, not carriage returns")
endif()

execute_process(COMMAND ${SGDSIM} ${args} --json ${WORKDIR}/auto.json OUTPUT_FILE ${WORKDIR}/auto.out
                ERROR_FILE ${WORKDIR}/auto.err RESULT_VARIABLE rc)
file(READ ${WORKDIR}/auto.err err)
if(NOT rc EQUAL 0 OR err MATCHES "step [0-9]+ of")
  message(FATAL_ERROR "default (auto), stderr a file: status ${rc}, and no progress expected:\n${err}")
endif()
foreach(f out json)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORKDIR}/on.${f} ${WORKDIR}/auto.${f} RESULT_VARIABLE differ)
  if(differ)
    message(FATAL_ERROR "the ${f} output differs with --progress on")
  endif()
endforeach()

# On a terminal: script(1) (util-linux, essential in Debian) gives the run a pseudo-terminal.
find_program(SCRIPT script)
if(NOT SCRIPT)
  message(FATAL_ERROR "script(1) not found (Debian package bsdutils)")
endif()
string(REPLACE ";" " " cmd "${SGDSIM};${args}")
execute_process(COMMAND ${SCRIPT} -qec "${cmd}" /dev/null OUTPUT_VARIABLE tty RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "on a terminal: status ${rc}")
endif()
string(ASCII 27 esc)
if(NOT tty MATCHES "\r${esc}\\[Ksgdsim: step [0-9]+ of 1344")
  message(FATAL_ERROR "on a terminal, the default shows no progress:\n${tty}")
endif()
message(STATUS "progress: reported with --progress on and on a terminal, silent otherwise, results unchanged")
