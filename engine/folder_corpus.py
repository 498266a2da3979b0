"""A corpus that is a folder of documents: every Markdown, HTML and text file in it (and in its
subfolders, in path order) read by engine/documents.py and cut into passages by heading, each
with a stable, readable id and default metadata. readers.yaml, golden.yaml and tracers.yaml are
read when present; without them there is one public reader (the role "customer", as in a help
center), no golden set and no tracer.

- Documents: files ending in .md, .markdown, .html, .htm or .txt, but not README.md (the folder's
  own notes) nor chunking-lab.md (the chunking lab's page); hidden files and folders are skipped.
- Passages: documents.passages(doc, MAX_WORDS): one per section with text, a long one cut into
  whole sentences of at most MAX_WORDS words (the model reads 256 wordpieces).
- Ids: the slug of the file's name, then the slug of the passage's last heading unless that is
  the document's title ("sync.md", "## Working offline" -> sync-working-offline); a heading
  slug that already starts with the file's stands alone. A slug is the text in lower-case ASCII
  (accents dropped), every other run of characters a "-"; an id is at most 40 characters, cut at
  a dash; a repeated id gets -2, -3, … in reading order. Golden questions name these ids.
- Metadata: title, the document's (engine/documents.py); section, the last heading (else the
  title); from the front matter of a Markdown file when it has them, else the defaults: kind
  "help", acl "public", url the file's path (URL-quoted) + "#" + id, updated the file's modification date
  (UTC), superseded false. Other front-matter fields are left alone.

Example: slug("Recovering after the Trash") -> 'recovering-after-the-trash'
"""

import datetime
import re
import unicodedata
from pathlib import Path
from urllib.parse import quote

from engine import documents
from engine.corpus_files import parse_yaml, read_text
from engine.fields import check_acl, check_bool, check_date, check_url
from engine.help_center import KINDS, Passage
from engine.problems import ProblemLog
from engine.questions import load_golden, load_tracers
from engine.readers import Reader, load_readers

SUFFIXES = (".md", ".markdown", ".html", ".htm", ".txt")
NOT_DOCUMENTS = ("README.md", "chunking-lab.md")
MAX_WORDS = 120
MAX_ID = 40
DEFAULT_READERS = (Reader("customer", "Customer", ("public",)),)  # a help center's public reader
METADATA = ("kind", "acl", "url", "updated", "superseded")


def slug(text: str) -> str:
    """Example: slug("Café: Ünïcode & QB-4021!") -> 'cafe-unicode-qb-4021'"""
    ascii_text = "".join(ch for ch in unicodedata.normalize("NFKD", text) if not unicodedata.combining(ch))
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def fit(name: str, limit: int = MAX_ID) -> str:
    """The name cut to at most `limit` characters at a dash (or hard, for one long word).

    Example: fit("a-very-long-name", 8) -> 'a-very'
    """
    if len(name) <= limit:
        return name
    cut = name[:limit + 1].rsplit("-", 1)[0] if "-" in name[:limit + 1] else name[:limit]
    return cut.strip("-") or name[:limit]


def passage_id(stem: str, headings: tuple[str, ...], title: str = "") -> str:
    """Example: passage_id("sync", ("Syncing", "Working offline"), "Syncing") -> 'sync-working-offline'"""
    base = slug(stem) or "document"
    last = slug(headings[-1]) if headings and headings[-1] != title else ""
    if not last or last == base:
        return fit(base)
    return fit(last if last.startswith(base + "-") else f"{base}-{last}")


def unique(ids: list[str]) -> list[str]:
    """Each id once: a repeat gets -2, -3, … (cut to fit MAX_ID).

    Example: unique(["a", "b", "a", "a"]) -> ['a', 'b', 'a-2', 'a-3']
    """
    seen: set[str] = set()
    found = []
    for name in ids:
        candidate, number = name, 1
        while candidate in seen:
            number += 1
            candidate = f"{fit(name, MAX_ID - len(str(number)) - 1)}-{number}"
        seen.add(candidate)
        found.append(candidate)
    return found


def document_files(root: Path) -> list[Path]:
    """The documents of the folder, in path order."""
    return sorted(path for path in root.rglob("*")
                  if path.is_file() and path.suffix.lower() in SUFFIXES and path.name not in NOT_DOCUMENTS
                  and not any(part.startswith(".") for part in path.relative_to(root).parts))


