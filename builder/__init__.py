"""The build: turn the corpus into the page's data and files, one small stage per module.

build.py runs the stages in order; each module here is one of them.
"""
