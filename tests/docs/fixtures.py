"""The files 'Try it on your documents' is tested on, made at test time into a folder (nothing
binary is committed): real PDFs with a text layer over three pages (fpdf2), an image-only PDF, a
PDF encrypted with a password and one cut short (pypdf), one damaged inside, a DOCX with headings
(python-docx) and one cut short, a PNG named like Markdown, text in several scripts (right to
left included), one line of 100,000 characters, UTF-16 and Latin-1 text, a NUL byte, hostile HTML
and Markdown with raw HTML, an empty file, a 50 MB file (sparse: it costs no disk), and two files
with the same bytes under different names.

    files = make_fixtures(tmp_path)      # name -> Path
    .venv/bin/python -m tests.docs.fixtures /tmp/docs-fixtures   # the same files, to look at

Each text the tests look for is a constant here (PDF_PAGES, DOCX_PARAGRAPH, HOSTILE_VISIBLE...).

Example: make_fixtures(Path("/tmp/x"))["report.pdf"].read_bytes()[:5] -> b'%PDF-'
"""

import io
import sys
from pathlib import Path

PDF_PAGES = (
    "Restoring a single file fetches only the packs that hold its blocks.",
    "Pruning old snapshots frees no disk space until compaction runs.",
    "The vault passphrase cannot be recovered by anyone, not even support.",
)
DOCX_HEADING = "Restoring from a vault"
DOCX_PARAGRAPH = "Burrowkeep keeps the replaced files under a folder named .burrow-replaced."
DOCX_TABLE_CELL = "WebDAV share"
SCRIPTS_TEXT = (
    "# Многоязычный текст\n\n"
    "Русский абзац о резервных копиях.\n\n"
    "## עברית\n\n"
    "גיבוי מלא נשמר בכספת המוצפנת.\n\n"
    "العربية: النسخ الاحتياطي يحفظ الملفات كل ليلة.\n\n"
    "日本語：バックアップは毎晩実行されます。中文：备份每晚运行。한국어: 백업은 매일 밤 실행됩니다.\n\n"
    "Emoji and marks: 🗄️ café naïve Ω≈ç√ — done.\n"
)
LONG_LINE_CHARS = 100_000
HOSTILE_PROBE = "/__docs-probe.png"  # a same-origin address no test page links: asked for, it was fetched
HOSTILE_VISIBLE = "Visible paragraph of the hostile page."
HOSTILE_HTML = f"""<!doctype html>
<html><head><title>Hostile page</title>
<base href="http://attacker.invalid/">
<meta http-equiv="refresh" content="0; url=http://attacker.invalid/refresh">
<link rel="stylesheet" href="http://attacker.invalid/style.css">
<link rel="prefetch" href="{HOSTILE_PROBE}?prefetch">
<script>window.__docsHostileRan = true; fetch("{HOSTILE_PROBE}?script");</script>
<script src="{HOSTILE_PROBE}?script-src"></script>
<style>@import url("{HOSTILE_PROBE}?style"); body {{ background: url({HOSTILE_PROBE}?bg) }}</style>
</head>
<body onload="window.__docsHostileRan = true; fetch('{HOSTILE_PROBE}?onload')">
<h1>Hostile heading</h1>
<p>{HOSTILE_VISIBLE}</p>
<img src="{HOSTILE_PROBE}?img" onerror="window.__docsHostileRan = true" alt="an image">
<img src="http://attacker.invalid/pixel.gif">
<p><a href="javascript:window.__docsHostileRan = true">A scripted link</a> and
<a href="http://attacker.invalid/?q=secret">an outside link</a>.</p>
<iframe src="{HOSTILE_PROBE}?iframe"></iframe>
<object data="{HOSTILE_PROBE}?object"></object><embed src="{HOSTILE_PROBE}?embed">
<svg onload="window.__docsHostileRan = true"><image href="{HOSTILE_PROBE}?svg"/></svg>
<video poster="{HOSTILE_PROBE}?poster"></video>
<form action="http://attacker.invalid/post"><input name="q" value="x" autofocus onfocus="window.__docsHostileRan = true"></form>
<noscript><img src="{HOSTILE_PROBE}?noscript"></noscript>
</body></html>
"""
RAW_MARKDOWN_VISIBLE = "Text around the raw HTML stays."
RAW_MARKDOWN = f"""# Raw HTML in Markdown

{RAW_MARKDOWN_VISIBLE}

<script>window.__docsHostileRan = true</script>
<img src="{HOSTILE_PROBE}?md-img" onerror="window.__docsHostileRan = true">
<div onclick="window.__docsHostileRan = true">A div's text is kept.</div>

[a scripted link](javascript:window.__docsHostileRan=true) and <a href="{HOSTILE_PROBE}?md-a">an anchor</a>.
"""
DUPLICATE_TEXT = "# Same bytes\n\nThis file is here twice under two names.\n"
FIFTY_MB = 50 * 1024 * 1024


