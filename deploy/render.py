"""Fill the deploy templates: the nginx site, the nginx.conf of ``make stack``, the systemd unit.

    python -m deploy.render nginx --root /srv/listbuilder --upstream 127.0.0.1:8001 --upstream 127.0.0.1:8002
    python -m deploy.render systemd --root /srv/listbuilder --user listbuilder

A template names each value as ``{{name}}``; every name must be given and every value used, so a
template and this script cannot drift apart silently. The body size cap and the security headers
come from the app itself (``listbuilder.web.MAX_BODY_BYTES``, ``listbuilder.web.http.security``),
never copied by hand; so is the version under which this release's static files are named
(``listbuilder.web.http.static_files``), computed from the files being served.

Brotli is turned on only where nginx has the module (Debian's ``libnginx-mod-http-brotli-filter``,
which ``make nginx`` installs where apt can): its directives would stop an nginx without it.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SITE_TEMPLATE = HERE / "nginx" / "listbuilder.conf.in"
STACK_TEMPLATE = HERE / "nginx" / "stack.conf.in"
UNIT_TEMPLATE = HERE / "systemd" / "listbuilder@.service.in"
_NAME = re.compile(r"\{\{(\w+)\}\}")
# Where Debian's nginx loads modules from (``--modules-path`` of ``nginx -V``).
MODULES = Path("/usr/lib/nginx/modules")
BROTLI_MODULE = "ngx_http_brotli_filter_module.so"
# What nginx compresses, gzip and brotli alike (text/html always is).
COMPRESSED_TYPES = (
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "image/svg+xml",
    "text/plain",
    "text/csv",
)
# The answers nginx makes itself (body too big, no instance answering, an instance too slow).
NGINX_ERRORS = {
    413: ("Payload Too Large", "the request body is larger than the service accepts"),
    502: ("Bad Gateway", "no instance of the service answered; try again"),
    503: ("Service Unavailable", "the service is not available; try again"),
    504: ("Gateway Timeout", "the service took too long to answer; try again"),
}


def fill(template: str, values: Mapping[str, object]) -> str:
    """*template* with each ``{{name}}`` replaced; ValueError for a name not given or a value not used."""
    names = set(_NAME.findall(template))
    if missing := names - set(values):
        raise ValueError(f"no value for {sorted(missing)}")
    if unused := set(values) - names:
        raise ValueError(f"the template has no {sorted(unused)}")
    return _NAME.sub(lambda m: str(values[m.group(1)]), template)


def _quoted(text: str) -> str:
    """*text* as one nginx string, taken as it is (no variables, no escapes)."""
    if "$" in text or "\\" in text or ("'" in text and '"' in text):
        raise ValueError(f"cannot quote {text!r} for nginx")
    return f"'{text}'" if "'" not in text else f'"{text}"'


def security_headers(hsts_seconds: int = 0) -> str:
    """``add_header`` lines for what nginx serves itself: the app's security headers, and HSTS
    when nginx terminates TLS (the app sends its own on what it answers)."""
    from listbuilder.web.http.security import HEADERS

    headers = dict(HEADERS)
    if hsts_seconds:
        headers["Strict-Transport-Security"] = f"max-age={int(hsts_seconds)}"
    return "\n".join(f"        add_header {name} {_quoted(value)} always;" for name, value in headers.items())


def error_pages(hsts_seconds: int = 0) -> str:
    """``error_page`` lines and one named location per status, answering in the API's error shape."""
    from listbuilder.web.http.errors import error_body

    lines = []
    for status, (name, message) in NGINX_ERRORS.items():
        body = json.dumps(error_body(status, name, message, {"(request)": [message]}), separators=(",", ":"))
        lines += [
            f"    error_page {status} @error_{status};",
            f"    location @error_{status} {{",
            "        default_type application/json;",
            security_headers(hsts_seconds),
            f"        return {status} {_quoted(body)};",
            "    }",
        ]
    return "\n".join(lines)


def brotli_module(modules: Path = MODULES) -> Path | None:
    """The brotli filter module in the folder *modules* nginx loads modules from, if it is there."""
    module = Path(modules) / BROTLI_MODULE
    return module if module.is_file() else None


def brotli(on: bool) -> tuple[str, str]:
    """The site's brotli lines (for the server, and to turn it off where gzip is off); empty when off."""
    if not on:
        return "", ""
    types = " ".join(COMPRESSED_TYPES)
    server = "\n".join(
        ["    brotli on;", "    brotli_comp_level 5;", "    brotli_min_length 1024;", f"    brotli_types {types};"]
    )
    return server, "        brotli off;"


