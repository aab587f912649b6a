"""The deploy templates as rendered (deploy/render.py): the settings the issue asks for, the
body cap taken from the app, the unit checked by systemd itself where systemd-analyze exists."""

from __future__ import annotations

import os
import pwd
import re
import shutil
import subprocess

import pytest

from deploy import render
from deploy.stack import mime_types, nginx_binary
from listbuilder.web import MAX_BODY_BYTES
from listbuilder.web.http.static_files import IMMUTABLE, REVALIDATE, static_version

SITE = render.site(["127.0.0.1:8001", "127.0.0.1:8002"], access_log="off")


def directives(name: str, site: str = SITE) -> list[str]:
    return re.findall(rf"^\s*{name}\s+([^;{{]*);", site, re.MULTILINE)


def location(match: str, site: str = SITE) -> str:
    """The body of the site's ``location <match> { ... }`` (one level: no nested blocks)."""
    found = re.search(rf"^\s*location {re.escape(match)} {{\n(.*?)^\s*}}", site, re.MULTILINE | re.DOTALL)
    assert found, f"no location {match}"
    return found.group(1)


def test_the_site_caps_bodies_as_the_app_does_and_buffers_them():
    assert directives("client_max_body_size") == [str(MAX_BODY_BYTES)]
    assert directives("proxy_request_buffering") == ["on"] and directives("client_body_buffer_size")
    assert directives("client_header_timeout") and directives("client_body_timeout")


def test_the_site_keeps_connections_to_two_instances_and_retries_only_idempotent_requests():
    assert len(directives("server")) == 2 and directives("keepalive") == ["32"]
    assert directives("proxy_http_version") == ["1.1"] and directives("proxy_set_header Connection") == ['""']
    assert directives("proxy_next_upstream") == ["error timeout"]  # no non_idempotent
    assert directives("proxy_set_header X-Forwarded-For") == ["$proxy_add_x_forwarded_for"]
    assert directives("server_tokens") == ["off"] and directives("gzip") == ["on", "off"]


def test_this_releases_static_files_are_kept_a_year_and_every_other_name_five_minutes():
    """The prefix is the version the app puts in its pages, computed from the files served."""
    version = static_version(str(render.ROOT / "static"))
    current = location(f"^~ /static/{version}/")
    assert f'add_header Cache-Control "{IMMUTABLE}" always;' in current
    assert f"alias {render.ROOT / 'static'}/;" in current
    assert f'add_header Cache-Control "{REVALIDATE}" always;' in location("/static/")
    other = location('~ "^/static/[0-9a-f]{16}/"')  # another release's version: to the plain name
    assert 'rewrite "^/static/[0-9a-f]{16}/(.*)$" /static/$1 last;' in other and "immutable" not in other
    for worker_file in ("= /sw.js", "= /manifest.webmanifest", "= /favicon.ico"):
        assert 'add_header Cache-Control "no-cache" always;' in location(worker_file)


def test_brotli_compresses_what_gzip_does_and_is_off_where_gzip_is():
    site = render.site(["127.0.0.1:8001"], access_log="off", compress_brotli=True)
    assert directives("brotli", site) == ["on", "off"] and directives("gzip", site) == ["on", "off"]
    assert directives("brotli_types", site) == directives("gzip_types", site) == [" ".join(render.COMPRESSED_TYPES)]
    assert "brotli off;" in location("/api/v1/lists", site)  # strong ETags stay strong
    plain = render.site(["127.0.0.1:8001"], access_log="off", compress_brotli=False)
    assert not directives(r"brotli\w*", plain)  # an nginx without the module would refuse them


def test_brotli_is_loaded_and_turned_on_only_where_its_module_is(tmp_path):
    mime = tmp_path / "mime.types"
    assert "load_module" not in render.stack(tmp_path, mime, modules=tmp_path)
    assert render.brotli_module(tmp_path) is None
    (tmp_path / render.BROTLI_MODULE).write_bytes(b"")
    assert render.brotli_module(tmp_path) == tmp_path / render.BROTLI_MODULE
    assert f"load_module {tmp_path / render.BROTLI_MODULE};" in render.stack(tmp_path, mime, modules=tmp_path)


