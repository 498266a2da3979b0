"""Checks of single fields in the corpus files: dates, URLs, ids, ACL groups, booleans and
required text. Each returns the clean value, or None after adding a problem that names the
place and the fix.

Example: check_date("2026-6-15", Path("corpus/help/billing.md"), 12, "refund-new", "updated", log) -> None
(and the log now holds "corpus/help/billing.md:12: refund-new: updated: is '2026-6-15', not a date
(fix: write it as YYYY-MM-DD)")
"""

import datetime
import re
from pathlib import Path

from engine.problems import ProblemLog

ID_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


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


def required_str(record: dict, key: str, path: Path, item_id, out: ProblemLog) -> str | None:
    value = record.get(key)
    line = record.get("__line__")
    if value is None or (isinstance(value, str) and not value.strip()):
        out.add(path, line, item_id, key, "is missing or empty", f"add '{key}:' with a value")
        return None
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        out.add(path, line, item_id, key, "must be text", f"write '{key}:' as a single line of text")
        return None
    return str(value).strip()


def required_choice(record: dict, key: str, choices, path: Path, item_id, out: ProblemLog) -> str | None:
    """required_str, and one of `choices`."""
    value = required_str(record, key, path, item_id, out)
    if value is not None and value not in choices:
        out.add(path, record.get("__line__"), item_id, key, f"is '{value}'", f"use one of {', '.join(choices)}")
        return None
    return value
