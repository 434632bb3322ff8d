# Networking: every command a developer or CI needs. Toolchain only: swift, python3 (for test servers).
SWIFT        ?= swift
FORMAT_CONF  := Sources/.swift-format
FORMAT_PATHS := Sources Tests Package.swift

.PHONY: help build test demo bench lint format check-deps strict clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-11s %s\n", $$1, $$2}'

build: ## Build every target (debug)
	$(SWIFT) build

test: check-deps ## Run every test: unit tests and real-server tests (servers start and stop themselves)
	$(SWIFT) test

demo: ## Run the demo app against the embedded fixture backend
	@echo "The demo arrives with the demo issue (NetworkingTesting, fixtures, demo)."

bench: ## Run the benchmarks (release build) and print one table
	@echo "The benchmarks arrive with the benchmark issue."

lint: check-deps ## Check formatting and documentation of every public symbol
	$(SWIFT) format lint --strict --recursive --configuration $(FORMAT_CONF) $(FORMAT_PATHS)

format: ## Format the sources in place
	$(SWIFT) format --in-place --recursive --configuration $(FORMAT_CONF) $(FORMAT_PATHS)

strict: ## Build everything, tests included, with warnings as errors
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors

check-deps: ## Fail if Package.swift declares any package dependency
	@if grep -q '\.package(' Package.swift; then echo "Package.swift must have no dependencies"; exit 1; fi

clean: ## Remove build products
	$(SWIFT) package clean
	rm -rf .build
