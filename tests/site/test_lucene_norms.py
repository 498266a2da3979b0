"""Lucene's one-byte passage lengths (builder/lucene_norms.py, a port of SmallFloat.intToByte4
and byte4ToInt), checked by hand-worked arithmetic, and the sentence of section 5 that states
them, which once typed an exact range of 23 terms that the build could not check (the byte
holds 0 to 40 exactly)."""

import re

from builder import lucene_norms
from builder.lucene_norms import byte4_to_int, exact_up_to, int_to_byte4, norms_data, step_at, stored_length


def test_short_lengths_are_their_own_byte():
    # 255 - longToInt4(2**31 - 1): 2**31 - 1 has 31 bits, shift 27, mantissa 0b111, exponent 28:
    # 7 | 28 << 3 = 231, so 24 values are left free.
    assert lucene_norms.MAX_INT4 == 7 | (28 << 3) == 231
    assert lucene_norms.FREE_VALUES == 24
    assert [int_to_byte4(n) for n in range(24)] == list(range(24))


def test_the_first_rounded_length_worked_by_hand():
    # 40 - 24 = 16 = 0b10000: 5 bits, shift 1, mantissa (16 >> 1) & 7 = 0, exponent 2: byte 24 + 16 = 40,
    # read back as (0 | 8) << 1 = 16, + 24 = 40: exact.
    assert int_to_byte4(40) == 24 + (0 | (2 << 3)) and stored_length(40) == 40
    # 41 - 24 = 17 = 0b10001: the same byte, so 41 is read as 40.
    assert int_to_byte4(41) == int_to_byte4(40) and stored_length(41) == 40
    # 42 - 24 = 18: mantissa (18 >> 1) & 7 = 1, read back as (1 | 8) << 1 = 18: exact again.
    assert stored_length(42) == 42 and stored_length(43) == 42
    assert exact_up_to() == 40


def test_lengths_only_ever_round_down_and_the_steps_widen():
    stored = [stored_length(n) for n in range(2000)]
    assert all(s <= n for n, s in enumerate(stored)) and stored == sorted(stored)
    # 1000 - 24 = 976 has 10 bits: shift 6, so its step is 2**6 = 64 terms wide; 300 - 24 = 276, 9 bits: 32.
    assert [step_at(n) for n in (10, 41, 60, 300, 1000)] == [1, 2, 4, 32, 64]
    assert byte4_to_int(int_to_byte4(lucene_norms.INT_MAX)) <= lucene_norms.INT_MAX


def test_the_build_counts_the_help_centers_lengths_past_the_exact_range():
    found = norms_data([10, 40, 41, 43, 44, 45])
    assert (found["exact_up_to"], found["first_rounded"], found["first_rounded_reads"]) == (40, 41, 40)
    assert found["rounded"] == 3 and found["most_lost"] == 1  # 41 -> 40, 43 -> 42, 45 -> 44
    assert found["merged"] == [[40, 41], [44, 45]]  # 43 is read as 42, which no passage here is


def test_section_5_states_the_exact_range_the_port_computes(built_site, data):
    html = (built_site / "index.html").read_text("utf-8")
    text = " ".join(re.sub(r"<[^>]+>", " ", html).split())
    exact = data["lucene_norms"]["exact_up_to"]
    assert f"exact up to {exact} terms" in text
    assert "exact up to 23 terms" not in text
    assert data["lucene_norms"]["passages"] == len(data["passages"])
