function splitSentences(text) {
  // A sentence ends at . ! or ? followed by white space.
  const flat = text.split(/\s+/).filter(Boolean).join(" ");
  return flat.split(/(?<=[.!?])\s+/).filter(Boolean);
}

function wordCount(text) {
  return text.split(/\s+/).filter(Boolean).length;
}

function chunkSentences(sentences, maxWords, overlap = 1) {
  const chunks = [];
  let start = 0;
  while (start < sentences.length) {
    let end = start;
    let count = 0;
    // Take whole sentences while they fit (always at least one).
    while (end < sentences.length &&
           (end === start || count + wordCount(sentences[end]) <= maxWords)) {
      count += wordCount(sentences[end]);
      end += 1;
    }
    chunks.push(sentences.slice(start, end).join(" "));
    if (end >= sentences.length) break;
    // Repeat the last `overlap` sentences, but always move forward.
    start = Math.max(end - overlap, start + 1);
  }
  return chunks;
}

const page =
  "Deleted notes wait in the Trash for 30 days. " +
  "After that they are removed from every device. " +
  "Business plans add a second safety net. " +
  "Admins can still recover a deleted note for 60 more days.";

const sentences = splitSentences(page);
for (const limit of [24, 16]) {
  console.log(`max ${limit} words, 1 sentence of overlap:`);
  let previous = "";
  chunkSentences(sentences, limit).forEach((chunk, i) => {
    const note = previous.endsWith(chunk) ? "  <- only the repeated sentence" : "";
    console.log(`  ${i + 1}. (${wordCount(chunk)} words) ${chunk}${note}`);
    previous = chunk;
  });
}
