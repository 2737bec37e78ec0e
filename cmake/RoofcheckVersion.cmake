# The version comes from project(); the git revision is read at configure time so that
# `roofcheck --version` names the commit a binary was built from. A copy of the tree whose git metadata is
# not its own (the lent GPU machine's: bench/runtime-h200.sh) names it with -DROOFCHECK_GIT_REVISION=REV.
if(NOT ROOFCHECK_GIT_REVISION)
  set(ROOFCHECK_GIT_REVISION "unknown")
  find_package(Git QUIET)
  if(GIT_FOUND AND EXISTS ${CMAKE_SOURCE_DIR}/.git)
    execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty --abbrev=12
                    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                    OUTPUT_VARIABLE _rev OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE _rc ERROR_QUIET)
    if(_rc EQUAL 0 AND _rev)
      set(ROOFCHECK_GIT_REVISION ${_rev})
    endif()
  endif()
endif()
