import re


def split_sentences(text):
    # A sentence ends at . ! or ? followed by white space.
    return [s for s in re.split(r"(?<=[.!?])\s+", " ".join(text.split())) if s]


def chunk_sentences(sentences, max_words, overlap=1):
    chunks, start = [], 0
    while start < len(sentences):
        end, count = start, 0
        # Take whole sentences while they fit (always at least one).
        while end < len(sentences) and (
            end == start or count + len(sentences[end].split()) <= max_words
        ):
            count += len(sentences[end].split())
            end += 1
        chunks.append(" ".join(sentences[start:end]))
        if end >= len(sentences):
            break
        # Repeat the last `overlap` sentences, but always move forward.
        start = max(end - overlap, start + 1)
    return chunks


page = (
    "Deleted notes wait in the Trash for 30 days. "
    "After that they are removed from every device. "
    "Business plans add a second safety net. "
    "Admins can still recover a deleted note for 60 more days."
)

sentences = split_sentences(page)
for limit in (24, 16):
    print(f"max {limit} words, 1 sentence of overlap:")
    previous = ""
    for number, chunk in enumerate(chunk_sentences(sentences, limit), start=1):
        note = "  <- only the repeated sentence" if previous.endswith(chunk) else ""
        print(f"  {number}. ({len(chunk.split())} words) {chunk}{note}")
        previous = chunk