def site(
    upstreams: Iterable[str],
    listen: str = "80",
    server_name: str = "_",
    static_root: Path = ROOT / "static",
    access_log: str = "/var/log/nginx/listbuilder.access.log",
    hsts_seconds: int = 0,
    tls: tuple[Path, Path] | None = None,
    compress_brotli: bool | None = None,
) -> str:
    """The nginx site: an upstream of *upstreams* (``host:port``) and the server in front of them.

    *compress_brotli*: brotli beside gzip (None: when Debian's module file is installed here).

    *tls*: (certificate, key) files: the server listens with TLS (*listen* should say ``443 ssl``),
    plain HTTP on port 80 is sent there (301), and what nginx answers itself carries HSTS for
    *hsts_seconds* (one year unless given; the app sends its own when LISTBUILDER_PUBLIC_URL is
    ``https://``)."""
    from listbuilder.web import MAX_BODY_BYTES

    tls_lines = redirect = ""
    if tls:
        hsts_seconds = hsts_seconds or 365 * 24 * 3600
        tls_lines = "\n".join(
            [
                f"    ssl_certificate {Path(tls[0]).resolve()};",
                f"    ssl_certificate_key {Path(tls[1]).resolve()};",
                "    ssl_protocols TLSv1.2 TLSv1.3;",
                "    ssl_session_cache shared:listbuilder_tls:10m;",
                "    ssl_session_timeout 1d;",
            ]
        )
        redirect = "\n".join(
            [
                "server {",
                "    listen 80;",
                f"    server_name {server_name};",
                "    server_tokens off;",
                "    return 301 https://$host$request_uri;",
                "}",
            ]
        )

    from listbuilder.web.http.static_files import static_version

    servers = [f"    server {address} max_fails=1 fail_timeout=3s;" for address in upstreams]
    if not servers:
        raise ValueError("at least one upstream instance")
    if compress_brotli is None:
        compress_brotli = brotli_module() is not None
    brotli_server, brotli_off = brotli(compress_brotli)
    return fill(
        SITE_TEMPLATE.read_text(),
        {
            "upstream_servers": "\n".join(servers),
            "listen": listen,
            "server_name": server_name,
            "access_log": access_log if access_log == "off" else f"{access_log} listbuilder",
            "max_body_bytes": MAX_BODY_BYTES,
            "static_root": Path(static_root).resolve(),
            "static_version": static_version(str(Path(static_root).resolve())),
            "compressed_types": " ".join(COMPRESSED_TYPES),
            "brotli": brotli_server,
            "brotli_off": brotli_off,
            "static_headers": security_headers(hsts_seconds),
            "error_pages": error_pages(hsts_seconds),
            "tls": tls_lines,
            "http_redirect": redirect,
        },
    )


def stack(
    folder: Path, mime_types: Path, user: str | None = None, worker_processes: str = "auto", modules: Path = MODULES
) -> str:
    """A whole nginx.conf writing everything into *folder*, which must hold the site as
    ``listbuilder.conf``. *user*: the ``user`` directive (only when nginx starts as root).
    *modules*: the folder nginx loads modules from; its brotli module is loaded when there (as
    ``site`` turns brotli on when it is)."""
    module = brotli_module(modules)
    return fill(
        STACK_TEMPLATE.read_text(),
        {
            "user": f"user {user};" if user else "",
            "load_modules": f"load_module {module};" if module else "",
            "worker_processes": worker_processes,
            "folder": Path(folder).resolve(),
            "mime_types": mime_types,
        },
    )


def unit(
    root: Path = ROOT,
    user: str = "listbuilder",
    group: str | None = None,
    environment_file: str = "/etc/listbuilder/environment",
) -> str:
    """The systemd template unit ``listbuilder@.service`` for the checkout at *root*."""
    return fill(
        UNIT_TEMPLATE.read_text(),
        {"root": Path(root).resolve(), "user": user, "group": group or user, "environment_file": environment_file},
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m deploy.render", description=__doc__.split("\n\n")[0])
    kinds = parser.add_subparsers(dest="kind", required=True)
    nginx = kinds.add_parser("nginx", help="the nginx site (an http {} block's server and upstream)")
    nginx.add_argument("--root", type=Path, default=ROOT, help="the checkout (its static/ is served)")
    nginx.add_argument("--upstream", action="append", required=True, help="host:port of an instance (repeat)")
    nginx.add_argument("--listen", default="80", help="nginx's listen directive (e.g. 80, '443 ssl')")
    nginx.add_argument("--server-name", default="_")
    nginx.add_argument("--access-log", default="/var/log/nginx/listbuilder.access.log")
    nginx.add_argument("--tls-certificate", type=Path, help="TLS: the certificate chain (with --tls-key)")
    nginx.add_argument("--tls-key", type=Path, help="TLS: the certificate's private key")
    nginx.add_argument("--hsts-seconds", type=int, default=0, help="HSTS on what nginx serves (TLS: one year)")
    nginx.add_argument(
        "--brotli",
        choices=["auto", "on", "off"],
        default="auto",
        help=f"brotli beside gzip (auto: when {MODULES / BROTLI_MODULE} exists; nginx must load it)",
    )
    systemd = kinds.add_parser("systemd", help="the template unit listbuilder@.service")
    systemd.add_argument("--root", type=Path, default=ROOT, help="the checkout (with its .venv)")
    systemd.add_argument("--user", default="listbuilder")
    systemd.add_argument("--group")
    systemd.add_argument("--environment-file", default="/etc/listbuilder/environment")
    args = parser.parse_args(argv)
    if args.kind == "nginx":
        if bool(args.tls_certificate) != bool(args.tls_key):
            parser.error("--tls-certificate and --tls-key go together")
        tls = (args.tls_certificate, args.tls_key) if args.tls_certificate else None
        listen = "443 ssl" if tls and args.listen == "80" else args.listen
        static = args.root / "static"
        compress = None if args.brotli == "auto" else args.brotli == "on"
        served = site(
            args.upstream, listen, args.server_name, static, args.access_log, args.hsts_seconds, tls, compress
        )
        print(served, end="")
    else:
        print(unit(args.root, args.user, args.group, args.environment_file), end="")


if __name__ == "__main__":
    main()
