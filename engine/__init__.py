"""The retrieval engine: one small module per concept, each a set of pure functions.

Querying:  tokenize -> bm25 / dense -> fusion -> ranking -> rerank -> access -> prompt -> citations
           -> guardrail
Indexing:  chunking; text_key keys a chunk's text; tokens counts what the models read
Measuring: evaluate (rank of the right passage, recall@k); significance (Wilson intervals, sign tests)
Drawing:   projection (the plane of most variance, a vector on it, a place from neighbours)
The corpus: corpus loads help_center, readers and questions, reading files with corpus_files,
            checking fields with fields and links between files with validate; problems names
            each problem's place and fix.
settings holds k1, b, the RRF constant, the fusion depth and the model name; models is the
only module that imports sentence-transformers.

Every stage the browser runs has a JavaScript twin, file for file: site_src/engine/<module>.js
beside engine/<module>.py (tokenize, bm25, fusion, ranking, chunking, text_key, prompt,
citations, guardrail, access, evaluate, significance, projection), joined in the order
builder/page/assets.py ENGINE lists into the page's assets/scripts/engine.js, and proven equal,
pair by pair, by tests/twins/.
"""
