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
if(err MATCHES "round trips")
  message(FATAL_ERROR "150 us beyond 50 us (1.5 round trips) is no TCP ramp, got: ${err}")
endif()
# A constant of several round trips beyond --latency (180 us beyond 20 us: 4.5) is rather TCP's ramp than software:
# warned about, and still written (docs/models.md §10.10).
execute_process(COMMAND ${SGDSIM} calibrate --measurements tests/data/calibration/p2p.csv --kind p2p --latency 20us
                        --speed 2Tf --nodes 4 -o ${WORK}/ramp.xml
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ ${WORK}/ramp.xml ramp)
if(NOT rc EQUAL 0 OR NOT err MATCHES "warning: --latency 20us: the fitted constant beyond it, 0.18 ms, is 4.5 round trips"
   OR NOT ramp MATCHES "<prop id=\"sgdsim.message_overhead\" value=\"180us\"/>")
  message(FATAL_ERROR "a constant of 4.5 round trips beyond --latency must be warned about and written (${rc}): ${err}")
endif()
# --node-series (docs/models.md §10.10): tests/data/calibration/node_series.csv has p2p rows T = S / 100 MB/s + 200 us
# and a reduce at K = 4, 8, 16 that grows by 30 us per node at each size. Of the 150 us beyond --latency 50us, 30 us
# are written per message and the other 120 us once per call, which run takes for the ring's all-reduces.
execute_process(COMMAND ${SGDSIM} calibrate --measurements tests/data/calibration/node_series.csv --kind p2p
                        --where op=p2p --latency 50us --node-series op=reduce --speed 2Tf --nodes 4 -o ${WORK}/series.xml
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ ${WORK}/series.xml series)
if(NOT rc EQUAL 0 OR err MATCHES "round trips" OR NOT out MATCHES "h          30 us per ring step at most"
   OR NOT series MATCHES "<prop id=\"sgdsim.message_overhead\" value=\"30us\"/>"
   OR NOT series MATCHES "<prop id=\"sgdsim.allreduce_overhead\" value=\"120us\"/>")
  message(FATAL_ERROR "--node-series must split 150 us into 30 us per message and 120 us per call (${rc}): ${out}${err}"
                      "${series}")
endif()
# --node-series-chain: the series is a chain (NCCL's reduce), each node one more hop: the latency (50 us) and a slice
# (1000 B at 100 MB/s: 10 us) come off its 30 us per node, which leaves nothing per message: all 150 us per call.
execute_process(COMMAND ${SGDSIM} calibrate --measurements tests/data/calibration/node_series.csv --kind p2p
                        --where op=p2p --latency 50us --node-series op=reduce --node-series-chain 1000B --speed 2Tf
                        --nodes 4 -o ${WORK}/chain.xml
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ ${WORK}/chain.xml chain)
if(NOT rc EQUAL 0 OR NOT out MATCHES "h - hop    -30 us per ring step at most"
   OR NOT chain MATCHES "<prop id=\"sgdsim.message_overhead\" value=\"0us\"/>"
   OR NOT chain MATCHES "<prop id=\"sgdsim.allreduce_overhead\" value=\"150us\"/>")
  message(FATAL_ERROR "--node-series-chain must take the hop off h: 0 us per message, 150 us per call (${rc}): "
                      "${out}${err}${chain}")
endif()
execute_process(COMMAND ${SGDSIM} run --platform ${WORK}/series.xml --arch ring --workers 4 --print-scenario
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "message-overhead = 3e-05s" OR NOT out MATCHES "allreduce-overhead = 0.00012s")
  message(FATAL_ERROR "run must take both costs of the node series' split (${rc}): ${out}${err}")
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
# --split-per-byte (docs/models.md §10.5): the NIC gets the line rate, 1 Gbps, and what the fit's 100 MB/s takes per
# byte beyond the wire (0.97 x 125 MB/s, LV08) becomes sgdsim.message_overhead_per_byte: 1/1e8 - 1/1.2125e8 s =
# 1.75258 ns. A PS run over it then reproduces the fit: one 10 MB tensor, one worker on another host, no compute,
# each way 10 MB / 100 MB/s + 200 us (50 us latency, 150 us per message): a step of 0.2004 s.
execute_process(COMMAND ${SGDSIM} calibrate --measurements tests/data/calibration/p2p.csv --kind p2p --latency 50us
                        --speed 2Tf --nodes 2 --line-rate 1Gbps --split-per-byte -o ${WORK}/split.xml
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ ${WORK}/split.xml xml)
foreach(expected "bw=\"1.25e\\+08Bps\"" "<prop id=\"sgdsim.message_overhead_per_byte\" value=\"1.75258ns\"/>")
  if(NOT rc EQUAL 0 OR NOT xml MATCHES "${expected}")
    message(FATAL_ERROR "--split-per-byte: expected '${expected}' (${rc}, ${err}):\n${xml}")
  endif()
