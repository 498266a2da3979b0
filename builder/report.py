"""The report after a build: what was embedded again, which samples ran, and which headline
figures moved since the previous build, so an author sees what an edit did.

Example line: "dense recall@1: 21/30 -> 20/30"
"""

import json
from pathlib import Path

from builder.search import hits_text

MAX_LINES = 20


def headline_figures(data: dict) -> dict[str, str]:
    """Name -> figure as shown, for the numbers an author most wants to watch."""
    figures = {}
    for retriever, by_k in data["recall"].items():
        for k, entry in by_k.items():
            figures[f"{retriever} recall@{k}"] = f"{hits_text(entry)}/{entry['of']}"
    texts = {q["id"]: q["text"] for q in data["questions"]}
    for qid, ranks in data["ranks"].items():
        for retriever, place in ranks.items():
            shown = "not found" if not place else str(place[0]) if place[0] == place[1] else f"{place[0]}-{place[1]} (a tie)"
            figures[f"{qid} ({texts[qid][:40]}): {retriever} rank"] = shown
    for tracer in data["tracers"]:
        run = data["runs"][tracer["id"]]
        for retriever, ranking in run.items():
            ids = [pid for pid, _ in ranking]
            rank = ids.index(tracer["answer"]) + 1 if tracer["answer"] in ids else None
            figures[f"{tracer['id']} question: {retriever} rank"] = str(rank) if rank else "not found"
            figures[f"{tracer['id']} question: {retriever} first"] = ids[0] if ids else "nothing"
    figures["help center tokens"] = str(data["tokens"]["help_center"]["o200k"])
    return figures


def previous_data(out_dir: Path) -> dict | None:
    path = out_dir / "data" / "rag.json"
    try:
        return json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None


def changed_figures(old: dict | None, new: dict) -> list[str]:
    if old is None or old.get("schema") != new.get("schema"):
        return []
    before, after = headline_figures(old), headline_figures(new)
    return [f"{name}: {before.get(name, '-')} -> {value}" for name, value in after.items()
            if before.get(name) != value]


def build_report(embedded: list[str], samples_run: list[str], changes: list[str], first_build: bool) -> str:
    lines = ["Report:"]
    lines.append(f"  embedded again: {', '.join(embedded[:8]) + (' …' if len(embedded) > 8 else '') if embedded else 'nothing'}")
    lines.append(f"  samples run: {', '.join(samples_run) if samples_run else 'none (all cached)'}")
    if first_build:
        lines.append("  figures: first build here, nothing to compare with")
    elif not changes:
        lines.append("  figures: no headline figure changed")
    else:
        lines.append(f"  figures that changed ({len(changes)}):")
        lines += [f"    {change}" for change in changes[:MAX_LINES]]
        if len(changes) > MAX_LINES:
            lines.append(f"    … and {len(changes) - MAX_LINES} more")
    return "\n".join(lines)
