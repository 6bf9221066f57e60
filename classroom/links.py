"""nbgitpuller links: one click pulls the book (or a class repository) into a student's home and opens a file.

    python -m classroom.links --hub https://hub.example.edu --repo https://git.example.edu/db2-retraced.git

prints one link per chapter (opened as a notebook by jupytext in JupyterLab) and per chapter dashboard.
A second click later merges the teacher's new commits and keeps the student's own changes (nbgitpuller 1.3).
"""
from __future__ import annotations

import argparse
from pathlib import PurePosixPath
from urllib.parse import urlencode, urlparse

from .course import CHAPTERS


def repo_folder(repo: str) -> str:
    """The folder nbgitpuller clones ``repo`` into: the last path part without ``.git``."""
    name = PurePosixPath(urlparse(repo).path.rstrip("/")).name
    if not name:
        raise ValueError(f"repo={repo!r} has no path to name the student's copy after")
    return name.removesuffix(".git")


def pull_link(hub: str, repo: str, path: str, branch: str = "main", app: str = "lab", user: str | None = None) -> str:
    """The nbgitpuller URL that pulls ``repo`` (``branch``) and opens ``path`` (relative to the repository).

    ``hub`` is the hub's base URL; with ``user`` the link goes to that user's server directly
    (``/user/<user>/git-pull``), otherwise through ``/hub/user-redirect/`` (any logged-in student).
    """
    if urlparse(hub).scheme not in ("http", "https"):
        raise ValueError(f"hub={hub!r} must be an http(s) URL such as https://hub.example.edu")
    if app not in ("lab", "tree", "voila"):
        raise ValueError(f"app={app!r} must be one of 'lab', 'tree', 'voila'")
    target = f"{repo_folder(repo)}/{path.lstrip('/')}"
    urlpath = {"lab": f"lab/tree/{target}", "tree": f"tree/{target}", "voila": f"voila/render/{target}"}[app]
    prefix = f"user/{user}" if user else "hub/user-redirect"
    # name the student's copy explicitly: nbgitpuller's own default keeps a trailing ".git"
    query = urlencode({"repo": repo, "branch": branch, "targetpath": repo_folder(repo), "urlpath": urlpath})
    return f"{hub.rstrip('/')}/{prefix}/git-pull?{query}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="nbgitpuller links to the book's chapters and dashboards")
    parser.add_argument("--hub", required=True, help="the hub's URL, e.g. https://hub.example.edu")
    parser.add_argument("--repo", required=True, help="the git repository students pull (the book, or a class copy)")
    parser.add_argument("--branch", default="main")
    args = parser.parse_args(argv)
    for chapter in CHAPTERS:
        print(f"{chapter:24s} chapter    {pull_link(args.hub, args.repo, f'chapters/{chapter}.md', args.branch)}")
        print(f"{'':24s} dashboard  {pull_link(args.hub, args.repo, f'dashboards/{chapter}.ipynb', args.branch)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
