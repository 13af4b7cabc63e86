"""Identifiers: a type prefix plus a time-ordered opaque id (a ULID, 26 characters)."""

import secrets
import string

from ulid import ULID


def new_id(prefix: str) -> str:
    # ULIDs sort by creation time, so the id alone orders lists and serves as the cursor.
    return f"{prefix}{str(ULID()).lower()}"


_ALPHANUMERIC = string.ascii_letters + string.digits


def random_token(length: int) -> str:
    """A secret of `length` characters from [A-Za-z0-9] (about 5.95 bits each)."""
    return "".join(secrets.choice(_ALPHANUMERIC) for _ in range(length))
