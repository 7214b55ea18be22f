"""Starts stand-ins (infra/stand_in.py) on free loopback ports for the tests
and the benchmark, and talks to them with boto3."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import boto3
from botocore.config import Config

INFRA = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STAND_IN = os.path.join(INFRA, "stand_in.py")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class StandIn:
    """One stand-in process. `flags`: extra arguments (--no-patch, --state F)."""

    def __init__(self, *flags: str, log_path: str | None = None, nice: int = 0) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._temp_log = log_path is None
        if log_path is None:
            fd, log_path = tempfile.mkstemp(prefix=f"stand-in-{self.port}-", suffix=".log")
            os.close(fd)
        self.log_path = log_path
        self._log = open(self.log_path, "wb")
        cmd = [sys.executable, STAND_IN, "127.0.0.1", str(self.port), *flags]
        self.proc = subprocess.Popen(
            cmd, stdout=self._log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            preexec_fn=(lambda: os.nice(nice)) if nice else None,
        )
        self._wait_ready()

    def _wait_ready(self, seconds: float = 120) -> None:
        deadline = time.time() + seconds
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"stand-in exited with {self.proc.returncode}:\n{self.log()}")
            try:
                urllib.request.urlopen(self.url + "/moto-api/", timeout=2)
                return
            except urllib.error.HTTPError:
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"stand-in did not answer in {seconds} s:\n{self.log()}")

    def log(self) -> str:
        if not self._log.closed:
            self._log.flush()
        with open(self.log_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def status(self) -> dict:
        with urllib.request.urlopen(self.url + "/_stand_in/status", timeout=10) as r:
            return json.load(r)

    def client(self, service: str = "dynamodb", **config: object):
        return boto3.session.Session().client(
            service,
            endpoint_url=self.url,
            region_name="eu-north-1",
            aws_access_key_id="testing",
            aws_secret_access_key="testing",
            config=Config(retries={"max_attempts": 1, "mode": "standard"}, **config),
        )

    def rss_bytes(self) -> tuple[int, int]:
        """(current RSS, peak RSS) of the stand-in process, in bytes."""
        fields = {}
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    fields[key] = int(value.split()[0]) * 1024
        return fields["VmRSS"], fields["VmHWM"]

    def stop(self, timeout: float = 120) -> int:
        """SIGTERM (a stand-in with --state saves first), then wait."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if not self._log.closed:
            self._log.close()
        if self._temp_log and os.path.exists(self.log_path):
            os.unlink(self.log_path)
        return self.proc.returncode
