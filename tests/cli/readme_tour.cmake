# Runs every command of the README's tour (the indented lines that start with build/src/sgdsim), from a scratch
# copy of nothing but the build: each must exit 0. Commands that write files write them into WORKDIR.
file(STRINGS ${SRCDIR}/README.md lines REGEX "^    build/src/sgdsim ")
if(NOT lines)
  message(FATAL_ERROR "no tour command found in README.md")
endif()
file(REMOVE_RECURSE ${WORKDIR})
file(MAKE_DIRECTORY ${WORKDIR})
file(COPY_FILE ${SRCDIR}/README.md ${WORKDIR}/README.md) # `validate --readme` rewrites a copy, never the source
set(count 0)
foreach(line ${lines})
  string(REGEX REPLACE "#.*$" "" cmd "${line}")           # drop the comment
  string(STRIP "${cmd}" cmd)
  string(REPLACE "build/src/sgdsim" "${SGDSIM}" cmd "${cmd}")
  string(REPLACE " > my.cfg " " > ${WORKDIR}/my.cfg " cmd "${cmd}")
  string(REPLACE "--scenario my.cfg" "--scenario ${WORKDIR}/my.cfg" cmd "${cmd}")
  string(REPLACE "--json out.json" "--json ${WORKDIR}/out.json --force" cmd "${cmd}")
  string(REPLACE "--timeline step.json" "--timeline ${WORKDIR}/step.json --force" cmd "${cmd}")
  string(REPLACE "--output my-sweep" "--output ${WORKDIR}/my-sweep" cmd "${cmd}")
  # The README's whole validation, on two quick cases (one measured, one qualitative): the same code writes the report
  # and the README's table; validation.cases runs every case and checks each against its guard. Running all of them
  # here too doubled CI's longest test (about 10 minutes each on a 2-core machine, side by side under ctest -j2).
  string(REPLACE "validate -j 2 --report-dir validation --readme README.md"
         "validate -j 2 --case validation/cases/perfestimator-vgg13 --case validation/cases/li22-facts-flow-cap \
--report-dir ${WORKDIR} --readme ${WORKDIR}/README.md" cmd "${cmd}")
  if(cmd MATCHES " validate " AND NOT cmd MATCHES "--case")
    message(FATAL_ERROR "README tour: the validate command changed, adapt readme_tour.cmake: ${cmd}")
  endif()
  foreach(f big.xml p3x8.xml big-deploy.xml calibrated.xml)
    string(REPLACE " ${f}" " ${WORKDIR}/${f}" cmd "${cmd}")
  endforeach()
  string(REPLACE "-o ${WORKDIR}/" "--force -o ${WORKDIR}/" cmd "${cmd}")
  # The README's 96-point sweep, shortened (2 steps) so that the tour stays quick; it writes into WORKDIR.
  string(REPLACE "--output docs/sweep-resnet50-aws" "--output ${WORKDIR}/sweep-aws --steps 2 --warmup 1" cmd "${cmd}")
  execute_process(COMMAND sh -c "${cmd}" WORKING_DIRECTORY ${SRCDIR} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "README tour command failed (status ${rc}): ${cmd}\n${err}")
  endif()
  math(EXPR count "${count} + 1")
endforeach()
message(STATUS "README tour: ${count} commands ran")
