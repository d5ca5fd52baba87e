"""nginx in front of the benchmarks' app servers, from deploy/nginx.conf (the production file).

`render` fills the template's ``{{ placeholders }}`` (refusing a missing or a leftover one, so
the bench runs the file that ships); `Proxy` runs it as a child process with its own prefix,
temporary directories, cache and logs in a scratch directory, on a port of 127.0.0.1, and
stops it whatever happens. Standard library only.
"""

from __future__ import annotations

import getpass
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "deploy" / "nginx.conf"
PLACEHOLDER = re.compile(r"\{\{\s*([a-z_0-9]+)\s*\}\}")
NGINX = "/usr/sbin/nginx"


def render(values: dict[str, str], template: Path = TEMPLATE) -> str:
    text = template.read_text()
    wanted = set(PLACEHOLDER.findall(text))
    missing = wanted - set(values)
    if missing:
        raise ValueError(f"{template}: no value for {', '.join(sorted(missing))}")
    extra = set(values) - wanted
    if extra:
        raise ValueError(f"{template} has no placeholder {', '.join(sorted(extra))}")
    return PLACEHOLDER.sub(lambda m: values[m.group(1)], text)


def ensure_nginx() -> str:
    """The nginx binary; installed from Debian's package when missing and this runs as root
    (as the tests install Chromium), else the bench stops with what to do."""
    found = shutil.which("nginx") or (NGINX if Path(NGINX).exists() else None)
    if found:
        return found
    if os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "nginx-light"], check=True, env=env)
        found = shutil.which("nginx") or NGINX
        if Path(found).exists():
            return found
    sys.exit("nginx is not installed: apt-get install nginx-light (or nginx)")


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A throwaway certificate: the template's TLS lines need one even where the bench's
    listener is plain HTTP on 127.0.0.1."""
    cert, key = directory / "cert.pem", directory / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"]
        + ["-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"]
        + ["-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
    )
    return cert, key


class Proxy:
    """nginx on 127.0.0.1:`port` in front of `app_servers`, in `directory`."""

    def __init__(
        self,
        directory: Path,
        port: int,
        redirect_port: int,
        app_servers: list[str],
        static_root: Path,
    ) -> None:
        self.directory = directory
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi", "cache", "logs"):
            (directory / name).mkdir(parents=True, exist_ok=True)
        cert, key = self_signed(directory)
        self.access_log = directory / "logs" / "pulka-access.log"
        self.error_log = directory / "logs" / "pulka-error.log"
        self.config = directory / "nginx.conf"
        self.config.write_text(
            render(
                {
                    "user": getpass.getuser(),
                    "listen": f"127.0.0.1:{port}",
                    "redirect_listen": f"127.0.0.1:{redirect_port}",
                    "server_name": "127.0.0.1",
                    "certificate": str(cert),
                    "certificate_key": str(key),
                    "app_server_1": app_servers[0],
                    "app_server_2": app_servers[1],
                    "static_root": str(static_root),
                    "state_dir": str(directory),
                    "log_dir": str(directory / "logs"),
                }
            )
        )
        self.binary = ensure_nginx()
        self.process: subprocess.Popen | None = None

    def command(self, *extra: str) -> list[str]:
        return [self.binary, "-p", str(self.directory), "-c", str(self.config), *extra]

    def start(self) -> None:
        check = subprocess.run(self.command("-t", "-q"), capture_output=True, text=True)
        if check.returncode:
            sys.exit(f"nginx refuses deploy/nginx.conf:\n{check.stderr}")
        self.process = subprocess.Popen(
            self.command("-g", "daemon off;"),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                sys.exit(f"nginx stopped: {self.process.stderr.read().decode()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/static/", timeout=2):
                    return
            except urllib.error.HTTPError:
                return  # it answers (403/404 for the directory itself)
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        sys.exit("nginx did not answer within 15 s")

    def stop(self) -> None:
        process = self.process
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGQUIT)  # graceful: the workers finish their requests
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)

    def processes(self) -> list[int]:
        """The master's and its workers' pids (for their CPU time)."""
        if self.process is None:
            return []
        return [self.process.pid, *_children(self.process.pid)]


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]
