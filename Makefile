# Entry points: `make run`, `make test`, `make bench`, `make fuzz`. Each installs any missing Debian packages
# first (apt-get, as root or through sudo), then configures and builds with CMake + Ninja.

BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc)
DEBIAN_PACKAGES := cmake ninja-build g++ make pkg-config librocksdb-dev nlohmann-json3-dev \
                   libcpp-httplib-dev doctest-dev libyaml-cpp-dev libre2-dev libssl-dev openssl curl python3 python3-venv perl tzdata

.PHONY: all deps configure build test run bench sanitize fuzz cel-conformance clean envtest-assets oracle oracle-record

all: build

deps:
	@missing=""; \
	for p in $(DEBIAN_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  if [ "$$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi; \
	  $$sudo apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi

configure: deps
	@cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) >/dev/null

build: configure
	cmake --build $(BUILD_DIR) -j $(JOBS)

test: build
	cd $(BUILD_DIR) && ctest -j $(JOBS) --output-on-failure

bench: build
	./$(BUILD_DIR)/bench/storage_bench
	./$(BUILD_DIR)/bench/http_bench ./$(BUILD_DIR)/kube-apiserver-lite
	./$(BUILD_DIR)/bench/crd_bench ./$(BUILD_DIR)/kube-apiserver-lite
	./$(BUILD_DIR)/bench/proto_bench
	./$(BUILD_DIR)/bench/cel_bench
	./$(BUILD_DIR)/bench/ssa_bench ./$(BUILD_DIR)/kube-apiserver-lite
	./$(BUILD_DIR)/bench/tls_bench ./$(BUILD_DIR)/kube-apiserver-lite
	./$(BUILD_DIR)/bench/rbac_bench
	./$(BUILD_DIR)/bench/metrics_bench
	./$(BUILD_DIR)/bench/embed_bench
	./$(BUILD_DIR)/bench/state_bench
	# envtest Environment.Start+Stop with this build's assets, and a reset between tests through the
	# Go fixture: each prints p50/p90 (ms).
	cd tests/go && KUBEBUILDER_ASSETS=$(abspath $(BUILD_DIR))/envtest GOTOOLCHAIN=local go test -count=1 -run '^$$' -bench . -benchtime 20x ./bench/
	cd go && KUBEBUILDER_ASSETS=$(abspath $(BUILD_DIR))/envtest GOTOOLCHAIN=local go test -count=1 -run '^$$' -bench . -benchtime 50x .

# Every test under a sanitizer, each in its own build directory: SANITIZER=address (ASan + UBSan,
# the default) or SANITIZER=thread (TSan).
SANITIZER ?= address
sanitize: deps
	@cmake -S . -B $(BUILD_DIR)-$(SANITIZER) -G Ninja -DCMAKE_BUILD_TYPE=Debug \
	  -DKUBE_SANITIZER=$(SANITIZER) -DKUBE_BUILD_BENCHMARKS=OFF >/dev/null
	cmake --build $(BUILD_DIR)-$(SANITIZER) -j $(JOBS)
	cd $(BUILD_DIR)-$(SANITIZER) && ctest -j $(JOBS) --output-on-failure

# libFuzzer targets (fuzz/): built with clang, ASan and UBSan in their own build directory, then
# run one after another, each for FUZZ_SECONDS over its committed corpus (fuzz/corpus/<target>,
# read only; new inputs go to $(BUILD_DIR)-fuzz/corpus/<target>) with its dictionary. A crash
# stops the run and leaves its input in $(BUILD_DIR)-fuzz/artifacts/<target>/: commit it under
# fuzz/regressions/<target>/ with the fix, and `make test` replays it from then on.
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= request label_selector field_selector json_body yaml protobuf json_patch merge_patch \
                strategic_merge_patch
FUZZ_FLAGS ?= -max_len=8192 -rss_limit_mb=2048 -timeout=10
fuzz: DEBIAN_PACKAGES += clang-14 libclang-rt-14-dev
fuzz: deps
	@cmake -S . -B $(BUILD_DIR)-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-14 \
	  -DKUBE_BUILD_FUZZERS=ON -DKUBE_BUILD_TESTS=OFF -DKUBE_BUILD_BENCHMARKS=OFF >/dev/null
	cmake --build $(BUILD_DIR)-fuzz -j $(JOBS) --target fuzzers
	@set -e; for t in $(FUZZ_TARGETS); do \
	  case $$t in *patch|json_body) dict=json;; *) dict=$$t;; esac; \
	  mkdir -p $(BUILD_DIR)-fuzz/corpus/$$t $(BUILD_DIR)-fuzz/artifacts/$$t; \
	  echo "== fuzz_$$t: $(FUZZ_SECONDS) s"; \
	  ./$(BUILD_DIR)-fuzz/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) $(FUZZ_FLAGS) \
	    -dict=fuzz/dict/$$dict.dict -artifact_prefix=$(BUILD_DIR)-fuzz/artifacts/$$t/ \
	    $(BUILD_DIR)-fuzz/corpus/$$t fuzz/corpus/$$t; \
	done

