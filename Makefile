# Entry points: `make run`, `make test`, `make bench`. Each installs any missing Debian packages
# first (apt-get, as root or through sudo), then configures and builds with CMake + Ninja.

BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
JOBS ?= $(shell nproc)
DEBIAN_PACKAGES := cmake ninja-build g++ make pkg-config librocksdb-dev nlohmann-json3-dev \
                   libcpp-httplib-dev doctest-dev libyaml-cpp-dev libre2-dev curl python3

.PHONY: all deps configure build test run bench sanitize clean

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

# Every test under a sanitizer, each in its own build directory: SANITIZER=address (ASan + UBSan,
# the default) or SANITIZER=thread (TSan).
SANITIZER ?= address
sanitize: deps
	@cmake -S . -B $(BUILD_DIR)-$(SANITIZER) -G Ninja -DCMAKE_BUILD_TYPE=Debug \
	  -DKUBE_SANITIZER=$(SANITIZER) -DKUBE_BUILD_BENCHMARKS=OFF >/dev/null
	cmake --build $(BUILD_DIR)-$(SANITIZER) -j $(JOBS)
	cd $(BUILD_DIR)-$(SANITIZER) && ctest -j $(JOBS) --output-on-failure

# Starts the server on 127.0.0.1:6443 and writes a kubeconfig for it (ARGS adds more flags).
RUN_ARGS ?= --kubeconfig-out $(BUILD_DIR)/kubeconfig
run: build
	exec ./$(BUILD_DIR)/kube-apiserver-lite $(RUN_ARGS) $(ARGS)

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR)-address $(BUILD_DIR)-thread
