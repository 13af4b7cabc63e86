"""Videos: real MP4s checked with ffmpeg (codecs, size, duration, loudness, faststart), the
narration and its subtitles, the watermark, CinePremium's rules and the avatar styles."""

import re
import wave
from pathlib import Path

import pytest
from PIL import Image

from graphql_api.geracao.render import media, speech, storyboard
from graphql_api.geracao.render.speech import Clip
from graphql_api.geracao.render.subtitles import MAX_CUE_CHARS, Cue, chunks
from graphql_api.geracao.render.video import (
    CINEPREMIUM_MIN_FOTOS,
    SPECS,
    VideoError,
    fit_length,
    narration_ok,
    plan_timeline,
    render_video,
    resolve_avatar,
)
from tests.render.helpers import watermark_contrast
from tests.render.samples import rich_ficha, sparse_ficha


def _vtt_cues(path: Path) -> list[tuple[float, float, str]]:
    def seconds(stamp: str) -> float:
        h, m, s = stamp.split(":")
        return int(h) * 3600 + int(m) * 60 + float(s)

    text = path.read_text(encoding="utf-8")
    assert text.startswith("WEBVTT")
    found = re.findall(r"(\d\d:\d\d:\d\d\.\d{3}) --> (\d\d:\d\d:\d\d\.\d{3})\n(.+)", text)
    return [(seconds(a), seconds(b), line) for a, b, line in found]


def test_apresentacao_teste_is_a_valid_mp4_with_audible_speech(apresentacao_teste):
    result = apresentacao_teste
    assert result.tipo == "apresentacao" and result.ambiente == "teste"
    [video] = result.videos
    info = media.probe(video.path)
    assert info.video_codec == "h264" and info.audio_codec == "aac" and info.audio_rate == 48000
    assert (info.width, info.height) == (640, 360) == (video.largura, video.altura)
    assert info.fps == 30
    assert abs(info.duration - video.duracao_segundos) < 0.1
    assert 12 <= video.duracao_segundos <= SPECS["apresentacao"].max_seconds
    mean, peak = media.loudness(video.path)
    assert mean > -35 and peak > -10  # speech, not silence
    assert media.faststart(video.path)
    assert video.path.stat().st_size < 1_500_000
    assert result.cenas[0] == "abertura" and result.cenas[-1] == "encerramento"


def test_fala_and_subtitles_match(apresentacao_teste):
    result = apresentacao_teste
    fala = result.fala
    assert fala.texto.startswith("Conheça Garrafa Térmica Aço Inox Aurora 750 ml, da Casa Boa.")
    assert fala.voz == "espeak-ng:pt-br"
    video_seconds = result.videos[0].duracao_segundos
    assert 5 < fala.duracao_segundos < video_seconds
    assert fala.as_dict().keys() == {"texto", "voz", "duracaoSegundos"}
    cues = _vtt_cues(result.legenda)
    assert cues, "the WebVTT file has cues"
    starts = [start for start, _, _ in cues]
    assert starts == sorted(starts) and cues[-1][1] <= video_seconds
    assert all(end > start for start, end, _ in cues)
    assert " ".join(text for _, _, text in cues).split() == fala.texto.split()


def test_automatico_burns_captions_when_they_fit(apresentacao_teste):
    assert apresentacao_teste.avatar == "legenda" and apresentacao_teste.legendas_embutidas
    frames = [(640, 360)]
    normal = [Cue(0, 1, "Garantia: 12 meses contra defeitos de fabricação.")]
    assert resolve_avatar("automatico", normal, frames) == "legenda"
    unbreakable = [Cue(0, 1, "X" * 400)]  # cannot fit two caption lines
    assert resolve_avatar("automatico", unbreakable, frames) == "narrador"
    assert resolve_avatar("narradora", unbreakable, frames) == "narradora"


@pytest.mark.slow
def test_watermark_on_teste_frames_and_not_on_producao(fotos, tmp_path):
    teste = render_video(sparse_ficha(), fotos[:1], "apresentacao", "narrador", "teste", tmp_path / "t")
    producao = render_video(sparse_ficha(), fotos[:1], "apresentacao", "narrador", "producao", tmp_path / "p")
    [vt], [vp] = teste.videos, producao.videos
    assert (vp.largura, vp.altura) == (1280, 720) == (media.probe(vp.path).width, media.probe(vp.path).height)
    assert abs(vt.duracao_segundos - vp.duracao_segundos) < 0.05
    for t in (1.5, vt.duracao_segundos - 1.5):
        frame_t = Image.open(media.frame_at(vt.path, t, tmp_path / "ft.png"))
        frame_p = Image.open(media.frame_at(vp.path, t, tmp_path / "fp.png"))
        inside, outside = watermark_contrast(frame_t, frame_p)
        assert inside > 20 and outside < 8, (t, inside, outside)


