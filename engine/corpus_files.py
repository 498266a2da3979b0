"""Reading corpus files: text checked for size, encoding and NUL bytes; YAML whose every
mapping remembers its line; Markdown front matter. Each reader adds a problem to the log
instead of raising, so one build reports every problem in every file.

Example: parse_yaml("a: 1", Path("corpus/x.yaml"), log) -> {"a": 1, "__line__": 1}
"""

from pathlib import Path

import yaml

from engine.problems import ProblemLog

MAX_FILE_BYTES = 1_000_000


def read_text(path: Path, out: ProblemLog) -> str | None:
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


class _FastLineLoader(getattr(yaml, "CSafeLoader", _LineLoader)):
    """The same on libyaml's parser, where PyYAML has it (its wheels do): the same values and
    lines, read about five times faster (the corpus's YAML was a fifth of a build with nothing
    new). Its error messages are worded otherwise, so a file it refuses is read again by
    _LineLoader, whose words the corpus's errors quote."""


def _construct_mapping(loader, node, deep=False):
    mapping = yaml.SafeLoader.construct_mapping(loader, node, deep=True)
    mapping["__line__"] = node.start_mark.line + 1
    return mapping


# Dates stay strings: the corpus validates them itself and the page shows them as written.
_NO_TIMESTAMPS = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
for _loader in {_LineLoader, _FastLineLoader}:
    _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
    _loader.yaml_implicit_resolvers = _NO_TIMESTAMPS


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


def parse_yaml(text: str, path: Path, out: ProblemLog, start_line: int = 1):
    """The YAML value, with every mapping's '__line__' counted from the file's first line
    (`start_line` is where `text` starts in the file); None, and a problem, when invalid."""
    try:
        try:
            return _shift_lines(yaml.load(text, Loader=_FastLineLoader), start_line - 1)
        except yaml.YAMLError:
            return _shift_lines(yaml.load(text, Loader=_LineLoader), start_line - 1)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = mark.line + start_line if mark else None
        reason = getattr(error, "problem", None) or str(error).splitlines()[0]
        out.add(path, line, None, None, f"is not valid YAML: {reason}",
                "check the indentation and quote values that contain ': ' or start with a symbol")
        out.invalid_yaml.add(path)
        return None


def split_front_matter(text: str, path: Path, out: ProblemLog) -> tuple[dict | None, str, int]:
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


def yaml_mapping(path: Path, out: ProblemLog, fields: str) -> dict | None:
    """A YAML file holding one set of fields; None (and a problem, unless reported) otherwise."""
    text = read_text(path, out)
    data = parse_yaml(text, path, out) if text is not None else None
    if not isinstance(data, dict):
        if text is not None and path not in out.invalid_yaml:
            out.add(path, 1, None, None, "is not a set of fields", f"write {fields}")
        return None
    return data


def yaml_list(path: Path, out: ProblemLog, key: str | None = None) -> list[dict]:
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
