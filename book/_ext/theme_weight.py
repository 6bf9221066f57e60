"""The theme's weight cut to what the site uses: its icon font and its stylesheets (run after a build).

Kept, though a maintained tool does each job in general (PurgeCSS for stylesheets, fontTools' ``pyftsubset``
for fonts), for one measured goal: a chapter a phone loads quickly on a slow link. Lighthouse (mobile,
on the built chapters) put 94 KB of unused theme CSS among the top causes of a 6.5-8 s first contentful
paint; the FontAwesome rules are 72 KB of CSS and its web fonts 275 KB, for the 20 or so icons the
navigation bar shows. PurgeCSS would bring Node into the build for one step, and it does not know which
names the theme's scripts build at run time (``bs-tooltip-`` + side): here a selector stays when each
class it names is a word of some built page or script. The fonts themselves are cut by fontTools; this
module only chooses the glyphs.
"""
from __future__ import annotations

import re
from pathlib import Path


#: One FontAwesome icon rule of the theme's stylesheet: ``.fa-github:before{content:"\f09b"}``
#: (a rule may list several names for one glyph).
FA_RULE = re.compile(r'((?:\.fa-[a-z0-9-]+::?before,?)+)\{content:"((?:\\[0-9a-fA-F]+ ?|[^"\\])+)"\}')
FA_NAME = re.compile(r"\bfa-[a-z0-9-]+")


def _glyph_codepoints(content: str) -> set[int]:
    """The code points of a CSS ``content`` string: ``\f09b`` escapes and plain characters."""
    return {int(m.group(1), 16) if m.group(1) else ord(m.group(2))
            for m in re.finditer(r"\\([0-9a-fA-F]+) ?|(.)", content)}


def prune_icon_css(css: str, used: set[str]) -> tuple[str, set[int]]:
    """The stylesheet with only the icon rules of the icons in ``used`` (``fa-...`` names), and
    the code points those icons draw. Every other rule is kept as it is."""
    codepoints: set[int] = set()

    def keep(match: re.Match) -> str:
        selectors = [sel for sel in match.group(1).rstrip(",").split(",")
                     if FA_NAME.search(sel).group(0) in used]
        if not selectors:
            return ""
        codepoints.update(_glyph_codepoints(match.group(2)))
        return ",".join(selectors) + "{content:\"" + match.group(2) + "\"}"

    return FA_RULE.sub(keep, css), codepoints


def _used_icons(outdir: Path, skip: tuple[str, ...]) -> set[str]:
    """Every ``fa-...`` class name that a built page or a theme script names (scripts may add icons)."""
    names: set[str] = set()
    for path in list(outdir.rglob("*.html")) + list((outdir / "_static").rglob("*.js")):
        if path.name in skip:
            continue
        names.update(FA_NAME.findall(path.read_text(encoding="utf-8", errors="ignore")))
    return names


def slim_icon_font(outdir: Path, skip: tuple[str, ...] = ()) -> None:
    """Send the reader only the icons the book shows.

    The theme's stylesheet carries a rule for each of FontAwesome's ~1,900 icons (72 KB) and
    its web fonts hold every glyph (275 KB for the solid and brand fonts), for the 20 or so
    icons of the book's navigation bar. The built site keeps the rules of the icons that a page
    or a theme script names (not the scripts named in ``skip``: the Vega runtime) and subsets the
    ``.woff2`` fonts to their glyphs (fontTools). The ``.ttf`` fallbacks stay whole (a browser that
    reads WOFF2 never asks for them).
    """
    from fontTools import subset
    from fontTools.ttLib import TTFont

    css_path = outdir / "_static" / "styles" / "pydata-sphinx-theme.css"
    fonts = sorted((outdir / "_static" / "vendor" / "fontawesome").rglob("*.woff2"))
    if not css_path.exists() or not fonts:
        return
    css, codepoints = prune_icon_css(css_path.read_text(encoding="utf-8"), _used_icons(outdir, skip))
    if not codepoints:
        raise RuntimeError(f"{css_path}: no FontAwesome icon rule matched; the theme's CSS changed shape")
    css_path.write_text(css, encoding="utf-8")
    for path in fonts:
        font = TTFont(path)
        options = subset.Options()
        options.flavor = "woff2"
        options.ignore_missing_unicodes = True
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=sorted(codepoints))
        subsetter.subset(font)
        font.flavor = "woff2"
        font.save(path)