def test_cinepremium_needs_more_photos(fotos, tmp_path):
    with pytest.raises(VideoError) as caught:
        render_video(rich_ficha(), fotos[:CINEPREMIUM_MIN_FOTOS - 1], "cinepremium", "automatico", "teste", tmp_path)
    assert caught.value.codigo == "CINEPREMIUM_FOTOS_INSUFICIENTES"
    assert not list(tmp_path.glob("*.mp4"))
    with pytest.raises(ValueError):
        render_video(rich_ficha(), fotos, "trailer", "automatico", "teste", tmp_path)
    with pytest.raises(ValueError):
        render_video(rich_ficha(), fotos, "apresentacao", "holograma", "teste", tmp_path)


@pytest.mark.slow
def test_cinepremium_delivers_horizontal_and_vertical(fotos, tmp_path):
    result = render_video(sparse_ficha(), fotos[:5], "cinepremium", "narradora", "teste", tmp_path)
    assert result.avatar == "narradora" and not result.legendas_embutidas
    assert result.fala.voz == "espeak-ng:pt-br+f3"
    assert result.cenas == ["abertura", "foto", "foto", "foto", "foto", "encerramento"]
    formats = {v.formato: v for v in result.videos}
    assert set(formats) == {"horizontal", "vertical"}
    for video, size in ((formats["horizontal"], (960, 540)), (formats["vertical"], (540, 960))):
        info = media.probe(video.path)
        assert (info.width, info.height) == size
        assert info.video_codec == "h264" and info.audio_codec == "aac"
        assert abs(info.duration - result.videos[0].duracao_segundos) < 0.1
        assert media.loudness(video.path)[0] > -45
        assert media.faststart(video.path)


def _fake_clips(scenes, seconds):
    for scene in scenes:
        scene.clips = [Clip(line, Path("/dev/null"), seconds) for line in scene.lines]
    return scenes


def test_timeline_gives_each_scene_its_sentences_and_whole_frames(fotos):
    scenes = _fake_clips(storyboard.apresentacao(rich_ficha(), fotos), 2.0)
    spec = SPECS["apresentacao"]
    total, placements = plan_timeline(scenes, spec)
    for scene in scenes:
        assert abs(scene.duration * spec.fps - round(scene.duration * spec.fps)) < 1e-6
    for at, clip in placements:
        owner = next(s for s in scenes if clip in s.clips)
        assert owner.start <= at and at + clip.seconds <= owner.start + owner.duration
    assert total == pytest.approx(scenes[-1].start + scenes[-1].duration)


def test_long_narration_drops_the_least_important_scenes(fotos):
    scenes = _fake_clips(storyboard.apresentacao(rich_ficha(), fotos), 4.0)
    kept = fit_length(scenes, SPECS["apresentacao"])
    assert plan_timeline(kept, SPECS["apresentacao"])[0] <= SPECS["apresentacao"].max_seconds
    assert kept[0].kind == "abertura" and kept[-1].kind == "encerramento"
    dropped = [s for s in scenes if s not in kept]
    assert dropped and min(s.priority for s in dropped) > max(s.priority for s in kept)


def test_spoken_form_and_caption_chunks():
    assert speech.spoken("750 ml, 27 cm e 1 kg; 12 horas") == "750 mililitros, 27 centímetros e 1 quilo; 12 horas"
    assert speech.spoken("7,5 cm") == "7,5 centímetros"
    long = "Garrafa térmica de parede dupla a vácuo que mantém bebidas quentes por 12 horas e geladas. " * 3
    parts = chunks(long)
    assert all(len(p) <= MAX_CUE_CHARS for p in parts)
    assert " ".join(parts).split() == long.split()


def test_narration_gate_rejects_silence(tmp_path):
    silent = tmp_path / "silencio.wav"
    with wave.open(str(silent), "wb") as w:
        w.setnchannels(1), w.setsampwidth(2), w.setframerate(22050)
        w.writeframes(b"\0\0" * 22050)
    assert not narration_ok([Clip("Olá, mundo.", silent, 1.0)])
    spoken = speech.synthesise("Olá, mundo.", "pt-br", tmp_path / "ola.wav")
    assert narration_ok([spoken])
