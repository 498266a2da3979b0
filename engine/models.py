"""The one module that imports sentence-transformers (and so torch): it loads the embedding
model for dense.py and, when one is named, the cross-encoder for rerank.py. Everything else
in the engine takes plain arrays and lists, so tests can use small hand-made vectors.

Both loaders are cached: a process loads each model once.

Example: sentence_transformer(dense.resolve_model()[0]).encode(["refund"]).shape -> (1, 384)
"""

import os
from functools import lru_cache
from pathlib import Path

ENCODING_THREADS = max(1, min(2, os.cpu_count() or 1))


def _quiet_offline_when_local(location: str) -> None:
    if Path(location).is_dir():
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a local folder needs no network
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")


@lru_cache(maxsize=2)
def sentence_transformer(location: str):
    """A bi-encoder on the CPU, from a model folder or a hub name."""
    _quiet_offline_when_local(location)
    from sentence_transformers import SentenceTransformer  # heavy: only when embedding
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()
    return SentenceTransformer(location, device="cpu")


BATCH_LIMIT = 64  # texts of one length in a forward pass


def same_length_batches(lengths: list[int], limit: int = BATCH_LIMIT) -> list[list[int]]:
    """The texts' places, grouped by length and cut into batches of at most `limit`, longest
    texts first (so the threads that share them finish together).

    Example: same_length_batches([3, 5, 3, 3], limit=2) -> [[1], [0, 2], [3]]
    """
    groups: dict[int, list[int]] = {}
    for place, length in enumerate(lengths):
        groups.setdefault(length, []).append(place)
    return [places[start:start + limit] for length in sorted(groups, reverse=True)
            for places in [groups[length]] for start in range(0, len(places), limit)]


def encode_each(model, texts: list[str], progress=None) -> list:
    """Each text's unit vector, exactly as a forward pass of its own on one CPU thread gives it,
    the work shared among ENCODING_THREADS threads side by side. `progress(done, total)` is
    called as texts finish.

    One thread per pass because a vector's last digits depend on how many threads split its
    matrix products (measured on the chunking lab's texts: 342 of 813 differ, by up to 1.8e-7,
    between one thread and two), and a vector must be the same on every machine. torch's
    thread count is the process's, so it is put back afterwards for the rest of its work.

    Texts of the same length in wordpieces go through one pass together: nothing is padded, and
    each row of the batch comes out as the text alone would (3,244 texts of the chunking lab,
    questions and passages: every vector bit for bit, at a quarter of the time). A batch that
    mixed lengths would pad, which moves the last digits. Each batch's first text is also run
    alone and compared bit for bit; where a machine's kernels ever make them differ, every text
    from then on gets a pass of its own.
    """
    import threading
    from concurrent.futures import ThreadPoolExecutor, as_completed

    import numpy as np
    import torch

    def encode(part: list[str]):
        return model.encode(part, batch_size=len(part), normalize_embeddings=True, convert_to_numpy=True,
                            show_progress_bar=False)

    one_at_a_time = threading.Event()

    def run(batch: list[int]):
        part = [texts[place] for place in batch]
        if len(part) > 1 and not one_at_a_time.is_set():
            together = encode(part)
            if np.array_equal(together[0], encode(part[:1])[0]):
                return batch, list(together)
            one_at_a_time.set()
        return batch, [encode([text])[0] for text in part]

    tokenized = model.tokenizer(texts, truncation="longest_first", max_length=model.max_seq_length)["input_ids"]
    vectors: list = [None] * len(texts)
    done = 0
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        with ThreadPoolExecutor(ENCODING_THREADS) as pool:
            for finished in as_completed([pool.submit(run, batch) for batch in same_length_batches(list(map(len, tokenized)))]):
                batch, rows = finished.result()
                for place, row in zip(batch, rows):
                    vectors[place] = row
                done += len(batch)
                if progress:
                    progress(done, len(texts))
        return vectors
    finally:
        torch.set_num_threads(before)


@lru_cache(maxsize=2)
def cross_encoder(location: str):
    """A cross-encoder on the CPU, from a model folder or a hub name."""
    _quiet_offline_when_local(location)
    from sentence_transformers import CrossEncoder  # heavy: only when a reranker is named

    return CrossEncoder(location, device="cpu")


def transformer_for_export(location: str):
    """The embedding model's transformer (the BERT under sentence-transformers' pooling), with
    the plain ("eager") attention that torch.onnx's exporter traces, and the sequence length
    sentence-transformers cuts texts to.

    Example: transformer_for_export(dense.resolve_model()[0])[1] -> 256
    """
    _quiet_offline_when_local(location)
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(location, device="cpu", model_kwargs={"attn_implementation": "eager"})
    return model[0].auto_model.eval(), model.max_seq_length


def model_folder(location: str) -> Path:
    """The folder holding the model's files (its tokenizer.json and vocab.txt among them): the
    location itself when it is one, else the hub's copy in the local Hugging Face cache, fetched
    there first if it is missing and the network allows."""
    if Path(location).is_dir():
        return Path(location)
    _quiet_offline_when_local(location)
    from huggingface_hub import snapshot_download

    return Path(snapshot_download(location))