endforeach()
file(WRITE ${WORK}/one.xml "<?xml version='1.0'?>\n<workload name=\"one\" batch=\"1\" device=\"test\" "
                           "reference_speed=\"2Tf\" ps_update=\"0s\">\n  <layer name=\"fc\" fwd=\"0s\" bwd=\"0s\">"
                           "<tensor name=\"fc.weight\" size=\"10MB\"/></layer>\n</workload>\n")
execute_process(COMMAND ${SGDSIM} run --platform ${WORK}/split.xml --workload ${WORK}/one.xml --arch ps-sync
                        --sharing fair --workers 1 --overlap off --steps 2 --warmup 1 -q
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "step time +0.200400 s mean")
  message(FATAL_ERROR "a PS run over the split platform must reproduce the fit, 0.2004 s (${rc}): ${out}${err}")
endif()
execute_process(COMMAND ${SGDSIM} calibrate --measurements tests/data/calibration/p2p.csv --split-per-byte
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--split-per-byte: needs --kind p2p, -o and --line-rate")
  message(FATAL_ERROR "--split-per-byte without -o and --line-rate must be refused (${rc}): ${err}")
endif()
# --queued (docs/models.md §10.8): the back-to-back all-reduces' fits go into sgdsim.allreduce_queued_time beside the
# single calls' sgdsim.allreduce_time, and run says it uses both. Times linear in the size at each node count (single:
# 1 ms + D / 50 MB/s, queued: half of it), which eq. (37) fits exactly at every measured size.
set(single "nodes,size_bytes,time_s\n")
set(queued "nodes,size_bytes,time_s\n")
foreach(k 2 4)
  foreach(d 4096 65536 1048576 16777216 67108864)
    math(EXPR us "1000 * ${k} / 2 + ${d} / 50")
    math(EXPR half "${us} / 2")
    string(APPEND single "${k},${d},${us}e-6\n")
    string(APPEND queued "${k},${d},${half}e-6\n")
  endforeach()
endforeach()
file(WRITE ${WORK}/single.csv "${single}")
file(WRITE ${WORK}/queued.csv "${queued}")
execute_process(COMMAND ${SGDSIM} calibrate --measurements ${WORK}/single.csv --kind allreduce --queued
                        ${WORK}/queued.csv --speed 2Tf --nodes 4 -o ${WORK}/queued.xml
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "the time per call back to back")
  message(FATAL_ERROR "calibrate --queued failed or printed no table (${rc}): ${out}${err}")
endif()
# Two node counts: it says what a larger ring pays per step more, from 4 KiB in steps of 16 to the largest size.
if(NOT out MATCHES "beyond 4 nodes, each ring step more adds [^\n]*: 4096 B [0-9.e+-]+ us, 65536 B [^\n]* 67108864 B ")
  message(FATAL_ERROR "calibrate with two node counts must print the cost per ring step beyond them: ${out}")
endif()
file(READ ${WORK}/queued.xml xml)
foreach(expected "<prop id=\"sgdsim.allreduce_time\" value=\"2:[^ ]+ 4:[^\"]+\"/>"
                 "<prop id=\"sgdsim.allreduce_queued_time\" value=\"2:[^ ]+ 4:[^\"]+\"/>")
  if(NOT xml MATCHES "${expected}")
    message(FATAL_ERROR "--queued: expected '${expected}' in the calibrated platform:\n${xml}")
  endif()
endforeach()
execute_process(COMMAND ${SGDSIM} run --platform ${WORK}/queued.xml --arch ring --workers 3 --steps 1 --warmup 0
                        --framework pytorch-ddp-gloo --allreduce-unit tensor
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
# The default, --in-flight-cost paired (docs/models.md §10.8 "A call beside shorter ones").
if(NOT rc EQUAL 0 OR NOT out MATCHES "all-reduce as measured at 2..4 nodes, and back to back at 2..4 nodes \\(each call in flight at its own size; beside shorter ones, part of its time alone, as a slower rate of its bytes\\)")
  message(FATAL_ERROR "run must say it uses both measurements, paired by default (${rc}): ${out}${err}")
endif()
# --in-flight-cost each: said in the report (without the paired clause) and echoed in the JSON.
execute_process(COMMAND ${SGDSIM} run --platform ${WORK}/queued.xml --arch ring --workers 3 --steps 1 --warmup 0
                        --framework pytorch-ddp-gloo --allreduce-unit tensor --in-flight-cost each
                        --json ${WORK}/each.json --force
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ ${WORK}/each.json json)
if(NOT rc EQUAL 0 OR NOT out MATCHES "back to back at 2..4 nodes \\(each call in flight at its own size\\)"
   OR NOT json MATCHES "\"in_flight_cost\": \"each\"")
  message(FATAL_ERROR "run --in-flight-cost each must say so and echo it (${rc}): ${out}${err}\n${json}")
endif()
# --in-flight-cost same (docs/models.md §10.8 "Calls of different sizes"): said in the report and echoed in the JSON.
execute_process(COMMAND ${SGDSIM} run --platform ${WORK}/queued.xml --arch ring --workers 3 --steps 1 --warmup 0
                        --framework pytorch-ddp-gloo --allreduce-unit tensor --in-flight-cost same
                        --json ${WORK}/same.json --force
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ ${WORK}/same.json json)
if(NOT rc EQUAL 0 OR NOT out MATCHES "back to back at 2..4 nodes \\(calls in flight as this one's size\\)"
   OR NOT json MATCHES "\"in_flight_cost\": \"same\"")
  message(FATAL_ERROR "run --in-flight-cost same must say so and echo it (${rc}): ${out}${err}\n${json}")
endif()
# --shared-cores (docs/models.md §10.7, "Ranks sharing cores"): written as sgdsim.shared_cores; beyond the node counts
# measured (2 and 4) a ring step's software then grows with the ranks per core, so 8 workers take longer than on the
# same calibration without it, and 4 workers (measured) exactly as long.
foreach(variant shared alone)
  set(extra "")
  if(variant STREQUAL "shared")
    set(extra --shared-cores 2)
  endif()
  execute_process(COMMAND ${SGDSIM} calibrate --measurements ${WORK}/single.csv --kind allreduce ${extra} --speed 2Tf
                          --nodes 8 -o ${WORK}/${variant}.xml
                  WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "calibrate ${extra} failed (${rc}): ${out}${err}")
  endif()
  # What it prints for a ring beyond 4 nodes is the rule run will apply.
  if(variant STREQUAL "shared")
    set(beyond "beyond 4 nodes, a ring pays the 4-node excess times its steps and its ranks per core \\(2 shared cores")
  else()
    set(beyond "beyond 4 nodes, each ring step more adds")
  endif()
  if(NOT out MATCHES "${beyond}")
    message(FATAL_ERROR "calibrate ${extra} must print '${beyond}':\n${out}")
  endif()
  foreach(k 4 8)
    execute_process(COMMAND ${SGDSIM} run --platform ${WORK}/${variant}.xml --arch ring --workers ${k} --steps 1
                            --warmup 0 --framework gloo
                    WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR NOT out MATCHES "step time +([0-9.e+-]+) s mean")
      message(FATAL_ERROR "run on the ${variant} calibration at ${k} workers failed (${rc}): ${out}${err}")
    endif()
    set(${variant}_${k} ${CMAKE_MATCH_1})
  endforeach()
endforeach()
file(READ ${WORK}/shared.xml xml)
if(NOT xml MATCHES "<prop id=\"sgdsim.shared_cores\" value=\"2\"/>")
  message(FATAL_ERROR "--shared-cores 2: expected sgdsim.shared_cores in the calibrated platform:\n${xml}")
endif()
if(NOT shared_4 STREQUAL alone_4 OR NOT shared_8 GREATER alone_8)
  message(FATAL_ERROR "sgdsim.shared_cores must change nothing at 4 measured nodes (${shared_4} vs ${alone_4}) and "
                      "lengthen 8 nodes (${shared_8} vs ${alone_8})")
endif()
execute_process(COMMAND ${SGDSIM} calibrate --measurements ${WORK}/single.csv --kind allreduce --shared-cores 0
                        --speed 2Tf -o ${WORK}/zero.xml
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--shared-cores 0: must be in \\[1, 4096\\]" OR EXISTS ${WORK}/zero.xml)
  message(FATAL_ERROR "--shared-cores 0 must be refused, nothing written (${rc}): ${err}")
endif()
execute_process(COMMAND ${SGDSIM} calibrate --measurements tests/data/calibration/p2p.csv --shared-cores 2
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--shared-cores: applies with --kind allreduce and -o")
  message(FATAL_ERROR "--shared-cores with a p2p calibration must be refused (${rc}): ${err}")
endif()
# A call alone reproduces its microbenchmark (docs/models.md §10.7, "The ring's ACKs"). Eq. (41) exactly, B = 50 MB/s,
# alpha = 100 us, c = 0, at K = 2 and 4 from 1 MiB: the platform's NIC is B x 1.05 / 0.97, since SimGrid gives a
# ring's data 1 / 1.05 of a NIC that also carries the other flow's ACKs, and one 64 MiB all-reduce over 4 workers
# takes 1.5 x 64 MiB / 50 MB/s + 6 x 100 us = 2.0139 s (with the NIC at B / 0.97 it took 5% more: 2.114 s).
set(exact "nodes,size_bytes,time_s\n")
foreach(k 2 4)
  foreach(d 1048576 4194304 16777216 67108864)
    math(EXPR us "2 * (${k} - 1) * ${d} / (${k} * 50) + 2 * (${k} - 1) * 100")
    string(APPEND exact "${k},${d},${us}e-6\n")
  endforeach()
endforeach()
file(WRITE ${WORK}/exact.csv "${exact}")
file(WRITE ${WORK}/one.xml "<?xml version='1.0'?>\n<workload name=\"one\" batch=\"1\" device=\"x\" reference_speed=\"2Tf\" \
ps_update=\"1us\">\n  <layer name=\"l0\" fwd=\"1us\" bwd=\"1us\">\n    <tensor name=\"w\" size=\"67108864B\"/>\n  </layer>\n\
</workload>\n")
execute_process(COMMAND ${SGDSIM} calibrate --measurements ${WORK}/exact.csv --kind allreduce --bandwidth-from 1MiB
                        --speed 2Tf --nodes 4 -o ${WORK}/exact.xml
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ ${WORK}/exact.xml xml)
if(NOT rc EQUAL 0 OR NOT out MATCHES "B x 1.05 / 0.97" OR NOT xml MATCHES "bw=\"5.412[0-9]*e\\+07Bps\""
   OR NOT out MATCHES "from the 8 rows of at least 1.04858e\\+06 B")
  message(FATAL_ERROR "an all-reduce platform's NIC must be B x 1.05 / 0.97, 54.1237 MB/s (${rc}):\n${out}${err}")
endif()
execute_process(COMMAND ${SGDSIM} run --platform ${WORK}/exact.xml --workload ${WORK}/one.xml --arch ring --workers 4
                        --overlap off --steps 1 --warmup 0
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCH "step time +([0-9.]+) s mean" m "${out}")
if(NOT rc EQUAL 0 OR NOT m OR CMAKE_MATCH_1 LESS 2.004 OR CMAKE_MATCH_1 GREATER 2.024)
  message(FATAL_ERROR "one all-reduce alone must take its measured 2.0139 s within 0.5% (${rc}): ${out}${err}")
endif()
# The analytic models read the measured B, not the NIC that carries SimGrid's factors: the platform says how far apart
# they are (sgdsim.nic_factor, 1.05 / 0.97), and eq. (11) gives the same 2.0139 s (with the NIC's rate: 1.8605 s).
string(REGEX MATCH "ring-eq11 +[0-9.]+ ex/s +([0-9.]+) s" m "${out}")
if(NOT xml MATCHES "<prop id=\"sgdsim.nic_factor\" value=\"1.08247\"/>" OR NOT m OR CMAKE_MATCH_1 LESS 2.004
   OR CMAKE_MATCH_1 GREATER 2.024 OR NOT out MATCHES "the models read 0.4 Gbps: the platform's sgdsim.nic_factor 1.082")
  message(FATAL_ERROR "eq. (11) must read the measured 50 MB/s and give 2.0139 s within 0.5%:\n${out}\n${xml}")
endif()
# --latency on an all-reduce (docs/models.md §10.7 "The route's latency, measured apart"): the route is the 40 us
# given (20 us per link), c 0, and the rest of the 100 us per message each node count's measured excess, so that the
# call alone still takes its measured 2.0139 s; the analytic models keep eq. (41)'s alpha and c fitted over every
# node count (sgdsim.models_latency 100 us, 99.92 fitted from the CSV's times rounded to 1 us;
# sgdsim.models_allreduce_overhead 0), so that eq. (11) gives it too.
execute_process(COMMAND ${SGDSIM} calibrate --measurements ${WORK}/exact.csv --kind allreduce --bandwidth-from 1MiB
                        --speed 2Tf --nodes 4 --latency 40us -o ${WORK}/route.xml
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ ${WORK}/route.xml xml)
if(NOT rc EQUAL 0 OR NOT xml MATCHES "lat=\"20us\"" OR NOT xml MATCHES "<prop id=\"sgdsim.models_latency\" value=\"(99\\.9[0-9]*|100)us\"/>"
   OR NOT xml MATCHES "<prop id=\"sgdsim.models_allreduce_overhead\" value=\"0us\"/>"
   OR NOT out MATCHES "alpha +40 us per message \\(--latency")
  message(FATAL_ERROR "calibrate --kind allreduce --latency 40us: route 20 us per link, models' alpha 100 us (${rc}):\n${out}${err}\n${xml}")
endif()
execute_process(COMMAND ${SGDSIM} run --platform ${WORK}/route.xml --workload ${WORK}/one.xml --arch ring --workers 4
                        --overlap off --steps 1 --warmup 0
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX MATCH "ring-eq11 +[0-9.]+ ex/s +([0-9.]+) s" m11 "${out}")
set(eq11 ${CMAKE_MATCH_1})
string(REGEX MATCH "step time +([0-9.]+) s mean" m "${out}")
if(NOT rc EQUAL 0 OR NOT m OR CMAKE_MATCH_1 LESS 2.004 OR CMAKE_MATCH_1 GREATER 2.024 OR NOT m11 OR eq11 LESS 2.004
   OR eq11 GREATER 2.024)
  message(FATAL_ERROR "with the route's latency the call alone and eq. (11) must both give 2.0139 s within 0.5% (${rc}): ${out}${err}")
endif()
# --stream (docs/models.md §10.5): tests/data/calibration/p2p_stream.csv adds to p2p.csv the time of each message sent
# back to back, S / 100 MB/s + 30 us. The per-message cost written is those 30 us, not the 150 us a transfer alone
# holds beyond the latency; the other 120 us are paid once per transfer and only reported.
execute_process(COMMAND ${SGDSIM} calibrate --measurements tests/data/calibration/p2p_stream.csv --kind p2p
                        --where op=p2p --stream op=p2p_stream --latency 50us --speed 2Tf -o ${WORK}/stream.xml
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ ${WORK}/stream.xml xml)
if(NOT rc EQUAL 0 OR NOT xml MATCHES "<prop id=\"sgdsim.message_overhead\" value=\"30us\"/>" OR NOT xml MATCHES "lat=\"25us\""
   OR NOT out MATCHES "c'         30 us per message on a stream" OR NOT out MATCHES "c - c' - L 120 us per transfer alone"
   OR err MATCHES "round trips")
  message(FATAL_ERROR "--stream must write the per-message cost of the stream rows (${rc}):\n${out}${err}\n${xml}")
endif()
# A stream row at 1 ns (tools/measure/microbench.py's "nothing measurable", line 10 here) is left out and named; with it
# in, its relative weight (1 / T^2) left the equations singular ("do not determine the parameters", 2026-12-07).
execute_process(COMMAND ${SGDSIM} calibrate --measurements tests/data/calibration/p2p_stream_floor.csv --kind p2p
                        --where op=p2p --stream op=p2p_stream --latency 50us
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "c'         30 us per message on a stream"
   OR NOT out MATCHES "--stream rows left out at the kit's 1 ns, nothing measured: line 10[)]")
  message(FATAL_ERROR "--stream must leave out a row at the kit's 1 ns and say so (${rc}):\n${out}${err}")
endif()
execute_process(COMMAND ${SGDSIM} calibrate --measurements tests/data/calibration/p2p_stream.csv --kind allreduce
                        --stream op=p2p_stream
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--stream: applies to --kind p2p")
  message(FATAL_ERROR "--stream with --kind allreduce must be refused (${rc}): ${err}")
endif()
# --measured-sizes (docs/models.md §10.7 "The large sizes as measured"): calibrate keeps each node count's measured
# times from its threshold on; the two largest sizes here are 30% above the line the smaller ones lie on, which eq.
# (37) cannot follow. Off a call of 200 MB pays the line; on (the default where the platform has them), the rows' own
# times, longer.
set(rows "nodes,size_bytes,time_s\n")
foreach(k 2 4)
  foreach(d 4096 65536 1048576 4194304 16777216 67108864 134217728 268435456)
    math(EXPR us "1000 * ${k} / 2 + ${d} / 50")
    if(d GREATER 67108864)
      math(EXPR us "${us} * 13 / 10")
    endif()
    string(APPEND rows "${k},${d},${us}e-6\n")
  endforeach()
endforeach()
file(WRITE ${WORK}/sizes.csv "${rows}")
execute_process(COMMAND ${SGDSIM} calibrate --measurements ${WORK}/sizes.csv --kind allreduce --bandwidth-from 1MiB
                        --speed 2Tf --nodes 4 -o ${WORK}/sizes.xml
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(READ ${WORK}/sizes.xml xml)
if(NOT rc EQUAL 0 OR NOT xml MATCHES ";134217728=[0-9.e+-]+;268435456=[0-9.e+-]+ 4:" OR NOT out MATCHES "as measured")
  message(FATAL_ERROR "calibrate must write each node count's measured sizes (${rc}):\n${out}${err}\n${xml}")
endif()
# Its table says how far the line lies below the largest size (30% above the line of the others): a signed
# percentage, negative, last on each node count's row.
if(NOT out MATCHES "eq. \\(37\\) at the largest\n +2 [^\n]* -[1-9][0-9.]*%\n +4 [^\n]* -[1-9][0-9.]*%\n")
  message(FATAL_ERROR "calibrate must print eq. (37) against the largest size, below it here:\n${out}")
endif()
file(WRITE ${WORK}/one-tensor.xml "<workload name=\"one\" batch=\"1\" device=\"none\" reference_speed=\"1Gf\">
  <layer name=\"a\" fwd=\"0\" bwd=\"0\"><tensor name=\"a\" size=\"200MB\"/></layer>
</workload>
")
foreach(variant default off on)
  set(extra "")
  if(NOT variant STREQUAL "default")
    set(extra --measured-sizes ${variant})
  endif()
  execute_process(COMMAND ${SGDSIM} run --platform ${WORK}/sizes.xml --workload ${WORK}/one-tensor.xml --arch ring
                          --workers 4 --steps 1 --warmup 0 --framework gloo ${extra}
                  WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "step time +([0-9.e+-]+) s mean")
    message(FATAL_ERROR "run --measured-sizes ${variant} failed (${rc}): ${out}${err}")
  endif()
  set(sizes_${variant} ${CMAKE_MATCH_1})
endforeach()
# 200 MB at K = 4 from the rows: between 128 MiB's (2000 + 2684354 us) x 1.3 and 256 MiB's, 5.2027 s; the line
# fitted through every size from 1 MiB on gives about 5.0 s.
if(NOT sizes_default STREQUAL sizes_on OR NOT sizes_on GREATER 5.19 OR NOT sizes_on LESS 5.22 OR
   NOT sizes_off LESS 5.1)
  message(FATAL_ERROR "--measured-sizes: default ${sizes_default} s must equal on ${sizes_on} s (the rows' 5.20 s), "
                      "and off ${sizes_off} s the line's, under 5.1 s")
endif()
execute_process(COMMAND ${SGDSIM} run --platform ${WORK}/queued.xml --arch ring --workers 3 --steps 1 --warmup 0
                        --measured-sizes on
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "a platform calibrated now carries measured sizes; --measured-sizes on must run (${rc}): ${err}")
endif()
file(WRITE ${WORK}/no-sizes.xml "<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">
<platform version=\"4.1\">
  <cluster id=\"c\" prefix=\"n\" radical=\"0-3\" suffix=\"\" speed=\"1Tf\" core=\"1\" bw=\"1Gbps\" lat=\"25us\">
    <prop id=\"sgdsim.allreduce_time\" value=\"2:0,0.01,1,1e-9,0.01 4:0,0.01,1,1e-9,0.02\"/>
  </cluster>
</platform>
")
execute_process(COMMAND ${SGDSIM} run --platform ${WORK}/no-sizes.xml --arch ring --workers 2 --steps 1 --warmup 0
                        --measured-sizes on
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "--measured-sizes on: the platform .*no-sizes.xml's sgdsim.allreduce_time carries no measured sizes")
  message(FATAL_ERROR "--measured-sizes on without measured sizes must be refused (${rc}): ${err}")
endif()
# By default such a platform (calibrated before 2026-11-29) runs on its lines, as it did.
execute_process(COMMAND ${SGDSIM} run --platform ${WORK}/no-sizes.xml --arch ring --workers 2 --steps 1 --warmup 0
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR out MATCHES "large sizes as measured")
  message(FATAL_ERROR "a platform without measured sizes must run on its lines by default (${rc}): ${out}${err}")
endif()
# Sizes of 11 digits and more (tens of GB): the threshold, one of them, is written exactly as the sizes after it; at 9
# digits 42345678951 was written 4.2345679e+10, above its own first size, and `run` refused the platform calibrate had
# just written.
set(rows "nodes,size_bytes,time_s\n")
foreach(k 2 4)
  foreach(d 12345678951 22345678951 42345678951 82345678951 162345678951)
    math(EXPR us "1000 * ${k} + ${d} / 120")
    string(APPEND rows "${k},${d},${us}e-6\n")
  endforeach()
endforeach()
file(WRITE ${WORK}/huge.csv "${rows}")
execute_process(COMMAND ${SGDSIM} calibrate --measurements ${WORK}/huge.csv --kind allreduce --speed 1Tf --nodes 4
                        -o ${WORK}/huge.xml
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "calibrate of sizes of 11 digits failed (${rc}): ${out}${err}")
endif()
execute_process(COMMAND ${SGDSIM} run --platform ${WORK}/huge.xml --workload ${WORK}/one-tensor.xml --arch ring
                        --workers 2 --steps 1 --warmup 0
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "run must read the platform calibrate wrote from sizes of 11 digits (${rc}): ${err}")
endif()
# --measured-node-window (docs/models.md §10.7 "Neighbouring node counts pooled"): a platform measured at 2, 3 and 4
# nodes whose 3-node calls take 40 ms where 2 and 4 nodes take 10 and 20 ms (eq. (37)'s line, b2 only), and one
# 4 kB tensor, whose network time is a fraction of a millisecond. At K = 3 a window of 1 pays the 3-node
# microbenchmark's excess, about 10 ms a ring step; a window of 3 (the default since 2026-11-30) a line of the cost per
# step through all three (about 5, 10 and 3.3 ms at 2, 3 and 4 nodes: 6.1 ms at 3), about 16 ms less a call; the
# report says which.
file(WRITE ${WORK}/window.xml "<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">
<platform version=\"4.1\">
  <cluster id=\"c\" prefix=\"n\" radical=\"0-3\" suffix=\"\" speed=\"1Tf\" core=\"1\" bw=\"1Gbps\" lat=\"25us\">
    <prop id=\"sgdsim.allreduce_time\" value=\"2:0,0,1,0,0.01 3:0,0,1,0,0.04 4:0,0,1,0,0.02\"/>
  </cluster>
</platform>
")
file(WRITE ${WORK}/small-tensor.xml "<workload name=\"small\" batch=\"1\" device=\"none\" reference_speed=\"1Gf\">
  <layer name=\"a\" fwd=\"0\" bwd=\"0\"><tensor name=\"a\" size=\"4kB\"/></layer>
</workload>
")
foreach(window 1 3 default)
  set(window_arg --measured-node-window ${window})
  if(window STREQUAL "default")
    set(window_arg)
  endif()
  execute_process(COMMAND ${SGDSIM} run --platform ${WORK}/window.xml --workload ${WORK}/small-tensor.xml --arch ring
                          --workers 3 --steps 1 --warmup 0 ${window_arg} --json ${WORK}/w.json --force
                  WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "step time +([0-9.e+-]+) s mean")
    message(FATAL_ERROR "run --measured-node-window ${window} failed (${rc}): ${out}${err}")
  endif()
  set(window_${window} ${CMAKE_MATCH_1})
  if(window STREQUAL "default")
    set(window 3)
  endif()
  file(READ ${WORK}/w.json json)
  if(NOT json MATCHES "\"measured_node_window\": ${window}")
    message(FATAL_ERROR "run --measured-node-window ${window}: the JSON report must echo it:\n${json}")
  endif()
  if(window EQUAL 3 AND NOT out MATCHES "a line through the 3 nearest node counts")
    message(FATAL_ERROR "run --measured-node-window 3 must say so in its report:\n${out}")
  endif()
endforeach()
if(NOT window_default STREQUAL window_3)
  message(FATAL_ERROR "--measured-node-window: the default must be 3 (${window_default} s, with 3 ${window_3} s)")
endif()
if(NOT window_1 GREATER 0.039 OR NOT window_1 LESS 0.041 OR NOT window_3 GREATER 0.023 OR NOT window_3 LESS 0.026)
  message(FATAL_ERROR "--measured-node-window: K = 3 must take about 40 ms with 1 (${window_1} s) and 24.5 ms with 3 "
                      "(${window_3} s)")
endif()
# calibrate prints each node count's excess per ring step beside the line through the 3 nearest (what
# --measured-node-window 3 charges): 2, 3 and 4 nodes whose 3-node calls take 10 ms where 2 and 4 nodes take 1 and
# 3 ms at every size, so 3's own excess per step lies far above the line through the three.
set(rows "nodes,size_bytes,time_s\n")
foreach(k 2 3 4)
  foreach(d 4096 16384 65536 262144 1048576 4194304 16777216)
    if(k EQUAL 3)
      set(ms 10)
    else()
      math(EXPR ms "${k} - 1")
    endif()
    math(EXPR us "${ms} * 1000 + ${d} / 1000")
    string(APPEND rows "${k},${d},${us}e-6\n")
  endforeach()
endforeach()
file(WRITE ${WORK}/window.csv "${rows}")
execute_process(COMMAND ${SGDSIM} calibrate --measurements ${WORK}/window.csv --kind allreduce
                WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "the line through the 3 nearest\n  \\(run --measured-node-window 3" OR
   NOT out MATCHES "\n +3 +([0-9.e+-]+) -> ([0-9.e+-]+) ")
  message(FATAL_ERROR "calibrate must print each node count's excess per step beside the line (${rc}):\n${out}${err}")
endif()
set(own_3 ${CMAKE_MATCH_1})
set(line_3 ${CMAKE_MATCH_2})
if(NOT own_3 GREATER line_3)
  message(FATAL_ERROR "calibrate: 3 nodes' own excess per step (${own_3} ms) must lie above the line (${line_3} ms)")
endif()
