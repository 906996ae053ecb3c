"""Public campaign pages (standings, chronicle, characters) and the player's
own pages (characters, joining). Views parse input and call services; the
pages read projections through selectors."""
from __future__ import annotations

from pathlib import Path

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.syndication.views import Feed
from django.http import Http404, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import escape
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import cache_control

from config.cache import cache_get, cache_set
from config.errors import ApplicationError
from config.inputs import MAX_INT, ascii_int

from . import selectors, services
from .accounts import SignupForm
from .chronicle import describe_all
from .models import Campaign, CampaignStatus, Character, Gender, Membership, Nationality, Rank
from .roles import is_game_master


def _ru() -> bool:
    return (get_language() or "ru").startswith("ru")


def _as_of(request, campaign_id: int | None = None) -> int | None:
    as_of = ascii_int(request.GET.get("as_of", ""))
    if as_of is not None and not 0 <= as_of < 2**31:  # the page shows the campaign as it is, as for any other
        as_of = None
    if campaign_id is not None and not selectors.as_of_exists(campaign=campaign_id, as_of=as_of):
        raise Http404("no such battle yet")
    return as_of


def campaign_detail(request, campaign_id: int):
    ov = selectors.campaign_overview(campaign_id=campaign_id, as_of=_as_of(request, campaign_id))
    if ov is None:
        raise Http404
    return render(request, "campaign/campaign_detail.html", {
        "ov": ov, "campaign": ov.campaign, "chart": progress_chart(ov.view.progress),
        "pending": selectors.memberships_pending(campaign=ov.campaign) if is_game_master(request.user) else [],
        "my_membership": selectors.membership_of(campaign=ov.campaign, user=request.user),
    })


def progress_chart(progress: list[dict], width: int = 480, height: int = 160) -> dict:
    """Cumulative wins of each side after each battle, as SVG polyline points."""
    n = len(progress)
    top = max([1] + [max(p["attacker_won"], p["defender_won"]) for p in progress])
    step = width / max(n, 1)

    def points(key: str) -> str:
        pts = [(0, height)] + [((i + 1) * step, height - p[key] * height / top) for i, p in enumerate(progress)]
        return " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)

    return {"width": width, "height": height, "attacker": points("attacker_won"),
            "defender": points("defender_won"), "battles": n, "top": top}


