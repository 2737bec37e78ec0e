# Install rules and the Debian packages (CPack), split the way the build is:
#   roofcheck      the driver and the static side: lint, report, audit; schemas and rule pages
#   roofcheck-gpu  the GPU side: run, probe and the injected shim (needs the CUDA toolkit at run time)
# The tree is relocatable: the driver finds its subcommands beside itself and roofcheck-run finds the shim
# at ../lib/roofcheck/ from its own (symlink-resolved) path, as in the build tree.

set(ROOFCHECK_SHIM_DIR lib/roofcheck)

install(TARGETS roofcheck RUNTIME DESTINATION bin COMPONENT static)
foreach(tool roofcheck-lint roofcheck-report roofcheck-audit)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION bin COMPONENT static)
  endif()
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/schemas/ DESTINATION share/roofcheck/schemas COMPONENT static
        FILES_MATCHING PATTERN "*.schema.json" PATTERN "examples" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/rules/ DESTINATION share/roofcheck/rules COMPONENT static
        FILES_MATCHING PATTERN "*.md")
install(FILES ${PROJECT_SOURCE_DIR}/.pre-commit-hooks.yaml DESTINATION share/roofcheck COMPONENT static OPTIONAL)

foreach(tool roofcheck-run roofcheck-probe)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION bin COMPONENT gpu)
  endif()
endforeach()
if(TARGET roofcheck-inject)
  install(TARGETS roofcheck-inject LIBRARY DESTINATION ${ROOFCHECK_SHIM_DIR} COMPONENT gpu)
endif()

set(CPACK_PACKAGE_NAME roofcheck)
set(CPACK_PACKAGE_VENDOR "roofcheck")
set(CPACK_PACKAGE_CONTACT "roofcheck developers <roofcheck@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "CUDA kernels on an honest roofline: static estimates, measurements, ceilings")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL static)
if(ROOFCHECK_WITH_CUDA)
  list(APPEND CPACK_COMPONENTS_ALL gpu)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_STATIC_PACKAGE_NAME roofcheck)
set(CPACK_DEBIAN_GPU_PACKAGE_NAME roofcheck-gpu)
# lint compiles the device side with clang's own CUDA headers (the resource directory of clang 22): the
# runtime libraries alone would not do.
set(CPACK_DEBIAN_STATIC_PACKAGE_DEPENDS
    "libc6, libstdc++6, libgcc-s1, libclang-cpp22, libllvm22, libclang-common-22-dev")
set(CPACK_DEBIAN_STATIC_DESCRIPTION
    "static side of roofcheck: lint (Clang 22), report, audit\n The roofcheck driver, the static estimator and linter of CUDA kernels, the report and the claim\n audit; the JSON schemas and the lint rules' pages.")
# The CUDA toolkit (CUPTI, the runtime, cuBLASLt) comes from NVIDIA in several forms (runfile, apt, conda),
# none with one Debian name: roofcheck-run and roofcheck-probe name what they cannot load.
set(CPACK_DEBIAN_GPU_PACKAGE_DEPENDS "roofcheck (= ${PROJECT_VERSION}), libc6, libstdc++6, libgcc-s1")
set(CPACK_DEBIAN_GPU_DESCRIPTION
    "GPU side of roofcheck: run (CUPTI shim) and probe\n roofcheck run measures every kernel launch of an unmodified program through an injected CUPTI\n shim; roofcheck probe measures the device's ceilings. Needs a CUDA 13 toolkit with CUPTI at run time.")
include(CPack)
