"""The retrieval engine: one small module per concept, each a set of pure functions.

Querying:  tokenize -> bm25 / dense -> fusion -> rerank -> access -> prompt -> citations -> guardrail
Indexing:  chunking; tokens counts what the models read
Measuring: evaluate (rank of the right passage, recall@k)
The corpus: corpus loads help_center, readers and questions, reading files with corpus_files,
            checking fields with fields and links between files with validate; problems names
            each problem's place and fix.
settings holds k1, b, the RRF constant, the fusion depth and the model name; models is the
only module that imports sentence-transformers.
"""
