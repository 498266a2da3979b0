"""The corrections a senior search engineer asked for (issue 26), on the built page: each wrong
or overreaching sentence is gone from the section it stood in, and the sentence that replaced it
is there. A revert of any one of them fails here, naming the section and the sentence."""

import html
import re

import pytest

# (section slug, old sentence that must not come back, the corrected wording that must stay)
CORRECTIONS = [
    ("short-version", "the generation half is the easy part", "But each of them starts from what the search found"),
    ("why-not-paste", "Models use the start and the end of a long prompt better than the middle",
     "2023"),
    ("pipeline", "one four-digit code looks much like another", "this small embedding model"),
    ("chunking", "never learned from inputs so long", "512"),
    ("dense-sparse", "exact up to 23 terms", "inside the exact range"),
    ("every-stage", "no reranker can know which of two policies is in force",
     "A reranker that reads the text alone cannot tell which of two policies is in force"),
    ("failures", "above text that arrives from tools and documents",
     "pasted into the user message, as here, they carry the user's authority"),
    ("measuring", "dense misses the error codes", "Dense misses two of the four error codes"),
    ("measuring", "What the table supports", "built to show where dense search helps"),
    ("cheat-sheet", "of each), or scaled scores", "over a few dozen candidates from each list"),
]

# The caveats the page lacked, each in the section where it belongs.
CAVEATS = [
    ("dense-sparse", "The dense search here is exact."),
    ("dense-sparse", "One small model stands for \"dense\"."),
    ("dense-sparse", "Sparse is not only BM25."),
    ("dense-sparse", "SPLADE, Elastic's ELSER, OpenSearch's neural sparse search"),
    ("dense-sparse", "One field, body text only."),
    ("measuring", "a staff-only passage found for a customer is a leak, not a hit"),
    ("measuring", "This BM25 has no fuzzy matching"),
]


@pytest.fixture(scope="module")
def section_text(dist_dir):
    page = (dist_dir / "index.html").read_text("utf-8")
    starts = [(m.start(), m.group(1)) for m in re.finditer(r'<section class="chapter" id="([a-z0-9-]+)"', page)]
    texts = {}
    for (start, slug), (end, _) in zip(starts, starts[1:] + [(len(page), "")]):
        plain = html.unescape(re.sub(r"<[^>]+>", " ", page[start:end]))
        plain = plain.translate(str.maketrans("\u2018\u2019\u201c\u201d", "''\"\""))
        texts[slug] = re.sub(r"\s+", " ", plain).replace(" .", ".").replace(" ,", ",")
    return texts


@pytest.mark.parametrize("slug, old, new", CORRECTIONS, ids=[f"{s}:{o[:30]}" for s, o, _ in CORRECTIONS])
def test_a_corrected_sentence_stays_corrected(section_text, slug, old, new):
    assert slug in section_text, f"no section #{slug} on the built page (sections: {', '.join(section_text)})"
    text = section_text[slug]
    assert old not in text, f"section #{slug} says again what was corrected: {old!r}"
    assert new in text, f"section #{slug} lost its corrected wording {new!r}"


@pytest.mark.parametrize("slug, caveat", CAVEATS, ids=[c[:30] for _, c in CAVEATS])
def test_a_caveat_is_where_it_belongs(section_text, slug, caveat):
    assert caveat in section_text.get(slug, ""), f"section #{slug} lost the caveat {caveat!r}"
