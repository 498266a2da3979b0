"""The hybrid explorer: each retriever's top results for one question, the list reciprocal rank
fusion makes of them, and a slope chart joining each passage's three places; two sliders set
RRF's constant k and how deep each list goes into the fusion, and the browser fuses again with
the engine's JavaScript twin. The page's own settings are engine/settings.py's (RRF_K,
FUSION_DEPTH, in the core data as settings); the sliders' ranges are the view's
(builder/view_settings.py).

Example: data(build) -> {"sliders": {"k": {"min": 1, "max": 100, "step": 1},
                                     "depth": {"min": 1, "max": 20, "step": 1}}}
"""

from builder.view_settings import HYBRID_SLIDERS
from engine.settings import FUSION_DEPTH, RRF_K

STATE = {"q": "upload-4021", "k": RRF_K, "depth": FUSION_DEPTH}  # the state the page opens on
SCRIPTS = ("engine",)  # the browser's twin of engine/fusion.py fuses for the sliders' settings
VIEWS = ("hybrid",)    # site_src/views/hybrid.js draws it
SLIDERS = HYBRID_SLIDERS  # what the sliders offer: the hybrid view's, wherever a lab shows it


def data(build) -> dict:
    return {"sliders": SLIDERS}
