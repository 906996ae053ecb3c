"""What a real client checks (issue 13): the Atom feed against RFC 4287 (read
by feedparser too), the OpenAPI document against the OpenAPI 3 schema
(openapi-spec-validator), a favicon, gzip, the API browsers offline and with a
language. The browser checks (axe-core, the Nu HTML checker) live in
tests/e2e/test_standards.py."""
from __future__ import annotations

import gzip
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parent.parent
ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture
def demo(db):
    from django.core.management import call_command

    call_command("loaddemo")
    from campaign.models import Campaign

    return Campaign.objects.order_by("pk").first()


def _feed(campaign, host="testserver"):
    response = Client(HTTP_HOST=host).get(f"/campaigns/{campaign.pk}/feed/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    return response.content


def test_rfc_4287_the_feed_has_every_required_element(demo):
    """§4.1.1: a feed has atom:id, atom:title, atom:updated, and an atom:author
    unless every entry has one; §4.1.2: an entry has atom:id, atom:title,
    atom:updated, and an alternate link or content."""
    feed = ET.fromstring(_feed(demo))
    assert feed.tag == f"{ATOM}feed"
    for name in ("id", "title", "updated"):
        assert feed.find(f"{ATOM}{name}") is not None and feed.find(f"{ATOM}{name}").text, name
    author = feed.find(f"{ATOM}author")
    entries = feed.findall(f"{ATOM}entry")
    assert entries
    assert author is not None or all(e.find(f"{ATOM}author") is not None for e in entries)
    if author is not None:
        assert author.find(f"{ATOM}name").text
    ids = []
    for entry in entries:
        for name in ("id", "title", "updated"):
            assert entry.find(f"{ATOM}{name}") is not None and entry.find(f"{ATOM}{name}").text, name
        assert any(link.get("rel", "alternate") == "alternate" for link in entry.findall(f"{ATOM}link")) \
            or entry.find(f"{ATOM}content") is not None
        ids.append(entry.find(f"{ATOM}id").text)
    assert len(ids) == len(set(ids))


def test_rfc_4287_ids_are_tag_uris_that_do_not_change_with_the_host(demo):
    """§4.2.6: an id is permanent; it embedded the host, so moving the server (or
    reading it at another address) made every entry new again."""
    def ids(host):
        feed = ET.fromstring(_feed(demo, host))
        return [feed.find(f"{ATOM}id").text] + [e.find(f"{ATOM}id").text for e in feed.findall(f"{ATOM}entry")]

    here, there = ids("testserver"), ids("localhost")
    assert here == there
    for i in here:
        assert re.fullmatch(r"tag:[\w.@-]+,\d{4}-\d{2}-\d{2}:[\S]+", i), i
        assert "testserver" not in i


def test_feedparser_reads_the_feed_without_complaint(demo):
    import feedparser

    parsed = feedparser.parse(_feed(demo))
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.version == "atom10"
    assert parsed.feed.author and parsed.feed.id.startswith("tag:")
    assert parsed.entries and all(e.get("updated_parsed") and e.id.startswith("tag:") for e in parsed.entries)


def test_pages_announce_their_feed(demo):
    """Readers find a campaign's feed from its pages (<link rel=alternate type=application/atom+xml>)."""
    from battles.models import Battle

    battle = Battle.objects.filter(campaign=demo).first()
    feed = f'href="/campaigns/{demo.pk}/feed/"'
    for url in ("/", f"/campaigns/{demo.pk}/", f"/campaigns/{demo.pk}/standings/",
                f"/campaigns/{demo.pk}/chronicle/", f"/battles/{battle.pk}/"):
        html = Client().get(url).content.decode()
        links = re.findall(r"<link [^>]*>", html)
        assert any('rel="alternate"' in tag and 'type="application/atom+xml"' in tag and feed in tag
                   for tag in links), (url, links)


def test_openapi_document_is_valid_openapi_3():
    import yaml
    from openapi_spec_validator import validate

    validate(yaml.safe_load((ROOT / "docs" / "openapi.yaml").read_text()))


@pytest.mark.django_db
def test_favicon_is_served():
    response = Client().get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/x-icon"
    assert response.content[:4] == b"\x00\x00\x01\x00"  # an ICO header
    assert '<link rel="icon"' in Client().get("/").content.decode()


@pytest.mark.django_db
def test_html_goes_out_gzipped_to_a_client_that_asks():
    response = Client().get("/", HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200 and response["Content-Encoding"] == "gzip"
    assert b"<!doctype html>" in gzip.decompress(response.content).lower()
    assert "Accept-Encoding" in response["Vary"]
    assert "Content-Encoding" not in Client().get("/").headers  # a client that does not ask gets plain HTML


@pytest.mark.django_db
def test_the_api_browsers_load_nothing_from_outside_and_declare_their_language():
    client = Client()
    for url in ("/api/redoc/", "/api/docs/"):
        html = client.get(url).content.decode()
        assert re.search(r"<html lang=\"\w+\"", html), url
        assert not re.findall(r"(?:src|href)=\"(?:https?:)?//", html), url
    redoc = client.get("/api/redoc/").content.decode()
    bundle_url = re.search(r'<script src="([^"]+)"', redoc).group(1)
    bundle = client.get(bundle_url)
    assert bundle.status_code == 200
    body = b"".join(bundle) if bundle.streaming else bundle.content
    assert b"cdn.redoc.ly" not in body and b"fonts.googleapis" not in body
