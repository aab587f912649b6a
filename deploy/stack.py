"""``make stack``: the production stack on this machine, in the foreground, until Ctrl-C.

nginx on ``--port`` in front of ``--instances`` gunicorn instances (two by default) on free
loopback ports, each run as ``make run`` runs one (``listbuilder.web.serving``) with
``LISTBUILDER_PROXY_HOPS=1``; ``DATABASE_URL`` and ``REDIS_URL`` from the environment when set.
nginx runs as the current user (``-p <folder> -c <folder>/nginx.conf -g 'daemon off;'``), every file
it writes (pid, logs, buffered bodies) in a temporary folder removed at the end.

Ctrl-C (SIGINT) or SIGTERM stops nginx, then the instances, then removes the folder. An
instance that dies meanwhile is started again on its port (as systemd's ``Restart=always``
does in production); nginx dying stops everything. Each child asks the kernel for SIGTERM when
this process dies, so even a killed supervisor leaves nothing behind.

The stack tests (tests/deploy) start the same ``Stack`` on free ports and kill, restart and
read its parts.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import grp
import http.client
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO

from deploy import render

ROOT = render.ROOT
KEEP_ALIVE_SECONDS = 75  # the instances' --keep-alive: above the upstream keepalive_timeout of the nginx site
HEALTH = "/api/v1/health"


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port on *host* that nothing listens on now."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def nginx_binary() -> str | None:
    """``$NGINX``, else nginx on PATH or in the sbin folders (Debian installs it in /usr/sbin)."""
    if os.environ.get("NGINX"):
        return os.environ["NGINX"]
    path = os.pathsep.join([os.environ.get("PATH", ""), "/usr/local/sbin", "/usr/sbin", "/sbin"])
    return shutil.which("nginx", path=path)


def _built_path(nginx: str, option: str, default: str) -> Path:
    """A path this nginx was built with (``--conf-path`` and such, from ``nginx -V``)."""
    built = subprocess.run([nginx, "-V"], capture_output=True, text=True, timeout=10).stderr
    found = re.search(rf"--{option}=(\S+)", built)
    return Path(found.group(1) if found else default)


def mime_types(nginx: str) -> Path:
    """The mime.types beside the nginx.conf this nginx was built to read."""
    return _built_path(nginx, "conf-path", "/etc/nginx/nginx.conf").with_name("mime.types")


def modules_folder(nginx: str) -> Path:
    """The folder this nginx loads dynamic modules from (brotli's, when installed)."""
    return _built_path(nginx, "modules-path", str(render.MODULES))


def answers(port: int, path: str = HEALTH, timeout: float = 2) -> bool:
    """True when 127.0.0.1:*port* answers GET *path* with 200."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        return conn.getresponse().status == 200
    except (OSError, http.client.HTTPException):
        return False
    finally:
        conn.close()


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class Stack:
    """nginx on *port* in front of *instances* gunicorn instances on free loopback ports.

    *env* adds to every instance's environment (``LISTBUILDER_*`` settings); *database_url* and
    *redis_url* are passed as ``DATABASE_URL`` and ``REDIS_URL`` (unset: SQLite in the instance
    folder, no Redis). *output* receives what the children print (None: this process's own).
    ``start()`` returns once nginx and every instance answer ``/api/v1/health``, else raises
    RuntimeError; ``stop()`` ends all of it. Use it as a context manager.
    """

    def __init__(
        self,
        port: int | None = None,
        host: str = "127.0.0.1",
        instances: int = 2,
        workers: int | None = None,
        database_url: str | None = None,
        redis_url: str | None = None,
        env: dict[str, str] | None = None,
        output: IO[bytes] | None = None,
        start_timeout: float = 90,
    ):
        nginx = nginx_binary()
        if nginx is None:
            raise FileNotFoundError("nginx is not installed (make nginx installs Debian's)")
        self.nginx_path = nginx
        self.host, self.port = host, port or free_port(host)
        self.ports = [free_port() for _ in range(instances)]
        self.workers, self.output, self.start_timeout = workers, output, start_timeout
        self.env = {**os.environ, "LISTBUILDER_PROXY_HOPS": "1", **(env or {})}
        for name, value in (("DATABASE_URL", database_url), ("REDIS_URL", redis_url)):
            if value:
                self.env[name] = value
        self.folder = Path(tempfile.mkdtemp(prefix="listbuilder-stack-"))
        self.instances: list[subprocess.Popen[bytes] | None] = [None] * instances
        self.nginx: subprocess.Popen[bytes] | None = None

    # -- the parts ---------------------------------------------------------------------------

    def _spawn(self, command: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=self.output,
            stderr=self.output,
            stdin=subprocess.DEVNULL,
            start_new_session=True,  # a group of its own: Ctrl-C reaches the supervisor, which stops it in order
            preexec_fn=_die_with_parent,
        )

    def start_instance(self, index: int) -> None:
        """Start instance *index* on its port (again, after it died or was killed)."""
        command = [str(Path(sys.executable).with_name("gunicorn")), "--config", "python:listbuilder.web.serving"]
        if self.workers:
            command += ["--workers", str(self.workers)]
        command += ["--bind", f"127.0.0.1:{self.ports[index]}", "--keep-alive", str(KEEP_ALIVE_SECONDS), "wsgi:app"]
        self.instances[index] = self._spawn(command, self.env)

    def wait_for_instance(self, index: int, timeout: float | None = None) -> None:
        """Until instance *index* answers ``/api/v1/health`` itself; RuntimeError if it dies or times out."""
        self._wait(lambda: self.instances[index], self.ports[index], f"instance {index}", timeout)

    def kill_instance(self, index: int) -> None:
        """SIGKILL to instance *index*'s master and workers at once (a machine losing power)."""
        process = self.instances[index]
        if process is not None and process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=15)

    def restart_instance(self, index: int) -> None:
        """Kill instance *index* if it runs, start it again on the same port and wait until it answers."""
        self.kill_instance(index)
        self.start_instance(index)
        self.wait_for_instance(index)

    def _write_nginx_conf(self) -> Path:
        upstreams = [f"127.0.0.1:{port}" for port in self.ports]
        listen = f"{self.host}:{self.port}" if ":" not in self.host else f"[{self.host}]:{self.port}"
        modules = modules_folder(self.nginx_path)
        site = render.site(
            upstreams,
            listen=listen,
            server_name="_",
            access_log=str(self.access_log),
            compress_brotli=render.brotli_module(modules) is not None,
        )
        (self.folder / "listbuilder.conf").write_text(site)
        user = None
        if os.geteuid() == 0:  # nginx's workers would run as nobody, who cannot write in our folder
            user = f"{pwd.getpwuid(os.geteuid()).pw_name} {grp.getgrgid(os.getegid()).gr_name}"
        conf = self.folder / "nginx.conf"
        conf.write_text(
            render.stack(self.folder, mime_types(self.nginx_path), user=user, worker_processes="2", modules=modules)
        )
        return conf

    @property
    def access_log(self) -> Path:
        """nginx's access log: one line per request, naming the instance that answered it."""
        return self.folder / "access.log"

    @property
    def error_log(self) -> Path:
        return self.folder / "error.log"

    def start_nginx(self) -> None:
        conf = self._write_nginx_conf()
        command = [self.nginx_path, "-p", str(self.folder), "-c", str(conf), "-e", str(self.error_log)]
        checked = subprocess.run([*command, "-t", "-q"], capture_output=True, text=True, timeout=30)
        if checked.returncode:
            raise RuntimeError(f"nginx refused the configuration:\n{checked.stderr}")
        self.nginx = self._spawn([*command, "-g", "daemon off;"])
        self._wait(lambda: self.nginx, self.port, "nginx", None)

    def _wait(self, process: object, port: int, name: str, timeout: float | None) -> None:
        deadline = time.monotonic() + (timeout or self.start_timeout)
        while time.monotonic() < deadline:
            running = process()  # type: ignore[operator]
            if running is None or running.poll() is not None:
                raise RuntimeError(f"{name} stopped while starting{self._log_tail()}")
            if answers(port):
                return
            time.sleep(0.1)
        raise RuntimeError(
            f"{name} did not answer on port {port} in {timeout or self.start_timeout:g} s{self._log_tail()}"
        )

    def _log_tail(self) -> str:
        with contextlib.suppress(OSError):
            return ":\n" + self.error_log.read_text()[-2000:]
        return ""

    # -- the whole ---------------------------------------------------------------------------

    def start(self) -> Stack:
        try:
            # The first instance makes or upgrades the database's tables before the others
            # start: two migrating one new SQLite file at once can fail ("database is locked").
            self.start_instance(0)
            self.wait_for_instance(0)
            for index in range(1, len(self.instances)):
                self.start_instance(index)
            for index in range(1, len(self.instances)):
                self.wait_for_instance(index)
            self.start_nginx()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        """nginx first (no new request reaches an instance), then every instance; the folder last."""
        if self.nginx is not None:
            _end(self.nginx, signal.SIGQUIT, 10)
        for process in self.instances:
            if process is not None:
                _end(process, signal.SIGTERM, 15)
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Stack:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _end(process: subprocess.Popen[bytes], sig: int, timeout: float) -> None:
    """*sig* to the process's group, SIGKILL to whatever of the group is left after *timeout*."""
    with contextlib.suppress(ProcessLookupError):
        if process.poll() is None:
            os.killpg(process.pid, sig)
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                pass
        os.killpg(process.pid, signal.SIGKILL)  # workers the master left behind
    process.wait(timeout=15)


def supervise(stack: Stack, stopping: threading.Event) -> int:
    """Until *stopping* is set: an instance that died is started again, nginx dying ends the stack."""
    while not stopping.wait(0.5):
        if stack.nginx is not None and stack.nginx.poll() is not None:
            print(f"stack: nginx stopped (exit {stack.nginx.returncode}); stopping everything", file=sys.stderr)
            return 1
        for index, process in enumerate(stack.instances):
            if process is not None and process.poll() is not None:
                print(
                    f"stack: instance {index} stopped (exit {process.returncode}); starting it again", file=sys.stderr
                )
                stack.start_instance(index)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m deploy.stack", description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1", help="nginx listens on this address")
    parser.add_argument("--port", type=int, default=8000, help="nginx listens on this port")
    parser.add_argument("--instances", type=int, default=2, help="gunicorn instances behind nginx")
    parser.add_argument("--workers", type=int, help="worker processes per instance (default: WEB_CONCURRENCY)")
    args = parser.parse_args(argv)
    if not os.environ.get("DATABASE_URL"):
        print("stack: DATABASE_URL is unset: every instance uses the SQLite file in instance/", file=sys.stderr)
    if not os.environ.get("REDIS_URL"):
        print(
            "stack: REDIS_URL is unset: the instances do not share rate-limit counts or the roster cache "
            "(each worker counts and caches alone)",
            file=sys.stderr,
        )
    stopping = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stopping.set())
    try:
        stack = Stack(port=args.port, host=args.host, instances=args.instances, workers=args.workers)
    except FileNotFoundError as error:
        print(f"stack: {error}", file=sys.stderr)
        return 1
    try:
        stack.start()
    except RuntimeError as error:
        print(f"stack: {error}", file=sys.stderr)
        return 1
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(
        f"stack: nginx on http://{shown}:{stack.port}/ in front of instances on 127.0.0.1 ports "
        f"{', '.join(map(str, stack.ports))}\nstack: nginx's logs in {stack.folder} (removed at the end); Ctrl-C stops all",
        file=sys.stderr,
        flush=True,
    )
    try:
        return supervise(stack, stopping)
    finally:
        print("stack: stopping", file=sys.stderr, flush=True)
        stack.stop()
        print("stack: stopped", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
