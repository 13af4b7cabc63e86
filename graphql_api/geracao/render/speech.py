"""Narration in Brazilian Portuguese with espeak-ng (Debian package, installed by scripts/install).

Each sentence is synthesised on its own (espeak-ng is quick), so its exact duration is known: scenes
last as long as what is said over them, and subtitle cues are exact. The subtitles and
`fala.texto` keep the written form ("7,5 cm"); the synthesiser gets the spoken form
("7,5 centímetros"), since espeak-ng spells unit symbols out letter by letter."""

from __future__ import annotations

import re
import shutil
import subprocess
import wave
from array import array
from dataclasses import dataclass
from pathlib import Path

ENGINE = "espeak-ng"
SPEED = 180  # words per minute: espeak-ng's default is 175; ads are read briskly
SAMPLE_RATE = 22050  # espeak-ng's output

_UNITS = {
    "mm": ("milímetro", "milímetros"),
    "cm": ("centímetro", "centímetros"),
    "m": ("metro", "metros"),
    "ml": ("mililitro", "mililitros"),
    "l": ("litro", "litros"),
    "g": ("grama", "gramas"),
    "kg": ("quilo", "quilos"),
    "h": ("hora", "horas"),
    "w": ("watt", "watts"),
    "v": ("volt", "volts"),
}
_UNIT_RE = re.compile(r"(\d+(?:[.,]\d+)*)\s?(mm|cm|ml|kg|m|l|g|h|w|v)\b", re.IGNORECASE)


class SpeechError(RuntimeError):
    pass


@dataclass(frozen=True, slots=True)
class Clip:
    text: str  # written form, for subtitles
    path: Path  # WAV, 16-bit mono
    seconds: float


def spoken(text: str) -> str:
    """The form sent to the synthesiser: unit symbols after numbers become words."""

    def expand(match: re.Match) -> str:
        value, unit = match.group(1), match.group(2).lower()
        singular, plural = _UNITS[unit]
        return f"{value} {singular if value in ('1', '1,0') else plural}"

    return _UNIT_RE.sub(expand, text)


def wav_seconds(path: Path) -> float:
    with wave.open(str(path), "rb") as w:
        return w.getnframes() / w.getframerate()


def synthesise(text: str, voice: str, out: Path) -> Clip:
    """One sentence to a WAV file."""
    if shutil.which(ENGINE) is None:
        raise SpeechError("espeak-ng is not installed (scripts/install installs it).")
    # Text on stdin, never as an argument: a sentence starting with "-" is not an option.
    result = subprocess.run(
        [ENGINE, "-v", voice, "-s", str(SPEED), "-w", str(out), "--stdin"],
        input=spoken(text).encode(),
        capture_output=True,
        timeout=30,
    )
    if result.returncode != 0 or not out.exists():
        raise SpeechError(f"espeak-ng failed: {result.stderr.decode(errors='replace')[:300]}")
    _trim_silence(out)
    return Clip(text, out, wav_seconds(out))


def _trim_silence(path: Path, threshold: int = 200, keep: float = 0.04) -> None:
    """espeak-ng pads its output with silence; the timeline adds its own pauses, so cut it."""
    with wave.open(str(path), "rb") as w:
        params = w.getparams()
        samples = array("h", w.readframes(w.getnframes()))
    loud = [i for i in range(0, len(samples), 64) if abs(samples[i]) > threshold]
    if not loud:
        return
    margin = round(keep * params.framerate)
    start, end = max(0, loud[0] - margin), min(len(samples), loud[-1] + 64 + margin)
    with wave.open(str(path), "wb") as w:
        w.setparams(params)
        w.writeframes(samples[start:end].tobytes())


def mix(placements: list[tuple[float, Clip]], total_seconds: float, out: Path) -> None:
    """One WAV track of `total_seconds`: each clip at its start time, silence elsewhere."""
    frames = round(total_seconds * SAMPLE_RATE)
    track = bytearray(frames * 2)
    for start, clip in placements:
        with wave.open(str(clip.path), "rb") as w:
            if w.getframerate() != SAMPLE_RATE or w.getsampwidth() != 2 or w.getnchannels() != 1:
                raise SpeechError(f"unexpected WAV format from {ENGINE}")
            data = w.readframes(w.getnframes())
        offset = round(start * SAMPLE_RATE) * 2
        data = data[: max(0, len(track) - offset)]
        track[offset : offset + len(data)] = data
    with wave.open(str(out), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SAMPLE_RATE)
        w.writeframes(bytes(track))
