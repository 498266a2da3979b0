"""A small made-up corpus for drawing the views over something that is not the help center: six
chunks of a bicycle shop's notes, each with a hand-made vector, and two questions with theirs.

The vectors are unit length and every component is a multiple of 1/4, so every dot product is
exact in binary floating point: numpy's and the twin's cosines are the same numbers, and so are
their rankings. They are made so that the lists disagree and tie: for "spongy", dense puts
brake-bleed first and ties chain-oil with chain-wear (both 0.5), BM25 finds only two chunks
("brake" and "lever": "brakes" and "feels" are other words to it).

Example: [c["id"] for c in CHUNKS][:2] -> ['tyre-pressure', 'tyre-puncture']
"""

CHUNKS = [
    {"id": "tyre-pressure", "title": "Tyres", "section": "Pressure",
     "text": "Pump road tyres to 80 psi and mountain tyres to 30 psi before every ride."},
    {"id": "tyre-puncture", "title": "Tyres", "section": "Punctures",
     "text": "A puncture kit holds patches, glue and two levers; patch the tube, not the tyre."},
    {"id": "chain-oil", "title": "Chain", "section": "Oiling",
     "text": "Oil the chain every 300 km, or after a wet ride, and wipe off what is left."},
    {"id": "chain-wear", "title": "Chain", "section": "Wear",
     "text": "A chain stretched past 0.5% wears the cassette; measure the chain with a chain checker."},
    {"id": "brake-pads", "title": "Brakes", "section": "Pads",
     "text": "Replace brake pads when the groove is gone: worn pads squeal and stop late."},
    {"id": "brake-bleed", "title": "Brakes", "section": "Bleeding",
     "text": "Bleed hydraulic brakes once a year, or when the lever feels soft."},
]

VECTORS = [
    [1, 0, 0, 0, 0, 0, 0, 0],
    [0.5, 0.5, 0.5, 0.5, 0, 0, 0, 0],
    [0, 0, 0.75, 0.5, 0.25, 0.25, 0.25, 0],
    [0, 0, 0.5, 0.5, 0.5, 0.5, 0, 0],
    [0, 0, 0, 0, 0.5, 0.5, 0.5, 0.5],
    [0, 0, 0, 0.25, 0.25, 0.25, 0.5, 0.75],
]

QUESTIONS = [
    {"id": "spongy", "text": "Why does my brake lever feel spongy?", "answers": ["brake-bleed"],
     "vector": [0, 0, 0, 0.5, 0, 0.5, 0.5, 0.5]},
    {"id": "oil", "text": "How often should I oil the chain?", "answers": ["chain-oil"],
     "vector": [0, 0, 0.75, 0.5, 0.25, 0.25, 0.25, 0]},
]


def corpus(settings: dict) -> dict:
    """The request's corpus for RAG.corpus.fromChunks, at these settings (the page's data.settings)."""
    return {"chunks": CHUNKS, "vectors": VECTORS, "questions": QUESTIONS, "settings": settings}
