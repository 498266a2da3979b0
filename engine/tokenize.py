"""Split text into search terms the way BM25 and the page's live explorer both do.

Lower-case, then keep each run of letters or digits; everything else separates terms.
No stemming and no stop words: "files" and "file" stay different terms, on purpose.

Twin: site_src/engine/tokenize.js (tokenize), proven equal by tests/twins/ on every code point
Unicode 14 assigns.

Example: tokenize("QB-4021: File too large") -> ['qb', '4021', 'file', 'too', 'large']
"""

import re

# A letter or digit in any script (Unicode categories L and N), the same set as the
# JavaScript twin's /[\p{L}\p{N}]+/gu.
_TERM = re.compile(r"[^\W_]+")


def tokenize(text: str) -> list[str]:
    return _TERM.findall(text.lower())
