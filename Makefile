# The two commands of the README:  make build  and  make test.
# Everything they need is installed on first use: a Python venv with pinned packages,
# Node.js and the pinned npm packages (onnxruntime-web ships with the live model; the rest are
# test tools), and for the tests Debian's chromium.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PY_DEPS   := $(VENV)/.installed
NODE_DEPS := node_modules/.installed
BENCH_NODE_DEPS := bench/node_modules/.installed
BUILD_SYS_DEPS := .cache/.system-deps-build
SYS_DEPS  := .cache/.system-deps

export HF_HUB_OFFLINE ?= 1
export TOKENIZERS_PARALLELISM := false
# Python keeps compiled bytecode even where the machine says not to (PYTHONDONTWRITEBYTECODE):
# every test process and every build a test starts would otherwise compile each module again,
# and pytest would rewrite every test file's asserts again (collecting alone: 13 s against 1.8 s).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: build test check deps clean serve bench

build: $(PY_DEPS) $(NODE_DEPS)
	$(PY) build.py

# Two workers, one test file each at a time (a file's tests may share a browser page), in the
# order conftest.py gives: first the files that need no site, while the session builds it in the
# background (tests/support/session_site.py: its import of torch leaves a core idle for 20 s on
# a fresh clone), then the two navigation readings side by side, then the longest first (xdist
# would otherwise reorder files by their number of tests). The site the tests read is their own
# (.cache/test-site/); `make build` writes dist/. Chromium installs (apt, when it is missing) while
# the tests start: the first browser test waits for it (tests/support/chromium.py), and its
# output is shown if it fails.
test: $(BUILD_SYS_DEPS)
	@rm -f $(SYS_DEPS).failed
	@{ $(MAKE) --no-print-directory $(SYS_DEPS) > $(SYS_DEPS).log 2>&1 || touch $(SYS_DEPS).failed; } & \
	  $(MAKE) --no-print-directory -j2 -O $(PY_DEPS) $(NODE_DEPS) \
	  && CHROMIUM_INSTALLED_STAMP=$(CURDIR)/$(SYS_DEPS) $(PY) -m pytest -n 2 --dist loadfile --no-loadscope-reorder; \
	  tests=$$?; wait; \
	  if [ -f $(SYS_DEPS).failed ]; then cat $(SYS_DEPS).log; echo "installing Chromium failed (above)"; exit 1; fi; \
	  exit $$tests

# The edit loop: engine, corpus, page and lab data, no browser, no repeated builds, no model
# loaded in the test process (README, "Tests").
check: $(PY_DEPS) $(NODE_DEPS) $(SYS_DEPS)
	$(PY) -m pytest -n 2 -m "not browser and not slow and not model" -q

deps: $(PY_DEPS) $(NODE_DEPS) $(SYS_DEPS)

# Authoring: build, serve dist/ on 127.0.0.1 (PORT=8000 by default, a free one if taken),
# rebuild on every edit under corpus/ and site_src/, reload the open page.
serve: $(PY_DEPS) $(NODE_DEPS)
	$(PY) -m builder.serve $(if $(PORT),--port $(PORT))

# The budgets (README, "Performance budgets"): prints a table, writes bench/results/latest.json.
# BENCH_FLAGS="--skip scale,lighthouse" for a quick run.
bench: $(PY_DEPS) $(NODE_DEPS) $(BENCH_NODE_DEPS) $(SYS_DEPS)
	$(PY) scripts/bench.py $(BENCH_FLAGS)

# requirements.txt pins every package, dependencies included, so each goes in as listed (--no-deps).
# torch through pip, which reads the machine's pip configuration (where this workplace keeps its
# CPU build; PyPI's default torch is the multi-GB CUDA one); the others through uv at the same time,
# with the system's certificates (--system-certs). Measured here on a new venv with empty caches:
# 11 to 16 s in all, against 30 s for pip alone.
$(PY_DEPS): requirements.txt requirements-tools.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --disable-pip-version-check -q $$(grep '^uv==' requirements-tools.txt)
	grep -v '^torch==' requirements.txt > $(VENV)/requirements-but-torch.txt
	$(VENV)/bin/pip install --disable-pip-version-check --no-compile --no-deps -q $$(grep '^torch==' requirements.txt) & \
	  $(VENV)/bin/uv pip install --python $(PY) --system-certs --no-deps -q -r $(VENV)/requirements-but-torch.txt; \
	  uv=$$?; wait $$! && [ $$uv -eq 0 ]
	$(VENV)/bin/pip check --disable-pip-version-check -q
	touch $@

$(NODE_DEPS): package.json package-lock.json $(BUILD_SYS_DEPS)
	npm ci --no-audit --no-fund
	touch $@

# What only the benchmark runs (lighthouse, transformers.js: 550 MB), apart, so that build and
# test do not wait for it (npm ci: 21 s with it, 5 s without).
$(BENCH_NODE_DEPS): bench/package.json bench/package-lock.json bench/.npmrc $(BUILD_SYS_DEPS)
	npm ci --prefix bench --no-audit --no-fund
	touch $@

$(BUILD_SYS_DEPS): scripts/install-system-deps.sh
	bash scripts/install-system-deps.sh build
	mkdir -p .cache && touch $@

$(SYS_DEPS): scripts/install-system-deps.sh $(BUILD_SYS_DEPS)  # after it: one apt at a time
	bash scripts/install-system-deps.sh
	mkdir -p .cache && touch $@

clean:
	rm -rf dist .cache .pytest_cache test-artifacts
