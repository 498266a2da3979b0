"""The settings of the views that several labs show (site_src/views/): what the hybrid view's
sliders offer, and how many neighbours the map names. Each lab that shows such a view hands it
these, so no lab reads them from another lab (the core never imports a lab, and no lab imports
another: tests/labs/test_import_direction.py).

Example: HYBRID_SLIDERS["k"] -> {"min": 1, "max": 100, "step": 1}
"""

# k from 1 (rank 1 worth 1/2, rank 2 1/3) past the paper's 60 to 100; depth from one passage of
# each list to 20 (half of Quillbox's help center).
HYBRID_SLIDERS = {"k": {"min": 1, "max": 100, "step": 1}, "depth": {"min": 1, "max": 20, "step": 1}}

# The map's nearest passages: how many it names beside a question, and how many of each passage's
# neighbours a layout is judged on keeping.
MAP_NEIGHBOURS = 5
