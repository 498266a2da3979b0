"""The help center: one Markdown file per document under help/, one `## <id> | <section>`
block per passage, the document's front matter giving every passage its defaults.

Example: load_help_center(Path("corpus/help"), {"public", "staff"}, log)[0].id -> 'api-keys'
"""

import re
from dataclasses import dataclass
from pathlib import Path

from engine.corpus_files import read_text, split_front_matter
from engine.fields import check_acl, check_bool, check_date, check_id, check_url, required_str
from engine.problems import ProblemLog

KINDS = ("help", "forum", "runbook")
PASSAGE_HEADING = re.compile(r"^##\s+(?P<id>\S.*?)\s*\|\s*(?P<section>.*?)\s*$")
PASSAGE_KEYS = ("updated", "kind", "acl", "url", "superseded")
DOCUMENT_KEYS = ("title", "kind", "acl", "url", "updated", "superseded")


@dataclass(frozen=True)
class Passage:
    id: str
    text: str
    title: str
    section: str
    url: str
    updated: str
    kind: str
    acl: tuple[str, ...]
    superseded: bool
    document: str
    file: str
    line: int


def load_help_center(folder: Path, groups: set[str], out: ProblemLog) -> list[Passage]:
    """Every passage of every help/*.md, in file-name order. Any other file in the folder is
    ignored with a warning that names it: a draft saved as .txt would otherwise vanish unseen."""
    if not folder.is_dir():
        out.add(folder, None, None, None, "has no documents", "add help/<document>.md files")
        return []
    documents = sorted(folder.glob("*.md"))
    for stray in sorted(p for p in folder.iterdir() if p.suffix != ".md" and not p.name.startswith(".")):
        kind = "folder" if stray.is_dir() else "file"
        out.warn(stray, f"this {kind} is not read (only help/*.md documents are); "
                        "rename it to .md to make it a document, or move it out of help/")
    if not documents:
        out.add(folder, None, None, None, "has no documents", "add help/<document>.md files")
    return [p for doc in documents for p in parse_document(doc, groups, out)]


def parse_document(path: Path, groups: set[str], out: ProblemLog) -> list[Passage]:
    text = read_text(path, out)
    if text is None:
        return []
    meta, body, body_line = split_front_matter(text, path, out)
    if meta is None:
        # The document's own problem is reported; its passages exist all the same, so
        # references to them are not reported again.
        out.broken_ids.update(m.group("id") for m in map(PASSAGE_HEADING.match, text.split("\n")) if m)
        return []
    doc_line = meta.get("__line__", 2)
    for key in meta:
        if key != "__line__" and key not in DOCUMENT_KEYS:
            out.add(path, doc_line, None, key, "is not a document field", f"use only {', '.join(DOCUMENT_KEYS)}")
    title = required_str(meta, "title", path, None, out)
    document = path.stem
    passages = []
    lines = body.split("\n")
    blocks: list[tuple[int, list[str]]] = []
    for offset, line in enumerate(lines):
        if line.startswith("## "):
            blocks.append((body_line + offset, [line]))
        elif blocks:
            blocks[-1][1].append(line)
        elif line.strip():
            out.add(path, body_line + offset, None, None, "text before the first passage",
                    "start each passage with a '## <id> | <section heading>' line")
            break
    if not blocks:
        out.add(path, body_line, None, None, "has no passages", "add passages as '## <id> | <section heading>' blocks")
    for line_no, block in blocks:
        passage = parse_passage(block, line_no, meta, title, document, path, groups, out)
        if passage is not None:
            passages.append(passage)
    return passages


def parse_passage(block, line_no, meta, title, document, path, groups, out) -> Passage | None:
    heading = PASSAGE_HEADING.match(block[0])
    if not heading:
        out.add(path, line_no, None, None, f"passage heading '{block[0][:60]}' has no id",
                "write it as '## <id> | <section heading>', e.g. '## refund-new | Refunds'")
        return None
    raw_id = heading.group("id")
    passage_id = check_id(raw_id, path, line_no, "id", out)
    section = heading.group("section")
    if not section:
        out.add(path, line_no, raw_id, "section", "is empty", "write the section heading after the '|'")
    values = {key: meta.get(key) for key in PASSAGE_KEYS}
    value_lines = {key: meta.get("__line__", 2) for key in PASSAGE_KEYS}
    index = 1
    while index < len(block) and block[index].strip():
        key, sep, value = block[index].partition(":")
        key = key.strip()
        if not sep or key not in PASSAGE_KEYS:
            if sep and re.fullmatch(r"[a-z_]+", key):
                out.add(path, line_no + index, raw_id, key, "is not a passage field",
                        f"use only {', '.join(PASSAGE_KEYS)}, or leave a blank line before the text")
            break  # no 'key: value' line: the text starts here
        values[key] = value.strip()
        value_lines[key] = line_no + index
        index += 1
    text = " ".join(" ".join(block[index:]).split())
    if not text:
        out.add(path, line_no, raw_id, "text", "is empty", "write the passage's paragraph under its heading")
    kind = str(values["kind"] or "").strip()
    if kind not in KINDS:
        out.add(path, value_lines["kind"], raw_id, "kind", f"is '{kind}'", f"use one of {', '.join(KINDS)}")
    updated = check_date(values["updated"], path, value_lines["updated"], raw_id, "updated", out)
    url = check_url(values["url"], path, value_lines["url"], raw_id, out)
    acl = check_acl(values["acl"], path, value_lines["acl"], raw_id, groups, out)
    superseded = check_bool(values["superseded"] if values["superseded"] is not None else False,
                            path, value_lines["superseded"], raw_id, "superseded", out)
    if None in (passage_id, updated, url, acl, superseded, title) or not text or not section or kind not in KINDS:
        if passage_id:
            out.broken_ids.add(passage_id)
        return None
    if url == meta.get("url") and "#" not in url:
        url = f"{url}#{passage_id}"
    return Passage(passage_id, text, title, section, url, updated, kind, acl, superseded,
                   document, str(path), line_no)
