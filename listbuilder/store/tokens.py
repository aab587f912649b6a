"""Random ids and edit tokens, and how tokens are kept: only as a hash, compared in constant time.

An edit token is 256 random bits, so a plain SHA-256 of it is as strong as a slow password hash
would be (nobody can guess their way through 2**256 candidates); a database leak therefore does
not leak the power to edit. Ids are 96 random bits: unguessable, so a list is read only by
whoever was given its link.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

ID_BYTES = 12      # 96 bits -> 16 URL-safe characters
TOKEN_BYTES = 32   # 256 bits -> 43 URL-safe characters


def new_id() -> str:
    return secrets.token_urlsafe(ID_BYTES)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    """Whether *token* is the one whose hash was stored; constant time in the hash compared."""
    return hmac.compare_digest(hash_token(token), stored_hash)
