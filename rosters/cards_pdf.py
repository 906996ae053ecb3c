"""Formulary cards as PDF (issue 12), rendered by WeasyPrint from the same
templates as the HTML preview (``campaign/_card.html``, ``campaign/_cards_style.html``).

Two layouts: ``card``, one 45 × 75 mm card a page (V-FORM-1), its back on the
next page; ``a4``, sheets of 4 × 3 cards with crop marks, each followed by a
sheet of the backs its cards have. The font (DejaVu Sans Condensed, Cyrillic,
shipped under static/cards/fonts with its licence) is embedded, so a print
never depends on the fonts of the machine.

WeasyPrint fetches nothing from the network: the fetcher below serves our
static files and uploaded media from disk and refuses every other URL.
"""
from __future__ import annotations

import mimetypes
from pathlib import Path
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string

from .cards import A4_MM, HEIGHT_MM, WIDTH_MM, Card, sheets, singles

LAYOUTS = ("a4", "card")
BASE_URL = "http://cards.shtab.invalid/"


def _fetcher():
    # Not at import time: WeasyPrint loads Pango from the OS, which only a PDF needs (the site runs without it).
    from weasyprint.urls import URLFetcher, URLFetcherResponse

    static_url, media_url = "/" + settings.STATIC_URL.lstrip("/"), "/" + settings.MEDIA_URL.lstrip("/")

    class LocalFetcher(URLFetcher):
        def fetch(self, url, headers=None):
            if url.startswith("data:"):
                return super().fetch(url, headers)
            parts = urlsplit(url)
            if f"{parts.scheme}://{parts.netloc}/" != BASE_URL:
                raise ValueError(f"cards fetch only the project's own files, not {url}")
            path = unquote(parts.path)
            found: str | None = None
            if path.startswith(static_url):
                rel = path[len(static_url):]
                found = finders.find(rel) or (str(Path(settings.STATIC_ROOT) / rel) if settings.STATIC_ROOT else None)
            elif path.startswith(media_url):
                root = Path(settings.MEDIA_ROOT).resolve()
                candidate = (root / path[len(media_url):]).resolve()
                found = str(candidate) if candidate.is_relative_to(root) else None
            if not found or not Path(found).is_file():
                raise ValueError(f"no such file: {path}")
            mime = mimetypes.guess_type(found)[0] or "application/octet-stream"
            return URLFetcherResponse(url, Path(found).read_bytes(), {"Content-Type": mime})

    return LocalFetcher()


def render_html(cards: list[Card], *, layout: str, title: str) -> str:
    assert layout in LAYOUTS, f"layout must be one of {LAYOUTS}, not {layout!r}"
    return render_to_string("campaign/cards_pdf.html", {
        "title": title, "layout": layout, "pages": sheets(cards) if layout == "a4" else None,
        "singles": singles(cards) if layout == "card" else None,
        "page_w": A4_MM[0] if layout == "a4" else WIDTH_MM, "page_h": A4_MM[1] if layout == "a4" else HEIGHT_MM})


def render_pdf(cards: list[Card], *, layout: str, title: str) -> bytes:
    """The PDF bytes. Deterministic for the same cards: no creation date is
    written (WeasyPrint writes none unless the document names one)."""
    import weasyprint  # not at import time: it loads Pango from the OS (see _fetcher)

    html = render_html(cards, layout=layout, title=title)
    return weasyprint.HTML(string=html, base_url=BASE_URL, url_fetcher=_fetcher()).write_pdf()
