"""gunicorn still writes the errors it answers itself through ``listbuilder.compat.gunicorn``."""

from __future__ import annotations

import os
import socket

from gunicorn import util
from gunicorn.config import Config
from gunicorn.glogging import Logger
from gunicorn.http.errors import LimitRequestLine
from gunicorn.workers.base import Worker

from listbuilder.compat.gunicorn import answer_errors_with


def test_a_workers_error_answer_goes_through_our_response(monkeypatch):
    monkeypatch.setattr(util, "write_error", util.write_error)  # put gunicorn's back afterwards
    asked = []
    answer_errors_with(
        lambda status, reason, message: asked.append((status, reason)) or b"HTTP/1.1 %d X\r\n\r\n{}" % status
    )
    config = Config()
    worker = Worker(age=0, ppid=os.getpid(), sockets=[], app=None, timeout=30, cfg=config, log=Logger(config))
    ours, theirs = socket.socketpair()
    with ours, theirs:
        worker.handle_error(None, ours, ("127.0.0.1", 5), LimitRequestLine(5000, 4094))
        assert theirs.recv(100) == b"HTTP/1.1 414 X\r\n\r\n{}"
    worker.tmp.close()
    assert asked == [(414, "URI Too Long")]


def test_a_response_gunicorn_writes_names_no_server(monkeypatch):
    from gunicorn.http import wsgi
    from gunicorn.http.parser import RequestParser

    from listbuilder.compat.gunicorn import hide_server_header

    monkeypatch.setattr(wsgi.Response, "default_headers", wsgi.Response.default_headers)  # gunicorn's back afterwards
    hide_server_header()
    hide_server_header()  # once is enough: a second call wraps nothing again
    config = Config()
    client, server = socket.socketpair()
    with client, server:
        client.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
        request = next(iter(RequestParser(config, server, ("127.0.0.1", 5))))
        response, _ = wsgi.create(request, server, ("127.0.0.1", 5), ("127.0.0.1", 80), config)
        response.start_response("200 OK", [("Content-Length", "2")])
        response.write(b"ok")
        head = client.recv(4096).split(b"\r\n\r\n")[0].decode("latin-1").split("\r\n")
    assert head[0] == "HTTP/1.1 200 OK" and any(line.startswith("Date:") for line in head)
    assert not any(line.lower().startswith("server:") for line in head)


def test_a_whole_body_leaves_with_its_head_in_one_write(monkeypatch):
    from gunicorn.http import wsgi
    from gunicorn.http.parser import RequestParser

    from listbuilder.compat.gunicorn import hide_server_header, write_head_with_body

    monkeypatch.setattr(wsgi.Response, "default_headers", wsgi.Response.default_headers)  # gunicorn's back afterwards
    monkeypatch.setattr(wsgi.Response, "write", wsgi.Response.write)
    hide_server_header()
    write_head_with_body()
    write_head_with_body()  # once is enough
    config = Config()
    writes: list[bytes] = []
    client, server = socket.socketpair()
    with client, server:
        client.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n" * 2)
        requests = iter(RequestParser(config, server, ("127.0.0.1", 5)))
        monkeypatch.setattr(util, "write", lambda sock, data, chunked=False: writes.append(data))
        for length, pieces in ((2, [b"ok"]), (None, [b"o", b"k"])):  # whole, then streamed (chunked)
            response, _ = wsgi.create(next(requests), server, ("127.0.0.1", 5), ("127.0.0.1", 80), config)
            response.start_response("200 OK", [("Content-Length", str(length))] if length else [])
            for piece in pieces:
                response.write(piece)
    head, _, body = writes[0].partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 OK\r\n") and b"Content-Length: 2" in head and body == b"ok"
    assert not any(line.lower().startswith(b"server:") for line in head.split(b"\r\n"))
    assert len(writes) > 2 and writes[1].startswith(b"HTTP/1.1 200 OK")  # chunked: head alone, then each chunk
