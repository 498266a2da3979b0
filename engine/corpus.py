"""Load the help center and everything the page is built from, checking it as it goes.

Every problem found, in any file, is collected and raised together as a CorpusError whose
lines name the file, the line, the id and the field, and say how to fix it. Nothing is
computed from a corpus that has a problem. The file formats are described in
corpus/README.md.

Example: load_corpus("corpus").passages[0].id -> 'sync-1'
"""

import datetime
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from engine.problems import CorpusError, Problem

KINDS = ("help", "forum", "runbook")
ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
PASSAGE_HEADING = re.compile(r"^##\s+(?P<id>\S.*?)\s*\|\s*(?P<section>.*?)\s*$")
PASSAGE_KEYS = ("updated", "kind", "acl", "url", "superseded")
DOCUMENT_KEYS = ("title", "kind", "acl", "url", "updated", "superseded")
MAX_FILE_BYTES = 1_000_000


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


@dataclass(frozen=True)
class GoldenQuestion:
    id: str
    question: str
    answer_id: str
    paraphrase: bool
    line: int


@dataclass(frozen=True)
class TracerClaim:
    text: str
    source_id: str
    quote: str
    line: int


@dataclass(frozen=True)
class Tracer:
    id: str
    question: str
    answer_id: str
    rerank: dict[str, float]
    answer_text: str
    claims: tuple[TracerClaim, ...]
    line: int


@dataclass(frozen=True)
class LabQuestion:
    id: str
    question: str


@dataclass(frozen=True)
class ChunkingLab:
    title: str
    url: str
    questions: tuple[LabQuestion, ...]
    facts: dict[str, str]
    markdown: str


@dataclass(frozen=True)
class GlossaryEntry:
    term: str
    slug: str
    definition: str
    aliases: tuple[str, ...]


@dataclass(frozen=True)
class QuizQuestion:
    id: str
    section: str
    question: str
    choices: tuple[str, ...]
    answer: int
    explanation: str


@dataclass(frozen=True)
class Reader:
    role: str
    label: str
    groups: tuple[str, ...]


@dataclass(frozen=True)
class Injection:
    question: str
    ignored: str
    obeyed: str
    note: str


@dataclass(frozen=True)
class WorkedExample:
    query: str
    passages: tuple[tuple[str, str], ...]  # (id, text)


@dataclass(frozen=True)
class Rewrite:
    id: str
    kind: str
    original: str
    rewrites: tuple[str, ...]
    answer_id: str
    context: str
    line: int


@dataclass(frozen=True)
class Corpus:
    passages: tuple[Passage, ...]
    golden: tuple[GoldenQuestion, ...]
    tracers: tuple[Tracer, ...]
    chunking_lab: ChunkingLab
    glossary: tuple[GlossaryEntry, ...]
    quiz: tuple[QuizQuestion, ...]
    readers: tuple[Reader, ...]
    injection: Injection
    worked_example: WorkedExample
    rewrites: tuple[Rewrite, ...]
    root: str = ""
    by_id: dict[str, Passage] = field(default_factory=dict, compare=False, repr=False)

    @property
    def groups(self) -> set[str]:
        return {group for reader in self.readers for group in reader.groups}


class _Collector:
    """Problems found so far, with helpers that name the place."""

    def __init__(self, root: Path):
        self.root = root
        self.problems: list[Problem] = []
        self.invalid_yaml: set[Path] = set()
        # Ids of passages that exist but have a problem of their own: references to them
        # are not reported again as "no passage".
        self.broken_ids: set[str] = set()

    def name(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.root.parent))
        except ValueError:
            return str(path)

    def add(self, path: Path, line: int | None, item_id: str | None, field_name: str | None,
            message: str, fix: str) -> None:
        self.problems.append(Problem(self.name(path), line, item_id, field_name, message, fix))


# ---------------------------------------------------------------- reading files

def read_text(path: Path, out: _Collector) -> str | None:
    """The file as text with \\n line ends, or None (and a problem) when it can't be read."""
    if not path.is_file():
        out.add(path, None, None, None, "file is missing", f"create {path.name} (see corpus/README.md)")
        return None
    data = path.read_bytes()
    if len(data) > MAX_FILE_BYTES:
        out.add(path, None, None, None, f"file is {len(data):,} bytes, over the {MAX_FILE_BYTES:,}-byte limit",
                "split it into smaller documents; a help page is a few paragraphs")
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        out.add(path, line, None, None, f"is not UTF-8 (byte {data[error.start]:#04x} at offset {error.start})",
                "save the file as UTF-8")
        return None
    if "\0" in text:
        out.add(path, text[:text.index("\0")].count("\n") + 1, None, None, "contains a NUL character",
                "remove it; the corpus is plain text")
        return None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        out.add(path, None, None, None, "file is empty", "write its content (see corpus/README.md) or delete it")
        return None
    return text


