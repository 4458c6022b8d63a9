# cmake -DAR=ar -DRANLIB=ranlib -DSCRIPT=bundle.mri -P bundle_archive.cmake: runs GNU ar's MRI
# script (which reads it on stdin) and indexes the result.
execute_process(COMMAND ${AR} -M INPUT_FILE ${SCRIPT} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ar -M ${SCRIPT} failed: ${rc}")
endif()
file(STRINGS ${SCRIPT} create REGEX "^CREATE ")
string(REPLACE "CREATE " "" archive "${create}")
execute_process(COMMAND ${RANLIB} ${archive} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ranlib ${archive} failed: ${rc}")
endif()