def modified(path: Path) -> str:
    return datetime.datetime.fromtimestamp(path.stat().st_mtime, datetime.timezone.utc).date().isoformat()


def metadata(text: str, path: Path, out: ProblemLog) -> tuple[dict, dict]:
    """(the front matter's metadata fields, the line each is written on), when a Markdown file
    has front matter."""
    lines = text.split("\n")
    if documents.kind_of(path.name) != "markdown" or not lines or lines[0].strip() != "---":
        return {}, {}
    end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), None)
    if end is None:
        return {}, {}
    meta = parse_yaml("\n".join(lines[1:end]), path, out, start_line=2)
    if not isinstance(meta, dict):
        return {}, {}
    written = {}
    for number in range(1, end):
        key = lines[number].split(":", 1)[0].strip()
        written.setdefault(key, number + 1)
    return ({key: meta[key] for key in METADATA if key in meta},
            {key: written.get(key, meta["__line__"]) for key in METADATA})


def heading_lines(text: str, pieces: list) -> list[int]:
    """The line each passage starts at, as near as the file tells: the first line, from the last
    one found (after any front matter), that holds the passage's last heading as written (else
    that last line)."""
    lines = text.split("\n")
    found, at = [], documents.front_matter(lines)[1]
    for piece in pieces:
        if piece.headings:
            heading = piece.headings[-1]
            at = next((i for i in range(at, len(lines)) if heading in lines[i]), at)
        found.append(at + 1)
    return found


def read_documents(root: Path, groups: set[str], out: ProblemLog) -> list[Passage]:
    """Every passage of every document, with its id and metadata (problems added to `out`)."""
    files = document_files(root)
    if not files:
        out.add(root, None, None, None, "has no documents",
                "add Markdown (.md), HTML (.html) or text (.txt) files, or a help/ folder of '## <id> | <section>' passages")
    found = []  # (path, line, document, passage, metadata)
    for path in files:
        text = read_text(path, out)
        if text is None:
            continue
        source = path.relative_to(root).as_posix()
        doc = documents.read_document(source, text)
        meta, lines = metadata(text, path, out)
        pieces = documents.passages(doc, MAX_WORDS)
        if not pieces:
            out.warn(path, "has no text under its headings, so no passage (write paragraphs, or remove the file)")
        found += [(path, source, piece, meta, lines, line)
                  for piece, line in zip(pieces, heading_lines(text, pieces))]
    ids = unique([passage_id(path.stem, piece.headings, piece.title) for path, _, piece, _, _, _ in found])
    passages = []
    for passage_id_, (path, source, piece, meta, lines, line_no) in zip(ids, found):
        line = lines.get("kind", 1)
        kind = str(meta.get("kind", "help")).strip()
        if kind not in KINDS:
            out.add(path, line, passage_id_, "kind", f"is '{kind}'", f"use one of {', '.join(KINDS)}")
        url = check_url(meta.get("url", quote(source)), path, lines.get("url"), passage_id_, out)
        updated = check_date(meta["updated"], path, lines["updated"], passage_id_, "updated", out) \
            if "updated" in meta else modified(path)
        acl = check_acl(meta.get("acl", "public"), path, lines.get("acl"), passage_id_, groups, out)
        superseded = check_bool(meta.get("superseded", False), path, lines.get("superseded"), passage_id_,
                                "superseded", out)
        if None in (url, updated, acl, superseded) or kind not in KINDS:
            out.broken_ids.add(passage_id_)
            continue
        passages.append(Passage(passage_id_, piece.text, piece.title, piece.headings[-1] if piece.headings else piece.title,
                                url if "#" in url else f"{url}#{passage_id_}", updated, kind, acl, superseded,
                                path.stem, str(path), line_no))
    return passages


def read_folder(root: Path, out: ProblemLog):
    """(passages, golden, tracers, readers) of a folder of documents."""
    readers = load_readers(root / "readers.yaml", out) if (root / "readers.yaml").is_file() else list(DEFAULT_READERS)
    groups = {group for reader in readers for group in reader.groups}
    passages = read_documents(root, groups, out)
    golden = (load_golden(root / "golden.yaml", out, tuple(r.role for r in readers))
              if (root / "golden.yaml").is_file() else [])
    tracers = load_tracers(root / "tracers.yaml", out) if (root / "tracers.yaml").is_file() else []
    return passages, golden, tracers, readers
