# The suites written in Go and Python, run by ctest against this build's binary:
#   go_<package>    one entry per package of tests/go (the controller-runtime envtest suites) that
#                   has tests, found from its *_test.go files, so a failure names its area (bench's
#                   benchmarks run in `make bench`; its test here checks their statistics);
#   go_fixture      the Go fixture package's own tests (go/);
#   go_vet          `go vet` over both modules (it also compiles every package once, before the
#                   suites need them);
#   python_fixture  the pytest plugin's tests (python/run_tests.sh: a venv under the build
#                   directory with the pinned requirements).
# Every entry sets KUBEBUILDER_ASSETS to ${PROJECT_BINARY_DIR}/envtest, which the build lays out.
# The Go module cache may be filled from the module proxy on the first run; nothing else is
# downloaded. Go is required: a machine without it must fail here rather than run fewer tests.

find_program(GO_EXECUTABLE go PATHS /usr/local/go/bin REQUIRED)
# GOTOOLCHAIN=local: the go.mod files name go 1.26.0, which the installed toolchain satisfies; a
# test run must never fetch another toolchain.
set(kube_go_env "KUBEBUILDER_ASSETS=${PROJECT_BINARY_DIR}/envtest" "GOTOOLCHAIN=local" "GOFLAGS=-mod=readonly")

add_test(NAME go_vet
         COMMAND bash -c "cd '${PROJECT_SOURCE_DIR}/go' && '${GO_EXECUTABLE}' vet ./... && cd '${PROJECT_SOURCE_DIR}/tests/go' && '${GO_EXECUTABLE}' vet ./..."
)
set_tests_properties(go_vet PROPERTIES ENVIRONMENT "${kube_go_env}" TIMEOUT 1200 FIXTURES_SETUP go_compiled)

add_test(NAME go_fixture
         COMMAND ${GO_EXECUTABLE} test -count=1 ./...
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/go)
set_tests_properties(go_fixture PROPERTIES ENVIRONMENT "${kube_go_env}" TIMEOUT 900 FIXTURES_REQUIRED go_compiled)

file(GLOB_RECURSE kube_go_test_files CONFIGURE_DEPENDS RELATIVE ${PROJECT_SOURCE_DIR}/tests/go
     ${PROJECT_SOURCE_DIR}/tests/go/*_test.go)
set(kube_go_packages "")
foreach(file IN LISTS kube_go_test_files)
  string(REGEX REPLACE "/.*" "" top "${file}")
  if(NOT top STREQUAL file)   # a file at the module's root has no package directory
    list(APPEND kube_go_packages ${top})
  endif()
endforeach()
list(REMOVE_DUPLICATES kube_go_packages)
list(SORT kube_go_packages)
# golden is the differential corpus: one golden_<file> entry per corpus file (below).
list(REMOVE_ITEM kube_go_packages golden)
foreach(pkg IN LISTS kube_go_packages)
  add_test(NAME go_${pkg}
           COMMAND ${GO_EXECUTABLE} test -count=1 ./${pkg}/...
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/tests/go)
  set_tests_properties(go_${pkg} PROPERTIES ENVIRONMENT "${kube_go_env}" TIMEOUT 900
                       FIXTURES_REQUIRED go_compiled)
endforeach()

add_test(NAME python_fixture
         COMMAND bash ${PROJECT_SOURCE_DIR}/python/run_tests.sh ${PROJECT_BINARY_DIR})
set_tests_properties(python_fixture PROPERTIES TIMEOUT 900)

# The golden corpus (tests/go/golden, testdata/golden): each corpus file's exchanges replayed
# against this build and compared with kube-apiserver 1.36's recorded answers (golden_<file>),
# and the harness's own tests (golden_harness). `make oracle-record` records them anew.
file(GLOB kube_golden_files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/testdata/golden/corpus/*.yaml)
foreach(path IN LISTS kube_golden_files)
  get_filename_component(name ${path} NAME_WE)
  add_test(NAME golden_${name}
           COMMAND ${GO_EXECUTABLE} test -count=1 -run "^TestGolden$/^${name}$" ./golden/
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/tests/go)
  set_tests_properties(golden_${name} PROPERTIES ENVIRONMENT "${kube_go_env}" TIMEOUT 600
                       FIXTURES_REQUIRED go_compiled)
endforeach()
add_test(NAME golden_harness
         COMMAND ${GO_EXECUTABLE} test -count=1 -skip "^TestGolden$" ./golden/
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}/tests/go)
set_tests_properties(golden_harness PROPERTIES ENVIRONMENT "${kube_go_env}" TIMEOUT 600 FIXTURES_REQUIRED go_compiled)
