"""Formulary cards as PDF over the API (issue 12): a roster's cards and a
character's cards, for their owner and the game master. Who may read is
decided first (a stranger gets 404 and learns nothing, whatever he asks);
only then is ``?layout=a4|card`` checked."""
from __future__ import annotations

import json

from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import renderers
from rest_framework.request import Request
from rest_framework.views import APIView

from campaign.models import Character
from campaign.roles import is_game_master
from config.errors import InvalidInput

from . import cards_pdf
from . import selectors as roster_selectors
from .api import ErrorOut
from .cards import character_cards_load, roster_cards_load


class PDFRenderer(renderers.BaseRenderer):
    """Lets a client ask for ``Accept: application/pdf``; an error is still JSON."""

    media_type = "application/pdf"
    format = "pdf"
    charset = None
    render_style = "binary"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, bytes):
            return data
        response = (renderer_context or {}).get("response")
        if response is not None:
            response["Content-Type"] = "application/json"
        return json.dumps(data, ensure_ascii=False).encode()


LAYOUT = OpenApiParameter(
    "layout", str, enum=list(cards_pdf.LAYOUTS), default="a4",
    description="`a4`: A4 sheets of 4 × 3 cards with crop marks, each followed by the sheet of their backs; "
                "`card`: one 45 × 75 mm card a page (V-FORM-1), its back on the next page.")
SHARE = OpenApiParameter(
    "share", str, required=False,
    description="The roster's read-only share link token, for a reader who is neither its owner nor the game master.")
PDF_RESPONSES = {
    (200, "application/pdf"): OpenApiResponse(OpenApiTypes.BINARY, description="The cards as PDF."),
    400: OpenApiResponse(ErrorOut, description="`layout` is neither `a4` nor `card` (the error names the field)."),
    404: OpenApiResponse(ErrorOut, description="No such record, or not yours to read (rosters: the owner, the game master, anyone once it has fought, anyone with its share link; characters: the owner and the game master)."),
}


def _layout(request: Request) -> str:
    layout = request.query_params.get("layout", "a4")
    if layout not in cards_pdf.LAYOUTS:
        raise InvalidInput("layout: ожидается a4 (листы A4) или card (по одной карточке 45 × 75 мм).",
                           "layout: expected a4 (A4 sheets) or card (one 45 × 75 mm card a page).", field="layout")
    return layout


def pdf_response(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def roster_for_cards(user, roster_id: int, share: str = ""):
    """The roster if ``user`` may print it: the roster page's own rule
    (``rosters.selectors.roster_readable``: owner, game master, anyone once it
    has fought, anyone with the share link), so whoever may read a roster may
    print its cards; otherwise 404."""
    roster = roster_selectors.roster_readable(user=user, roster_id=roster_id, share=share)
    if roster is None:
        raise Http404
    return roster


def character_for_cards(user, character_id: int) -> Character:
    """The character if ``user`` is his owner or the game master; otherwise 404."""
    character = Character.objects.select_related("nationality").filter(pk=character_id).first()
    if character is None or not (character.owner_id == getattr(user, "pk", None) or is_game_master(user)):
        raise Http404
    return character


class RosterCardsPdfView(APIView):
    renderer_classes = [renderers.JSONRenderer, PDFRenderer]

    @extend_schema(parameters=[LAYOUT, SHARE], responses=PDF_RESPONSES, operation_id="roster_cards_pdf",
                   description="Every formulary card of a roster (V-FORM-2): character, units with their fighters "
                               "by class, upgrades, vehicles, air support. Each card carries a stamp: the record, "
                               "its version and a short hash of its content.")
    def get(self, request: Request, roster_id: int) -> HttpResponse:
        roster = roster_for_cards(request.user, roster_id, share=request.query_params.get("share", ""))
        layout = _layout(request)
        pdf = cards_pdf.render_pdf(roster_cards_load(roster_id=roster.pk), layout=layout, title=roster.name)
        return pdf_response(pdf, f"roster-{roster.pk}-cards-{layout}.pdf")


class CharacterCardPdfView(APIView):
    renderer_classes = [renderers.JSONRenderer, PDFRenderer]

    @extend_schema(parameters=[LAYOUT], responses=PDF_RESPONSES, operation_id="character_card_pdf",
                   description="A character's card (V-RANK-3: photograph, name, rank) and one card per award.")
    def get(self, request: Request, character_id: int) -> HttpResponse:
        character = character_for_cards(request.user, character_id)
        layout = _layout(request)
        pdf = cards_pdf.render_pdf(character_cards_load(character=character), layout=layout, title=character.name)
        return pdf_response(pdf, f"character-{character.pk}-card-{layout}.pdf")