class _LineLoader(yaml.SafeLoader):
    """A YAML loader that remembers the line of every mapping under the key '__line__'."""


def _construct_mapping(loader, node, deep=False):
    mapping = yaml.SafeLoader.construct_mapping(loader, node, deep=True)
    mapping["__line__"] = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
# Dates stay strings: the corpus validates them itself and the page shows them as written.
_LineLoader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _shift_lines(value, by: int):
    if isinstance(value, dict):
        if "__line__" in value:
            value["__line__"] += by
        for item in value.values():
            _shift_lines(item, by)
    elif isinstance(value, list):
        for item in value:
            _shift_lines(item, by)
    return value


def parse_yaml(text: str, path: Path, out: _Collector, start_line: int = 1):
    """The YAML value, with every mapping's '__line__' counted from the file's first line
    (`start_line` is where `text` starts in the file); None, and a problem, when invalid."""
    try:
        return _shift_lines(yaml.load(text, Loader=_LineLoader), start_line - 1)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + start_line if mark else None
        reason = getattr(error, "problem", None) or str(error).splitlines()[0]
        out.add(path, line, None, None, f"is not valid YAML: {reason}",
                "check the indentation and quote values that contain ': ' or start with a symbol")
        out.invalid_yaml.add(path)
        return None


def split_front_matter(text: str, path: Path, out: _Collector) -> tuple[dict | None, str, int]:
    """(front matter, body, line number where the body starts)."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        out.add(path, 1, None, None, "has no front matter", "start the file with a '---' line, the "
                "document's fields, and another '---' line")
        return None, text, 1
    for index in range(1, len(lines)):
        if lines[index].strip() == "---":
            meta = parse_yaml("\n".join(lines[1:index]), path, out, start_line=2)
            if meta is not None and not isinstance(meta, dict):
                out.add(path, 2, None, None, "front matter is not a set of 'key: value' lines",
                        "write one 'key: value' per line between the '---' lines")
                meta = None
            return meta, "\n".join(lines[index + 1:]), index + 2
    out.add(path, 1, None, None, "front matter is never closed", "add a '---' line after the document's fields")
    return None, "", 1


# ---------------------------------------------------------------- field checks

def check_date(value, path, line, item_id, field_name, out) -> str | None:
    text = str(value).strip() if value is not None else ""
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        out.add(path, line, item_id, field_name, f"is '{text}', not a date", "write it as YYYY-MM-DD")
        return None
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        out.add(path, line, item_id, field_name, f"'{text}' is not a real date", "use a date that exists, YYYY-MM-DD")
        return None
    return text


def check_url(value, path, line, item_id, out) -> str | None:
    text = str(value).strip() if value is not None else ""
    scheme = re.match(r"^([A-Za-z][A-Za-z0-9+.-]*):", text)
    if not text or any(ch.isspace() or ord(ch) < 32 for ch in text) or (
            scheme and scheme.group(1).lower() not in ("http", "https")) or text.startswith("//"):
        out.add(path, line, item_id, "url", f"'{text[:80]}' is not an http(s) or relative URL",
                "use https://… or a relative path such as /help/billing")
        return None
    return text


def check_id(value, path, line, field_name, out) -> str | None:
    text = str(value) if value is not None else ""
    if not ID_PATTERN.fullmatch(text) or len(text) > 40:
        out.add(path, line, text[:40] or None, field_name, f"'{text[:60]}' is not a valid id",
                "use lower-case letters, digits and single dashes, at most 40 characters (e.g. refund-new)")
        return None
    return text


def check_acl(value, path, line, item_id, groups, out) -> tuple[str, ...] | None:
    items = value if isinstance(value, list) else str(value or "").split(",")
    acl = tuple(str(item).strip() for item in items if str(item).strip())
    if not acl:
        out.add(path, line, item_id, "acl", "is empty", f"name at least one group: {', '.join(sorted(groups))}")
        return None
    unknown = [group for group in acl if group not in groups]
    if unknown:
        out.add(path, line, item_id, "acl", f"unknown group '{unknown[0]}'",
                f"use one of {', '.join(sorted(groups))}, or add the group to a reader in readers.yaml")
        return None
    return acl


def check_bool(value, path, line, item_id, field_name, out) -> bool | None:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "false"):
        return text == "true"
    out.add(path, line, item_id, field_name, f"is '{value}', not true or false", "write true or false")
    return None


def required_str(record: dict, key: str, path: Path, item_id, out: _Collector) -> str | None:
    value = record.get(key)
    line = record.get("__line__")
    if value is None or (isinstance(value, str) and not value.strip()):
        out.add(path, line, item_id, key, "is missing or empty", f"add '{key}:' with a value")
        return None
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        out.add(path, line, item_id, key, "must be text", f"write '{key}:' as a single line of text")
        return None
    return str(value).strip()


def yaml_mapping(path: Path, out: _Collector, fields: str) -> dict | None:
    """A YAML file holding one set of fields; None (and a problem, unless reported) otherwise."""
    text = read_text(path, out)
    data = parse_yaml(text, path, out) if text is not None else None
    if not isinstance(data, dict):
        if text is not None and path not in out.invalid_yaml:
            out.add(path, 1, None, None, "is not a set of fields", f"write {fields}")
        return None
    return data


def yaml_list(path: Path, out: _Collector, key: str | None = None) -> list[dict]:
    """A YAML file holding a list of mappings (at the top, or under `key`)."""
    text = read_text(path, out)
    if text is None:
        return []
    data = parse_yaml(text, path, out)
    if path in out.invalid_yaml:
        return []
    if key is not None and isinstance(data, dict):
        data = data.get(key)
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        where = f"'{key}:' " if key else ""
        out.add(path, 1, None, key, f"{where}is not a list of entries", "write each entry as '- field: value' lines")
        return []
    return data


# ---------------------------------------------------------------- the help center

def parse_document(path: Path, groups: set[str], out: _Collector) -> list[Passage]:
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


# ---------------------------------------------------------------- the other files

def load_readers(path: Path, out: _Collector) -> list[Reader]:
    data = yaml_mapping(path, out, "readers: with each role's label and groups")
    roles = data.get("readers") if data is not None else None
    if not isinstance(roles, dict) or not roles:
        if data is not None:
            out.add(path, 1, None, "readers", "is missing", "add 'readers:' with each role's label and groups")
        return []
    readers = []
    for role, spec in roles.items():
        if role == "__line__":
            continue
        line = spec.get("__line__") if isinstance(spec, dict) else None
        groups = spec.get("groups") if isinstance(spec, dict) else None
        if not isinstance(groups, list) or not groups or not all(isinstance(g, str) and g for g in groups):
            out.add(path, line, str(role), "groups", "is not a list of group names", "write groups: [public, …]")
            continue
        label = required_str(spec, "label", path, str(role), out)
        if label is not None:
            readers.append(Reader(str(role), label, tuple(groups)))
    return readers


def load_golden(path: Path, out: _Collector) -> list[GoldenQuestion]:
    golden = []
    for number, record in enumerate(yaml_list(path, out), start=1):
        line = record["__line__"]
        golden_id = f"g{number:02d}"
        question = required_str(record, "question", path, golden_id, out)
        answer = required_str(record, "answer", path, golden_id, out)
        paraphrase = check_bool(record.get("paraphrase", False), path, line, golden_id, "paraphrase", out)
        if None not in (question, answer, paraphrase):
            golden.append(GoldenQuestion(golden_id, question, answer, paraphrase, line))
    return golden


def load_tracers(path: Path, out: _Collector) -> list[Tracer]:
    tracers = []
    for record in yaml_list(path, out):
        line = record["__line__"]
        tracer_id = check_id(record.get("id"), path, line, "id", out)
        question = required_str(record, "question", path, tracer_id, out)
        answer = required_str(record, "answer", path, tracer_id, out)
        answer_text = required_str(record, "answer_text", path, tracer_id, out)
        rerank = record.get("rerank")
        scores: dict[str, float] = {}
        if not isinstance(rerank, dict) or len(set(rerank) - {"__line__"}) < 2:
            out.add(path, line, tracer_id, "rerank", "needs illustrative scores for at least two passages",
                    "write 'rerank:' with 'passage-id: score' lines, scores from 0 to 1")
        else:
            for pid, score in rerank.items():
                if pid == "__line__":
                    continue
                if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0 <= score <= 1:
                    out.add(path, rerank["__line__"], tracer_id, f"rerank.{pid}", f"score '{score}' is not in 0..1",
                            "write a number from 0 to 1")
                else:
                    scores[str(pid)] = float(score)
        claims = []
        raw_claims = record.get("claims")
        if not isinstance(raw_claims, list) or not raw_claims:
            out.add(path, line, tracer_id, "claims", "is missing", "list the answer's claims with text, source and quote")
            raw_claims = []
        for number, raw in enumerate(raw_claims, start=1):
            where = f"{tracer_id} claim {number}"
            if not isinstance(raw, dict):
                out.add(path, line, where, None, "is not a claim", "write text:, source: and quote: lines")
                continue
            values = [required_str(raw, key, path, where, out) for key in ("text", "source", "quote")]
            if None not in values:
                claims.append(TracerClaim(*values, line=raw["__line__"]))
        if None not in (tracer_id, question, answer, answer_text):
            tracers.append(Tracer(tracer_id, question, answer, scores, answer_text, tuple(claims), line))
    return tracers


def load_chunking_lab(path: Path, out: _Collector) -> ChunkingLab | None:
    text = read_text(path, out)
    if text is None:
        return None
    meta, body, body_line = split_front_matter(text, path, out)
    if meta is None:
        return None
    title = required_str(meta, "title", path, None, out)
    url = check_url(meta.get("url"), path, meta.get("__line__"), None, out)
    questions = []
    raw_questions = meta.get("questions") or []
    if not isinstance(raw_questions, list):
        out.add(path, meta.get("__line__"), None, "questions", "is not a list",
                "write each question as '- id: q1' then 'question: …' under 'questions:'")
        raw_questions = [None]  # reported: no "has no questions" on top
    for raw in raw_questions:
        if raw is None:
            continue
        if not isinstance(raw, dict):
            out.add(path, meta.get("__line__"), None, "questions", f"entry '{raw}' is not an id and a question",
                    "write each question as '- id: q1' then 'question: …'")
        else:
            qid = check_id(raw.get("id"), path, raw.get("__line__"), "questions.id", out)
            question = required_str(raw, "question", path, qid, out)
            if qid and question:
                questions.append(LabQuestion(qid, question))
    if not raw_questions and not questions:
        out.add(path, meta.get("__line__"), None, "questions", "has no questions",
                "list the lab's questions as '- id: q1' / 'question: …'")
    facts = meta.get("facts")
    if not isinstance(facts, dict) or not {"safety_net", "extra_days", "tempting"} <= set(facts):
        out.add(path, meta.get("__line__"), None, "facts", "needs safety_net, extra_days and tempting",
                "name the exact phrases the lab looks for in each chunk")
        facts = {}
    facts = {str(k): str(v) for k, v in facts.items() if k != "__line__"}
    for name, phrase in facts.items():
        if phrase.lower() not in " ".join(body.split()).lower():
            out.add(path, meta.get("__line__"), None, f"facts.{name}", f"phrase '{phrase}' is not in the page",
                    "copy the phrase exactly from the page text")
    if not re.search(r"^## ", body, re.MULTILINE):
        out.add(path, body_line, None, None, "the page has no '## ' sections", "write the page as '## ' sections")
    if title is None or url is None:
        return None
    return ChunkingLab(title, url, tuple(questions), facts, body.strip() + "\n")


def load_glossary(path: Path, out: _Collector) -> list[GlossaryEntry]:
    entries = []
    for record in yaml_list(path, out):
        term = required_str(record, "term", path, None, out)
        slug = check_id(record.get("slug"), path, record["__line__"], "slug", out)
        definition = required_str(record, "definition", path, slug, out)
        aliases = record.get("aliases") or []
        if not isinstance(aliases, list):
            out.add(path, record["__line__"], slug, "aliases", "is not a list", "write aliases: [first, second]")
            aliases = []
        if None not in (term, slug, definition):
            entries.append(GlossaryEntry(term, slug, definition, tuple(str(a) for a in aliases)))
    return entries


QUIZ_SECTIONS = ("chunking", "dense-sparse", "hybrid", "citations", "failures", "staff")


def load_quiz(path: Path, out: _Collector) -> list[QuizQuestion]:
    quiz = []
    for record in yaml_list(path, out):
        line = record["__line__"]
        quiz_id = check_id(record.get("id"), path, line, "id", out)
        section = required_str(record, "section", path, quiz_id, out)
        if section is not None and section not in QUIZ_SECTIONS:
            out.add(path, line, quiz_id, "section", f"is '{section}'", f"use one of {', '.join(QUIZ_SECTIONS)}")
            section = None
        question = required_str(record, "question", path, quiz_id, out)
        explanation = required_str(record, "explanation", path, quiz_id, out)
        choices = record.get("choices")
        answer = record.get("answer")
        if not isinstance(choices, list) or len(choices) < 2:
            out.add(path, line, quiz_id, "choices", "needs at least two choices", "list them under 'choices:'")
            continue
        if isinstance(answer, bool) or not isinstance(answer, int) or not 0 <= answer < len(choices):
            out.add(path, line, quiz_id, "answer", f"'{answer}' is not the index of a choice",
                    f"write the 0-based index of the right choice, 0 to {len(choices) - 1}")
            continue
        if None not in (quiz_id, section, question, explanation):
            quiz.append(QuizQuestion(quiz_id, section, question, tuple(map(str, choices)), answer, explanation))
    return quiz


def load_injection(path: Path, out: _Collector) -> Injection | None:
    data = yaml_mapping(path, out, "question:, ignored:, obeyed: and note:")
    if data is None:
        return None
    values = [required_str(data, key, path, None, out) for key in ("question", "ignored", "obeyed", "note")]
    return None if None in values else Injection(*values)


def load_worked_example(path: Path, out: _Collector) -> WorkedExample | None:
    data = yaml_mapping(path, out, "query: and passages:")
    if data is None:
        return None
    query = required_str(data, "query", path, None, out)
    raw = data.get("passages")
    if not isinstance(raw, list) or len(raw) < 2:
        out.add(path, data["__line__"], None, "passages", "needs at least two passages", "list them with id: and text:")
        return None
    passages = []
    for record in raw:
        if not isinstance(record, dict):
            out.add(path, data["__line__"], None, "passages", "an entry is not id: and text:", "write each as - id: … text: …")
            continue
        pid = required_str(record, "id", path, None, out)
        passage_text = required_str(record, "text", path, pid, out)
        if pid and passage_text:
            passages.append((pid, passage_text))
    return WorkedExample(query, tuple(passages)) if query else None


REWRITE_KINDS = ("follow-up", "expansion", "multi-query")


def load_rewrites(path: Path, out: _Collector) -> list[Rewrite]:
    rewrites = []
    for record in yaml_list(path, out):
        line = record["__line__"]
        rewrite_id = check_id(record.get("id"), path, line, "id", out)
        kind = required_str(record, "kind", path, rewrite_id, out)
        if kind is not None and kind not in REWRITE_KINDS:
            out.add(path, line, rewrite_id, "kind", f"is '{kind}'", f"use one of {', '.join(REWRITE_KINDS)}")
            kind = None
        original = required_str(record, "original", path, rewrite_id, out)
        answer = required_str(record, "answer", path, rewrite_id, out)
        raw = record.get("rewrites")
        if not isinstance(raw, list) or not raw or not all(isinstance(r, str) and r.strip() for r in raw):
            out.add(path, line, rewrite_id, "rewrites", "is not a list of questions", "write rewrites: [first, …]")
            continue
        context = str(record.get("context") or "")
        if None not in (rewrite_id, kind, original, answer):
            rewrites.append(Rewrite(rewrite_id, kind, original, tuple(raw), answer, context, line))
    return rewrites


# ---------------------------------------------------------------- the whole corpus

def load_corpus(path: str | Path) -> Corpus:
    """Everything under `path`, parsed and validated; raises CorpusError listing all problems."""
    from engine.validate import cross_check  # checks that span files

    root = Path(path).resolve()
    out = _Collector(root)
    if not root.is_dir():
        raise CorpusError([Problem(str(path), None, None, None, "is not a folder", "pass the corpus folder, e.g. corpus/")])
    readers = load_readers(root / "readers.yaml", out)
    groups = {group for reader in readers for group in reader.groups}
    documents = sorted((root / "help").glob("*.md")) if (root / "help").is_dir() else []
    if not documents:
        out.add(root / "help", None, None, None, "has no documents", "add help/<document>.md files")
    passages = [p for doc in documents for p in parse_document(doc, groups, out)]
    corpus = Corpus(
        passages=tuple(passages),
        golden=tuple(load_golden(root / "golden.yaml", out)),
        tracers=tuple(load_tracers(root / "tracers.yaml", out)),
        chunking_lab=load_chunking_lab(root / "chunking-lab.md", out),
        glossary=tuple(load_glossary(root / "glossary.yaml", out)),
        quiz=tuple(load_quiz(root / "quiz.yaml", out)),
        readers=tuple(readers),
        injection=load_injection(root / "injection.yaml", out),
        worked_example=load_worked_example(root / "worked-example.yaml", out),
        rewrites=tuple(load_rewrites(root / "rewrites.yaml", out)),
        root=str(root),
        by_id={p.id: p for p in passages},
    )
    cross_check(corpus, root, out)
    if out.problems:
        raise CorpusError(out.problems)
    return corpus
