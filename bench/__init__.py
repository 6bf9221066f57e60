"""The book's benchmark (``make bench``): one module per benchmark, run by ``bench/run.py``."""
