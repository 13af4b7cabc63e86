"""Legible on a phone: every text on a gallery image or a video card is at least 12 px (font
size, the em) when the image, or the video frame, is shown 390 px wide — and still fits its box
(helpers.assert_legible)."""

import pytest

from graphql_api.geracao.render import style
from graphql_api.geracao.render.cards import SUPPORTS, Context, compose, rows_that_fit
from graphql_api.geracao.render.text import Box
from graphql_api.geracao.render.video import CARD_SCALE, SPECS, card_canvas, title_panel
from tests.render.helpers import LEGIBLE, assert_legible, assert_no_overflow
from tests.render.samples import extreme_ficha, rich_ficha, sparse_ficha

FICHAS = {"rica": rich_ficha, "curta": sparse_ficha, "extrema": extreme_ficha}
CARDS = list(SUPPORTS)  # every kind of card with text
VIDEO_FRAMES = sorted({size for spec in SPECS.values() for sizes in spec.formats.values() for _, size in sizes})


def cards_of(ficha: dict) -> list[str]:
    return [kind for kind in CARDS if SUPPORTS[kind](ficha)]


def test_the_rule_in_numbers():
    # 1200 shown at 390 is a 0.325 scale: 12 px needs 36.9 px on the image.
    assert style.legible_size(1200) == 37 and style.legible_size(600) == 19
    assert style.legible_size(1920) == 60 and style.legible_size(1080) == 34 and style.legible_size(1280) == 40
    assert style.SMALLEST_TEXT * 0.325 >= LEGIBLE
    # Square images keep their scale: the 600 px teste image is the 1200 px one in small.
    assert style.text_unit((1200, 1200)) == 1 and style.text_unit((600, 600)) == 0.5


def test_the_sample_fichas_cover_every_card():
    assert cards_of(rich_ficha()) == CARDS and cards_of(extreme_ficha()) == CARDS
    assert cards_of(sparse_ficha()) == []  # a name only: the photo images, no card


@pytest.mark.parametrize("side", [1200, 600])
@pytest.mark.parametrize("name", FICHAS)
def test_gallery_cards_are_legible_at_a_phone_view(fotos, name, side):
    ficha = FICHAS[name]()
    ctx = Context(ficha, fotos, max_side=side)
    for kind in cards_of(ficha):
        canvas = compose(kind, ctx, (side, side))
        assert canvas.layouts, kind
        assert_legible(canvas.layouts, side)
        assert_no_overflow(canvas.layouts, canvas.size)


@pytest.mark.slow
@pytest.mark.parametrize("frame", VIDEO_FRAMES, ids=lambda f: f"{f[0]}x{f[1]}")
@pytest.mark.parametrize("name", FICHAS)
def test_video_cards_and_title_are_legible_at_a_phone_view(fotos, name, frame):
    ficha = FICHAS[name]()
    ctx = Context(ficha, fotos, max_side=max(frame), scale=CARD_SCALE, narrated=True)
    for kind in cards_of(ficha):
        for captions in (False, True):
            canvas = card_canvas(ctx, kind, frame, leave_caption_room=captions)
            assert canvas.size[0] == frame[0]
            assert_legible(canvas.layouts, frame[0])
            assert_no_overflow(canvas.layouts, canvas.size)
    _, _, layouts = title_panel(frame, ficha["nome"], ficha.get("marca") or "Confira no anúncio")
    assert_legible(layouts, frame[0])


def test_rows_that_do_not_fit_are_left_out_never_shrunk():
    box = Box(0, 0, 100, 300)
    assert rows_that_fit(lambda i: 90, 2, box, 10, 6) == (2, [90, 90])
    # Ten rows of 90 in 300: two and a "more" row (e mais N) of 40.
    assert rows_that_fit(lambda i: 90, 10, box, 10, 6, more=40) == (2, [90, 90, 40])
    # The "more" row counts in the limit.
    assert rows_that_fit(lambda i: 10, 10, box, 10, 3, more=10) == (2, [10, 10, 10])
    # Not even one row: the first one, its text to be cut.
    assert rows_that_fit(lambda i: 400, 3, box, 10, 6, more=40) == (1, [300])
