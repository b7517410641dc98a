"""Proxy check: deploy/nginx.conf and deploy/Caddyfile run for real in front of two daphne processes.

    .venv/bin/python bench/proxy_check.py [--proxy nginx,caddy] [--tables 6] [--seconds 30]
        [--port 8260] [--redis-port 8275] [--database-url postgres://.../mayi_proxy]

For each proxy, the config shipped in deploy/ with only its addresses changed (ports of the
run's own on 127.0.0.1, a certificate for "localhost": self-signed by openssl for nginx, Caddy's
own local CA, the static folder of this checkout) in front of two daphne processes started as
deploy/Procfile starts them (``--proxy-headers``), a Celery worker and the beat, on PostgreSQL
and a redis-server of the run's own. Then, each printed with its result:

- ``redirect``: plain HTTP answers a redirect to HTTPS;
- ``pages``: the home page, the API and a static file over HTTPS, with HSTS;
- ``forwarded_for``: the address the site sees is the proxy's peer, whatever X-Forwarded-For
  a client sends: sign-up posts, each with a new spoofed address, are limited per address all
  the same (``MAYI_RATE_SIGNUP_IP=3/3600``: the fourth answers 429);
- ``body_2_8_mb``: a 2.8 MB body passes the proxy and the site answers its own 413 in the
  error shape;
- ``sockets_spread``: every seat's websocket upgraded through the proxy, and both daphne
  processes hold some of them;
- ``tables_together``: each table's sockets and requests all reached one daphne process (the
  proxies route by the table's id in the path), by the processes' access logs before the
  restart below;
- ``play``: bot clients (bench/harness.py) play ``--tables`` tables of 4 over HTTPS and wss
  for ``--seconds``; a third of the way in daphne0 is stopped and started again: the
  proxy sends requests to daphne1, the sockets reconnect through the proxy. Then the drills'
  check: no acknowledged move lost, none applied twice, every deadline fired once, every
  table replays from its seed; and the answers' statuses (a POST caught mid-way by the
  restart may answer 502: the proxy does not resend a POST, and the client's retry at the
  same version is refused as stale if it had applied).

Exit status 0 when every check of every proxy held. Needs ``nginx`` and ``caddy`` on PATH
(Debian: ``apt-get install nginx caddy``) and ``openssl``; started processes run in the
foreground of this script and are stopped at the end. Bounded: about --seconds + 60 s a proxy.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import (  # noqa: E402
    DATABASE_URL,
    ROOT,
    VENV_BIN,
    OwnRedis,
    Stack,
    check_run,
    log,
    make_tables,
    play_all,
    prepare_database,
    release_connections,
    summary,
    wait_for,
    workdir_for,
)

DEPLOY = ROOT / "deploy"


# -- the proxies, as deploy/ ships them ---------------------------------------------------------
def nginx_conf(workdir: Path, http_port: int, https_port: int, upstreams: list[int]) -> str:
    """deploy/nginx.conf with this run's addresses, inside a main config of its own."""
    site = (DEPLOY / "nginx.conf").read_text()
    for shipped, port in zip(("127.0.0.1:8001", "127.0.0.1:8002"), upstreams, strict=True):
        site = site.replace(shipped, f"127.0.0.1:{port}")
    swaps = {
        "listen 80;": f"listen 127.0.0.1:{http_port};",
        "listen 443 ssl": f"listen 127.0.0.1:{https_port} ssl",
        "server_name mayi.example.com;": "server_name localhost;",
        "/etc/letsencrypt/live/mayi.example.com/fullchain.pem": str(workdir / "cert.pem"),
        "/etc/letsencrypt/live/mayi.example.com/privkey.pem": str(workdir / "key.pem"),
        "/srv/mayi/staticfiles/": f"{ROOT / 'staticfiles'}/",
    }
    for shipped, here in swaps.items():
        if shipped not in site:
            raise SystemExit(f"deploy/nginx.conf no longer has {shipped!r}: update this check")
        site = site.replace(shipped, here)
    temp = workdir / "nginx-temp"
    temp.mkdir(exist_ok=True)
    return f"""
worker_processes 1;
pid {workdir}/nginx.pid;
error_log {workdir}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    include /etc/nginx/mime.types;
    access_log {workdir}/nginx-access.log;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
{site}
}}
"""


