"""The Jinja environment shared by the documentation site and the portal."""

import re
from typing import cast

import jinja2
from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from mdit_py_plugins.anchors import anchors_plugin

from vitrine.settings import ROOT

TEMPLATES_DIR = ROOT / "templates"
STATIC_DIR = ROOT / "static"

# Raw HTML in Markdown is not rendered: texts (guides, contract versions) stay plain content.
# Section headings get an id (the docs' search links straight to the section it found).
_markdown = MarkdownIt("commonmark", {"html": False}).enable("table").use(anchors_plugin, min_level=2, max_level=3)


# A wide table or code block scrolls inside its own box, which the keyboard can reach (a scroll
# region nobody can focus is unusable without a mouse); the page itself never scrolls sideways.
def _table_open(self, tokens, idx, options, env) -> str:
    return '<div class="table-wrap" tabindex="0">' + self.renderToken(tokens, idx, options, env)


def _table_close(self, tokens, idx, options, env) -> str:
    return self.renderToken(tokens, idx, options, env) + "</div>"


def _focusable_pre(default):
    def render(self, tokens, idx, options, env) -> str:
        return default(tokens, idx, options, env).replace("<pre>", '<pre tabindex="0">', 1)

    return render


_markdown.add_render_rule("table_open", _table_open)
_markdown.add_render_rule("table_close", _table_close)
_html_renderer = cast(RendererHTML, _markdown.renderer)
for _rule in ("fence", "code_block"):
    _markdown.add_render_rule(_rule, _focusable_pre(_html_renderer.rules[_rule]))


# A line that is only an HTML comment (the guides' markers around generated or tested text):
# hidden, as any Markdown renderer hides it, although raw HTML is shown as text.
_COMMENT_LINE = re.compile(r"^<!--[^\n]*-->[ \t]*\n?", re.MULTILINE)


def markdown_tokens(text: str) -> list:
    """The parsed tokens of a text, as render_markdown sees them (headings carry their id)."""
    return _markdown.parse(_COMMENT_LINE.sub("", text))


def render_markdown(text: str) -> str:
    return _markdown.render(_COMMENT_LINE.sub("", text))


def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=jinja2.select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
