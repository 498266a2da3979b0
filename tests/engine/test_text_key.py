"""engine/text_key.py: FNV-1a (32 bits) of a text's UTF-16 code units, in base 36, checked
against FNV's published test vectors and by hand outside ASCII."""

from engine.text_key import text_key

BASIS, PRIME = 0x811C9DC5, 0x01000193  # FNV-1a's 32-bit offset basis and prime


def test_the_key_is_fnv1a_by_its_published_test_vectors_in_base_36():
    assert int(text_key("a"), 36) == 0xE40C292C
    assert int(text_key("foobar"), 36) == 0xBF9CF968
    assert int(text_key(""), 36) == BASIS          # nothing hashed: the offset basis
    assert text_key("") == "ztntfp"


def test_outside_ascii_it_hashes_utf16_code_units_as_javascript_counts_them():
    assert int(text_key("é"), 36) == ((BASIS ^ 0xE9) * PRIME) % 2**32                                  # one unit
    assert int(text_key("🙂"), 36) == ((((BASIS ^ 0xD83D) * PRIME) % 2**32 ^ 0xDE42) * PRIME) % 2**32  # a pair
    # A lone surrogate, which a JavaScript string may hold, is hashed as the unit it is.
    assert int(text_key("\ud800"), 36) == ((BASIS ^ 0xD800) * PRIME) % 2**32
