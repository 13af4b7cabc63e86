"""The portal's one rule for times: the person's zone, named; the UTC instant on hover."""

import re

import pytest

from portal.web import Fuso, templates


def momento(valor: str, fuso: Fuso | None) -> str:
    return templates.from_string("{{ valor | momento }}").render(valor=valor, fuso=fuso)


def test_a_moment_is_written_in_the_persons_zone_with_the_utc_instant_on_hover():
    html = momento("2026-11-25T23:00:00Z", Fuso.of("America/Manaus"))
    assert html == '<time datetime="2026-11-25T23:00:00Z" title="2026-11-25T23:00:00Z (UTC)">25/11/2026 19:00:00</time>'


def test_without_a_zone_from_the_browser_the_default_is_sao_paulo():
    assert ">25/11/2026 20:00:00<" in momento("2026-11-25T23:00:00+00:00", None)
    assert Fuso.of(None).nome == "São Paulo, UTC−03:00"


@pytest.mark.parametrize("nome", ["../../etc/passwd", "Nada/Disso", "", "America/Sao_Paulo\x00"])
def test_a_zone_that_is_not_an_iana_name_falls_back_to_the_default(nome):
    assert Fuso.of(nome).zona.key == "America/Sao_Paulo"


@pytest.mark.parametrize(
    ("zona", "nome"),
    [
        ("Asia/Tokyo", "Tokyo, UTC+09:00"),
        ("America/Argentina/Buenos_Aires", "Buenos Aires, UTC−03:00"),
        ("UTC", "UTC"),
        ("Africa/Abidjan", "Abidjan, UTC+00:00"),
    ],
)
def test_the_zone_is_named_by_its_city_and_offset(zona, nome):
    assert Fuso.of(zona).nome == nome


def test_no_moment_is_a_dash():
    assert momento("", None) == "—"
    assert re.fullmatch("—", momento(None, Fuso.of("UTC")))


def test_the_foot_of_the_page_names_the_zone_once():
    assert (
        Fuso.of("Asia/Tokyo").rodape
        == "Horários de Tokyo, UTC+09:00. Passe o mouse sobre um horário para vê-lo em UTC."
    )
    assert Fuso.of("UTC").rodape == "Horários em UTC."
