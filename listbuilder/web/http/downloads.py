"""Files the API answers with: a safe file name for a list or event, the Content-Disposition
header that carries it, and the verification-code header every roster download declares."""

from __future__ import annotations

import re
import unicodedata
from urllib.parse import quote

from flask import Response

from listbuilder.model import ArmyList

# The OpenAPI content of file answers: a PDF's bytes, a text's characters.
BINARY = {"type": "string", "format": "binary"}
TEXT = {"type": "string"}

CODE_HEADER = {
    "X-Verification-Code": {
        "description": "the list's verification code (K7QM-2XWD), as printed on every page",
        "schema": {"type": "string"},
    }
}


def download_name(army: ArmyList, suffix: str) -> str:
    """The list name as a safe file name (``Ember Host 2000.pdf``); ``roster.pdf`` if empty."""
    return file_name(army.name, suffix)


def file_name(text: str, suffix: str, default: str = "roster") -> str:
    """*text* as a safe file name with *suffix*; *default* when nothing printable is left."""
    name = unicodedata.normalize("NFKC", text)
    name = "".join(c for c in name if unicodedata.category(c)[0] not in "CZ" or c == " ")
    name = re.sub(r'[\\/:*?"<>|;,]+', " ", name)
    name = re.sub(r"\s+", " ", name).strip(" .")[:80].strip(" .")
    return f"{name or default}.{suffix}"


def content_disposition(kind: str, filename: str) -> str:
    # RFC 6266: an ASCII fallback for old clients and the UTF-8 name for everyone else.
    stem, _, suffix = filename.rpartition(".")
    plain = unicodedata.normalize("NFKD", stem).encode("ascii", "ignore").decode()
    plain = re.sub(r"\s+", " ", re.sub(r"[^A-Za-z0-9._ -]+", " ", plain)).strip(" .") or "roster"
    return f"{kind}; filename=\"{plain}.{suffix}\"; filename*=UTF-8''{quote(filename)}"


def no_content() -> Response:
    """A 204: no body, so no Content-Type either (Flask would name text/html, flask-smorest JSON)."""
    response = Response(status=204)
    del response.headers["Content-Type"]
    return response


def sheet_pdf(pdf: bytes, title: str) -> Response:
    """A printed sheet of the event day as a download named after *title*."""
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = content_disposition("attachment", file_name(title, "pdf", "sheet"))
    return response
