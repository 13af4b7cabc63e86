"""The text helper: wrap, shrink-to-fit and ellipsis keep every glyph inside its box."""

import pytest
from PIL import ImageChops

from graphql_api.geracao.render.text import ELLIPSIS, Box, Canvas, font, layout_text, wrap


def test_short_text_takes_the_largest_size():
    layout = layout_text("Garrafa", Box(0, 0, 600, 200), size=(40, 12))
    assert layout.size == 40 and not layout.truncated
    assert layout.text == "Garrafa"


def test_long_text_shrinks_before_it_is_cut():
    text = "Garrafa térmica de parede dupla a vácuo " * 3
    layout = layout_text(text, Box(0, 0, 400, 200), size=(40, 10))
    assert 10 < layout.size < 40
    assert not layout.truncated
    assert " ".join(layout.text.split()) == " ".join(text.split())


@pytest.mark.parametrize("length", [200, 500, 2000, 5000])
def test_text_too_long_for_the_smallest_size_ends_in_an_ellipsis(length):
    text = ("Ação à vista, pé-de-moleque, coração; " * 200)[:length]
    box = Box(10, 20, 310, 120)
    layout = layout_text(text, box, size=(30, 14))
    assert layout.size == 14
    assert layout.truncated and layout.lines[-1].text.endswith(ELLIPSIS)
    assert box.contains(layout.ink)


def test_a_word_wider_than_the_box_is_cut_only_as_a_last_resort():
    assert wrap("-20%", font(200, True), 150, break_words=False) is None
    badge = layout_text("-20%", Box(0, 0, 150, 150), size=(90, 14), bold=True, max_lines=3)
    assert badge.text == "-20%"  # shrunk, not split
    word = "Superextraordinariamente" * 8
    layout = layout_text(word, Box(0, 0, 200, 400), size=(30, 12))
    assert all(line.ink.x1 <= 200 for line in layout.lines)
    assert "".join(line.text for line in layout.lines) == word


def test_max_lines_is_respected():
    layout = layout_text(
        "um dois três quatro cinco seis sete oito nove dez " * 4, Box(0, 0, 300, 500), size=(40, 30), max_lines=1
    )
    assert len(layout.lines) == 1 and layout.truncated


def test_accents_and_descenders_stay_inside_the_box():
    box = Box(0, 0, 260, 60)
    layout = layout_text("ÇÃO Ém jÁ ÔÕ", box, size=(200, 8), bold=True)
    assert box.contains(layout.ink)
    canvas = Canvas((260, 60))
    canvas.draw_layout(layout, (0, 0, 0))
    drawn = ImageChops.invert(canvas.image.convert("L")).getbbox()
    ink = layout.ink
    assert drawn is not None
    assert ink.x0 <= drawn[0] and ink.y0 <= drawn[1] and drawn[2] <= ink.x1 and drawn[3] <= ink.y1


def test_empty_text_or_no_room_draws_nothing():
    assert layout_text("   ", Box(0, 0, 100, 100), size=(20, 10)).lines == []
    tiny = layout_text("texto", Box(0, 0, 3, 3), size=(20, 10))
    assert tiny.lines == [] and tiny.truncated


def test_text_group_uses_one_size_for_every_item():
    canvas = Canvas((1200, 1200))
    boxes = [Box(0, 0, 800, 100), Box(0, 120, 800, 220)]
    layouts = canvas.text_group([("Curto", boxes[0]), ("Um texto bem mais comprido " * 6, boxes[1])], size=(60, 14))
    assert layouts[0].size == layouts[1].size < 60
