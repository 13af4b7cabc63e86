"""The Jinja environment shared by the documentation site and the portal."""

import jinja2
from markdown_it import MarkdownIt

from vitrine.settings import ROOT

TEMPLATES_DIR = ROOT / "templates"
STATIC_DIR = ROOT / "static"

# Raw HTML in Markdown is not rendered: texts (guides, contract versions) stay plain content.
_markdown = MarkdownIt("commonmark", {"html": False}).enable("table")


def render_markdown(text: str) -> str:
    return _markdown.render(text)


def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=jinja2.select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
