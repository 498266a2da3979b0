"""How Lucene stores a passage's length: in one byte, exact for short passages and rounded down
beyond, so Elasticsearch's and OpenSearch's BM25 see a slightly different length than this
page's engine does. A port of Lucene's SmallFloat.intToByte4 and byte4ToInt (the encoding
BM25Similarity applies to a field's length), run by the build so the prose's figures for it come
from the arithmetic, not from memory.

    a length below 24 is the byte itself;
    from 24 on, length - 24 is kept as a 4-bit float: 3 bits of mantissa under an implicit
    leading 1, and an exponent, so each power of two is cut into 8 steps.

Example: [stored_length(n) for n in (23, 40, 41, 42, 43, 57)] -> [23, 40, 40, 42, 42, 56]
"""

INT_MAX = 2 ** 31 - 1


def long_to_int4(value: int) -> int:
    """A non-negative integer as a 4-bit float: 3 bits of mantissa, the rest exponent.

    Example: [long_to_int4(v) for v in (7, 8, 16, 17)] -> [7, 8, 16, 16]
    """
    if value < 0:
        raise ValueError(f"only non-negative values can be encoded, got {value}")
    bits = value.bit_length()
    if bits < 4:
        return value  # small values are kept as they are
    shift = bits - 4
    return ((value >> shift) & 0x07) | ((shift + 1) << 3)


def int4_to_long(encoded: int) -> int:
    """The value a 4-bit float stands for (the rounded-down original)."""
    mantissa, shift = encoded & 0x07, (encoded >> 3) - 1
    return mantissa if shift == -1 else (mantissa | 0x08) << shift


MAX_INT4 = long_to_int4(INT_MAX)
FREE_VALUES = 255 - MAX_INT4  # lengths below this are stored as themselves


def int_to_byte4(length: int) -> int:
    """The byte Lucene writes for a field of `length` terms (0..255)."""
    if length < 0:
        raise ValueError(f"a length is never negative, got {length}")
    return length if length < FREE_VALUES else FREE_VALUES + long_to_int4(length - FREE_VALUES)


def byte4_to_int(byte: int) -> int:
    """The length Lucene reads back from that byte."""
    return byte if byte < FREE_VALUES else FREE_VALUES + int4_to_long(byte - FREE_VALUES)


def stored_length(length: int) -> int:
    """The length BM25 sees in Lucene once `length` has gone through the byte."""
    return byte4_to_int(int_to_byte4(length))


def exact_up_to() -> int:
    """The longest length before the first that the byte rounds: every length from 0 to this one
    comes back as it went in.

    Example: exact_up_to() -> 40
    """
    length = 0
    while stored_length(length + 1) == length + 1:
        length += 1
    return length


def step_at(length: int) -> int:
    """How far apart the lengths Lucene can store are around `length`: the width of the step
    that holds it.

    Example: [step_at(n) for n in (20, 41, 300)] -> [1, 2, 32]
    """
    low = stored_length(length)
    high = length + 1
    while stored_length(high) == low:
        high += 1
    return high - low


LONG_PAGE = 300  # terms: a whole help page cut as one chunk, to show how wide the steps grow


def norms_data(lengths: list[int]) -> dict:
    """What the prose says of Lucene's lengths, for the help center's passage lengths (in terms,
    as this page's tokenizer counts them): the exact range, how many passages fall past it and
    are read shorter, by how much at most, and lengths the byte makes equal."""
    exact = exact_up_to()
    rounded = [n for n in lengths if stored_length(n) != n]
    merged: dict[int, set[int]] = {}
    for n in lengths:
        merged.setdefault(stored_length(n), set()).add(n)
    return {
        "free_values": FREE_VALUES,
        "exact_up_to": exact,
        "first_rounded": exact + 1,
        "first_rounded_reads": stored_length(exact + 1),
        "passages": len(lengths),
        "longest": max(lengths, default=0),
        "longest_reads": stored_length(max(lengths, default=0)),
        "rounded": len(rounded),
        "most_lost": max((n - stored_length(n) for n in lengths), default=0),
        "merged": [sorted(group) for _, group in sorted(merged.items()) if len(group) > 1],
        "long_page": {"length": LONG_PAGE, "reads": stored_length(LONG_PAGE), "step": step_at(LONG_PAGE)},
    }
