"""Token counts with the two real tokenizers, on texts small enough to count by hand,
plus parity of the wordpiece count with a textbook greedy WordPiece over vocab.txt."""

import os

os.environ["HF_HUB_OFFLINE"] = "1"

import re  # noqa: E402

import pytest  # noqa: E402

from engine.dense import bundled_model_dir  # noqa: E402
from engine.tokens import count_o200k, count_wordpieces  # noqa: E402


@pytest.mark.parametrize("text, count", [
    ("", 0),
    ("hello world", 2),                           # 'hello', ' world'
    ("The quick brown fox", 4),                   # 'The', ' quick', ' brown', ' fox'
    ("Hello QB-4021 world", 6),                   # 'Hello', ' QB', '-', '402', '1', ' world'
    ("Refunds are possible within 14 days", 8),   # 'Refund', 's', ' are', ' possible', ' within', ' ', '14', ' days'
    ("unbelievable", 3),                          # 'un', 'bel', 'ievable'
])
def test_o200k(text, count):
    assert count_o200k(text) == count


@pytest.mark.parametrize("text, count", [
    ("", 0 + 2),                                   # only [CLS] and [SEP]
    ("hello world", 2 + 2),                        # hello, world
    ("unbelievable", 1 + 2),                       # one word in the vocabulary
    ("refund", 2 + 2),                             # ref, ##und
    ("Hello QB-4021 world", 6 + 2),                # hello, qb, -, 402, ##1, world
    ("Refunds are possible within 14 days.", 8 + 2),  # ref, ##unds, are, possible, within, 14, days, .
])
def test_wordpieces_include_cls_and_sep(text, count):
    assert count_wordpieces(text) == count


def test_wordpieces_are_not_truncated_at_the_window():
    assert count_wordpieces("note " * 300) == 300 + 2  # longer than 256: counted in full


def greedy_wordpiece(text: str, vocab: set[str]) -> list[str]:
    """BERT's WordPiece for plain ASCII: lower-case, split off punctuation, then in each word
    take the longest prefix in the vocabulary, continue with '##' + the longest next piece."""
    pieces = ["[CLS]"]
    for word in re.findall(r"[a-z0-9]+|[^\sa-z0-9]", text.lower()):
        start = 0
        while start < len(word):
            end = len(word)
            while end > start and (word[start:end] if start == 0 else "##" + word[start:end]) not in vocab:
                end -= 1
            if end == start:
                pieces.append("[UNK]")
                break
            pieces.append(word[start:end] if start == 0 else "##" + word[start:end])
            start = end
    return pieces + ["[SEP]"]


def test_parity_with_a_textbook_greedy_wordpiece():
    vocab = set((bundled_model_dir() / "vocab.txt").read_text("utf-8").split("\n"))
    assert greedy_wordpiece("refund QB-4021", vocab) == ["[CLS]", "ref", "##und", "qb", "-", "402", "##1", "[SEP]"]
    for text in ("Each plan limits how large one file can be: 100 MB for Free, 2 GB for Team.",
                 "QB-4290 means Quillbox received too many API requests from your key.",
                 "Workspace admins can recover a deleted note for 60 more days.",
                 "Synchronisation conflicts (QB-4090) keep both copies; nothing is lost!"):
        assert count_wordpieces(text) == len(greedy_wordpiece(text, vocab)), text
