"""Code samples: standalone programs the build runs, so the output under each is real.

`site_src/samples/NAME.py` is run with this Python; what it prints is shown as its output.
`NAME.js` is its JavaScript twin, shown in the other tab; tests/site/test_samples.py runs it
under Node and requires the same bytes. Outputs are cached by the hash of the program, the
Python version and this runner (how a program is run decides what it prints), so an unchanged
sample is not run again.
"""

import hashlib
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup, escape
from pygments.lexers import JavascriptLexer, PythonLexer

from builder.code_key import code_key
from builder.page.errors import SampleError
from builder.page.highlight import highlight, tokens
from builder.sources import SITE_SRC

SAMPLES = SITE_SRC / "samples"
TIMEOUT_SECONDS = 60
RUNNER = Path(__file__).resolve()  # the code that fills the output cache, besides the sample itself


@dataclass
class SampleRun:
    name: str
    output: str
    cached: bool


def cache_key(source: str) -> str:
    return hashlib.sha256(f"{sys.version_info[:2]}\0{code_key([RUNNER])}\0{source}".encode()).hexdigest()


def run_python(name: str, cache_dir: Path, samples_dir: Path = SAMPLES) -> SampleRun:
    path = samples_dir / f"{name}.py"
    if not path.is_file():
        raise SampleError(f"no sample {path} (fix: create it, with its twin {name}.js)")
    source = path.read_text("utf-8")
    cached = cache_dir / f"{cache_key(source)}.out"
    if cached.is_file():
        return SampleRun(name, cached.read_text("utf-8"), True)
    result = subprocess.run([sys.executable, "-I", path.name], cwd=samples_dir, capture_output=True,
                            text=True, timeout=TIMEOUT_SECONDS, env={"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin"})
    if result.returncode != 0:
        raise SampleError(f"{path}: exited {result.returncode}:\n{result.stderr.strip()}")
    cache_dir.mkdir(parents=True, exist_ok=True)
    cached.write_text(result.stdout, "utf-8")
    return SampleRun(name, result.stdout, False)


def twin_tokens(samples_dir: Path = SAMPLES) -> dict[str, list[list[str]]]:
    """Every JavaScript twin, coloured (builder/page/highlight.py), for assets/samples.js: the
    page draws a twin only when a reader picks JavaScript, so its code is not in the HTML."""
    return {path.stem: tokens(path.read_text("utf-8").rstrip("\n") + "\n", JavascriptLexer())
            for path in sorted(samples_dir.glob("*.js"))}


def render_sample(name: str, run: SampleRun, caption: str = "", samples_dir: Path = SAMPLES) -> Markup:
    """The tabbed sample: Python and JavaScript, a copy button, and the real output."""
    py = (samples_dir / f"{name}.py").read_text("utf-8")
    js_path = samples_dir / f"{name}.js"
    if not js_path.is_file():
        raise SampleError(f"sample '{name}' has no JavaScript twin {js_path} (fix: write it; it must print the same)")
    base = f"sample-{name.replace('_', '-')}"
    tabs = []
    for index, (lang, label) in enumerate((("py", "Python"), ("js", "JavaScript"))):
        selected = index == 0
        tabs.append(Markup('<button type="button" role="tab" id="{0}-{1}-tab" aria-controls="{0}-{1}" '
                           'aria-selected="{2}" tabindex="{3}" data-lang="{1}">{4}</button>').format(
            base, lang, "true" if selected else "false", "0" if selected else "-1", label))
    # The Python panel holds its code; the JavaScript one is filled from assets/samples.js the
    # first time a reader picks JavaScript (site_src/runtime/samples.js).
    panels = [Markup('<div class="sample-code" role="tabpanel" id="{0}-py" aria-labelledby="{0}-py-tab" '
                     'data-lang="py"><pre tabindex="0"><code>{1}</code></pre></div>').format(base, highlight(py, PythonLexer())),
              Markup('<div class="sample-code" role="tabpanel" id="{0}-js" aria-labelledby="{0}-js-tab" '
                     'data-lang="js" data-sample="{1}" hidden><pre tabindex="0"><code></code></pre></div>').format(base, name)]
    caption_html = Markup('<p class="sample-caption">{}</p>').format(caption) if caption else Markup("")
    return Markup(
        '<figure class="sample" id="{0}" aria-label="Code sample {1}">{2}'
        '<div class="sample-bar"><div class="sample-tabs" role="tablist" aria-label="Language">{3}</div>'
        '<button type="button" class="copy" aria-label="Copy the code">Copy</button></div>{4}'
        '<figcaption class="sample-output"><p class="output-label">Real output: printed when the build ran the '
        'Python program (the JavaScript twin prints the same, checked by a test)</p>'
        '<pre class="output" tabindex="0">{5}</pre></figcaption></figure>').format(
        base, name.replace("_", " "), caption_html, Markup("").join(tabs), Markup("").join(panels),
        escape(run.output.rstrip("\n")))
