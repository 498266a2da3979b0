"""Compiled Jinja templates kept on disk, so a rebuild skips Jinja's compiler.

Compiling the page's templates (the sections' prose and the labs' partials) costs about half
a second per build; loading their compiled code costs milliseconds. The cache follows Jinja's
own FileSystemBytecodeCache (atomic writes, a checksum of the source in every entry, entries
of another Python version ignored) and adds one safeguard: the key mixes in everything besides
the source that shapes the compiled code (the Jinja version, the environment's syntax options,
the source of its extensions such as builder/page/claims.py), so editing the claim extension or an
option never reuses stale code.

Example: env = Environment(bytecode_cache=bytecode_cache()); from_string_cached(env, "{{ x }}", "demo")
"""

import hashlib
import os
import sys
import weakref
from pathlib import Path

import jinja2
from jinja2.bccache import Bucket, FileSystemBytecodeCache

CACHE_DIR = Path(__file__).resolve().parents[2] / ".cache" / "jinja"
CACHE_ENV = "RAG_EXPLAINER_TEMPLATE_CACHE"  # another folder, e.g. an empty one for a cold benchmark


def environment_fingerprint(env: jinja2.Environment) -> str:
    """What, besides a template's source, decides the code Jinja compiles it to."""
    digest = hashlib.sha256(jinja2.__version__.encode())
    options = (env.block_start_string, env.block_end_string, env.variable_start_string,
               env.variable_end_string, env.comment_start_string, env.comment_end_string,
               env.line_statement_prefix, env.line_comment_prefix, env.trim_blocks, env.lstrip_blocks,
               env.newline_sequence, env.keep_trailing_newline, env.optimized, env.is_async,
               env.autoescape if isinstance(env.autoescape, bool) else getattr(env.autoescape, "__qualname__", "?"),
               getattr(env.finalize, "__qualname__", None))
    digest.update(repr(options).encode())
    for extension in sorted(env.extensions.values(), key=lambda e: e.identifier):
        digest.update(extension.identifier.encode())
        module = sys.modules.get(type(extension).__module__)
        source = getattr(module, "__file__", None)
        if source and not type(extension).__module__.startswith("jinja2."):
            digest.update(Path(source).read_bytes())
    return digest.hexdigest()[:16]


class BuildBytecodeCache(FileSystemBytecodeCache):
    """Jinja's file cache, keyed by template name + environment fingerprint; never fails a build."""

    def __init__(self, directory: Path | None = None):
        super().__init__(str(directory or os.environ.get(CACHE_ENV) or CACHE_DIR), "%s.jinja")
        self._fingerprints = weakref.WeakKeyDictionary()  # environment -> fingerprint

    def get_bucket(self, environment, name, filename, source) -> Bucket:
        fingerprint = self._fingerprints.get(environment)
        if fingerprint is None:
            fingerprint = self._fingerprints[environment] = environment_fingerprint(environment)
        return super().get_bucket(environment, f"{name}\0{fingerprint}", filename, source)

    def dump_bytecode(self, bucket: Bucket) -> None:
        try:
            Path(self.directory).mkdir(parents=True, exist_ok=True)
            super().dump_bytecode(bucket)
        except OSError:
            pass  # a read-only checkout still builds; it just compiles every time


def bytecode_cache() -> BuildBytecodeCache:
    return BuildBytecodeCache()


def from_string_cached(env: jinja2.Environment, source: str, key: str) -> jinja2.Template:
    """Exactly env.from_string(source) (same names, same line numbers in errors), with the
    compiled code kept in env.bytecode_cache under `key` when the environment has one."""
    cache = env.bytecode_cache
    if cache is None:
        return env.from_string(source)
    bucket = cache.get_bucket(env, key, None, source)
    if bucket.code is None:
        bucket.code = env.compile(source)
        cache.set_bucket(bucket)
    return env.template_class.from_code(env, bucket.code, env.make_globals(None), None)
