"""Sphinx extension: the Binder links of every notebook page.

* **The launch button opens a notebook.** sphinx-book-theme points Binder at the page's source,
  ``urlpath=lab/tree/chapters/<name>.md``, and JupyterLab opens a MyST ``.md`` from a URL in its text
  editor. The repository's ``postBuild`` makes ``<page>.ipynb`` beside each MyST notebook when Binder
  builds the image, so the button's ``urlpath`` is rewritten to that notebook.
* **"Open the dashboard on Binder".** A chapter that has a Voila dashboard (``dashboards/<name>.ipynb``)
  gets a link to it under its title and in the launch menu: ``urlpath=voila/render/dashboards/<name>.ipynb``
  (Voila runs as a Jupyter server extension in the Binder image).

Both links are built from ``_config.yml``: ``repository.url``, ``repository.branch`` and
``launch_buttons.binderhub_url``. Nothing here makes a request; the links need the internet only when
a reader follows them.
"""
from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from docutils import nodes

DASHBOARDS = "dashboards"
BINDER_TEXT = "Binder"
DASHBOARD_TEXT = "Open the dashboard on Binder"


def binder_base(binderhub_url: str, repository_url: str, branch: str) -> str:
    """The Binder URL that builds and starts ``branch`` of a GitHub repository (no urlpath yet)."""
    prefix = "https://github.com/"
    if not repository_url.startswith(prefix):
        raise ValueError(f"_config.yml repository.url must be a GitHub URL ({prefix}<org>/<repo>), "
                         f"got {repository_url!r}")
    org_repo = repository_url[len(prefix):].strip("/").removesuffix(".git")
    if org_repo.count("/") != 1:
        raise ValueError(f"_config.yml repository.url must name <org>/<repo>, got {repository_url!r}")
    return f"{binderhub_url.rstrip('/')}/v2/gh/{org_repo}/{branch}"


def launch_url(base: str, urlpath: str) -> str:
    """``base`` opened at ``urlpath`` (a path under the Jupyter server, e.g. ``lab/tree/x.ipynb``)."""
    return f"{base}?urlpath={quote(urlpath, safe='/')}"


def notebook_urlpath(docname: str) -> str:
    """JupyterLab at the notebook postBuild makes from page ``docname`` (e.g. ``chapters/zhyperlink``)."""
    return f"lab/tree/{docname}.ipynb"


def dashboard_urlpath(name: str) -> str:
    """Voila (a server extension of the Binder image's Jupyter server) rendering one dashboard."""
    return f"voila/render/{DASHBOARDS}/{name}.ipynb"


def _base(app) -> str | None:
    options = app.config.html_theme_options
    hub = options.get("launch_buttons", {}).get("binderhub_url", "")
    repository_url = options.get("repository_url", "")
    if not hub or not repository_url:
        return None
    return binder_base(hub, repository_url, options.get("repository_branch") or "main")


def _dashboard(app, docname: str) -> str | None:
    """The dashboard's name when page ``docname`` has one (``dashboards/<last part of docname>.ipynb``)."""
    name = docname.rsplit("/", 1)[-1]
    return name if (Path(app.srcdir) / DASHBOARDS / f"{name}.ipynb").exists() else None


def _rewrite_launch_menu(app, pagename, templatename, context, doctree):
    """Point the theme's Binder button at ``<page>.ipynb`` and add the dashboard to the launch menu."""
    base = _base(app)
    if base is None:
        return
    groups = [b for b in context.get("header_buttons", []) if b.get("label") == "launch-buttons"]
    if not groups:
        return  # not a notebook page: the theme shows no launch button
    buttons = groups[0]["buttons"]
    binder = [b for b in buttons if b.get("text") == BINDER_TEXT]
    if len(binder) != 1 or "?urlpath=" not in binder[0]["url"]:
        raise RuntimeError(f"{pagename}: expected one Binder launch button with a urlpath; the theme changed?")
    if Path(app.env.doc2path(pagename)).suffix == ".md":
        binder[0]["url"] = launch_url(base, notebook_urlpath(pagename))
    name = _dashboard(app, pagename)
    if name:
        buttons.append({"type": "link", "text": "Dashboard", "tooltip": DASHBOARD_TEXT,
                        "icon": "_static/images/logo_binder.svg",
                        "url": launch_url(base, dashboard_urlpath(name))})


def _add_dashboard_link(app, doctree, docname):
    """Under a chapter's title: a paragraph linking to its dashboard on Binder."""
    base = _base(app)
    name = _dashboard(app, docname)
    if base is None or name is None:
        return
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is None or not isinstance(section[0], nodes.title):
        return
    link = nodes.reference("", DASHBOARD_TEXT, refuri=launch_url(base, dashboard_urlpath(name)),
                           classes=["db2book-binder-dashboard"])
    para = nodes.paragraph("", "", link, nodes.Text(
        ": this chapter's explorers as a Voila app, with no code "
        "showing (needs the internet)."), classes=["db2book-live-links"])
    section.insert(1, para)


def setup(app):
    # after sphinx-book-theme's add_launch_buttons (priority 501) has filled the launch menu
    app.connect("html-page-context", _rewrite_launch_menu, priority=600)
    app.connect("doctree-resolved", _add_dashboard_link)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
