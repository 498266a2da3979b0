"""Chunkers: the ways a page is cut into the pieces a search engine indexes.

- chunk_fixed: every `size` words, optionally repeating `overlap` words;
- chunk_sentences: whole sentences packed up to a word limit, repeating the last few;
- chunk_headings: one chunk per Markdown section, heading included.
A whole page as one chunk needs no function: it is [page].

Twin: site_src/engine/chunking.js (words, splitSentences, chunkFixed, chunkSentences, chunkHeadings,
and str.split, strip, splitlines and isspace spelled out), proven equal by tests/twins/.

Example: chunk_fixed("a b c d e", size=2, overlap=1) -> ['a b', 'b c', 'c d', 'd e']
"""

import re

# A sentence ends at . ! or ? followed by white space. Good enough for help-center prose
# written without abbreviations; the JavaScript twin uses the same pattern.
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_HEADING = re.compile(r"^#{1,6}\s+(.*)$")


def words(text: str) -> list[str]:
    return text.split()


def split_sentences(text: str) -> list[str]:
    """Example: split_sentences("One. Two!  Three?") -> ['One.', 'Two!', 'Three?']"""
    return [s for s in _SENTENCE_END.split(" ".join(text.split())) if s]


def chunk_fixed(text: str, size: int, overlap: int = 0) -> list[str]:
    """Windows of `size` words starting every `size - overlap` words, until the text ends."""
    if size < 1 or not 0 <= overlap < size:
        raise ValueError(f"need size >= 1 and 0 <= overlap < size, got size={size}, overlap={overlap}")
    all_words = words(text)
    chunks = []
    for start in range(0, len(all_words), size - overlap):
        chunks.append(" ".join(all_words[start:start + size]))
        if start + size >= len(all_words):
            break
    return chunks


def chunk_sentences(sentences: list[str], max_words: int, overlap: int = 0) -> list[str]:
    """Pack whole sentences into chunks of at most `max_words` words.

    A sentence longer than the limit becomes a chunk of its own. Each new chunk starts
    with the last `overlap` sentences of the one before, but always at least one sentence
    further on, so the packing never stalls. When a repeated sentence leaves no room for
    the next one, the chunk holds only the repeated sentence: the cost of overlap.

    Example: chunk_sentences(["A.", "B.", "C.", "D.", "E."], max_words=3, overlap=1)
             -> ['A. B. C.', 'C. D. E.']

    Example: chunk_sentences(["a b.", "c d e.", "f g h i."], max_words=5, overlap=1)
             -> ['a b. c d e.', 'c d e.', 'f g h i.']
    """
    chunks = []
    start = 0
    while start < len(sentences):
        end, count = start, 0
        while end < len(sentences) and (end == start or count + len(words(sentences[end])) <= max_words):
            count += len(words(sentences[end]))
            end += 1
        chunks.append(" ".join(sentences[start:end]))
        if end >= len(sentences):
            break
        start = max(end - overlap, start + 1)
    return chunks


def chunk_headings(markdown: str) -> list[str]:
    """One chunk per section: the heading's text on the first line, then the section's text.

    Text before the first heading, if any, is a chunk of its own.
    """
    chunks: list[list[str]] = [[]]
    for line in markdown.splitlines():
        heading = _HEADING.match(line)
        if heading:
            chunks.append([heading.group(1).strip()])
        elif line.strip():
            chunks[-1].append(line.strip())
    return [" ".join(chunk[:1]) + ("\n" + " ".join(chunk[1:]) if len(chunk) > 1 else "")
            for chunk in chunks if chunk]
