"""A short key for a text: FNV-1a (32 bits) of its UTF-16 code units, written in base 36.

The chunking lab ships each chunk's scores under its text's key, and the browser computes the
same key for every chunk it cuts, so it finds a chunk's scores without shipping the text; the
documents a reader brings will be keyed the same way. Code units, not code points or UTF-8
bytes, because that is what a JavaScript string is made of: an emoji counts as its two halves,
and a lone half (which a JavaScript string may hold) is hashed as it is.

FNV-1a: the offset basis 0x811C9DC5; for each unit, XOR it in, then multiply by the prime
0x01000193, modulo 2**32 (Fowler, Noll and Vo; IETF draft-eastlake-fnv).

Twin: site_src/engine/text_key.js (textKey), proven equal by tests/twins/.

Example: [text_key("a"), text_key("")] -> ['1r9wi7g', 'ztntfp']
"""

import sys

# UTF-16 code units as memoryview's "H" reads them (the machine's own byte order);
# surrogatepass keeps a lone surrogate as the code unit it is.
_UTF16_HERE = "utf-16-le" if sys.byteorder == "little" else "utf-16-be"
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"


def text_key(text: str) -> str:
    value = 0x811C9DC5
    for unit in memoryview(text.encode(_UTF16_HERE, "surrogatepass")).cast("H"):
        value = ((value ^ unit) * 0x01000193) & 0xFFFFFFFF
    digits = ""
    while True:
        value, digit = divmod(value, 36)
        digits = _DIGITS[digit] + digits
        if value == 0:
            return digits
