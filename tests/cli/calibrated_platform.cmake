# `sgdsim calibrate -o` writes a platform that `sgdsim run` uses as it is (README "Calibration"): hosts of the given
# speed, the NIC and latency of the fit, the rest of the per-transfer constant as sgdsim.message_overhead, which run
# takes unless the command line sets it. tests/data/calibration/p2p.csv is T = S / 100 MB/s + 200 us exactly.
# Run with -DSGDSIM=... -DSRCDIR=... -DWORK=<a scratch folder>.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(COMMAND ${SGDSIM} calibrate --measurements tests/data/calibration/p2p.csv --kind p2p --latency 50us
                        --speed 2Tf --nodes 4 --line-rate 0.5Gbps -o ${WORK}/cal.xml
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "calibrate -o failed (${rc}): ${err}")
endif()
if(NOT err MATCHES "warning: the fitted bandwidth, 0.8 Gbps, exceeds the line rate, 0.5 Gbps")
  message(FATAL_ERROR "a bandwidth above --line-rate must be warned about, got: ${err}")
endif()
file(READ ${WORK}/cal.xml xml)
foreach(expected "speed=\"2Tf\"" "bw=\"1.03093e\\+08Bps\"" "lat=\"25us\""
                 "<prop id=\"sgdsim.message_overhead\" value=\"150us\"/>" "radical=\"0-3\"")
  if(NOT xml MATCHES "${expected}")
    message(FATAL_ERROR "expected '${expected}' in the calibrated platform:\n${xml}")
  endif()
endforeach()
execute_process(COMMAND ${SGDSIM} run --platform ${WORK}/cal.xml --arch ps-sync --workers 2 --print-scenario
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "message-overhead = 0.00015s")
  message(FATAL_ERROR "run must take the platform's per-message cost (${rc}): ${out}${err}")
endif()
execute_process(COMMAND ${SGDSIM} run --platform ${WORK}/cal.xml --arch ps-sync --workers 2 --message-overhead 10us
                        --print-scenario
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "message-overhead = 1e-05s")
  message(FATAL_ERROR "the command line must override the platform's cost (${rc}): ${out}${err}")
endif()
execute_process(COMMAND ${SGDSIM} calibrate --measurements tests/data/calibration/p2p.csv -o ${WORK}/nospeed.xml
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "-o: give the hosts' speed with --speed" OR EXISTS ${WORK}/nospeed.xml)
  message(FATAL_ERROR "-o without a speed must be refused and write nothing (${rc}): ${err}")
endif()