def caddy_conf(workdir: Path, http_port: int, https_port: int, upstreams: list[int]) -> str:
    """deploy/Caddyfile with this run's addresses, and global options that keep Caddy inside the
    run (its own ports, local CA and storage, no admin endpoint, no system trust store)."""
    site = (DEPLOY / "Caddyfile").read_text()
    site = site.replace(
        "127.0.0.1:8001 127.0.0.1:8002", " ".join(f"127.0.0.1:{p}" for p in upstreams)
    )
    if "mayi.example.com {" not in site:
        raise SystemExit("deploy/Caddyfile no longer serves mayi.example.com: update this check")
    site = site.replace("mayi.example.com", "localhost")  # the site and its health checks' Host
    return f"""{{
	admin off
	default_bind 127.0.0.1
	local_certs
	skip_install_trust
	http_port {http_port}
	https_port {https_port}
	storage file_system {workdir}/caddy-data
}}
{site}
"""


def start_proxy(kind: str, workdir: Path, http_port: int, https_port: int, upstreams: list[int]):
    if kind == "nginx":
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
             "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost",
             "-keyout", str(workdir / "key.pem"), "-out", str(workdir / "cert.pem")],
            check=True, capture_output=True,
        )  # fmt: skip
        conf = workdir / "nginx-main.conf"
        conf.write_text(nginx_conf(workdir, http_port, https_port, upstreams))
        test = subprocess.run(["nginx", "-t", "-c", str(conf)], capture_output=True, text=True)
        if test.returncode != 0:
            raise SystemExit(f"nginx -t refused the config:\n{test.stderr}")
        argv = ["nginx", "-c", str(conf), "-g", "daemon off;"]
    else:
        conf = workdir / "Caddyfile"
        conf.write_text(caddy_conf(workdir, http_port, https_port, upstreams))
        argv = ["caddy", "run", "--config", str(conf), "--adapter", "caddyfile"]
    env = {**os.environ, "HOME": str(workdir), "XDG_DATA_HOME": str(workdir / "caddy-data")}
    proc = subprocess.Popen(
        argv,
        env=env,
        start_new_session=True,
        stdout=open(workdir / f"{kind}.log", "ab"),  # noqa: SIM115
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for(
            lambda: _https_status(https_port, "/healthz") == 200, 30, f"{kind} on {https_port}"
        )
    except BaseException:
        proc.kill()  # never leave it holding the ports
        raise
    return proc


# -- requests through the proxy ------------------------------------------------------------
TLS = ssl.create_default_context()
TLS.check_hostname = False
TLS.verify_mode = ssl.CERT_NONE  # the run's own certificate


def _request(port: int, method: str, path: str, *, tls: bool = True, body: bytes = b"",
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:  # fmt: skip
    conn: http.client.HTTPConnection
    if tls:
        # "localhost": the name the certificate is for, sent as SNI (Caddy picks its cert by it).
        conn = http.client.HTTPSConnection("localhost", port, context=TLS, timeout=20)
    else:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        conn.request(method, path, body=body or None,
                     headers={"Host": f"localhost:{port}", **(headers or {})})  # fmt: skip
        answer = conn.getresponse()
        data = answer.read()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, data
    finally:
        conn.close()


def _https_status(port: int, path: str) -> int:
    try:
        return _request(port, "GET", path)[0]
    except OSError:
        return 0


def check_redirect(http_port: int) -> dict[str, Any]:
    status, headers, _ = _request(http_port, "GET", "/tables/1/", tls=False)
    location = headers.get("location", "")
    return {"ok": status in (301, 308) and location.startswith("https://localhost"),
            "status": status, "location": location}  # fmt: skip


def check_pages(port: int) -> dict[str, Any]:
    home, home_headers, html = _request(port, "GET", "/")
    api, _, _ = _request(port, "GET", "/api/tables")
    static_path = re.search(rb'/static/[^"\']+\.css', html)
    static = _request(port, "GET", static_path.group().decode())[0] if static_path else 0
    hsts = home_headers.get("strict-transport-security", "")
    return {"ok": home == 200 and api in (200, 401) and static == 200 and "max-age" in hsts,
            "home": home, "api_tables": api, "static": static, "hsts": hsts}  # fmt: skip


def check_forwarded_for(port: int) -> dict[str, Any]:
    statuses = []
    for k in range(4):
        status, headers, html = _request(port, "GET", "/accounts/signup/")
        cookie = re.search(r"csrftoken=([^;]+)", headers.get("set-cookie", ""))
        token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        if status != 200 or cookie is None or token is None:
            return {"ok": False, "why": f"signup page answered {status} without a CSRF token"}
        body = f"csrfmiddlewaretoken={token.group(1).decode()}&username=&password1=&password2="
        status, _, _ = _request(
            port,
            "POST",
            "/accounts/signup/",
            body=body.encode(),
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": f"csrftoken={cookie.group(1)}",
                "Origin": f"https://localhost:{port}",
                "Referer": f"https://localhost:{port}/accounts/signup/",
                "X-Forwarded-For": f"203.0.113.{10 + k}",  # a new spoofed address each time
            },
        )
        statuses.append(status)
    return {"ok": statuses == [400, 400, 400, 429], "statuses": statuses}


def check_body(port: int, token: str) -> dict[str, Any]:
    status, _, data = _request(
        port,
        "POST",
        "/api/tables",
        body=b'{"seats": 3, "pad": "' + b"x" * 2_800_000 + b'"}',
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"},
    )
    try:
        shape = json.loads(data)
    except ValueError:
        shape = None
    ok = status == 413 and isinstance(shape, dict) and "error" in shape
    return {"ok": ok, "status": status, "body": data[:120].decode(errors="replace")}


TABLE_REQUEST = re.compile(r'"[A-Z]+ /(?:api/tables|ws/tables|tables)/([0-9]+)/')


def tables_by_process(logs: dict[str, Path]) -> dict[str, list[int]]:
    """The tables each daphne process was asked about so far, from its access log."""
    found: dict[str, list[int]] = {}
    for name, path in logs.items():
        text = path.read_text(errors="replace") if path.exists() else ""
        found[name] = sorted({int(m) for m in TABLE_REQUEST.findall(text)})
    return found


def check_tables_together(found: dict[str, list[int]], tables: int) -> dict[str, Any]:
    seen = [t for ids in found.values() for t in ids]
    shared = sorted({t for t in seen if seen.count(t) > 1})
    return {"ok": not shared and len(set(seen)) >= tables, "shared": shared, **found}


def established(port: int) -> int:
    """Established TCP connections to 127.0.0.1:port (the proxy's to that daphne)."""
    out = subprocess.run(
        ["ss", "-Htn", "state", "established", f"( sport = :{port} )"],
        capture_output=True,
        text=True,
    ).stdout
    return len(out.splitlines())


# -- one proxy -----------------------------------------------------------------------------
def run_one(kind: str, args: Any) -> dict[str, Any]:
    workdir = workdir_for(f"proxy-{kind}")
    http_port, https_port, d0, d1 = args.port, args.port + 1, args.port + 2, args.port + 3
    redis = OwnRedis(args.redis_port, workdir)
    redis.start()
    stack: Stack | None = None
    proxy = None
    began = time.time()
    try:
        prepare_database(args.database_url)
        tables = make_tables(args.tables, 4, window_seconds=3, turn_seconds=8, tag=f"px{kind}")
        release_connections()
        stack = Stack(
            workdir=workdir,
            database_url=args.database_url,
            redis_url=redis.url,
            daphne_ports=[d0, d1],
            workers=1,
            # The access log on stdout, unbuffered: tables_together reads it during the run.
            daphne_args=("--proxy-headers", "--access-log", "-"),
            extra_env={
                "PYTHONUNBUFFERED": "1",
                "ALLOWED_HOSTS": "localhost,127.0.0.1",  # 127.0.0.1: the stack's own health check
                "CSRF_TRUSTED_ORIGINS": f"https://localhost:{https_port}",
                "MAYI_SITE_URL": f"https://localhost:{https_port}",
                "MAYI_RATE_LIMITS_ENABLED": "1",
                "MAYI_RATE_SIGNUP_IP": "3/3600",
                # The bot clients all come from 127.0.0.1: only sign-ups are limited here.
                "MAYI_RATE_ACTION": "100000/60",
                "MAYI_RATE_LOGIN_IP": "100000/60",
            },
        )
        stack.start_all()
        proxy = start_proxy(kind, workdir, http_port, https_port, [d0, d1])
        checks: dict[str, Any] = {
            "redirect": check_redirect(http_port),
            "pages": check_pages(https_port),
            "forwarded_for": check_forwarded_for(https_port),
            "body_2_8_mb": check_body(https_port, tables[0][0].token),
        }
        spread: dict[str, int] = {}
        together: dict[str, list[int]] = {}

        async def during() -> None:
            await asyncio.sleep(min(8.0, args.seconds / 4))
            spread.update({"daphne0": established(d0), "daphne1": established(d1)})
            together.update(
                tables_by_process({n: workdir / f"{n}.log" for n in ("daphne0", "daphne1")})
            )
            await asyncio.sleep(max(0.0, args.seconds / 3 - 8.0))
            log(f"{kind}: daphne0 stopped and started again")
            assert stack is not None
            await asyncio.to_thread(stack.stop, "daphne0", signal.SIGTERM)
            await asyncio.sleep(2.0)
            await asyncio.to_thread(stack.start, "daphne0")

        ledgers = asyncio.run(
            play_all(
                tables,
                [https_port],
                seconds=args.seconds,
                think=(0.3, 1.5),
                answer_windows=True,
                during=during,
                tls=TLS,
            )
        )
        checks["sockets_spread"] = {"ok": min(spread.values(), default=0) > 0, **spread}
        checks["tables_together"] = check_tables_together(together, len(tables))
        check = check_run(tables, ledgers, settle=14)
        clients = summary(ledgers, args.seconds)
        statuses = clients["statuses"]
        checks["play"] = {
            "ok": check["ok"] and not statuses.get("500") and clients["actions"] > 0,
            "check": check,
            "clients": clients,
        }
        return {
            "proxy": kind,
            "ok": all(c["ok"] for c in checks.values()),
            "checks": checks,
            "wall_seconds": round(time.time() - began, 1),
            "load_average": os.getloadavg()[0],
            "workdir": str(workdir),
        }
    finally:
        if proxy is not None:
            proxy.terminate()
            proxy.wait(10)
        if stack is not None:
            stack.stop_all()
        redis.stop()
        release_connections()  # the next proxy's run drops and makes the database again


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--proxy", default="nginx,caddy")
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--port", type=int, default=8260, help="http; +1 https; +2, +3 daphne")
    parser.add_argument("--redis-port", type=int, default=8275)
    parser.add_argument("--database-url", default=DATABASE_URL.rsplit("/", 1)[0] + "/mayi_proxy")
    args = parser.parse_args()
    for tool in ("openssl", "ss", *args.proxy.split(",")):
        if shutil.which(tool) is None:
            print(f"{tool} is not installed (Debian: apt-get install nginx caddy)", file=sys.stderr)
            return 2
    subprocess.run(
        [str(VENV_BIN / "python"), "manage.py", "collectstatic", "--noinput", "-v", "0"],
        cwd=ROOT,
        check=True,
        env={**os.environ, "DEBUG": "0", "SECRET_KEY": "proxy-check-" + "x" * 40},
    )
    reports = [run_one(kind, args) for kind in args.proxy.split(",")]
    print(json.dumps(reports, indent=2))
    return 0 if all(r["ok"] for r in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