def standings(request, campaign_id: int):
    """The players' table. The rows are rendered once per version of the
    campaign projection (its last event id is in the cache key), so a busy
    page costs one small query until the campaign changes."""
    campaign = get_object_or_404(Campaign.objects.select_related("projection").defer("projection__data"),
                                 pk=campaign_id)
    sort = request.GET.get("sort", "kills")
    sort = sort if sort in selectors.SORTS else "kills"
    descending = request.GET.get("dir", "desc") != "asc"
    as_of, lang, per_page = _as_of(request, campaign.pk), get_language() or "ru", 100
    page = min(max(ascii_int(request.GET.get("page", "")) or 1, 1), MAX_INT // per_page)  # its offset fits a column
    version = selectors.campaign_version(campaign=campaign)
    key = f"standings:{campaign.pk}:{version}:{sort}:{int(descending)}:{page}:{as_of}:{lang}"
    cached = cache_get(key)
    if cached is None:
        rows, total = selectors.standings_table(campaign=campaign, as_of=as_of, sort=sort, descending=descending,
                                                limit=per_page, offset=(page - 1) * per_page, language=lang)
        table = render_to_string("campaign/_standings_rows.html", {
            "campaign": campaign, "rows": rows, "character_url": reverse("character-detail", args=[0])[:-2]})
        cached = (table, total)
        cache_set(key, cached, 3600)
    table, total = cached
    return render(request, "campaign/standings.html", {
        "campaign": campaign, "table": table, "sort": sort, "descending": descending, "as_of": as_of,
        "direction": "desc" if descending else "asc", "page": page, "total": total,
        "pages": max((total + per_page - 1) // per_page, 1),
        "columns": [("name", _("Character")), ("rank", _("Rank")), ("awards", _("Awards")),
                    ("battles", _("Battles")), ("kills", _("Kills")), ("casualties", _("Casualties")),
                    ("prestige", _("Prestige"))],
    })


def chronicle(request, campaign_id: int):
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    as_of = _as_of(request, campaign.pk)
    return render(request, "campaign/chronicle.html", {
        "campaign": campaign,
        "entries": describe_all(selectors.chronicle(campaign=campaign, as_of=as_of)),
        "as_of": as_of})


FAVICON = Path(__file__).resolve().parent / "static" / "shtab" / "favicon.ico"


@cache_control(max_age=86400, public=True)
def favicon(request):
    """``/favicon.ico``, which every browser asks for whatever the page's <link rel=icon> says."""
    return HttpResponse(FAVICON.read_bytes(), content_type="image/x-icon")


def feed_tag(campaign: Campaign, suffix: str = "") -> str:
    """A host-independent, permanent id (RFC 4151 ``tag:`` URI, RFC 4287 §4.2.6):
    the same whichever address the feed is read at, so a reader never sees an
    entry twice when the club moves its server."""
    authority = settings.SHTAB.get("FEED_TAG_AUTHORITY", "shtab")
    return f"tag:{authority},{campaign.created_at:%Y-%m-%d}:campaign/{campaign.pk}{suffix}"


class ChronicleFeed(Feed):
    """Atom feed of the chronicle for the club's channel (RFC 4287: ids, an
    author, ``updated`` on the feed and on every entry)."""

    feed_type = Atom1Feed

    def get_object(self, request, campaign_id: int):
        return get_object_or_404(Campaign.objects.select_related("game_master"), pk=campaign_id)

    def title(self, obj):
        return f"{obj.name} — {_('Chronicle')}"

    def feed_guid(self, obj):
        return feed_tag(obj)

    def author_name(self, obj):
        # The feed is public: the game master's full name if he gave one, never his login name (issue 27).
        master = obj.game_master
        return (master.get_full_name() if master else "") or str(_("Shtab"))

    def item_guid(self, item):
        return feed_tag(item.campaign, f"/event/{item.pk}")

    item_guid_is_permalink = False

    def item_updateddate(self, item):
        return item.recorded_at

    def link(self, obj):
        return reverse("campaign-chronicle", args=[obj.pk])

    def items(self, obj):
        events = describe_all(selectors.chronicle(campaign=obj, limit=50))
        for e in events:
            e.campaign = obj  # the tag ids name it: no query per entry
        return events

    def item_title(self, item):
        return item.text

    def item_description(self, item):
        # Atom writes the description as <summary type="html">: the reader
        # renders it as HTML, so names in it must be HTML-escaped (a character
        # named '"><img onerror=…>' is text, never markup). Titles are type text.
        return escape(item.text)

    def item_link(self, item):
        if item.battle_id:
            return reverse("battle-detail", args=[item.battle_id]) + f"#ce{item.pk}"
        return reverse("campaign-chronicle", args=[item.campaign_id]) + f"#ce{item.pk}"

    def item_pubdate(self, item):
        return item.recorded_at


def character_detail(request, character_id: int):
    character = get_object_or_404(Character.objects.select_related("nationality", "owner"), pk=character_id)
    record = describe_all(selectors.service_record(character=character))
    return render(request, "campaign/character_detail.html", {
        "character": character, "record": record, "rank_title": character.rank_title(get_language() or "ru"),
        "can_print": character.owner_id == request.user.pk or is_game_master(request.user),
        "awards": [e for e in record if e.type == "award_granted"],
        "battles": sum(1 for e in record if e.type == "battle_fought"),
        "kills": sum(int(e.data.get("kills", 0)) for e in record if e.type == "battle_fought")})


class CharacterForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    nationality = forms.ModelChoiceField(label=_("Nationality"), queryset=Nationality.objects.all())
    rank = forms.ChoiceField(label=_("Rank"), choices=Rank.choices, initial=Rank.CORPORAL)
    gender = forms.TypedChoiceField(label=_("Grammatical gender"), choices=Gender.choices, initial=Gender.MASCULINE,
                                    required=False, empty_value=Gender.MASCULINE,
                                    help_text=_("The chronicle's sentences agree with it: «поступил» or «поступила»."))
    # A plain file: the service opens it, checks its size from the header and
    # names the problem in both languages (an ImageField would decode a
    # decompression bomb's header first and answer with a generic error).
    photo = forms.FileField(label=_("Photo"), required=False,
                            widget=forms.ClearableFileInput(attrs={"accept": "image/*"}))


@login_required
def my_characters(request):
    form = CharacterForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            c = services.character_create(owner=request.user, **form.cleaned_data)
        except ApplicationError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, exc.for_person())
        else:
            messages.success(request, _("Character created."))
            return HttpResponseRedirect(reverse("character-detail", args=[c.pk]))
    return render(request, "campaign/my_characters.html", {
        "form": form, "characters": selectors.characters_of(user=request.user)})


class CharacterEditForm(forms.Form):
    """Name and photo; the rank changes only through promotions (V-RANK-4)."""

    name = forms.CharField(label=_("Name"), max_length=200)
    photo = forms.FileField(label=_("New photo"), required=False,
                            widget=forms.ClearableFileInput(attrs={"accept": "image/*"}))
    remove_photo = forms.BooleanField(label=_("Remove the photo"), required=False)


@login_required
def character_edit(request, character_id: int):
    """The owner edits his character's name and photo (a stranger gets 404)."""
    character = get_object_or_404(Character.objects.select_related("nationality"), pk=character_id,
                                  owner=request.user)
    form = CharacterEditForm(request.POST or None, request.FILES or None, initial={"name": character.name})
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            services.character_update(character=character, by=request.user, name=d["name"], photo=d["photo"],
                                      remove_photo=d["remove_photo"])
        except ApplicationError as exc:
            form.add_error(exc.field if exc.field in form.fields else None,
                           exc.message_ru if _ru() else exc.message_en)
        else:
            messages.success(request, _("Character saved."))
            return HttpResponseRedirect(reverse("character-detail", args=[character.pk]))
    return render(request, "campaign/character_edit.html", {
        "form": form, "character": character, "rank_title": character.rank_title(get_language() or "ru")})


@login_required
def campaign_join(request, campaign_id: int, token: str | None = None):
    """Join by the invitation link (``token``) or ask to join."""
    campaign = get_object_or_404(Campaign, pk=campaign_id)
    characters = selectors.characters_of(user=request.user)
    status = 200
    if request.method == "POST" and ascii_int(request.POST.get("character", "")) is None:
        messages.error(request, _("Choose one of your characters."))
        status = 400
    elif request.method == "POST":
        character = get_object_or_404(Character, pk=request.POST["character"], owner=request.user)
        try:
            m = services.membership_request(campaign=campaign, character=character, token=token)
        except ApplicationError as exc:
            messages.error(request, exc.for_person())
        else:
            messages.success(request, _("You have joined the campaign.") if m.status == Membership.Status.ACTIVE
                             else _("Request sent: the game master will assign your side."))
            return HttpResponseRedirect(reverse("campaign-detail", args=[campaign.pk]))
    return render(request, "campaign/join.html", {"campaign": campaign, "characters": characters, "token": token,
                                                  "archived": campaign.status == CampaignStatus.FINISHED},
                  status=status)


def signup(request):
    """A visitor signs up as a player (then creates a character and joins)."""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = services.player_signup(form=form)
        login(request, user, backend="config.authentication.SessionUserBackend")  # just signed up
        messages.success(request, _("Welcome! Create your character, then join a campaign."))
        return HttpResponseRedirect(reverse("my-characters"))
    return render(request, "registration/signup.html", {"form": form})