# A KUBEBUILDER_ASSETS directory for controller-runtime's envtest: kube-apiserver and etcd (the same
# binary, which dispatches on its name) and kubectl from PATH when there is one. The build lays
# out the first two; this adds kubectl.
envtest-assets: build
	@if command -v kubectl >/dev/null 2>&1; then ln -sf "$$(command -v kubectl)" $(BUILD_DIR)/envtest/kubectl; \
	else echo "no kubectl on PATH: $(BUILD_DIR)/envtest has kube-apiserver and etcd only"; fi
	@echo "export KUBEBUILDER_ASSETS=$$(cd $(BUILD_DIR)/envtest && pwd)"

# cel-spec's conformance tests against src/cel (tools/cel_conformance): the test files are read
# at run time from a cel-spec checkout, never committed. CEL_SPEC_DIR names one; when it lacks
# tests/simple/testdata, cel-spec is cloned there (shallow). Per file: passed, failed, skipped
# with the categories. CEL_CONFORMANCE_ARGS adds flags: --verbose, --summary,
# --filter=FILE[/SECTION[/TEST]] (shell globs), --strict (exit 1 on a failure).
CEL_SPEC_DIR ?= $(BUILD_DIR)/cel-spec
CEL_SPEC_REPO ?= https://github.com/google/cel-spec
CEL_CONFORMANCE_ARGS ?=
cel-conformance: DEBIAN_PACKAGES += git
cel-conformance: configure
	@if [ ! -d "$(CEL_SPEC_DIR)/tests/simple/testdata" ]; then \
	  echo "fetching cel-spec into $(CEL_SPEC_DIR)"; \
	  git clone -q --depth 1 $(CEL_SPEC_REPO) "$(CEL_SPEC_DIR)" || { \
	    echo "cannot clone $(CEL_SPEC_REPO): set CEL_SPEC_DIR to a cel-spec checkout"; exit 1; }; \
	fi
	cmake --build $(BUILD_DIR) -j $(JOBS) --target cel_conformance
	./$(BUILD_DIR)/tools/cel_conformance/cel_conformance $(CEL_CONFORMANCE_ARGS) "$(CEL_SPEC_DIR)/tests/simple/testdata"

# The oracle (tools/oracle): the real kube-apiserver 1.36 and etcd, built from the Go module proxy
# into $(BUILD_DIR)/oracle, a KUBEBUILDER_ASSETS directory. The first build takes ~20 min on 2 shared
# cores (peak ~1.8 GB); later runs are incremental. ORACLE_GO_P sets go build -p (default 1).
# tools/oracle/start.sh runs it without Go (prints ready: URL and kubeconfig: PATH).
oracle:
	tools/oracle/build.sh $(BUILD_DIR)/oracle
	@echo "export KUBEBUILDER_ASSETS=$$(cd $(BUILD_DIR)/oracle && pwd)"

# Replays the golden corpus (testdata/golden/corpus) against the oracle and writes its answers,
# normalised, to testdata/golden/recorded (commit them); make test compares ours with them.
oracle-record: oracle
	cd tests/go && KUBEBUILDER_ASSETS=$(abspath $(BUILD_DIR))/oracle GOTOOLCHAIN=local go test -count=1 -timeout 60m -run '^TestGolden$$' ./golden/ -args -record

# Starts the server (HTTPS) on 127.0.0.1:6443 and writes a kubeconfig for it, its certificates kept
# in build/certs (ARGS adds more flags).
RUN_ARGS ?= --kubeconfig-out $(BUILD_DIR)/kubeconfig --cert-dir $(BUILD_DIR)/certs
run: build
	exec ./$(BUILD_DIR)/kube-apiserver-lite $(RUN_ARGS) $(ARGS)

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR)-address $(BUILD_DIR)-thread $(BUILD_DIR)-fuzz
