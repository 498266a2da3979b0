"""The retrieval engine: one small module per pipeline stage.

tokenize -> bm25 / dense -> fusion -> (rerank) -> access -> prompt -> citations -> guardrail,
with chunking for the indexing side and evaluate for measuring. corpus loads and validates
the help center every stage reads.
"""