def test_the_command_line_chooses_brotli_or_leaves_it_to_the_module_file(capsys):
    for choice, expected in (("on", ["on", "off"]), ("off", [])):
        render.main(["nginx", "--upstream", "127.0.0.1:8001", "--brotli", choice])
        assert directives("brotli", capsys.readouterr().out) == expected, choice
    render.main(["nginx", "--upstream", "127.0.0.1:8001"])
    assert bool(directives("brotli", capsys.readouterr().out)) == (render.brotli_module() is not None)


def test_every_name_of_a_template_is_filled_and_every_value_used():
    assert "{{" not in SITE
    with pytest.raises(ValueError, match="no value"):
        render.fill("{{a}} {{b}}", {"a": 1})
    with pytest.raises(ValueError, match="has no"):
        render.fill("{{a}}", {"a": 1, "b": 2})


def nginx_test(folder, site: str, modules=render.MODULES) -> subprocess.CompletedProcess[str]:
    """``nginx -t`` on the stack's main configuration with *site* beside it, in *folder*."""
    nginx = nginx_binary()
    assert nginx is not None
    (folder / "listbuilder.conf").write_text(site)
    user = f"{pwd.getpwuid(os.geteuid()).pw_name}" if os.geteuid() == 0 else None
    (folder / "nginx.conf").write_text(render.stack(folder, mime_types(nginx), user=user, modules=modules))
    return subprocess.run(
        [nginx, "-t", "-p", str(folder), "-c", str(folder / "nginx.conf"), "-e", str(folder / "error.log")],
        capture_output=True,
        text=True,
        timeout=30,
    )


@pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed (make nginx installs Debian's)")
def test_nginx_accepts_the_stack_configuration(tmp_path):
    checked = nginx_test(
        tmp_path,
        render.site(["127.0.0.1:8001"], listen="127.0.0.1:8000", access_log=str(tmp_path / "a.log"), hsts_seconds=60),
    )
    assert checked.returncode == 0, checked.stderr


@pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed (make nginx installs Debian's)")
def test_nginx_accepts_the_site_without_brotli_where_the_module_is_missing(tmp_path):
    no_modules = tmp_path / "modules"
    no_modules.mkdir()
    site = render.site(["127.0.0.1:8001"], listen="127.0.0.1:8000", access_log="off", compress_brotli=False)
    checked = nginx_test(tmp_path, site, modules=no_modules)
    assert checked.returncode == 0, checked.stderr
    assert "load_module" not in (tmp_path / "nginx.conf").read_text()


@pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed (make nginx installs Debian's)")
@pytest.mark.skipif(render.brotli_module() is None, reason=f"no brotli module in {render.MODULES} (make nginx)")
def test_nginx_accepts_the_site_with_brotli_where_the_module_is(tmp_path):
    site = render.site(["127.0.0.1:8001"], listen="127.0.0.1:8000", access_log="off", compress_brotli=True)
    checked = nginx_test(tmp_path, site)
    assert checked.returncode == 0, checked.stderr
    assert "load_module" in (tmp_path / "nginx.conf").read_text()


@pytest.mark.skipif(nginx_binary() is None, reason="nginx is not installed (make nginx installs Debian's)")
@pytest.mark.skipif(shutil.which("openssl") is None, reason="no openssl command to make a test certificate")
def test_nginx_accepts_the_site_with_tls_and_sends_hsts_on_what_it_serves(tmp_path):
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=lists.example.org"]
        + ["-keyout", str(key), "-out", str(cert)],
        capture_output=True,
        check=True,
        timeout=60,
    )
    site = render.site(["127.0.0.1:8001"], listen="443 ssl", access_log="off", tls=(cert, key))
    # five locations from disk (this release's static files, plain ones, /sw.js, the manifest, the icon)
    assert site.count("Strict-Transport-Security 'max-age=31536000'") == 5 + len(render.NGINX_ERRORS)
    assert "return 301 https://$host$request_uri;" in site
    checked = nginx_test(tmp_path, site)
    assert checked.returncode == 0, checked.stderr


@pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed (a machine without systemd)"
)
def test_systemd_accepts_the_instance_unit(tmp_path):
    unit = tmp_path / "listbuilder@.service"
    unit.write_text(render.unit(user=pwd.getpwuid(os.geteuid()).pw_name))
    checked = subprocess.run(
        ["systemd-analyze", "verify", str(tmp_path / "listbuilder@8001.service")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    # verify exits 0 for settings it ignores, naming the file: none may be named
    assert checked.returncode == 0 and "listbuilder@" not in checked.stderr + checked.stdout, checked.stderr
