"""The Jinja environment shared by the documentation site and the portal."""

import jinja2
from markdown_it import MarkdownIt
from mdit_py_plugins.anchors import anchors_plugin

from vitrine.settings import ROOT

TEMPLATES_DIR = ROOT / "templates"
STATIC_DIR = ROOT / "static"

# Raw HTML in Markdown is not rendered: texts (guides, contract versions) stay plain content.
# Section headings get an id (the docs' search links straight to the section it found).
_markdown = MarkdownIt("commonmark", {"html": False}).enable("table").use(anchors_plugin, min_level=2, max_level=3)


def markdown_tokens(text: str) -> list:
    """The parsed tokens of a text, as render_markdown sees them (headings carry their id)."""
    return _markdown.parse(text)


def render_markdown(text: str) -> str:
    return _markdown.render(text)


def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=jinja2.select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
