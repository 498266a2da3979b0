from engine.tokenize import tokenize


def test_codes_split_on_the_dash():
    assert tokenize("QB-4021: File too large") == ["qb", "4021", "file", "too", "large"]


def test_no_stemming_and_unicode_letters():
    assert tokenize("Files, file; Größe café_x") == ["files", "file", "größe", "café", "x"]


def test_empty_and_punctuation_only():
    assert tokenize("") == [] and tokenize("?!-- ...") == []
