"""Subtitle cues from the narration, written as WebVTT.

Cues follow common captioning practice: at most two lines of about 42 characters, so a long
sentence is split at punctuation or between words, and its time is shared by character count."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

MAX_CUE_CHARS = 84


@dataclass(frozen=True, slots=True)
class Cue:
    start: float
    end: float
    text: str


def chunks(sentence: str, limit: int = MAX_CUE_CHARS) -> list[str]:
    """Split a sentence into the fewest cues of at most `limit` characters, of similar length
    (no one-word cue trailing a full one)."""
    words = sentence.split()
    count = math.ceil(len(" ".join(words)) / limit)
    while True:
        target = len(" ".join(words)) / count
        parts: list[str] = []
        current = ""
        for word in words:
            candidate = f"{current} {word}".strip()
            if current and (len(candidate) > limit or (len(parts) < count - 1 and len(current) >= target)):
                parts.append(current)
                current = word
            else:
                current = candidate
        parts.append(current)
        if all(len(p) <= limit for p in parts) or count >= len(words):
            return [p for p in parts if p]
        count += 1


def cues_for(sentence: str, start: float, seconds: float) -> list[Cue]:
    parts = chunks(sentence)
    total = sum(len(p) for p in parts) or 1
    cues, at = [], start
    for part in parts:
        length = seconds * len(part) / total
        cues.append(Cue(round(at, 3), round(at + length, 3), part))
        at += length
    return cues


def _stamp(seconds: float) -> str:
    millis = round(seconds * 1000)
    hours, rest = divmod(millis, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    secs, millis = divmod(rest, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}.{millis:03d}"


def write_webvtt(cues: list[Cue], path: Path) -> None:
    lines = ["WEBVTT", "Language: pt-BR", ""]
    for i, cue in enumerate(cues, start=1):
        lines += [str(i), f"{_stamp(cue.start)} --> {_stamp(cue.end)}", cue.text.replace("-->", "->"), ""]
    path.write_text("\n".join(lines), encoding="utf-8")