CSS_CLASS = re.compile(r"\.(-?[_a-zA-Z][_a-zA-Z0-9-]*)")
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")


def _split_selectors(prelude: str) -> list[str]:
    """A rule's selector list split at its top-level commas (not those inside ``:is(...)``)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(prelude):
        depth += ch in "(["
        depth -= ch in ")]"
        if ch == "," and depth == 0:
            parts.append(prelude[start:i])
            start = i + 1
    parts.append(prelude[start:])
    return [p.strip() for p in parts if p.strip()]


def purge_css(css: str, words: set[str]) -> str:
    """The stylesheet without the rules that can match nothing on the site.

    A selector is kept when every class it names outside ``:is()``-like brackets is a word of some
    built page or script (or starts with a word that ends in "-": scripts build names such as
    ``bs-tooltip-`` + side). A
    rule loses the selectors that can't match and goes when none is left; rules with no class
    (elements, ids, ``:root``), ``@font-face`` and other at-rules stay, ``@media`` blocks are purged
    inside, and licence comments (``/*! ...``) stay.
    """
    import tinycss2

    prefixes = tuple(w for w in words if w.endswith("-"))

    def used(selector: str) -> bool:
        bare = re.sub(r'\[[^\]]*\]|"[^"]*"' + r"|'[^']*'", "", selector)
        while "(" in bare:  # :is(), :where(), :not(), :has(): their arguments never make a rule unusable
            stripped = re.sub(r"\([^()]*\)", "", bare)
            if stripped == bare:
                break
            bare = stripped
        return all(name in words or name.startswith(prefixes) for name in CSS_CLASS.findall(bare))

    def purge(rules) -> list[str]:
        out = []
        for rule in rules:
            if rule.type == "qualified-rule":
                keep = [sel for sel in _split_selectors(tinycss2.serialize(rule.prelude)) if used(sel)]
                if keep:
                    out.append(",".join(keep) + "{" + tinycss2.serialize(rule.content) + "}")
            elif rule.type == "at-rule" and rule.lower_at_keyword in ("media", "supports", "layer", "container") \
                    and rule.content is not None:
                inner = purge(tinycss2.parse_rule_list(rule.content, skip_comments=True, skip_whitespace=True))
                if inner:
                    out.append("@" + rule.at_keyword + tinycss2.serialize(rule.prelude) + "{" + "".join(inner) + "}")
            elif rule.type == "comment":
                if rule.value.startswith("!"):
                    out.append("/*" + rule.value + "*/\n")
            elif rule.type != "whitespace":
                out.append(rule.serialize())
        return out

    return "".join(purge(tinycss2.parse_stylesheet(css, skip_comments=False, skip_whitespace=True)))


def _site_words(outdir: Path) -> set[str]:
    """Every word of every built page and script: the class names the site can ever use."""
    words: set[str] = set()
    for path in list(outdir.rglob("*.html")) + list((outdir / "_static").rglob("*.js")):
        words.update(WORD.findall(path.read_text(encoding="utf-8", errors="ignore")))
    return words


def purge_theme_css(outdir: Path) -> None:
    """The theme's stylesheet (Bootstrap and pydata, 312 KB) holds rules for components the book
    never shows (carousels, toasts, accordions...); the extensions' stylesheets likewise (myst-nb's
    43 KB is mostly JupyterLab's widget and output classes, which a static page never has): each
    built copy keeps only the rules that can match. The book's own stylesheet is left whole."""
    static = outdir / "_static"
    paths = [static / "styles" / "pydata-sphinx-theme.css", static / "styles" / "sphinx-book-theme.css",
             *sorted(p for p in static.glob("*.css") if p.name != "db2book.css")]
    words = _site_words(outdir)
    for path in paths:
        if path.exists():
            path.write_text(purge_css(path.read_text(encoding="utf-8"), words), encoding="utf-8")
