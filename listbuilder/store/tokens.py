"""Random ids and edit tokens, and how tokens are kept: only as a hash, compared in constant time.

An edit token is 256 random bits, so a plain SHA-256 of it is as strong as a slow password hash
would be (nobody can guess their way through 2**256 candidates); a database leak therefore does
not leak the power to edit. Ids are 96 random bits (imported books: 80): unguessable, so a list
or an imported book is read only by whoever was given its link.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from base64 import b32encode, urlsafe_b64encode

ID_BYTES = 12  # 96 bits -> 16 URL-safe characters
ID_PATTERN = f"^[A-Za-z0-9_-]{{{ID_BYTES * 4 // 3}}}$"  # every id new_id makes, for schemas and the API's docs
TOKEN_BYTES = 32  # 256 bits -> 43 URL-safe characters
BOOK_ID_PREFIX = "af-"
BOOK_ID_BYTES = 10  # 80 bits -> 16 base-32 characters
_BASE32 = frozenset("abcdefghijklmnopqrstuvwxyz234567")


def new_id() -> str:
    return secrets.token_urlsafe(ID_BYTES)


def new_book_id() -> str:
    """An imported book's id: ``af-`` and 80 random bits in lower-case base 32, unguessable
    and still within the book-id pattern (lower-case letters, digits and ``-``)."""
    return BOOK_ID_PREFIX + b32encode(secrets.token_bytes(BOOK_ID_BYTES)).decode("ascii").lower()


def is_book_id(book_id: str) -> bool:
    """Whether *book_id* has the shape of an imported book's id: only those are looked up in
    the database, so a mistyped id of a built-in book costs no query."""
    body = book_id[len(BOOK_ID_PREFIX) :]
    return book_id.startswith(BOOK_ID_PREFIX) and len(body) == 16 and _BASE32.issuperset(body)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def derived_token(secret: str, *context: str) -> str:
    """A token only the holder of *secret* (another token, 256 random bits) can compute
    again: HMAC-SHA256 of *context* keyed by it, as long and as unguessable as a new token.
    The store keeps only its hash, like any token's, yet can hand it out again to whoever
    presents *secret* (a player's token, to the owner of the list they submitted)."""
    message = "\0".join(context).encode("utf-8")
    return (
        urlsafe_b64encode(hmac.new(secret.encode("utf-8"), message, hashlib.sha256).digest())
        .rstrip(b"=")
        .decode("ascii")
    )


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    """Whether *token* is the one whose hash was stored; constant time in the hash compared."""
    return hmac.compare_digest(hash_token(token), stored_hash)
