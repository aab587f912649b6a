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

SITE = render.site(["127.0.0.1:8001", "127.0.0.1:8002"], access_log="off")


def directives(name: str) -> list[str]:
    return re.findall(rf"^\s*{name}\s+([^;{{]*);", SITE, re.MULTILINE)


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


def test_every_name_of_a_template_is_filled_and_every_value_used():
    assert "{{" not in SITE
    with pytest.raises(ValueError, match="no value"):
        render.fill("{{a}} {{b}}", {"a": 1})
    with pytest.raises(ValueError, match="has no"):
        render.fill("{{a}}", {"a": 1, "b": 2})


def nginx_test(folder, site: str) -> subprocess.CompletedProcess[str]:
    """``nginx -t`` on the stack's main configuration with *site* beside it, in *folder*."""
    nginx = nginx_binary()
    assert nginx is not None
    (folder / "listbuilder.conf").write_text(site)
    user = f"{pwd.getpwuid(os.geteuid()).pw_name}" if os.geteuid() == 0 else None
    (folder / "nginx.conf").write_text(render.stack(folder, mime_types(nginx), user=user))
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
    assert site.count("Strict-Transport-Security 'max-age=31536000'") == 4 + len(render.NGINX_ERRORS)
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
