#!/usr/bin/env python3
"""Make a large synthetic help center for the scale benchmark: the real Quillbox corpus plus
generated passages, up to a given total (2,000 by default).

    python scripts/synthetic_corpus.py OUT_DIR [--passages 2000] [--seed 7]

The real corpus is copied as it is (its golden set, tracers, labs and ids keep working), and
the rest are help pages written by a seeded generator: plausible Quillbox-style paragraphs of
25 to 60 words on features, settings, plans, limits and error codes, so BM25 and the
embedding model see text shaped like the real thing. Same arguments, same bytes.

Example: python scripts/synthetic_corpus.py /tmp/quillbox-2000 && python build.py --corpus /tmp/quillbox-2000 --claims warn
"""

import argparse
import random
import re
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PASSAGES_PER_DOCUMENT = 50

AREAS = {
    "calendar": ["calendar view", "event note", "due date", "reminder", "weekly agenda"],
    "templates": ["template", "template gallery", "placeholder", "snippet", "starter page"],
    "tags": ["tag", "tag filter", "colour label", "smart folder", "saved search"],
    "comments": ["comment thread", "mention", "reaction", "resolved comment", "review request"],
    "search": ["search bar", "search filter", "recent search", "search index", "quick open"],
    "tables": ["table block", "column type", "sort order", "formula cell", "row height"],
    "integrations": ["Slack integration", "calendar integration", "Zapier connection", "email forwarding", "web clipper"],
    "security": ["audit log", "session timeout", "device approval", "IP allow list", "data region"],
    "publishing": ["public link", "published page", "custom domain", "page password", "link preview"],
    "storage": ["storage quota", "attachment folder", "file preview", "version history", "cold storage"],
    "notifications": ["digest email", "push alert", "quiet hours", "notification rule", "badge count"],
    "accessibility": ["screen reader mode", "high contrast theme", "keyboard shortcut", "text size", "reduced motion"],
    "automation": ["automation rule", "scheduled action", "trigger", "recurring task", "webhook step"],
    "localisation": ["interface language", "date format", "time zone", "spell checker", "right-to-left layout"],
    "admin": ["admin console", "member report", "usage export", "billing contact", "seat count"],
}
VERBS = ["open", "turn on", "turn off", "rename", "move", "share", "pin", "archive", "duplicate", "lock",
         "restore", "hide", "sort", "filter", "schedule", "copy", "link", "review", "approve", "limit"]
PLACES = ["Settings, General", "Settings, Workspace", "Settings, Security", "Settings, Notifications",
          "the sidebar", "the note menu", "the toolbar", "the command palette", "the admin console",
          "the mobile app's profile tab", "the share dialog", "the page header"]
PLANS = ["Free", "Team", "Business"]
UNITS = [("items", 10, 500), ("days", 7, 365), ("members", 5, 200), ("MB", 10, 900),
         ("rules", 3, 50), ("minutes", 5, 120), ("links", 10, 1000), ("versions", 10, 400)]
OPENERS = [
    "To {verb} a {thing}, go to {place} and choose {Thing}.",
    "You can {verb} any {thing} from {place}.",
    "A {thing} lets a workspace keep its {other} in one place.",
    "Owners and admins can {verb} the {thing} for everyone in {place}.",
    "The {thing} works the same on the web, on desktop and in the mobile apps.",
    "When you {verb} a {thing}, every member who can see it is told within a minute.",
]
MIDDLES = [
    "On the {plan} plan a workspace can have up to {n} {unit} for its {thing}.",
    "Changes to a {thing} sync to every device, and offline edits are sent when the connection returns.",
    "Only people with edit access can {verb} a {thing}; readers see it but cannot change it.",
    "The {other} follows the {thing}, so moving one also moves the other.",
    "If the {thing} fails to load, error QB-{code} appears and the app retries after a few seconds.",
    "A deleted {thing} stays in the Trash for {n} days before it is removed for good.",
    "Exports include the {thing} as plain text, and the {other} as a separate file.",
    "Admins see every {thing} of the workspace in the admin console, with who changed it last.",
]
CLOSERS = [
    "Keyboard users can reach it with the command palette.",
    "The setting is saved per workspace, not per member.",
    "Business workspaces can also require approval before a change takes effect.",
    "The history of each change is kept, so an owner can undo it later.",
    "Nothing is sent to people outside the workspace unless you share a public link.",
    "Team and Business plans raise the limit; the Free plan keeps the default.",
]


def existing_passages(corpus: Path) -> int:
    return sum(len(re.findall(r"^## [a-z0-9-]+ \|", p.read_text("utf-8"), re.M))
               for p in sorted((corpus / "help").glob("*.md")))


def paragraph(rng: random.Random, area: str) -> tuple[str, str]:
    """(section heading, text) for one generated passage in `area`."""
    things = AREAS[area]
    thing, other = rng.sample(things, 2)
    unit, low, high = rng.choice(UNITS)
    fields = {"thing": thing, "Thing": thing[0].upper() + thing[1:], "other": other,
              "verb": rng.choice(VERBS), "place": rng.choice(PLACES), "plan": rng.choice(PLANS),
              "n": rng.randrange(low, high), "unit": unit, "code": rng.randrange(5000, 5999)}
    sentences = [rng.choice(OPENERS)] + rng.sample(MIDDLES, rng.randint(1, 3)) + [rng.choice(CLOSERS)]
    text = " ".join(s.format(**fields) for s in sentences)
    heading = f"{fields['verb'].capitalize()} a {thing}"
    return heading, text


def generate(out_dir: Path, passages: int = 2000, seed: int = 7, base: Path = ROOT / "corpus") -> int:
    """Write the corpus to `out_dir` (replacing it); returns how many passages were generated."""
    out_dir = Path(out_dir)
    if out_dir.exists():
        shutil.rmtree(out_dir)
    shutil.copytree(base, out_dir)
    wanted = passages - existing_passages(base)
    if wanted < 0:
        raise SystemExit(f"the real corpus already has more than {passages} passages")
    rng = random.Random(seed)
    areas = sorted(AREAS)
    seen: set[str] = set()
    number = 0
    for document in range(0, wanted, PASSAGES_PER_DOCUMENT):
        area = areas[(document // PASSAGES_PER_DOCUMENT) % len(areas)]
        lines = ["---", f"title: {area.capitalize()} (synthetic)", "kind: help", "acl: public",
                 f"url: https://help.quillbox.example/synthetic/{area}-{document // PASSAGES_PER_DOCUMENT + 1}",
                 f"updated: 2026-0{1 + rng.randrange(9)}-1{rng.randrange(10)}", "---", ""]
        for _ in range(min(PASSAGES_PER_DOCUMENT, wanted - document)):
            heading, text = paragraph(rng, area)
            while text in seen:
                heading, text = paragraph(rng, area)
            seen.add(text)
            number += 1
            lines += [f"## syn-{number:04d} | {heading}", "", text, ""]
        name = f"synthetic-{document // PASSAGES_PER_DOCUMENT + 1:03d}.md"
        (out_dir / "help" / name).write_text("\n".join(lines), "utf-8")
    return number


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path, help="folder to write (replaced if it exists)")
    parser.add_argument("--passages", type=int, default=2000, help="total passages, real ones included")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    made = generate(args.out, args.passages, args.seed)
    print(f"{args.out}: {made} generated passages + the real corpus = {args.passages} passages")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
