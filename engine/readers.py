"""The readers of the permission demo: each role with the ACL groups it holds.

Example: load_readers(Path("corpus/readers.yaml"), log)[0] -> Reader('customer', 'Customer', ('public',))
"""

from dataclasses import dataclass
from pathlib import Path

from engine.corpus_files import yaml_mapping
from engine.fields import required_str
from engine.problems import ProblemLog


@dataclass(frozen=True)
class Reader:
    role: str
    label: str
    groups: tuple[str, ...]


def load_readers(path: Path, out: ProblemLog) -> list[Reader]:
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