def png_bytes(width: int = 64, height: int = 32) -> bytes:
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (width, height), "white")
    ImageDraw.Draw(image).rectangle((4, 4, width - 5, height - 5), outline="black")
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def pdf_with_text(pages=PDF_PAGES) -> bytes:
    """One page per text, Helvetica (a standard font, not embedded), each sentence written once."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    for number, text in enumerate(pages, 1):
        pdf.add_page()
        pdf.cell(0, 10, f"Page {number}", new_x="LMARGIN", new_y="NEXT")
        pdf.multi_cell(0, 8, text)
    return bytes(pdf.output())


def pdf_image_only() -> bytes:
    """A scan: one page holding a picture and no text."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.image(io.BytesIO(png_bytes(400, 200)), x=10, y=10, w=180)
    return bytes(pdf.output())


def pdf_encrypted() -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf_with_text())))
    writer.encrypt(user_password="open sesame", owner_password="owner", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def pdf_damaged_inside() -> bytes:
    """A PDF's header and end with nothing a parser can read between them."""
    return b"%PDF-1.7\n" + bytes((i * 37 + 11) % 256 for i in range(4000)) + b"\nstartxref\n12\n%%EOF\n"


def docx_bytes() -> bytes:
    from docx import Document

    document = Document()
    document.add_heading(DOCX_HEADING, level=1)
    document.add_paragraph(DOCX_PARAGRAPH)
    document.add_heading("Limits", level=2)
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Backend", "Parallel uploads"
    table.cell(1, 0).text, table.cell(1, 1).text = DOCX_TABLE_CELL, "2"
    document.add_picture(io.BytesIO(png_bytes()))
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def make_fixtures(folder: Path) -> dict[str, Path]:
    """Write every fixture into `folder`; name -> path."""
    folder.mkdir(parents=True, exist_ok=True)
    report = pdf_with_text()
    docx = docx_bytes()
    contents: dict[str, bytes] = {
        "report.pdf": report,
        "scan.pdf": pdf_image_only(),
        "locked.pdf": pdf_encrypted(),
        "truncated.pdf": report[: len(report) // 2],
        "damaged.pdf": pdf_damaged_inside(),
        "guide.docx": docx,
        "damaged.docx": docx[: len(docx) // 2],
        "picture.md": png_bytes(),
        "empty.txt": b"",
        "blank.md": b"  \n\t\n",
        "scripts.md": SCRIPTS_TEXT.encode("utf-8"),
        "long-line.txt": (("word " * (LONG_LINE_CHARS // 5))[:-1] + ".").encode("utf-8"),
        "utf16.txt": "UTF-16 text".encode("utf-16"),
        "latin1.txt": "Caf\xe9 cr\xe8me, not UTF-8.".encode("latin-1"),
        "nul.txt": b"text with a \x00 NUL byte",
        "hostile.html": HOSTILE_HTML.encode("utf-8"),
        "raw-html.md": RAW_MARKDOWN.encode("utf-8"),
        "same-a.md": DUPLICATE_TEXT.encode("utf-8"),
        "same-b.md": DUPLICATE_TEXT.encode("utf-8"),
    }
    paths = {}
    for name, content in contents.items():
        paths[name] = folder / name
        paths[name].write_bytes(content)
    big = folder / "big.txt"
    with big.open("wb") as handle:
        handle.truncate(FIFTY_MB)  # sparse: 50 MB to the browser, no disk
    paths["big.txt"] = big
    return paths


if __name__ == "__main__":
    for name, path in make_fixtures(Path(sys.argv[1] if len(sys.argv) > 1 else "docs-fixtures")).items():
        print(f"{path.stat().st_size:>10,}  {path}")
