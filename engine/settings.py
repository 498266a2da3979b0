"""The retrieval settings, defined once.

The engine's functions take these as their defaults; the build writes them into the page's
data (`settings`), where the templates and the browser runtime read them. Change one here
and the whole page follows; the build's claims say which sentences it made untrue.

Example: as_data()["bm25"] -> {"k1": 1.2, "b": 0.75}
"""

BM25_K1 = 1.2            # term-frequency saturation
BM25_B = 0.75            # length normalisation
RRF_K = 60               # reciprocal rank fusion's constant (Cormack et al., 2009)
FUSION_DEPTH = 8         # how many of each retriever's results go into the fusion
RERANK_DEPTH = 20        # how many fused candidates a reranker reads
RECALL_KS = (1, 3, 5)    # the cut-offs recall is measured at
SIGNIFICANCE = 0.05      # the usual level: a split seen more than one time in twenty by chance is not evidence
PROMPT_PASSAGES = 5      # how many passages of the fused list a traced prompt carries
PROMPT_SIZES = range(3, 11)  # the passages per prompt whose size the build counts (the prompt lab's slider)

MODEL_NAME = "sentence-transformers/all-MiniLM-L6-v2"  # the embedding model, by its hub name
MODEL_LABEL = "all-MiniLM-L6-v2"                       # how the page names it
DIMENSIONS = 384
MAX_WORDPIECES = 256     # the model's window, [CLS] and [SEP] included; sentence-transformers cuts longer texts
TRAINED_WORDPIECES = 128 # the longest input the model was trained on (its model card)


def as_data() -> dict:
    """The settings as the page's data carries them (`data.settings`)."""
    return {"bm25": {"k1": BM25_K1, "b": BM25_B}, "rrf_k": RRF_K, "fusion_depth": FUSION_DEPTH,
            "rerank_depth": RERANK_DEPTH, "recall_ks": list(RECALL_KS), "prompt_passages": PROMPT_PASSAGES}
