"""What 'Try it on your documents' ships besides the page's own files, none of it in any first
download (a page loads them only once the reader brings documents):

    assets/scripts/docs.js        site_src/docs/*.js joined in builder/page/assets.py DOCS order,
                                  after a header that names the files below with their checks
                                  (RAG.docs.FILES)
    assets/scripts/pdf-worker.js  the worker that runs PDF.js's parser from checked bytes
    assets/vendor/<package>-<version>/<file>   VENDOR: the two libraries, byte for byte as their
                                  npm packages publish them (package.json pins the versions)

Each library is checked in the browser before it runs: PDF.js's module and mammoth's script by
their SRI hash (sha384, `integrity`), PDF.js's worker module by its SHA-256 and size
(pdf-worker.js uses model-files.js's check). Which files ship, and their sizes:
site_src/docs/README.md, and shipped() below.

Example: vendor_path("mammoth") -> 'assets/vendor/mammoth-1.13.0/mammoth.browser.min.js'
"""

import base64
import hashlib
import json
from pathlib import Path

from builder.page.minify import minify_js
from builder.sources import ROOT, SITE_SRC

NODE_MODULES = ROOT / "node_modules"
# name in RAG.docs.FILES -> (npm package, its file), and how the browser checks it
VENDOR = {
    "pdfjs": ("pdfjs-dist", "build/pdf.min.mjs", "sri"),             # PDF.js's API, an ES module
    "pdfWorker": ("pdfjs-dist", "build/pdf.worker.min.mjs", "sha256"),  # its parser, run in pdf-worker.js
    "mammoth": ("mammoth", "mammoth.browser.min.js", "sri"),          # DOCX -> HTML, a classic script
}
DOCS_SCRIPT = "assets/scripts/docs.js"
PDF_WORKER_SCRIPT = "assets/scripts/pdf-worker.js"


def package_version(package: str) -> str:
    manifest = NODE_MODULES / package / "package.json"
    if not manifest.is_file():
        raise FileNotFoundError(f"{manifest} is missing: 'Try it on your documents' ships {package} (fix: run `npm ci`)")
    return json.loads(manifest.read_text("utf-8"))["version"]


def vendor_path(name: str) -> str:
    package, file, _ = VENDOR[name]
    return f"assets/vendor/{package}-{package_version(package)}/{Path(file).name}"


def vendor_bytes(name: str) -> bytes:
    package, file, _ = VENDOR[name]
    return (NODE_MODULES / package / file).read_bytes()


def sri(content: bytes) -> str:
    """The Subresource Integrity value of `content`: sha384, base64."""
    return "sha384-" + base64.b64encode(hashlib.sha384(content).digest()).decode("ascii")


def check_of(name: str, content: bytes) -> dict:
    if VENDOR[name][2] == "sri":
        return {"integrity": sri(content)}
    return {"sha256": hashlib.sha256(content).hexdigest()}


def docs_source() -> str:
    """site_src/docs/ joined in DOCS order (each file minified alone first, so an error names its line)."""
    from builder.page.assets import DOCS, joined

    for name in DOCS:
        minify_js((SITE_SRC / "docs" / name).read_text("utf-8"), f"site_src/docs/{name}")
    return minify_js(joined(SITE_SRC / "docs", DOCS), "site_src/docs")


def files(found: dict) -> list[tuple[str, str | bytes]]:
    """(path under dist/, content) of every file the documents' part ships; `found` holds the
    page's other assets (model-files.js, whose address the header names)."""
    from builder.page.assets import versioned

    shipped = [(vendor_path(name), vendor_bytes(name)) for name in VENDOR]
    worker = minify_js((SITE_SRC / "docs" / "pdf-worker.js").read_text("utf-8"), "site_src/docs/pdf-worker.js")
    shipped.append((PDF_WORKER_SCRIPT, worker))
    table = {name: {"url": versioned(path, content), "bytes": len(content), **check_of(name, content)}
             for name, (path, content) in zip(VENDOR, shipped)}
    table["pdfWorkerScript"] = versioned(PDF_WORKER_SCRIPT, worker)
    table["modelFiles"] = versioned("assets/scripts/model-files.js", found["assets/scripts/model-files.js"])
    table["versions"] = {package: package_version(package) for package, _, _ in VENDOR.values()}
    header = ("/* RAG.docs.FILES: the files that read PDF and DOCX, and their checks (builder/page/docs_assets.py) */\n"
              f"((globalThis.RAG = globalThis.RAG || {{}}).docs = globalThis.RAG.docs || {{}}).FILES = {json.dumps(table, sort_keys=True)};\n")
    shipped.append((DOCS_SCRIPT, header + docs_source()))
    return shipped
