"""What 'Try it on your documents' ships (builder/page/docs_assets.py): the two libraries byte for
byte as the pinned packages publish them, the checks the page runs written from their bytes
(computed here with hashlib), nothing of them in the first download, no eval in PDF.js, and every
script of site_src/docs/ accepted by the build's minifier. The files and their sizes, raw and
gzipped, go to test-artifacts/docs-shipped.json (site_src/docs/README.md lists them)."""

import base64
import gzip
import hashlib
import json
import re

from builder.page import assets, docs_assets
from support.paths import ARTIFACTS, ROOT

PINNED = json.loads((ROOT / "package.json").read_text("utf-8"))["dependencies"]


def test_the_libraries_ship_byte_for_byte_as_their_pinned_packages_publish_them(built_site):
    shipped = {}
    for name, (package, file, _) in docs_assets.VENDOR.items():
        assert docs_assets.package_version(package) == PINNED[package], f"node_modules holds another {package}: run `npm ci`"
        original = (ROOT / "node_modules" / package / file).read_bytes()
        path = docs_assets.vendor_path(name)
        assert path == f"assets/vendor/{package}-{PINNED[package]}/{file.split('/')[-1]}"
        assert (built_site / path).read_bytes() == original
        shipped[path] = {"bytes": len(original), "gzip": len(gzip.compress(original, 6))}
    for path in (docs_assets.DOCS_SCRIPT, docs_assets.PDF_WORKER_SCRIPT):
        content = (built_site / path).read_bytes()
        shipped[path] = {"bytes": len(content), "gzip": len(gzip.compress(content, 6))}
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "docs-shipped.json").write_text(json.dumps(shipped, indent=1), "utf-8")


def test_the_checks_the_page_runs_are_the_libraries_own_hashes(built_site):
    header = (built_site / docs_assets.DOCS_SCRIPT).read_text("utf-8").split("\n")[1]
    files = json.loads(re.search(r"\.FILES = (\{.*\});$", header).group(1))
    for name in ("pdfjs", "mammoth"):
        content = docs_assets.vendor_bytes(name)
        assert files[name]["integrity"] == "sha384-" + base64.b64encode(hashlib.sha384(content).digest()).decode()
        assert files[name]["bytes"] == len(content)
    worker = docs_assets.vendor_bytes("pdfWorker")
    assert files["pdfWorker"]["sha256"] == hashlib.sha256(worker).hexdigest() and files["pdfWorker"]["bytes"] == len(worker)
    for name in ("pdfjs", "pdfWorker", "mammoth"):
        assert (built_site / files[name]["url"].split("?")[0]).is_file()
    assert (built_site / files["pdfWorkerScript"].split("?")[0]).is_file() and (built_site / files["modelFiles"].split("?")[0]).is_file()


def test_nothing_of_it_is_in_the_first_download(built_site):
    """index.html names docs.js in its list of files (a few bytes) and loads none of it."""
    html = (built_site / "index.html").read_text("utf-8")
    listed = re.search(r'<script type="application/json" id="rag-assets">([^<]*)</script>', html).group(1)
    outside = html.replace(listed, "")
    for piece in ("assets/vendor/", "docs.js", "pdf-worker.js", "pdf.min.mjs", "mammoth"):
        assert piece not in outside, piece
    assert json.loads(listed)["scripts"]["docs"].startswith("assets/scripts/docs.js?v=")


def test_pdfjs_compiles_nothing_and_mammoths_two_compilers_are_never_reached():
    """PDF.js 6.5 has no eval path (isEvalSupported, which read-pdf.js still passes, is gone). The
    page's policy has no 'unsafe-eval', so any eval would throw. mammoth bundles underscore, whose
    two are its _.template (which mammoth never calls) and a `Function("return this")` fallback
    behind `self` (which every browser and worker has); the DOCX test in Chromium runs under the
    page's policy, where reaching either would throw."""
    compiles = re.compile(rb"\beval\s*\(|\bnew\s+Function\s*\(|\bFunction\s*\(\s*[\"'`]")
    for name in ("pdfjs", "pdfWorker"):
        assert not compiles.search(docs_assets.vendor_bytes(name)), name
    mammoth = docs_assets.vendor_bytes("mammoth")
    found = [mammoth[max(0, m.start() - 400):m.end() + 20] for m in compiles.finditer(mammoth)]
    assert len(found) == 2
    assert b"variable is not a bare identifier" in found[0] and b"render=new Function(argument" in found[0]
    assert b'"object"==typeof self&&self.self===self&&self||' in found[1] and b'Function("return this")()' in found[1]


def test_every_script_of_site_src_docs_is_joined_and_minifies():
    listed = set(assets.DOCS) | {"pdf-worker.js"}
    on_disk = {path.name for path in (ROOT / "site_src" / "docs").glob("*.js")}
    assert on_disk == listed, f"joined in DOCS or shipped alone: {sorted(on_disk ^ listed)}"
    assert docs_assets.docs_source().startswith("(()=>{")
