# The repository stands alone (issue #18): no tracked file may refer to the documents or folders that lived beside
# the checkout while sgdsim was written, since a user's clone has nothing beside it. Searches the tracked files
# (their working-tree content) with git grep and prints every offending line. The patterns below are bracketed so
# that this file does not match itself. Outside a git checkout (a source tarball) there is no list of tracked
# files: the test is skipped.
#   cmake -DSRCDIR=<repository> -P standalone.cmake
# "^cd /work/": a script that changes to the checkout where it was written instead of to the repository relative to
# itself (seven campaign scripts did, until 2026-12-04).
set(patterns "[.][.]/shared" "MODELS[.]md" "DESIGN[.]md" "STYLE[.]md" "^cd /work[/]")
find_program(GIT git)
if(NOT EXISTS "${SRCDIR}/.git")
  message("SKIPPED: ${SRCDIR} is not a git checkout (no .git): no list of tracked files to search")
elseif(NOT GIT)
  message("SKIPPED: git is not installed: no list of tracked files to search")
else()
  set(args)
  foreach(p ${patterns})
    list(APPEND args -e "${p}")
  endforeach()
  # safe.directory: a checkout owned by another user (a CI container) is still read, never written.
  execute_process(COMMAND "${GIT}" -c safe.directory=* grep -n -I -E ${args}
                  WORKING_DIRECTORY "${SRCDIR}" RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 1)
    message(STATUS "no tracked file refers to anything outside the repository (searched: ${patterns})")
  elseif(rc EQUAL 0)
    string(REGEX MATCHALL "\n" newlines "${out}")
    list(LENGTH newlines count)
    message("${out}") # as is: FATAL_ERROR would rewrap the lines
    message(FATAL_ERROR "tracked files refer to files outside the repository, which a clone does not have (${count} "
                        "line(s) above; searched: ${patterns}); cite the repository's own documents instead "
                        "(docs/design.md, docs/models.md, validation/sources/)")
  else()
    message(FATAL_ERROR "git grep failed in ${SRCDIR} (status ${rc}): ${err}")
  endif()
endif()
