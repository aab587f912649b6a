"""The address people reach the service by, when it is configured, instead of the request's Host.

Behind a load balancer, several instances answer under one public name, but the ``Host``
header each instance sees may be an internal name, a port, or whatever a client chose to
send. Links the service hands out (a list's ``url``, ``share_url`` and ``edit_url``, an event's
``organiser_url``, the QR code printed on a saved list's roster) must not depend on it:
a link built from a forged Host would send a player's edit token to another site, and two
instances seen under different names would print different rosters of the same list. With
``LISTBUILDER_PUBLIC_URL`` (e.g. ``https://lists.example.org``) set, every request is seen as
made to that scheme, host and path prefix, so every link (and every cache key holding one)
is the same on every instance whatever Host was sent.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit


class PublicUrl:
    """WSGI middleware: the request's scheme, host and script root are the configured ones."""

    def __init__(self, app: Any, base_url: str):
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
            raise ValueError(f"LISTBUILDER_PUBLIC_URL must be http(s)://host[:port][/path], not {base_url!r}")
        self.app = app
        self.scheme, self.host, self.root = parts.scheme, parts.netloc, parts.path.rstrip("/")

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        environ["wsgi.url_scheme"] = self.scheme
        environ["HTTP_HOST"] = self.host
        environ["SCRIPT_NAME"] = self.root
        return self.app(environ, start_response)
