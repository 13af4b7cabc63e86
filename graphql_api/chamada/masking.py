"""What the call log may keep: secrets, credentials and personal data masked before storage.

Masked: Authorization, API keys (the public identifier stays), OAuth codes and tokens, client
secrets, whsec_ notice secrets, Idempotency-Key (partially), e-mail, telephone (Brazilian, 0800-style
and international), CPF and CNPJ.
Bodies are cut at the body limit (64 KB) after masking."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

MASK = "****"

# Object keys whose whole value is sensitive, wherever they appear in a body.
_SENSITIVE_KEYS = re.compile(
    r"authorization|password|senha|secret|segredo|token|code_verifier|^code$|"
    r"e-?mail|telefone|celular|phone|whatsapp|^cpf$|^cnpj$|documento",
    re.IGNORECASE,
)

_TOKEN_PATTERNS = [
    (re.compile(r"\b(sk_(?:test|live)_[A-Za-z0-9]{12})_[A-Za-z0-9]{40}\b"), rf"\1_{MASK}"),
    (re.compile(r"\b(oat|ort)_(test_|live_)?[A-Za-z0-9_\-]{8,}"), rf"\1_\2{MASK}"),
    (re.compile(r"\boac_[A-Za-z0-9_\-]{8,}"), f"oac_{MASK}"),
    (re.compile(r"\bcs_(test|live)_[A-Za-z0-9_\-]{8,}"), rf"cs_\1_{MASK}"),
    (re.compile(r"\bwhsec_[A-Za-z0-9+/=]{8,}"), f"whsec_{MASK}"),
]

_EMAIL = re.compile(r"\b([A-Za-z0-9._%+\-])[A-Za-z0-9._%+\-]*@([A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)+)\b")
# CPF, CNPJ and phone numbers in one pass. Bare digit runs are judged by _mask_personal_number:
# an EAN/GTIN, an order number or a timestamp is not personal data and stays.
_PERSONAL_NUMBER = re.compile(
    r"\b\d{3}\.\d{3}\.\d{3}-\d{2}\b"  # CPF 123.456.789-09
    r"|\b\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}\b"  # CNPJ 11.222.333/0001-81
    r"|(?<![\w+])\+[1-9](?:[ .\-()]{0,2}\d){7,14}\b"  # E.164: +55 11 98765-4321, +1 415 555 2671
    r"|\(\d{2}\)[\s\-]?9?[\s.\-]?\d{4}[\s.\-]?\d{4}\b"  # (11) 98765-4321
    r"|\b\d{2}[\s\-]9?[\s.\-]?\d{4}[\s\-]\d{4}\b"  # 11 98765-4321, 11 9 8765-4321
    r"|\b0[3589]00[\s.\-]?(?:\d{3}[\s.\-]?\d{4}|\d{4}[\s.\-]?\d{3})\b"  # 0800 123 4567
    r"|\b(?P<bare>\d{10,14})\b"
)
# Brazilian area codes (DDD) in use.
_DDD = frozenset(
    [
        "11",
        "12",
        "13",
        "14",
        "15",
        "16",
        "17",
        "18",
        "19",
        "21",
        "22",
        "24",
        "27",
        "28",
        "31",
        "32",
        "33",
        "34",
        "35",
        "37",
        "38",
        "41",
        "42",
        "43",
        "44",
        "45",
        "46",
        "47",
        "48",
        "49",
        "51",
        "53",
        "54",
        "55",
        "61",
        "62",
        "63",
        "64",
        "65",
        "66",
        "67",
        "68",
        "69",
        "71",
        "73",
        "74",
        "75",
        "77",
        "79",
        "81",
        "82",
        "83",
        "84",
        "85",
        "86",
        "87",
        "88",
        "89",
        "91",
        "92",
        "93",
        "94",
        "95",
        "96",
        "97",
        "98",
        "99",
    ]
)
_TOKEN_MARKER = re.compile(r"sk_|oat_|ort_|oac_|cs_|whsec_")


def _cpf_valid(d: str) -> bool:
    if len(set(d)) == 1:
        return False
    for size in (9, 10):
        total = sum(int(d[i]) * (size + 1 - i) for i in range(size))
        if (total * 10 % 11) % 10 != int(d[size]):
            return False
    return True


def _cnpj_valid(d: str) -> bool:
    if len(set(d)) == 1:
        return False
    weights = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]
    for size in (12, 13):
        total = sum(int(d[i]) * weights[i + 13 - size] for i in range(size))
        digit = 11 - total % 11
        if (0 if digit >= 10 else digit) != int(d[size]):
            return False
    return True


def _br_phone(d: str) -> bool:
    """A DDD then a mobile (9 + 8 digits) or landline (2-5 + 7 digits) number."""
    if d[:2] not in _DDD:
        return False
    return (len(d) == 11 and d[2] == "9") or (len(d) == 10 and d[2] in "2345")


def _mask_personal_number(match: re.Match) -> str:
    digits = match.group("bare")
    if digits is None:
        return MASK
    size = len(digits)
    if size <= 11:
        personal = _br_phone(digits) or (size == 11 and _cpf_valid(digits))
    elif size == 14:
        personal = _cnpj_valid(digits)
    else:  # 55 + a Brazilian number, as messaging APIs write it; GS1 gives no EAN prefix 55
        personal = digits.startswith("55") and _br_phone(digits[2:])
    return MASK if personal else digits


# Something that could be a phone, CPF or CNPJ: "+" and a digit (an international number), or
# ten or more digits, separators allowed between (up to two in a row, as in "(11) 98765-4321").
_NUMBER_LIKE = re.compile(r"\+\d|(?:\d[\s().\-/]{0,2}){10}")


# Strings the service itself produces and that cannot hold personal data: ids, timestamps,
# enum-like words and its own signed media links. Skipping them keeps logging cheap.
_SYSTEM_STRING = re.compile(
    r"[a-z]{2,6}_[0-9a-z]{26}$"
    r"|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z$"
    r"|[a-z_]{1,40}$"
    r"|https?://[^\s?#]+/midia/[^\s?#]+\?exp=\d+&sig=[0-9a-f]{64}$"
)
_PERSONAL_HINT = re.compile(r"@|\+\d|(?:\d[\s().\-/]{0,2}){10}")


def mask_text(text: str) -> str:
    # Cheap tests first: most strings hold nothing sensitive and the costlier regexes never run.
    if len(text) < 6:
        return text
    if _TOKEN_MARKER.search(text):
        for pattern, replacement in _TOKEN_PATTERNS:
            text = pattern.sub(replacement, text)
    if _SYSTEM_STRING.match(text) or not _PERSONAL_HINT.search(text):
        return text
    if "@" in text:
        text = _EMAIL.sub(lambda m: f"{m.group(1)}***@{m.group(2)}", text)
    if _NUMBER_LIKE.search(text):
        text = _PERSONAL_NUMBER.sub(_mask_personal_number, text)
    return text


@lru_cache(maxsize=4096)
def _is_sensitive_key(key: str) -> bool:
    return _SENSITIVE_KEYS.search(key) is not None


def mask_value(value: Any) -> Any:
    """A JSON value with sensitive keys hidden and every string masked. Returns the very same
    object when nothing in it needed masking."""
    if isinstance(value, str):
        return mask_text(value)
    if isinstance(value, list):
        masked = [mask_value(v) for v in value]
        return value if all(m is v for m, v in zip(masked, value, strict=False)) else masked
    if isinstance(value, dict):
        masked_items = {k: (_mask_secret_field(v) if _is_sensitive_key(k) else mask_value(v)) for k, v in value.items()}
        return value if all(masked_items[k] is v for k, v in value.items()) else masked_items
    return value


def _mask_secret_field(value: Any) -> Any:
    if isinstance(value, str):
        masked = mask_text(value)
        # Keep a token's public prefix when the patterns recognised it; hide everything else.
        return masked if MASK in masked and masked != value else MASK
    if value is None or isinstance(value, bool):
        return value
    return MASK


def _is_text(value: str) -> bool:
    try:
        value.encode()
    except UnicodeEncodeError:
        return False
    return True


def _alnum_ascii(text: str) -> bool:
    return text.isascii() and text.isalnum()


def mask_authorization(value: str) -> str:
    scheme, _, credential = value.partition(" ")
    # The common case, an API key, without the regexes: what _TOKEN_PATTERNS would make of it.
    if (
        len(credential) == 61
        and credential[20] == "_"
        and credential.startswith(("sk_test_", "sk_live_"))
        and credential[8:20].isalnum()
        and credential[21:].isalnum()
        and credential.isascii()
    ):
        return f"{scheme} {credential[:20]}_{MASK}"
    # The other common case, an OAuth access token: its prefix stays, as _TOKEN_PATTERNS would.
    if len(credential) == 49 and credential.startswith(("oat_test_", "oat_live_")) and _alnum_ascii(credential[9:]):
        return f"{scheme} {credential[:9]}{MASK}"
    masked = mask_text(credential)
    return f"{scheme} {masked if masked != credential else MASK}"


def mask_idempotency_key(value: str) -> str:
    if len(value) <= 8:
        return value[:2] + MASK
    return f"{value[:4]}{MASK}{value[-4:]}"


# Integrators poll: the same response body is logged again and again (media links stay the same
# within a minute, vitrine/infra/storage.py). Small bodies are masked once per distinct content.
_MEMO_MAX_BYTES = 16 * 1024


def mask_body(raw: bytes | None, limit: int) -> tuple[str | None, bool]:
    """The masked body as text, cut at `limit` bytes; and whether it was cut."""
    if not raw:
        return None, False
    if len(raw) <= _MEMO_MAX_BYTES:
        return _mask_small_body(bytes(raw), limit)
    return _mask_body(raw, limit)


@lru_cache(maxsize=256)
def _mask_small_body(raw: bytes, limit: int) -> tuple[str | None, bool]:
    return _mask_body(raw, limit)


def _mask_body(raw: bytes, limit: int) -> tuple[str | None, bool]:
    text = raw.decode("utf-8", errors="replace")
    try:
        parsed = json.loads(text)
    except ValueError:
        text = mask_text(text)
    else:
        masked = mask_value(parsed)
        if masked is not parsed:  # most bodies hold nothing to mask: keep their text as it came
            text = json.dumps(masked, ensure_ascii=False, separators=(",", ":"))
            if not _is_text(text):  # a lone surrogate (\ud800) the body escaped: escaped again
                text = json.dumps(masked, separators=(",", ":"))
    encoded = text.encode()
    if len(encoded) <= limit:
        return text, False
    return encoded[:limit].decode("utf-8", errors="ignore"), True
