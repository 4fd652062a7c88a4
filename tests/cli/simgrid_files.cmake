# The files SimGrid itself writes (issue #21): a --log appender's file and the trace of --cfg tracing:yes are outputs
# like --json's. A run writes them (renamed into place once it succeeded), -q keeps stderr empty, an existing file is
# replaced only with --force, and a run that fails leaves neither the file nor its temporary behind.
set(args run --workers 2 --steps 1 --warmup 0 --progress off)
file(REMOVE_RECURSE ${WORKDIR})
file(MAKE_DIRECTORY ${WORKDIR})
set(outputs --cfg tracing:yes --cfg tracing/filename:${WORKDIR}/run.trace --log sgdsim.app:file:${WORKDIR}/run.log
            --log "sgdsim.thresh:verbose sgdsim.fmt:[%c/%p]%e%m%n" --log sgdsim.add:off)

execute_process(COMMAND ${SGDSIM} ${args} -q ${outputs} OUTPUT_FILE ${WORKDIR}/first.out ERROR_VARIABLE err
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT err STREQUAL "")
  message(FATAL_ERROR "tracing and a log file: status ${rc}, stderr (expected empty under -q):\n${err}")
endif()
foreach(f run.trace run.log)
  if(NOT EXISTS ${WORKDIR}/${f})
    message(FATAL_ERROR "${f} was not written")
  endif()
endforeach()
file(READ ${WORKDIR}/run.trace trace)
if(NOT trace MATCHES "^#This file was generated using SimGrid" OR NOT trace MATCHES "PajeDefineContainerType")
  message(FATAL_ERROR "run.trace is not a Paje trace:\n${trace}")
endif()
file(GLOB leftovers ${WORKDIR}/*.tmp.*)
if(leftovers)
  message(FATAL_ERROR "temporary files left behind: ${leftovers}")
endif()

# Again: the files exist, so without --force the run is refused before it starts, and the files stay as they were.
file(WRITE ${WORKDIR}/run.log "the user's\n")
execute_process(COMMAND ${SGDSIM} ${args} ${outputs} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
file(READ ${WORKDIR}/run.log log)
if(NOT rc EQUAL 2 OR NOT out STREQUAL "" OR NOT err MATCHES "^sgdsim: error: [^\n]*the file exists \\(use --force"
   OR NOT log STREQUAL "the user's\n")
  message(FATAL_ERROR "existing files without --force: status ${rc}, log '${log}', stderr:\n${err}")
endif()
execute_process(COMMAND ${SGDSIM} ${args} ${outputs} --force -q OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
file(READ ${WORKDIR}/run.log log)
if(NOT rc EQUAL 0 OR log STREQUAL "the user's\n")
  message(FATAL_ERROR "existing files with --force: status ${rc}, the log file not replaced; stderr:\n${err}")
endif()

# A run that fails in the simulation process (a platform SimGrid refuses) leaves no file.
file(WRITE ${WORKDIR}/bad.xml "<?xml version=\"1.0\"?>\n<platform version=\"4.1\">\n  <host id=\"h\" speed=\"1Gf\"/>\n  <host id=\"h\" speed=\"1Gf\"/>\n</platform>\n")
execute_process(COMMAND ${SGDSIM} ${args} --platform ${WORKDIR}/bad.xml --log root.app:file:${WORKDIR}/failed.log
                        --cfg tracing:yes --cfg tracing/filename:${WORKDIR}/failed.trace
                OUTPUT_QUIET ERROR_VARIABLE err RESULT_VARIABLE rc)
file(GLOB leftovers ${WORKDIR}/failed* ${WORKDIR}/*.tmp.*)
if(rc EQUAL 0 OR leftovers)
  message(FATAL_ERROR "a failed run: status ${rc}, files left behind: ${leftovers}; stderr:\n${err}")
endif()
