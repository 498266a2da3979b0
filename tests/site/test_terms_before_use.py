"""Every term is defined where it first appears: for each glossary entry, the prose links it
(a.term, whose popover gives the definition) at or before the first place it is used. Headings
and deep dives' summaries name a topic and are not counted as a use; neither are code, labs,
formulas, figures' SVG or text only screen readers hear. A term the prose never uses has no
place in the glossary."""

import re

from selectolax.lexbor import LexborHTMLParser

LEFT_OUT = "script, style, template, svg, math, pre, code, section.lab, h1, h2, h3, h4, summary, .visually-hidden"


def prose_with_links(html: str, slugs: list[str]) -> str:
    """The page's main text in order, each glossary link marked ⟦n⟧ (n: the entry's index)."""
    page = LexborHTMLParser(html)
    main = page.css_first("main")
    page.css_first("#glossary").decompose()
    for node in main.css(LEFT_OUT):
        node.decompose()
    for link in main.css("a.term"):
        link.insert_before(f"⟦{slugs.index(link.attributes['href'].removeprefix('#term-'))}⟧")
    return " ".join(main.text(separator=" ").split())


def first_uses(text: str, glossary: list[dict]) -> dict[str, tuple[int | None, int | None]]:
    """slug -> (position of its first link, position of its first use in words)."""
    found = {}
    for number, entry in enumerate(glossary):
        names = [entry["term"], *entry["aliases"]]
        uses = [m.start() for name in names
                for m in re.finditer(r"(?<![\w⟦-])" + re.escape(name) + r"(?![\w⟧-])", text, re.I)]
        link = text.find(f"⟦{number}⟧")
        found[entry["slug"]] = (None if link < 0 else link, min(uses) if uses else None)
    return found


def test_every_term_is_linked_where_it_first_appears(dist_dir, data):
    glossary = data["glossary"]
    text = prose_with_links((dist_dir / "index.html").read_text("utf-8"), [g["slug"] for g in glossary])
    late = []
    for slug, (link, use) in first_uses(text, glossary).items():
        if use is None and link is None:
            late.append(f"{slug}: in the glossary, but the prose never uses it")
        elif link is None or (use is not None and use < link):
            late.append(f"{slug}: first used before it is linked: …{text[max(0, use - 60):use + 40]}…")
    assert not late, "terms used before their definition (write [[term]] at the first use):\n  " + "\n  ".join(late)


def test_the_check_sees_a_term_used_before_its_link():
    glossary = [{"slug": "bm25", "term": "BM25", "aliases": []}, {"slug": "rrf", "term": "RRF", "aliases": ["fusion"]}]
    text = "BM25 ranks words. ⟦0⟧BM25 again. ⟦1⟧RRF fuses; fusion is RRF."
    assert first_uses(text, glossary) == {"bm25": (18, 0), "rrf": (33, 36)}
