"""Request ids and JSON log lines (config.logs; issue 29 §5): every answer
carries an ``X-Request-ID`` (the client's when sane), and with
``SHTAB_LOG_JSON=1`` each log line of a request is one JSON object carrying it."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UUID_HEX = re.compile(r"[0-9a-f]{32}")


def test_an_answer_carries_a_new_request_id(client):
    first, second = client.get("/healthz"), client.get("/healthz")
    assert UUID_HEX.fullmatch(first["X-Request-ID"]) and UUID_HEX.fullmatch(second["X-Request-ID"])
    assert first["X-Request-ID"] != second["X-Request-ID"]


def test_a_sane_incoming_request_id_is_kept(client):
    rid = "lb-7f3a9c:0001/trace=ab+cd_e.f"
    assert client.get("/healthz", HTTP_X_REQUEST_ID=rid)["X-Request-ID"] == rid


@pytest.mark.parametrize("bad", ["", "has space", "line\nbreak", "quote\"d", "x" * 129, "кириллица", "a{b}"])
def test_an_insane_incoming_request_id_is_replaced(client, bad):
    got = client.get("/healthz", HTTP_X_REQUEST_ID=bad)["X-Request-ID"]
    assert got != bad and UUID_HEX.fullmatch(got)


SCRIPT = r"""
import json, logging, sys
import django
django.setup()
from django.http import HttpResponse
from django.test import Client, override_settings
from django.urls import path

def logged(request):
    logging.getLogger("shtab.test").info("inside the view, про бой")
    try:
        raise ValueError("a handled failure")
    except ValueError:
        logging.getLogger("shtab.test").exception("and a traceback")
    return HttpResponse("ok")

# (with the project's routes: its 404 page links to them)
from config.urls import urlpatterns as project
urlpatterns = [path("logged", logged, name="logged"), *project]
with override_settings(ROOT_URLCONF=__name__):
    client = Client()
    a = client.get("/logged")
    b = client.get("/logged", HTTP_X_REQUEST_ID="client-chosen-42")
    c = client.get("/missing")  # Django's own "Not Found" line, written after the middleware returned
logging.getLogger("shtab.test").warning("outside any request")
print(json.dumps([a["X-Request-ID"], b["X-Request-ID"], c["X-Request-ID"], c.status_code]))
"""


def test_with_log_json_a_requests_log_lines_are_json_carrying_its_request_id(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"CI", "DATABASE_URL", "REDIS_URL", "LOG_LEVEL"}}
    env |= {"SHTAB_LOG_JSON": "1", "DJANGO_SETTINGS_MODULE": "config.settings.test", "PYTHONPATH": str(ROOT),
            "SQLITE_PATH": str(tmp_path / "none.sqlite3")}
    run = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    a, b, c, status = json.loads(run.stdout.strip().splitlines()[-1])
    assert status == 404 and b == "client-chosen-42"
    lines = [json.loads(line) for line in run.stderr.splitlines() if line.strip()]  # every line parses as JSON
    for line in lines:
        assert {"time", "level", "logger", "message", "request_id"} <= line.keys()
    by_message = {(line["message"], line["request_id"]): line for line in lines}
    for rid in (a, b):
        assert by_message[("inside the view, про бой", rid)]["level"] == "INFO"
        failure = by_message[("and a traceback", rid)]
        assert failure["level"] == "ERROR" and "ValueError: a handled failure" in failure["exception"]
    assert by_message[("Not Found: /missing", c)]["logger"] == "django.request"
    assert by_message[("outside any request", None)]["level"] == "WARNING"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00", lines[0]["time"])
