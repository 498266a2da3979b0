"""BM25 from scratch (with Lucene's IDF), on the four tiny passages of the worked example."""
import math
import re

K1, B = 1.2, 0.75


def tokenize(text):
    # Lower-case, keep runs of letters and digits: "QB-4021" -> ["qb", "4021"].
    return re.findall(r"[^\W_]+", text.lower())


def bm25_scores(query, texts):
    docs = [tokenize(text) for text in texts]
    n = len(docs)
    avg_len = sum(len(doc) for doc in docs) / n
    terms = list(dict.fromkeys(tokenize(query)))  # each query term once
    idf = {}
    for term in terms:
        having = sum(1 for doc in docs if term in doc)
        idf[term] = math.log(1 + (n - having + 0.5) / (having + 0.5))
    results = []
    for doc in docs:
        shares = []  # (term, its share of the score)
        for term in terms:
            f = doc.count(term)
            if f:
                norm = K1 * (1 - B + B * len(doc) / avg_len)
                shares.append((term, idf[term] * f * (K1 + 1) / (f + norm)))
        results.append((sum(share for _, share in shares), shares))
    return terms, idf, avg_len, results


passages = {
    "a": "QB-4021 means the file is over the upload limit of your plan.",
    "b": "QB-4290 means an app sent too many requests.",
    "c": "You can attach files to any note.",
    "d": "Notes sync to every device you sign in on.",
}
query = "QB-4021 file limit"

terms, idf, avg_len, results = bm25_scores(query, list(passages.values()))
print(f"query {query!r} -> terms {', '.join(terms)}")
print(f"{len(passages)} passages, average length {avg_len:.2f} terms")
print()
print("term    idf")
for term in terms:
    print(f"{term:<6} {idf[term]:.3f}")
print()
ranked = sorted(zip(passages, results), key=lambda item: -item[1][0])
for pid, (score, shares) in ranked:
    parts = " + ".join(f"{term} {share:.3f}" for term, share in shares)
    print(f"{pid}  {score:.3f}  {'= ' + parts if parts else '(shares no term with the query)'}")
