"""Voila's page for the book's dashboards (read by ``make voila``, which points JUPYTER_CONFIG_DIR here).

The page is Voila's own "lab" page plus a banner that tells a student, in words, when the dashboard lost its
Python process (its kernel died: killed, out of memory) or its server (stopped or restarting), and what to do:
``share/voila/templates/db2book``. Voila looks for templates in the Jupyter data path, read when the
configuration has been loaded, so the folder is put in front of that path here.
"""
import os

c = get_config()  # noqa: F821 (Voila provides it)

_SHARE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "share")
if _SHARE not in os.environ.get("JUPYTER_PATH", "").split(os.pathsep):
    os.environ["JUPYTER_PATH"] = os.pathsep.join(p for p in (_SHARE, os.environ.get("JUPYTER_PATH")) if p)
c.VoilaConfiguration.template = "db2book"
